"""`sampyong fit`: the statistics read from records equal those of the play that wrote them, the
search plays every trial on common deals, the hands a trial plays follow from the pilot's
standard errors, restarts keep the best, the report says what it found; and on the Pluribus
records (slow) the fit from every start lands within the tolerances."""

from __future__ import annotations

import dataclasses
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import sampyong as sy
from engine import fit as fitting
from engine.betting import NO_LIMIT, POT_LIMIT, default_betting
from engine.fit import (
    PREFLOP_TARGETS,
    RATIOS,
    REPORTED,
    TARGETS,
    TOLERANCE,
    Figures,
    Records,
    distance,
    figures_of,
    hand_counts,
    hands_needed,
    play_figures,
    ratio_se,
    read_records,
    scales,
)
from engine.phh import dumps_many
from engine.policy import Postflop, builtin, parse_policy
from engine.records import STATS
from engine.table import Table
from engine.tune import Deals
from evaluator.errors import SampyongError
from evaluator.games import game
from tests.helpers import ranking

HANDS = Path(__file__).resolve().parents[2] / "shared" / "data" / "hands"
RANDOM_LEGAL = """name = "random-legal"
style = "random-legal"
[random]
fold = 0.2
check_call = 0.45
bet_raise = 0.35
"""
BLUFFER = dataclasses.replace(
    builtin("regular"),
    name="bluffer",
    postflop=Postflop(
        bet=0.7, bluff=0.3, bluff_river=0.4, call_factor=1.5, call_factor_river=2.5, bet_turn=0.75, bet_size=0.8
    ),
)


def same(a: Figures, b: Figures) -> bool:
    """Equal figures, a ratio of nothing (NaN) equal to another."""

    def plain(figures):
        return (
            {k: None if math.isnan(v) else v for k, v in figures.values.items()},
            {k: None if math.isnan(v) else v for k, v in figures.se.items()},
            figures.hands,
            figures.seat_vpip,
            figures.seat_pfr,
        )

    return plain(a) == plain(b)


def table_of(rules, policies, seats) -> Records:
    """A ``Records`` standing for a table of ``rules`` at 100 big blinds (its figures unused)."""
    return Records(None, rules, default_betting(rules), seats, 100.0, 0)


@pytest.mark.parametrize(
    "name, policies, seats",
    [
        ("holdem", ("regular", "loose", "tight", "station", "pro-like", "bluffer"), 6),
        ("pls7", ("random-legal",) * 4, 4),
        ("plo8", ("bluffer", "tight", "random-legal", "loose", "station"), 5),
    ],
)
def test_records_give_the_statistics_of_the_play_that_wrote_them(tmp_path, name, policies, seats):
    """The same deals played by the fast engine and, through the reference engine, written as PHH
    and read back: every statistic, its standard error and each seat's VPIP and PFR are the same."""
    (tmp_path / "random.toml").write_text(RANDOM_LEGAL)
    chosen = tuple(
        BLUFFER if p == "bluffer" else parse_policy(RANDOM_LEGAL) if p == "random-legal" else builtin(p)
        for p in policies
    )
    rules = game(name)
    table = Table(rules, default_betting(rules), chosen, (120,) * seats)
    hands = 400
    deals = Deals.dealt(rules, seats, hands, 5, ranking(rules))
    fast = play_figures(table, deals)
    written = [table.play_hand(deals.cards[i], deals.keys[i], deals.ranking) for i in range(hands)]
    (tmp_path / "hands.phhs").write_text(dumps_many(written))
    read = read_records([tmp_path / "hands.phhs"])
    assert read.game == rules and read.seats == seats and read.stack_bb == 60 and read.betting == table.betting
    assert same(read.figures, fast)
    assert 0 < fast["vpip"] < 1 and 0 < fast["pfr"] < 1 and 0 < fast["flop"] <= 1 and fast["af_flop"] > 0


def test_ratio_se_is_the_delta_method_and_the_binomial_for_shares():
    """A share's error is the binomial sqrt(p(1-p)/n); a ratio's is the delta method's, checked
    against a bootstrap of the hands (within 10 %)."""
    rng = np.random.default_rng(4)
    hits = (rng.random(5000) < 0.3).astype(int)
    share, se = ratio_se(hits, np.ones(5000, int))
    assert se == pytest.approx(math.sqrt(share * (1 - share) / 5000))
    top, bottom = rng.poisson(2.0, 3000), rng.poisson(1.0, 3000)
    ratio, se = ratio_se(top, bottom)
    picks = rng.integers(0, 3000, (2000, 3000))
    boot = top[picks].sum(1) / bottom[picks].sum(1)
    assert ratio == top.sum() / bottom.sum() and se == pytest.approx(boot.std(), rel=0.1)
    assert all(math.isnan(x) for x in ratio_se(np.zeros(3, int), np.zeros(3, int)))


