"""The exact starting-hand grid: sweep against brute force, known hold'em values, zero-sum."""

import dataclasses
from math import comb

import numpy as np
import polars as pl
import pytest

from evaluator.equity import equity
from evaluator.fast import fast_evaluator
from evaluator.games import game
from jobs import grid
from pipeline.backends import SerialBackend
from pipeline.plan import RunConfig, ShardSpec
from tests.helpers import execute


def _brute_force(g, board, hands, sample):
    """Per sampled hand: (disjoint opponents below, equal) on the high hand, and 4x the hi-lo share."""
    fast = fast_evaluator(g)
    high, low = (x[0].astype(np.int64) for x in fast.high_low(hands[None], board[None]))
    rows = []
    for h in sample:
        disjoint = ~np.isin(hands, hands[h]).any(axis=1)
        hi, lo = high[disjoint], low[disjoint]
        hi_share = np.where(high[h] > hi, 1.0, np.where(high[h] == hi, 0.5, 0.0))
        lo_share = np.where(low[h] > lo, 1.0, np.where(low[h] == lo, 0.5, 0.0))
        some_low = (low[h] > 0) | (lo > 0)
        share = np.where(some_low, 0.5 * hi_share + 0.5 * lo_share, hi_share)
        rows.append(((high[h] > hi).sum(), (high[h] == hi).sum(), 4 * share.sum()))
    return rows


@pytest.mark.parametrize("distinct", [1, 200, 7463])
def test_sort_by_key_is_a_stable_sort(distinct):
    """The grid's counting sort orders items by key exactly as a stable sort does, call after call."""
    rng = np.random.default_rng(distinct)
    n = 16215
    slot_key = np.full(grid.SLOTS, -1, np.int64)
    slot_count = np.zeros(grid.SLOTS, np.int64)
    scratch = [np.empty(n, np.int64) for _ in range(3)]
    for _ in range(3):
        values = rng.choice(1 << 24, size=distinct, replace=False)
        keys = values[rng.integers(0, distinct, n)]
        items = (keys << grid.KEY_SHIFT) | np.arange(n)
        expected = items[np.argsort(keys, kind="stable")]
        got = grid._sort_by_key(items.copy(), *scratch[:1], slot_key, slot_count, *scratch[1:])
        assert np.array_equal(got, expected)
    assert (slot_key == -1).all() and (slot_count == 0).all()


@pytest.mark.parametrize("name", ["holdem", "pls7"])
def test_board_tally_equals_brute_force(name):
    """On random boards, the radix-sorted inclusion-exclusion counts equal a direct count over every opponent."""
    g = game(name)
    rng = np.random.default_rng(4)
    positions = np.array(list(grid._combos(47, g.hole_cards)), dtype=np.int64)
    boards = np.sort(np.array([rng.choice(52, 5, replace=False) for _ in range(3)]), axis=1).astype(np.uint8)
    hands = np.empty((len(boards), len(positions), g.hole_cards), np.uint8)
    grid._hands_of(boards, positions, hands)
    high, low = fast_evaluator(g).high_low(hands, boards)
    for b, board in enumerate(boards):
        # One "class" per hand, so the class totals are the per-hand counts.
        lookup = np.full(52**g.hole_cards, -1, np.int64)
        lookup[hands[b].astype(np.int64) @ (52 ** np.arange(g.hole_cards - 1, -1, -1))] = np.arange(len(positions))
        win, tie, lose, hilo4 = (np.zeros(len(positions), np.int64) for _ in range(4))
        opponents = comb(47 - g.hole_cards, g.hole_cards)
        grid._tally_boards(np.ones(1, np.int64), positions, hands[b : b + 1], high[b : b + 1], low[b : b + 1], True, lookup, opponents, win, tie, lose, hilo4)
        sample = rng.choice(len(positions), 60, replace=False)
        for h, (less, equal, share4) in zip(sample, _brute_force(g, board, hands[b], sample)):
            assert (win[h], tie[h], hilo4[h]) == (less, equal, share4)
            assert win[h] + tie[h] + lose[h] == opponents


