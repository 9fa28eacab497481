"""The showdown job: its kernel against a plain-Python count, every published column against
the reference evaluator end to end, standard errors against the spread over shards, and RULES
section 9 figures."""

# Every column the showdown study publishes (jobs/showdown.py: run_shard counts, summarize
# tables) and the independent value each is checked against (tests in this file):
#
# summary (one row per game and k = players)
#   game, players, deals   the game's name from games.py, k = 2..P, the number of rows dealt
#                          -> test_summary_columns_equal_the_reference_end_to_end
#   hi_chop, low_exists, low_tie (of the deals with a low), scoop, quartered, hilo_split
#                          -> a count over the run's own deals with the reference evaluator and
#                             RULES section 6 in exact fractions, through unequal shards and the
#                             pipeline's sums: test_summary_columns_equal_the_reference_end_to_end
#                             (pls7; pls7[ranking=both,low=8]; holdem); the kernel's counts:
#                             test_kernel_counts_equal_plain_python, test_hilo_split_equals_a_brute_force;
#                             RULES section 9: hi_chop ~7.05 % / ~8.20 % and low_exists ~70 % in
#                             test_pls7_six_players_match_the_rule_book, test_variants_match_the_rule_book
#   each *_se              the binomial formula per deal on the reference's count
#                          -> test_summary_columns_equal_the_reference_end_to_end; the empirical
#                             spread of 64 shards' own rates -> test_standard_errors_match_the_spread_over_shards
# categories (one row per game, k and category)
#   game, players, category  -> test_category_columns_equal_the_reference_end_to_end (order:
#                             strongest first in the game's ranking)
#   best, present          share of the k hands, from the reference's best category and present
#                          set per hand -> test_category_columns_equal_the_reference_end_to_end;
#                          present against RULES section 9 (trips, straight, flush, skip) ->
#                          test_pls7_six_players_match_the_rule_book
#   best_se, present_se    the standard error of the per-deal count over k (the deal is the unit:
#                          its hands share a board), from the reference ->
#                          test_category_columns_equal_the_reference_end_to_end; the spread of
#                          64 shards -> test_standard_errors_match_the_spread_over_shards
#   win, win_se            the reference's winning high category per deal, binomial SE per deal
#                          -> test_category_columns_equal_the_reference_end_to_end,
#                          test_standard_errors_match_the_spread_over_shards
# The variants study's rows for each variant equal these tables (tests/test_variants.py), and
# tests/test_distribution.py checks hold'em present shares against the exact distribution.

import dataclasses
import math
import statistics
from fractions import Fraction

import numpy as np
import polars as pl
import pytest
from typer.testing import CliRunner

from evaluator import reference
from evaluator.deal import deal_cards, split_deal
from evaluator.games import Category, game
from jobs import STUDIES, showdown
from jobs.common import game_of
from jobs.showdown import CATEGORY_FIELDS, N_CATEGORIES, NO_JOINT, NO_OUTCOMES, SUMMARY_FIELDS, showdown_counts
from pipeline import runner
from pipeline.backends import SerialBackend
from pipeline.plan import RunConfig
from pipeline.store import RunStore
from sampyong import cli
from tests.helpers import execute


def _plain_counts(g, hole, board, players):
    """Summary and per-category counts (CATEGORY_FIELDS) from the reference evaluator and the
    rule book's definitions."""
    summary = np.zeros((players + 1, len(SUMMARY_FIELDS)), np.int64)
    per_category = np.zeros((players + 1, len(CATEGORY_FIELDS), N_CATEGORIES), np.int64)
    for h, b in zip(hole.tolist(), board.tolist()):
        shows = [reference.showdown(g, h[p], b) for p in range(players)]
        for k in range(2, players + 1):
            for c in range(N_CATEGORIES):
                best = sum(s.high.category == c for s in shows[:k])
                present = sum(c in s.present for s in shows[:k])
                per_category[k, :4, c] += [best, best * best, present, present * present]
            winner = max(shows[:k], key=lambda s: s.high.strength)
            per_category[k, 4, winner.high.category] += 1
            highs = [s.high.strength for s in shows[:k]]
            lows = [s.low.strength if s.low else 0 for s in shows[:k]]
            top_h, top_l = max(highs), max(lows)
            hw = [i for i in range(k) if highs[i] == top_h]
            lw = [i for i in range(k) if top_l and lows[i] == top_l]
            if lw:
                shares = [(i in hw) / (2 * len(hw)) + (i in lw) / (2 * len(lw)) for i in range(k)]
            else:
                shares = [(i in hw) / len(hw) for i in range(k)]
            summary[k] += [len(hw) > 1, bool(lw), len(lw) > 1, max(shares) == 1, 0.25 in shares, bool(lw) and lw != hw]
    return summary, per_category


