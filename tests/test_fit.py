"""`sampyong fit` for any game: the figures read from records equal the figures of the play that
wrote them, and a fit to a known policy's records comes back to that policy's figures."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import sampyong as sy
from engine.fit import TARGETS, play_figures, played_figures, record_figures
from engine.phh import dumps_many
from engine.player import deal_hands
from engine.policy import builtin, parse_policy
from engine.table import Table
from evaluator.errors import SampyongError
from evaluator.games import game
from tests.helpers import ranking

RANDOM_LEGAL = """name = "random-legal"
style = "random-legal"
[random]
fold = 0.2
check_call = 0.45
bet_raise = 0.35
"""


@pytest.mark.parametrize("name, policy, players", [
    ("holdem", "regular,loose,tight,station,pro-like,regular", 6),
    ("pls7", "random-legal", 4),
    ("plo8", "random-legal", 5),
])
def test_records_give_the_figures_of_the_play_that_wrote_them(tmp_path, name, policy, players):
    """The same deals played by the fast engine and, through the reference engine, written as PHH
    and read back: every figure (VPIP, PFR, flop, players, WTSD, AF, showdown) is the same."""
    if policy == "random-legal":
        (tmp_path / "random.toml").write_text(RANDOM_LEGAL)
        policy = str(tmp_path / "random.toml")
    rules = game(name)
    table = Table.from_options(rules, players, policy=policy, stacks="60bb")
    hands = 400
    cards, keys = deal_hands(np.random.default_rng(5), hands, players, rules)
    ranks = ranking(rules) if table.needs_ranking else None
    seat_ranks = (ranks.ranks(cards[:, : players * rules.hole_cards].reshape(hands, players, -1)) if ranks is not None
                  else np.full((hands, players), 0.5))
    fast = played_figures(table.play(cards, keys, seat_ranks, keep_actions=True))
    written = [table.play_hand(cards[i], keys[i], ranks if ranks is not None else (lambda hole: 0.5)) for i in range(hands)]
    (tmp_path / "hands.phhs").write_text(dumps_many(written))
    read, rules_read, seats = record_figures([tmp_path / "hands.phhs"])
    assert rules_read == rules and seats == players and read == fast
    assert 0 < read.vpip < 1 and 0 < read.pfr < 1 and 0 < read.flop <= 1 and read.af > 0 and 0 < read.wtsd <= 1


def test_a_fit_to_a_known_policys_records_finds_its_figures(tmp_path):
    """Records of `tight` six-handed hold'em, fitted from `regular`: the fitted policy's VPIP, PFR,
    flop, WTSD (within 1.5 points), players at the flop (0.05) and AF (0.15) are the records'."""
    rules = game("holdem")
    table = Table.from_options(rules, 6, policy="tight")
    ranks = ranking(rules)
    cards, keys = deal_hands(np.random.default_rng(11), 3000, 6, rules)
    (tmp_path / "tight.phhs").write_text(dumps_many([table.play_hand(cards[i], keys[i], ranks) for i in range(3000)]))
    fitted = sy.fit(tmp_path / "tight.phhs", start="regular", hands=3000, rounds=4, seed=3)
    truth = play_figures(rules, builtin("tight"), 6, 3000, 3, ranks)
    reached = fitted.reached
    for figure in ("vpip", "pfr", "flop", "wtsd"):
        assert abs(getattr(reached, figure) - getattr(fitted.target, figure)) < 0.015, figure
        assert abs(getattr(truth, figure) - getattr(fitted.target, figure)) < 0.03, figure  # the two samples agree
    assert abs(reached.players - fitted.target.players) < 0.05 and abs(reached.af - fitted.target.af) < 0.15
    assert fitted.frame["figure"].to_list() == list(TARGETS)
    assert parse_policy(fitted.toml).name == "fitted"