def test_every_statistic_counts_what_it_says():
    """Three hands counted by hand: one folded round preflop, one heads-up flop won by a bet, one
    three-way showdown after a three-bet."""
    stats = np.zeros((3, 3, len(STATS)), int)
    col = {name: STATS.index(name) for name in STATS}
    stats[1, 0, [col["vpip"], col["pfr"], col["flop"], col["aggressive"], col["aggressive_flop"]]] = 1
    stats[1, 1, [col["vpip"], col["flop"]]] = 1
    for seat in range(3):
        stats[2, seat, [col["vpip"], col["flop"], col["showdown"], col["three_bet_chance"]]] = 1
    stats[2, 2, col["three_bet"]] = stats[2, 2, col["pfr"]] = stats[2, 0, col["pfr"]] = 1
    stats[2, 1, [col["aggressive_river"], col["aggressive"]]] = 1
    stats[2, 0, [col["calls_river"], col["calls"]]] = 1
    figures = figures_of(
        hand_counts(np.array([0, 1, 4]), np.array([[3, 0, 0, 0, 0], [3, 2, 0, 0, 0], [3, 3, 3, 3, 3]]), stats), stats
    )
    assert (
        figures["flop"] == pytest.approx(2 / 3)
        and figures["players"] == 2.5
        and figures["showdown"] == pytest.approx(1 / 3)
    )
    assert figures["vpip"] == pytest.approx(5 / 9) and figures["pfr"] == pytest.approx(3 / 9)
    assert (
        figures["three_bet"] == pytest.approx(1 / 3) and figures["af_river"] == 1.0 and math.isnan(figures["af_flop"])
    )
    assert figures["wtsd"] == pytest.approx(3 / 5) and figures.seat_vpip == (2 / 3, 2 / 3, 1 / 3)
    assert set(RATIOS) == set(REPORTED) and set(TARGETS) <= set(TOLERANCE)


def test_common_deals_make_identical_trials_identical():
    """Common random numbers: the same policy on the same deals gives the same statistics, to the
    bit, however often it is played; other deals give others; a search's first trial is its start
    played on the search's deals."""
    rules = game("holdem")
    deals = Deals.dealt(rules, 6, 2000, (1, 0), ranking(rules))
    table = table_of(rules, None, 6).table(builtin("loose"))
    first, second = play_figures(table, deals), play_figures(table, deals)
    assert first == second
    assert play_figures(table, Deals.dealt(rules, 6, 2000, (1, 1), ranking(rules))) != first
    records = dataclasses.replace(
        table_of(rules, None, 6), figures=play_figures(table_of(rules, None, 6).table(builtin("tight")), deals)
    )
    scale = {t: TOLERANCE[t] for t in TARGETS}
    found = fitting.search(records, builtin("loose"), deals, scale, trials=12, seed=1)
    assert found.history[0] == distance(first, records.figures, scale)
    assert list(found.history) == sorted(found.history, reverse=True) and found.history[-1] == found.distance
    assert found.distance == distance(
        play_figures(table_of(rules, None, 6).table(found.policy), deals), records.figures, scale
    )


def test_preflop_statistics_do_not_read_the_postflop_play():
    """A policy played with one strength sample (the search's preflop stage) shows exactly the preflop
    statistics it shows with its own samples, whatever its postflop knobs."""
    rules = game("holdem")
    deals = Deals.dealt(rules, 6, 1500, 9, ranking(rules))
    for policy in (builtin("regular"), BLUFFER, builtin("station")):
        table = table_of(rules, None, 6)
        full, quick = (
            play_figures(table.table(policy), deals),
            play_figures(table.table(fitting._preflop_only(policy)), deals),
        )
        assert [full[t] for t in PREFLOP_TARGETS] == [quick[t] for t in PREFLOP_TARGETS]