@pytest.mark.untraced
@pytest.mark.parametrize("name", ["pls7", "plo8"])
def test_kernel_counts_equal_plain_python(name):
    """On 800 deals of 5 hands the numba counts (rates, and the per-deal category counts and
    their squares behind the standard errors) equal a plain count from the reference."""
    g = game(name)
    players = 5
    cards = deal_cards(np.random.default_rng(1), 800, players * g.hole_cards + 5)
    hole, board = split_deal(cards, players, g.hole_cards)
    from evaluator.fast import FastEvaluator

    fast = FastEvaluator(g)
    high, low, present = fast.high_low_present(hole, board)
    summary = np.zeros((players + 1, len(SUMMARY_FIELDS)), np.int64)
    per_category = np.zeros((players + 1, len(CATEGORY_FIELDS), N_CATEGORIES), np.int64)
    showdown_counts(
        high, low, fast.tables.category_of_position, present, summary, per_category, NO_OUTCOMES, 0, NO_JOINT
    )
    plain_summary, plain_per_category = _plain_counts(g, hole, board, players)
    assert np.array_equal(summary, plain_summary)
    assert np.array_equal(per_category, plain_per_category)
    assert (per_category[2:, 4].sum(axis=1) == 800).all()  # one winning category per deal


@pytest.mark.untraced
@pytest.mark.parametrize("name, low", [("pls7", None), ("pls7", "8"), ("plo8", None)])
def test_hilo_split_equals_a_brute_force(name, low):
    """hilo_split, counted per deal by the kernel, equals a brute force over 1,500 deals of 4
    hands with the reference evaluator: a low exists and the players sharing the low half are
    not exactly those sharing the high half. Deal by deal, 1 - scoop = hilo_split + pure high
    chops (high tied, the low if any shared by the same players), and (1 - scoop) - hi_chop
    falls short of hilo_split by the deals with a tied high and a low going to others."""
    g = game(name).variant(low=low) if low else game(name)
    players, deals = 4, 1500
    cards = deal_cards(np.random.default_rng(5), deals, players * g.hole_cards + 5)
    hole, board = split_deal(cards, players, g.hole_cards)
    from evaluator.fast import FastEvaluator

    fast = FastEvaluator(g)
    high, low_, present = fast.high_low_present(hole, board)
    summary = np.zeros((players + 1, len(SUMMARY_FIELDS)), np.int64)
    per_category = np.zeros((players + 1, len(CATEGORY_FIELDS), N_CATEGORIES), np.int64)
    showdown_counts(
        high, low_, fast.tables.category_of_position, present, summary, per_category, NO_OUTCOMES, 0, NO_JOINT
    )
    split = np.zeros(players + 1, np.int64)
    pure_chop = np.zeros(players + 1, np.int64)
    chop_and_split = np.zeros(players + 1, np.int64)
    for h, b in zip(hole.tolist(), board.tolist()):
        shows = [reference.showdown(g, h[p], b) for p in range(players)]
        for k in range(2, players + 1):
            highs = [s.high.strength for s in shows[:k]]
            lows = [s.low.strength if s.low else 0 for s in shows[:k]]
            high_winners = {i for i in range(k) if highs[i] == max(highs)}
            low_winners = {i for i in range(k) if max(lows) and lows[i] == max(lows)}
            splits = bool(low_winners) and low_winners != high_winners
            split[k] += splits
            pure_chop[k] += len(high_winners) > 1 and not splits
            chop_and_split[k] += len(high_winners) > 1 and splits
    column = {f: summary[2:, i] for i, f in enumerate(SUMMARY_FIELDS)}
    assert np.array_equal(column["hilo_split"], split[2:])
    assert np.array_equal(deals - column["scoop"], column["hilo_split"] + pure_chop[2:])
    assert np.array_equal(deals - column["scoop"] - column["hi_chop"], column["hilo_split"] - chop_and_split[2:])
    assert (split[2:] > 0).all() and (chop_and_split[2:] > 0).all()


