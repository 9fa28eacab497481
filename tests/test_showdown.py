"""The showdown job: its kernel against a plain-Python count, and RULES section 9 figures."""

import numpy as np
import polars as pl
import pytest
from typer.testing import CliRunner

from evaluator import reference
from evaluator.deal import deal_cards, split_deal
from evaluator.games import game
from jobs.showdown import CATEGORY_FIELDS, N_CATEGORIES, NO_JOINT, NO_OUTCOMES, SUMMARY_FIELDS, showdown_counts
from sampyong import cli
from pipeline.backends import SerialBackend
from pipeline.plan import RunConfig
from tests.helpers import execute
from pipeline.store import RunStore


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


@pytest.mark.parametrize("name", ["pls7", "plo8"])
def test_kernel_counts_equal_plain_python(name):
    """On 1,500 deals of 5 hands the numba counts (rates, and the per-deal category counts and
    their squares behind the standard errors) equal a plain count from the reference."""
    g = game(name)
    players = 5
    cards = deal_cards(np.random.default_rng(1), 1500, players * g.hole_cards + 5)
    hole, board = split_deal(cards, players, g.hole_cards)
    from evaluator.fast import FastEvaluator

    fast = FastEvaluator(g)
    high, low, present = fast.high_low_present(hole, board)
    summary = np.zeros((players + 1, len(SUMMARY_FIELDS)), np.int64)
    per_category = np.zeros((players + 1, len(CATEGORY_FIELDS), N_CATEGORIES), np.int64)
    showdown_counts(high, low, fast.tables.category_of_position, present, summary, per_category, NO_OUTCOMES, 0, NO_JOINT)
    plain_summary, plain_per_category = _plain_counts(g, hole, board, players)
    assert np.array_equal(summary, plain_summary)
    assert np.array_equal(per_category, plain_per_category)
    assert (per_category[2:, 4].sum(axis=1) == 1500).all()  # one winning category per deal


@pytest.mark.parametrize("name, low", [("pls7", None), ("pls7", "8"), ("plo8", None)])
def test_hilo_split_equals_a_brute_force(name, low):
    """hilo_split, counted per deal by the kernel, equals a brute force over 3,000 deals of 4
    hands with the reference evaluator: a low exists and the players sharing the low half are
    not exactly those sharing the high half. Deal by deal, 1 - scoop = hilo_split + pure high
    chops (high tied, the low if any shared by the same players), and (1 - scoop) - hi_chop
    falls short of hilo_split by the deals with a tied high and a low going to others."""
    g = game(name).variant(low=low) if low else game(name)
    players, deals = 4, 3000
    cards = deal_cards(np.random.default_rng(5), deals, players * g.hole_cards + 5)
    hole, board = split_deal(cards, players, g.hole_cards)
    from evaluator.fast import FastEvaluator

    fast = FastEvaluator(g)
    high, low_, present = fast.high_low_present(hole, board)
    summary = np.zeros((players + 1, len(SUMMARY_FIELDS)), np.int64)
    per_category = np.zeros((players + 1, len(CATEGORY_FIELDS), N_CATEGORIES), np.int64)
    showdown_counts(high, low_, fast.tables.category_of_position, present, summary, per_category, NO_OUTCOMES, 0, NO_JOINT)
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
        ("three_of_a_kind", 0.120, 3), ("straight", 0.098, 3), ("flush", 0.0689, 4), ("skip_straight", 0.0639, 4),
    ]:
        c = _row(run_dir, "categories", 6, category)
        assert _close(c["present"], c["present_se"], published, decimals), (category, c)


def test_variants_match_the_rule_book(tmp_path):
    """Skips over flushes: 6-handed hi_chop ~8.20 %; 8-or-better: a low in about 70 % of deals."""
    skip = RunConfig(job="showdown", game="pls7", ranking="skip_over_flush", deals=1_000_000, shard_deals=500_000, players=6, seed=1)
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