def test_hands_needed_puts_each_error_below_a_quarter_of_its_tolerance():
    """From a pilot's standard errors: the hands chosen put every target's error at most a quarter of
    its tolerance, a thousand fewer would not, and the bounds hold; checked on real play too."""
    se = {name: 0.0 for name in RATIOS}
    se.update(flop=0.02, players=0.05, af_river=0.4)
    pilot = Figures({name: 0.5 for name in RATIOS}, se, 4000)
    hands = hands_needed([pilot])
    shrunk = lambda n, t: pilot.se[t] * math.sqrt(pilot.hands / n)  # noqa: E731
    assert all(shrunk(hands, t) <= TOLERANCE[t] / 4 for t in TARGETS)
    assert any(shrunk(hands - 1000, t) > TOLERANCE[t] / 4 for t in TARGETS)
    assert hands_needed([dataclasses.replace(pilot, se={**se, "flop": 1.0})]) == fitting.HANDS_AT_MOST
    assert hands_needed([dataclasses.replace(pilot, se={name: 0.0 for name in RATIOS})]) == fitting.HANDS_AT_LEAST
    rules = game("holdem")
    table = table_of(rules, None, 6).table(builtin("loose"))
    real = play_figures(table, Deals.dealt(rules, 6, 3000, 2, ranking(rules)))
    need = hands_needed([real])
    check = play_figures(table, Deals.dealt(rules, 6, need, 3, ranking(rules)))
    assert all(check.se[t] <= 1.15 * TOLERANCE[t] / 4 for t in TARGETS), {t: check.se[t] for t in TARGETS}


def test_scales_and_distance():
    """A miss is counted in standard errors of the difference (the records' and a trial's); a figure
    the play cannot show costs ``MISSING``."""
    target = Figures({"flop": 0.5, "af_river": 2.0, "vpip": 0.3}, {"flop": 0.006, "af_river": 0.2, "vpip": 0.03}, 1000)
    trial = Figures(
        {"flop": 0.56, "af_river": math.nan, "vpip": 0.3}, {"flop": 0.016, "af_river": math.nan, "vpip": 0.0}, 4000
    )
    scale = scales(target, trial, 16000, ("flop", "af_river", "vpip"))
    assert scale["flop"] == pytest.approx(math.hypot(0.006, 0.008)) and scale["af_river"] == 0.2
    assert scale["vpip"] == TOLERANCE["vpip"] / 2  # the records' 3 points are wider than half the tolerance
    assert distance(trial, target, scale, ("flop",)) == pytest.approx((0.06 / scale["flop"]) ** 2)
    assert distance(trial, target, scale, ("flop", "af_river")) == pytest.approx(
        (0.06 / scale["flop"]) ** 2 + fitting.MISSING
    )


def tight_records(tmp_path, count=2000) -> Path:
    rules = game("holdem")
    table = Table.from_options(rules, 6, policy="tight")
    deals = Deals.dealt(rules, 6, count, 11, ranking(rules))
    path = tmp_path / "tight.phhs"
    path.write_text(dumps_many([table.play_hand(deals.cards[i], deals.keys[i], deals.ranking) for i in range(count)]))
    return path


def test_restarts_keep_the_best_and_the_report_says_so(tmp_path):
    """Two starts on records of `tight`: the fit keeps the start with the smallest distance, its
    policy and figures; the report gives the verdict, every start and the figure; `save` writes
    every file whole; the TOML reads back."""
    fitted = sy.fit(tight_records(tmp_path), start="station,regular", hands=3000, trials=40, seed=2)
    distances = {s.start: s.distance for s in fitted.fitted.searches}
    assert fitted.fitted.best.start == min(distances, key=distances.get) and len(distances) == 2
    assert (
        fitted.policy.preflop == fitted.fitted.best.policy.preflop
        and fitted.reached == fitted.fitted.checks[fitted.fitted.best.start]
    )
    assert all(len(s.history) == s.trials and s.history[-1] == s.distance for s in fitted.fitted.searches)
    report = fitted.report()
    assert (
        "**Verdict: " in report and "| station |" in report and "| regular |" in report and "convergence.png" in report
    )
    folder = fitted.save(tmp_path / "report")
    assert sorted(p.name for p in folder.iterdir()) == [
        "convergence.png",
        "fit.csv",
        "fitted-from-regular.toml",
        "fitted-from-station.toml",
        "fitted.toml",
        "report.md",
        "starts.csv",
    ]
    assert parse_policy((folder / "fitted.toml").read_text()).postflop == fitted.policy.postflop
    assert fitted.frame["figure"].to_list()[: len(TARGETS)] == list(TARGETS)