def _row(run_dir, table, players, category=None):
    frame = pl.read_parquet(run_dir / "tables" / f"{table}.parquet").filter(pl.col("players") == players)
    if category:
        frame = frame.filter(pl.col("category") == category)
    return frame.row(0, named=True)


def _close(measured, se, published, decimals):
    """Within 3 standard errors of a published figure, allowing for its rounding."""
    return abs(measured - published) <= 3 * se + 0.5 * 10 ** (-decimals)


def test_pls7_six_players_match_the_rule_book(tmp_path):
    """PLS7 at 6 players: hi_chop ~7.05 %, trips ~12.0 %, straight ~9.8 %, flush ~6.89 %, skip ~6.39 %."""
    config = RunConfig(job="showdown", game="pls7", deals=2_000_000, shard_deals=500_000, players=6, seed=2026)
    run_dir = execute(config, SerialBackend(), tmp_path, quiet=True)
    s = _row(run_dir, "summary", 6)
    assert _close(s["hi_chop"], s["hi_chop_se"], 0.0705, 4)
    for category, published, decimals in [
        ("three_of_a_kind", 0.120, 3),
        ("straight", 0.098, 3),
        ("flush", 0.0689, 4),
        ("skip_straight", 0.0639, 4),
    ]:
        c = _row(run_dir, "categories", 6, category)
        assert _close(c["present"], c["present_se"], published, decimals), (category, c)


def test_variants_match_the_rule_book(tmp_path):
    """Skips over flushes: 6-handed hi_chop ~8.20 %; 8-or-better: a low in about 70 % of deals."""
    skip = RunConfig(
        job="showdown", game="pls7", ranking="skip_over_flush", deals=1_000_000, shard_deals=500_000, players=6, seed=1
    )
    s = _row(execute(skip, SerialBackend(), tmp_path, quiet=True), "summary", 6)
    assert _close(s["hi_chop"], s["hi_chop_se"], 0.0820, 4)
    eight = RunConfig(job="showdown", game="pls7", low="8", deals=200_000, shard_deals=200_000, players=6, seed=1)
    s = _row(execute(eight, SerialBackend(), tmp_path, quiet=True), "summary", 6)
    assert _close(s["low_exists"], s["low_exists_se"], 0.70, 2)


def test_report_command_rebuilds(tmp_path):
    """`sampyong report RUN_DIR` rebuilds the tables and prints the run directory."""
    config = RunConfig(job="showdown", game="holdem", deals=20_000, shard_deals=10_000, players=3, seed=1)
    run_dir = execute(config, SerialBackend(), tmp_path, quiet=True)
    before = (run_dir / "tables" / "summary.csv").read_bytes()
    (run_dir / "tables" / "summary.csv").unlink()
    result = CliRunner().invoke(cli.app, ["report", str(run_dir)])
    assert result.exit_code == 0, result.output
    assert result.stdout.strip().splitlines()[-1] == str(run_dir)
    assert (run_dir / "tables" / "summary.csv").read_bytes() == before
    assert RunStore.read_config(run_dir) == config


# --- every published column, end to end, against the reference --------------------------------