def test_fit_of_another_game_plays_that_game(tmp_path):
    """Records of PLS7 (random-legal seats) fit a PLS7 policy at the records' table size."""
    (tmp_path / "random.toml").write_text(RANDOM_LEGAL)
    rules = game("pls7")
    table = Table.from_options(rules, 3, policy=str(tmp_path / "random.toml"))
    cards, keys = deal_hands(np.random.default_rng(2), 250, 3, rules)
    (tmp_path / "pls7.phhs").write_text(dumps_many([table.play_hand(cards[i], keys[i], lambda hole: 0.5) for i in range(250)]))
    lines = []
    fitted = sy.fit(tmp_path / "pls7.phhs", hands=300, rounds=1, targets="vpip,flop", log=lines.append)
    assert lines[0].startswith("records: 250 hands of pls7, 3 players")
    assert fitted.frame["figure"].to_list() == ["vpip", "flop"] and "fitted to 250 records of pls7" in fitted.policy.description


@pytest.mark.parametrize("count, options, message", [
    (150, [], "150 usable records of holdem: fitting needs at least 200"),
    (250, ["--game", "plo"], "0 usable records of plo: fitting needs at least 200"),
    (250, ["--targets", "vpip,luck"], "unknown target 'luck'"),
])
def test_fit_refuses_too_few_records_one_line_exit_2(tmp_path, count, options, message):
    """Too few usable records (of the game asked for) or an unknown target: one line, exit 2."""
    from sampyong.api import _example_records

    records = _example_records(count)
    result = subprocess.run([sys.executable, "-m", "sampyong", "fit", str(records), *options], capture_output=True,
                            text=True, timeout=300)
    assert result.returncode == 2 and message in result.stderr, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and result.stdout == ""
    with pytest.raises(SampyongError):
        sy.fit(records, **{o.lstrip("-"): v for o, v in zip(options[::2], options[1::2])})


def test_fit_by_position_finds_each_seats_preflop_play(tmp_path):
    """Records of a table of different players (tight, loose, regular, station, regular, tight),
    fitted by position: every seat's fitted VPIP and PFR are within 1.5 points of that seat's in
    the records, the station seat is fitted to limp, the loose seats play more hands than the
    tight ones, and `sampyong fit --positions DIR` writes one policy per seat that `policies` reads."""
    rules = game("holdem")
    table = Table.from_options(rules, 6, policy="tight,loose,regular,station,regular,tight")
    ranks = ranking(rules)
    cards, keys = deal_hands(np.random.default_rng(13), 3000, 6, rules)
    (tmp_path / "mixed.phhs").write_text(dumps_many([table.play_hand(cards[i], keys[i], ranks) for i in range(3000)]))
    fitted = sy.fit(tmp_path / "mixed.phhs", hands=1000, rounds=4, seed=3, positions=True)
    assert len(fitted.seats) == 6 and [p.name for p in fitted.seats] == [f"fitted-seat{s}" for s in range(6)]
    frame = fitted.seat_frame
    assert frame.height == 12 and (frame["residual"].abs() < 0.015).all(), frame
    vpip = dict(frame.filter(frame["figure"] == "vpip").select("seat", "records").rows())
    assert vpip[3] > vpip[1] > vpip[2] > vpip[0]  # station > loose > regular > tight, in the records
    assert fitted.seats[3].preflop.limp and not fitted.seats[0].preflop.limp
    assert fitted.seats[1].preflop.open_early > fitted.seats[0].preflop.open_early
    out = tmp_path / "seats"
    result = subprocess.run([sys.executable, "-m", "sampyong", "fit", str(tmp_path / "mixed.phhs"), "--hands", "300",
                             "--rounds", "1", "--positions", str(out)], capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in out.iterdir()) == [f"fitted-seat{s}.toml" for s in range(6)]
    assert parse_policy((out / "fitted-seat3.toml").read_text()).name == "fitted-seat3"
    assert "play them: --policy " in result.stderr and "seat 3 vpip: records" in result.stderr
    refused = subprocess.run([sys.executable, "-m", "sampyong", "fit", str(tmp_path / "mixed.phhs"), "--players", "4",
                              "--positions", str(tmp_path / "other")], capture_output=True, text=True, timeout=600)
    assert refused.returncode == 2 and "by position" in refused.stderr and not (tmp_path / "other").exists()