def test_the_verdict_says_which_statistic_misses_and_by_how_much():
    """Residuals within every tolerance: within; one outside: named, with its miss in points and in
    tolerances; starts agree when their figures are within the tolerances of each other."""
    values = {name: 0.3 for name in RATIOS}
    se = {name: 0.01 for name in RATIOS}
    target = Figures(values, se, 1000)
    near = Figures({**values, "flop": 0.315}, se, 4000)
    far = Figures({**values, "flop": 0.35}, se, 4000)
    records = Records(target, game("holdem"), NO_LIMIT, 6, 100.0, 0)
    search = lambda name, d: fitting.Search(name, builtin(name), near, d, (d,), "")  # noqa: E731
    fitted = fitting.Fitted(
        records, 1000, {}, (search("tight", 3.0), search("loose", 5.0)), {"tight": near, "loose": far}, TARGETS
    )
    result = sy.Fit(fitted)
    assert result.verdict().startswith("within tolerance") and fitted.within()
    assert not fitted.within("loose") and not result.agree() and result.agreement()["flop"] == pytest.approx(0.035)
    assert result.agree(["vpip", "pfr"]) and "but on flop seen (+3.5 pp apart)" in result.report()
    worse = sy.Fit(dataclasses.replace(fitted, checks={"tight": far, "loose": far}))
    assert worse.verdict() == "not within tolerance: flop seen misses by +5.0 pp (2.5 tolerances)"


def test_a_fit_to_a_known_policys_records_finds_its_figures(tmp_path):
    """Records of `tight` six-handed hold'em, fitted from `regular`: the fitted policy lands within the
    tolerances of the records on every target, on fresh deals."""
    fitted = sy.fit(tight_records(tmp_path, 3000), start="regular", trials=300, seed=3)
    misses = {r["figure"]: r["residual"] for r in fitted.fitted.residuals() if not r["within"] and r["fitted_to"]}
    assert not misses, (misses, fitted.report())


def test_fit_of_another_game_plays_that_game(tmp_path):
    """Records of PLS7 (random-legal seats) fit a PLS7 policy at the records' table, pot-limit."""
    (tmp_path / "random.toml").write_text(RANDOM_LEGAL)
    rules = game("pls7")
    table = Table.from_options(rules, 3, policy=str(tmp_path / "random.toml"))
    deals = Deals.dealt(rules, 3, 250, 2, ranking(rules))
    (tmp_path / "pls7.phhs").write_text(
        dumps_many([table.play_hand(deals.cards[i], deals.keys[i], deals.ranking) for i in range(250)])
    )
    lines = []
    fitted = sy.fit(tmp_path / "pls7.phhs", start="loose", hands=1000, trials=10, targets="vpip,flop", log=lines.append)
    assert lines[0].startswith("records: 250 hands of pls7, 3 players, 100 big blinds")
    assert fitted.targets == ("vpip", "flop") and fitted.fitted.records.betting == POT_LIMIT
    assert "fitted to 250 records of pls7" in fitted.policy.description