def _execute_spied(config, out, module):
    """Run ``config`` through the pipeline (SerialBackend, every shard of its plan) with the
    study's ``deal_cards`` spied on; return the run directory and every dealt row in order.
    The study's warm-up shard is skipped so that only the run's own deals are recorded."""
    dealt = []
    real = module.deal_cards

    def spy(*args, **kwargs):
        cards = real(*args, **kwargs)
        dealt.append(cards.copy())
        return cards

    study = dataclasses.replace(STUDIES[config.job], prepare=lambda config: None)
    study.validate(config)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(module, "deal_cards", spy)
        run_dir = runner.execute(study, study.configure(config), SerialBackend(), out, quiet=True)
    return run_dir, np.concatenate(dealt)


def _binomial(successes, trials):
    """A rate and its binomial standard error, by the textbook formula (None without trials)."""
    if not trials:
        return None, None
    p = successes / trials
    return p, math.sqrt(p * (1 - p) / trials)


BRUTE_RUNS = [
    # (game, knobs, players, deals, shard_deals): shards of unequal size, summed by the pipeline
    ("pls7", {}, 4, 600, 400),
    ("pls7", {"ranking": "both", "low": "8"}, 3, 300, 200),  # categories out of their base order
    ("holdem", {}, 3, 300, 200),  # no skips, no royal: 9 categories; no low
]


@pytest.fixture(scope="module", params=BRUTE_RUNS, ids=lambda run: ",".join([run[0], *run[1].values()]))
def brute_run(request, tmp_path_factory):
    """A showdown run in two unequal shards, and per deal and k the reference's outcome (RULES
    section 6 by exact fractions) and per-hand categories."""
    name, knobs, players, deals, shard_deals = request.param
    config = RunConfig(
        job="showdown", game=name, deals=deals, shard_deals=shard_deals, players=players, seed=77, **knobs
    )
    run_dir, dealt = _execute_spied(config, tmp_path_factory.mktemp("showdown-brute"), showdown)
    g = game_of(config)
    h = g.hole_cards
    per_deal = []
    for cards in dealt.tolist():
        shows = [reference.showdown(g, cards[h * p : h * (p + 1)], cards[h * players :]) for p in range(players)]
        out = {}
        for k in range(2, players + 1):
            highs = [s.high.strength for s in shows[:k]]
            lows = [s.low.strength if s.low else 0 for s in shows[:k]]
            hw = {p for p in range(k) if highs[p] == max(highs)}
            lw = {p for p in range(k) if max(lows) and lows[p] == max(lows)}
            shares = [Fraction(0)] * k
            for winners, pot in ((hw, Fraction(1, 2) if lw else Fraction(1)), (lw, Fraction(1, 2))):
                for p in winners:
                    shares[p] += pot / len(winners)
            flags = {
                "hi_chop": len(hw) >= 2,
                "low_exists": bool(lw),
                "low_tie": len(lw) >= 2,
                "scoop": max(shares) == 1,
                "quartered": Fraction(1, 4) in shares,
                "hilo_split": bool(lw) and lw != hw,
            }
            winner = shows[min(hw)].high.category
            out[k] = (flags, winner, [s.high.category for s in shows[:k]], [s.present for s in shows[:k]])
        per_deal.append(out)
    return run_dir, config, g, per_deal


@pytest.mark.untraced
def test_summary_columns_equal_the_reference_end_to_end(brute_run):
    """Every column of summary.parquet (game, players, deals, each rate and its binomial SE per
    deal; low_tie over the deals with a low) equals a count over the run's own deals by the
    reference evaluator, through 2 shards, the shard sums and summarize."""
    run_dir, config, g, per_deal = brute_run
    table = pl.read_parquet(run_dir / "tables" / "summary.parquet")
    assert table["players"].to_list() == list(range(2, config.players + 1))
    deals = len(per_deal)
    assert deals == config.deals
    for row in table.iter_rows(named=True):
        k = row["players"]
        assert row["game"] == g.name and row["deals"] == deals
        flags = [d[k][0] for d in per_deal]
        lows = sum(f["low_exists"] for f in flags)
        for field in SUMMARY_FIELDS:
            trials = lows if field == "low_tie" else deals
            rate, se = _binomial(sum(f[field] for f in flags), trials)
            assert row[field] == (None if rate is None else pytest.approx(rate, abs=1e-12)), (k, field)
            assert row[f"{field}_se"] == (None if se is None else pytest.approx(se, abs=1e-12)), (k, field)