@pytest.fixture(scope="module")
def holdem_grid(tmp_path_factory):
    config = RunConfig(job="grid", game="holdem", deals=1, shard_deals=1, players=2, seed=0)
    run_dir = execute(grid.configure(config), SerialBackend(), tmp_path_factory.mktemp("grid"), quiet=True)
    return pl.read_csv(run_dir / "tables" / "grid.csv"), run_dir


def test_holdem_known_values(holdem_grid):
    """Hold'em: AA 85.2037 %, 72o 34.5836 %, 32o 32.3032 % (exact, 4 decimals); 169 classes, 1,326 combos."""
    table, run_dir = holdem_grid
    values = dict(zip(table["class"], table["equity_high"]))
    assert round(100 * values["AA"], 4) == 85.2037
    assert round(100 * values["72o"], 4) == 34.5836
    assert round(100 * values["32o"], 4) == 32.3032
    assert table.height == 169 and table["combos"].sum() == 1326
    assert table.columns == ["class", "example", "combos", "win", "tie", "lose", "equity_high"]
    assert (run_dir / "figures" / "grid_heatmap.png").is_file()


def test_zero_sum(holdem_grid):
    """Every deal is one hand's win and the other's loss: total wins equal total losses exactly."""
    table, _ = holdem_grid
    weighted = (table["win"] * 1).sum(), (table["lose"] * 1).sum()
    assert weighted[0] == weighted[1]
    equity_mean = (table["equity_high"] * table["combos"]).sum() / table["combos"].sum()
    assert equity_mean == pytest.approx(0.5, abs=1e-12)


def test_monte_carlo_agrees_with_exact(holdem_grid):
    """A short Monte Carlo of a class against a random hand lies within 4 SE of the grid."""
    table, _ = holdem_grid
    values = dict(zip(table["class"], table["equity_high"]))
    for hand, name in (("As Ah", "AA"), ("7h 2s", "72o"), ("Kd Qd", "KQs")):
        sampled = equity("holdem", [hand, "random"], samples=200_000, seed=1)["hands"][0]
        assert abs(sampled["equity"] - values[name]) <= 4 * sampled["equity_se"]


def test_hilo_shard_is_zero_sum():
    """On a slice of PLS7 boards, hi-lo shares of both seats add to the whole pot exactly."""
    config = grid.configure(RunConfig(job="grid", game="pls7", deals=1, shard_deals=1, players=2, seed=0))
    original = grid.BOARD_SHARDS
    try:
        grid.BOARD_SHARDS = 134459 // 8  # about 8 boards a shard
        table = grid.run_shard(config, ShardSpec(index=500, deals=1, root_seed=0))["grid"].to_pydict()
    finally:
        grid.BOARD_SHARDS = original
    total = sum(table["win"]) + sum(table["tie"]) + sum(table["lose"])
    assert total > 0 and sum(table["win"]) == sum(table["lose"])
    assert sum(table["hilo4"]) * 2 == 4 * total  # shares average one half


def test_sampled_grid_for_more_players(tmp_path):
    """With 3 players the grid is sampled: shares average exactly 1/3; AA is near its known 73.4 %."""
    config = RunConfig(job="grid", game="holdem", deals=400_000, shard_deals=200_000, players=3, seed=5)
    assert grid.configure(config) == config and not grid.exact(config)
    run_dir = execute(config, SerialBackend(), tmp_path, quiet=True)
    table = pl.read_csv(run_dir / "tables" / "grid.csv")
    assert table.columns == ["class", "example", "combos", "hands", "scoop", "equity", "equity_se"]
    assert table["hands"].sum() == 3 * 400_000
    assert (table["equity"] * table["hands"]).sum() / table["hands"].sum() == pytest.approx(1 / 3, abs=1e-12)
    aces = table.filter(pl.col("class") == "AA").row(0, named=True)
    assert abs(aces["equity"] - 0.734) < 4 * aces["equity_se"] + 0.0005


def test_too_many_players_refused():
    """More players than the deck allows is a clear error."""
    from evaluator.errors import SampyongError

    with pytest.raises(SampyongError, match="players must be 2 to 15"):
        grid.validate(dataclasses.replace(RunConfig(job="grid", game="pls7", deals=1, shard_deals=1, players=16, seed=0)))