@pytest.mark.parametrize(
    "count, options, message",
    [
        (150, [], "150 usable records of holdem: fitting needs at least 200"),
        (250, ["--game", "plo"], "0 usable records of plo: fitting needs at least 200"),
        (250, ["--targets", "vpip,luck"], "unknown target 'luck'"),
        (250, ["--start", "showdown"], "policy showdown is check-call: a fit starts from a thresholds policy"),
        (250, ["--trials", "3"], "a fit needs at least 10 trials a start, not 3"),
        (250, ["--targets", "players"], "the records show none of players"),
    ],
)
def test_fit_refuses_bad_input_one_line_exit_2(tmp_path, count, options, message):
    """Too few usable records (of the game asked for), an unknown target, a start that is not a
    thresholds policy, too few trials, or only statistics the records cannot show: one line, exit 2,
    no report written."""
    from sampyong.examples import _example_records

    records = _example_records(count)
    result = subprocess.run(
        [sys.executable, "-m", "sampyong", "fit", str(records), "--out", str(tmp_path / "out"), *options],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 2 and message in result.stderr, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and result.stdout == "" and not (tmp_path / "out").exists()
    with pytest.raises(SampyongError):
        sy.fit(
            records, **{o.lstrip("-"): int(v) if o == "--trials" else v for o, v in zip(options[::2], options[1::2])}
        )


def test_fit_from_the_command_line_prints_the_policy_and_writes_the_report(tmp_path):
    """`sampyong fit` prints the policy (TOML) on stdout and writes the report folder; stderr has the
    records, the hands a trial and the verdict."""
    out = tmp_path / "report"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "sampyong",
            "fit",
            str(tight_records(tmp_path, 400)),
            "--start",
            "regular",
            "--trials",
            "10",
            "--hands",
            "1000",
            "--name",
            "mine",
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr
    assert parse_policy(result.stdout).name == "mine" and "# fitted to 400 records" in result.stdout
    assert (
        result.stderr.startswith("records: 400 hands of holdem, 6 players")
        and "1,000 hands a trial (given)" in result.stderr
    )
    assert (
        "best from regular: " in result.stderr
        and (out / "report.md").is_file()
        and (out / "mine-from-regular.toml").is_file()
    )


@pytest.mark.untraced
def test_fit_by_position_finds_each_seats_preflop_play(tmp_path):
    """Records of a table of different players (tight, loose, regular, station, regular, tight),
    fitted by position: every seat's fitted VPIP and PFR are within 1.5 points of that seat's in
    the records, the station seat is fitted to limp, the loose seats play more hands than the
    tight ones, and `sampyong fit --positions DIR` writes one policy per seat that `policies` reads."""
    rules = game("holdem")
    table = Table.from_options(rules, 6, policy="tight,loose,regular,station,regular,tight")
    deals = Deals.dealt(rules, 6, 3000, 13, ranking(rules))
    (tmp_path / "mixed.phhs").write_text(
        dumps_many([table.play_hand(deals.cards[i], deals.keys[i], deals.ranking) for i in range(3000)])
    )
    fitted = sy.fit(tmp_path / "mixed.phhs", start="regular", hands=1000, trials=10, seed=3, positions=True)
    assert len(fitted.seats) == 6 and [p.name for p in fitted.seats] == [f"fitted-seat{s}" for s in range(6)]
    frame = fitted.seat_frame
    assert frame.height == 12 and (frame["residual"].abs() < 0.015).all(), frame
    vpip = dict(frame.filter(frame["figure"] == "vpip").select("seat", "records").rows())
    assert vpip[3] > vpip[1] > vpip[2] > vpip[0]  # station > loose > regular > tight, in the records
    assert fitted.seats[3].preflop.limp and not fitted.seats[0].preflop.limp
    played = dict(frame.filter(frame["figure"] == "vpip").select("seat", "fitted").rows())
    assert played[1] > max(played[0], played[5]) + 0.1  # the loose seat plays more hands than the tight ones
    out = tmp_path / "seats"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "sampyong",
            "fit",
            str(tmp_path / "mixed.phhs"),
            "--start",
            "regular",
            "--hands",
            "1000",
            "--trials",
            "10",
            "--positions",
            str(out),
            "--out",
            str(tmp_path / "report"),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in out.iterdir()) == [f"fitted-seat{s}.toml" for s in range(6)]
    assert parse_policy((out / "fitted-seat3.toml").read_text()).name == "fitted-seat3"
    assert "play them: --policy " in result.stderr and "seat 3 vpip: records" in result.stderr


DONE_WHEN = ("flop", "showdown", "vpip", "pfr", "players")  # the issue's: within 2 points, 0.1 players


@pytest.mark.slow(minutes=2)
@pytest.mark.skipif(not HANDS.is_dir(), reason="../shared/data/hands is not beside this checkout")
def test_the_pluribus_fit_lands_from_every_start(ci_size):
    """The issue's done-when: `sampyong fit` of the Pluribus records (hold'em, six players), the
    default search from tight, loose, regular and station, lands from each start within 2 points of
    the records on the flop seen, showdowns, VPIP and PFR and within 0.1 players at the flop, on
    fresh deals, and the fits agree with each other within the same tolerances (``--full-size``:
    about 12 minutes on two cores). At CI size, the search from station alone (the start farthest
    from the records) with 1,000 trials instead of the default 2,400: about 2 minutes. It lands on
    these five figures; the river's aggression, which the done-when leaves out, needs the rest."""
    full = ci_size(full=1, ci=0)
    fitted = sy.fit(HANDS / "pluribus", start=None if full else "station", trials=2400 if full else 1000)
    assert len(fitted.fitted.searches) == (4 if full else 1)
    for search in fitted.fitted.searches:
        assert fitted.fitted.within(search.start, DONE_WHEN), (search.start, fitted.report())
    if full:
        assert fitted.agree(DONE_WHEN), fitted.agreement(DONE_WHEN)