def test_category_columns_equal_the_reference_end_to_end(brute_run):
    """Every column of categories.parquet equals the reference over the run's deals: best and
    present as shares of the k hands with SEs from the per-deal counts (mean and standard error
    of the per-deal count over k, the k hands sharing a board), win as a share of deals with its
    binomial SE."""
    run_dir, config, g, per_deal = brute_run
    table = pl.read_parquet(run_dir / "tables" / "categories.parquet")
    deals = len(per_deal)
    assert table.height == (config.players - 1) * len(g.ranking.order)
    assert table["category"].to_list()[: len(g.ranking.order)] == [c.name for c in reversed(g.ranking.order)]
    for row in table.iter_rows(named=True):
        k, c = row["players"], Category[row["category"]]
        assert row["game"] == g.name
        best = [d[k][2].count(c) for d in per_deal]
        present = [sum(c in p for p in d[k][3]) for d in per_deal]
        for field, per_deal_counts in (("best", best), ("present", present)):
            mean = statistics.fmean(per_deal_counts) / k
            se = statistics.stdev(per_deal_counts) / math.sqrt(deals) / k
            assert row[field] == pytest.approx(mean, abs=1e-12), (k, c, field)
            assert row[f"{field}_se"] == pytest.approx(se, abs=1e-12), (k, c, field)
        rate, se = _binomial(sum(d[k][1] == c for d in per_deal), deals)
        assert row["win"] == pytest.approx(rate, abs=1e-12), (k, c)
        assert row["win_se"] == pytest.approx(se, abs=1e-12), (k, c)


@pytest.fixture(scope="module")
def many_shards(tmp_path_factory):
    """A PLS7 run of 64 shards of 8,000 deals of 6 hands."""
    config = RunConfig(job="showdown", game="pls7", deals=64 * 8000, shard_deals=8000, players=6, seed=404)
    run_dir = execute(config, SerialBackend(), tmp_path_factory.mktemp("showdown-spread"), quiet=True)
    return run_dir, config


def _shard_estimates(run_dir, config, study_module, tables):
    """Each shard's own summarized tables (its counts alone through ``summarize``)."""
    per_shard = []
    for path in sorted((run_dir / "shards" / tables[0]).glob("shard-*.parquet")):
        counts = {t: pl.read_parquet(run_dir / "shards" / t / path.name) for t in tables}
        per_shard.append(study_module.summarize(counts, config))
    return per_shard


def test_standard_errors_match_the_spread_over_shards(many_shards):
    """Every _se column of both tables, times sqrt(64), is within 30 % of the standard deviation
    of the 64 shards' own estimates (the empirical error of a deal-sized sample), for k = 2 and 6
    and every rate frequent enough to be near normal in a shard: per deal, not per hand."""
    run_dir, config = many_shards
    shards = _shard_estimates(run_dir, config, showdown, ("summary", "categories"))
    assert len(shards) == 64
    whole = {name: pl.read_parquet(run_dir / "tables" / f"{name}.parquet") for name in ("summary", "categories")}
    checked = 0
    for name, keys, fields in (
        ("summary", ("players",), SUMMARY_FIELDS),
        ("categories", ("players", "category"), ("best", "present", "win")),
    ):
        for row in whole[name].filter(pl.col("players").is_in([2, 6])).iter_rows(named=True):
            for field in fields:
                if not 0.02 < row[field] < 0.98:
                    continue
                values = []
                for shard in shards:
                    frame = shard[name]
                    for key in keys:
                        frame = frame.filter(pl.col(key) == row[key])
                    values.append(frame[field][0])
                ratio = row[f"{field}_se"] * math.sqrt(64) / statistics.stdev(values)
                assert 0.7 < ratio < 1.3, (name, row[keys[-1]], field, ratio)
                checked += 1
    assert checked >= 40
