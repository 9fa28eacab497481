"""The starting-hand grid: sweep against brute force, every column against eval7 or the reference
evaluator on a few board classes (exact) or the run's own deals (sampled), known hold'em values,
zero-sum."""

# Every column the grid study publishes (jobs/grid.py) and the independent value each is checked
# against (tests in this file):
#
# grid and grid_by_equity, exact (heads-up)
#   class, example, combos   all C(52, h) hands counted by cards.class_name; the example's class
#                 name is the row's -> _check_exact in the three *_exact_columns_* tests
#   win, tie, lose, equity_high   every hand of each class against every card-disjoint hand:
#                 eval7 over every board of three board classes (hold'em) ->
#                 test_holdem_exact_columns_equal_eval7_over_every_board_of_three_classes; the
#                 reference evaluator on board classes times their sizes ->
#                 test_hilo_exact_columns_equal_the_reference (holdem[low=8]),
#                 test_pls7_exact_columns_equal_the_reference_on_one_board (pls7, 80 classes);
#                 the full hold'em grid against published equities (AA, 72o, 32o) ->
#                 test_holdem_known_values, and a sampled equity -> test_monte_carlo_agrees_with_exact
#   equity_hilo   RULES section 6 shares (halves, quartering) by the reference ->
#                 test_hilo_exact_columns_equal_the_reference, test_pls7_exact_columns_equal_the_reference_on_one_board
#   grid_by_equity   the same rows as grid, sorted by the hi-lo (else high) equity -> _check_exact
# grid and grid_by_equity, sampled (3 or more players)
#   class, example, combos, hands, scoop, equity, equity_se (hand to hand)
#       -> the reference evaluator and RULES section 6 on the run's own deals in unequal shards:
#          test_sampled_columns_equal_the_reference (holdem, pls7); equity_se against the spread
#          of 64 shards -> test_sampled_standard_errors_match_the_spread_over_shards; AA against
#          its known 3-handed equity -> test_sampled_grid_for_more_players

import dataclasses
import itertools
import math
import statistics
from collections import Counter
from fractions import Fraction
from functools import cache
from math import comb

import numpy as np
import polars as pl
import pytest

from evaluator import grid_kernels, reference
from evaluator.cards import class_name, format_cards, parse_cards
from evaluator.equity import equity
from evaluator.fast import fast_evaluator
from evaluator.games import game
from jobs import STUDIES, grid
from jobs.common import game_of
from pipeline import runner
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
    slot_key = np.full(grid_kernels.SLOTS, -1, np.int64)
    slot_count = np.zeros(grid_kernels.SLOTS, np.int64)
    scratch = [np.empty(n, np.int64) for _ in range(3)]
    for _ in range(3):
        values = rng.choice(1 << 24, size=distinct, replace=False)
        keys = values[rng.integers(0, distinct, n)]
        items = (keys << grid_kernels.KEY_SHIFT) | np.arange(n)
        expected = items[np.argsort(keys, kind="stable")]
        got = grid_kernels.sort_by_key(items.copy(), *scratch[:1], slot_key, slot_count, *scratch[1:])
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
    grid_kernels.hands_of(boards, positions, hands)
    high, low = fast_evaluator(g).high_low(hands, boards)
    for b, board in enumerate(boards):
        # One "class" per hand, so the class totals are the per-hand counts.
        lookup = np.full(52**g.hole_cards, -1, np.int64)
        lookup[hands[b].astype(np.int64) @ (52 ** np.arange(g.hole_cards - 1, -1, -1))] = np.arange(len(positions))
        win, tie, lose, hilo4 = (np.zeros(len(positions), np.int64) for _ in range(4))
        opponents = comb(47 - g.hole_cards, g.hole_cards)
        grid_kernels.tally_boards(
            np.ones(1, np.int64),
            positions,
            hands[b : b + 1],
            high[b : b + 1],
            low[b : b + 1],
            True,
            lookup,
            opponents,
            win,
            tie,
            lose,
            hilo4,
        )
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
        grid.validate(
            dataclasses.replace(RunConfig(job="grid", game="pls7", deals=1, shard_deals=1, players=16, seed=0))
        )


# --- every column against an independent count ------------------------------------------------


def _member_boards(representative) -> set[tuple[int, ...]]:
    """Every board of the representative's suit class: its 24 suit relabellings, deduplicated."""
    return {
        tuple(sorted((c >> 2) * 4 + perm[c & 3] for c in representative)) for perm in itertools.permutations(range(4))
    }


@cache
def _classes_by_name(hole_cards: int) -> dict[str, int]:
    """Starting hands per class, counted over all C(52, h) hands by ``cards.class_name``."""
    return dict(Counter(class_name(hand) for hand in itertools.combinations(range(52), hole_cards)))


def _grid_on_boards(g, boards, weights, tmp_path, monkeypatch):
    """The job's exact tables when the board classes are only ``boards`` (each standing for
    ``weights`` boards), through the pipeline in 2 shards."""
    monkeypatch.setattr(grid, "board_classes", lambda: (np.array(boards, np.uint8), np.array(weights, np.int64)))
    monkeypatch.setattr(grid, "BOARD_SHARDS", 2)
    config = RunConfig(
        job="grid",
        game=g.name.split("[")[0],
        deals=1,
        shard_deals=1,
        players=2,
        seed=0,
        low=None if "[" not in g.name else str(g.low),
    )
    study = dataclasses.replace(STUDIES["grid"], prepare=lambda config: None)
    run_dir = runner.execute(study, grid.configure(config), SerialBackend(), tmp_path, quiet=True)
    assert game_of(config) == g
    return {t: pl.read_parquet(run_dir / "tables" / f"{t}.parquet") for t in ("grid", "grid_by_equity")}


def _pair_counts(strength, low, hands, names, sample=None):
    """Per class name: (wins, ties, losses, 4 x hi-lo pot share) of each hand against every
    card-disjoint hand on one board (RULES section 6, two players; low 0 = none)."""
    masks = np.array([sum(1 << int(c) for c in hand) for hand in hands], dtype=np.int64)
    totals: dict = {}
    for h in range(len(hands)) if sample is None else sample:
        disjoint = (masks & masks[h]) == 0
        s, lo = strength[disjoint], low[disjoint]
        win, tie = int((strength[h] > s).sum()), int((strength[h] == s).sum())
        hi4 = np.where(strength[h] > s, 4, np.where(strength[h] == s, 2, 0))
        lo4 = np.where(low[h] > lo, 4, np.where(low[h] == lo, 2, 0))
        share4 = np.where((low[h] > 0) | (lo > 0), (hi4 + lo4) // 2, hi4)
        row = totals.setdefault(names[h], [0, 0, 0, 0])
        for i, v in enumerate((win, tie, int(disjoint.sum()) - win - tie, int(share4.sum()))):
            row[i] += v
    return totals


def _check_exact(tables, g, expected, classes=None):
    """Both tables against per-class (wins, ties, losses, 4 x share): every column exact."""
    table = tables["grid"]
    combos = _classes_by_name(g.hole_cards)
    names = table["class"].to_list()
    assert sorted(names) == sorted(combos)
    for row in table.iter_rows(named=True):
        name = row["class"]
        assert class_name(parse_cards(row["example"])) == name
        assert row["combos"] == combos[name], name
        if classes is not None and name not in classes:
            continue
        win, tie, lose, share4 = expected.get(name, (0, 0, 0, 0))
        assert (row["win"], row["tie"], row["lose"]) == (win, tie, lose), name
        total = win + tie + lose
        if total:
            assert row["equity_high"] == pytest.approx((win + tie / 2) / total, abs=1e-14), name
            if g.low is not None:
                assert row["equity_hilo"] == pytest.approx(share4 / 4 / total, abs=1e-14), name
    key = "equity_hilo" if g.low is not None else "equity_high"
    assert ("equity_hilo" in table.columns) == (g.low is not None)
    by_equity = tables["grid_by_equity"]
    assert by_equity.columns == table.columns
    assert by_equity.sort("class").equals(table.sort("class"))
    values = by_equity[key].fill_nan(None).drop_nulls().to_list()
    assert values == sorted(values, reverse=True)


@pytest.mark.untraced
def test_holdem_exact_columns_equal_eval7_over_every_board_of_three_classes(tmp_path, monkeypatch):
    """With the board classes cut to three (a monotone, a two-tone and a rainbow paired board),
    every column of grid and grid_by_equity (class, example, combos, win, tie, lose,
    equity_high) equals a count with eval7 over every board of those classes, each hand of
    each class against every card-disjoint hand; combos counts all 1,326 hands by class name."""
    import eval7

    g = game("holdem")
    representatives = [parse_cards(b) for b in ("2s 7s 9s Js Ks", "Ah Kh 8d 5d 2c", "Qs Qh 6d 4c 3s")]
    boards = [min(_member_boards(b)) for b in representatives]
    weights = [len(_member_boards(b)) for b in boards]
    assert weights == [4, 24, 24]
    tables = _grid_on_boards(g, boards, weights, tmp_path, monkeypatch)
    deck = [eval7.Card(format_cards([c])) for c in range(52)]
    expected: dict = {}
    for representative in boards:
        for board in _member_boards(representative):
            hands = list(itertools.combinations([c for c in range(52) if c not in board], 2))
            strength = np.array([eval7.evaluate([deck[c] for c in (*hand, *board)]) for hand in hands], np.int64)
            for name, counts in _pair_counts(
                strength, np.zeros(len(hands), np.int64), hands, [class_name(h) for h in hands]
            ).items():
                row = expected.setdefault(name, [0, 0, 0, 0])
                for i, v in enumerate(counts):
                    row[i] += v
    _check_exact(tables, g, expected)


def _reference_strengths(g, board, hands):
    """Best high and low strength of each hand on one board by the reference's rules: the
    strongest of the allowed 5-card hands (``reference.strength5`` and ``low_ranks5`` on every
    one, each distinct 5-card set evaluated once)."""
    high5: dict = {}
    low5: dict = {}

    def five(cards):
        key = tuple(sorted(cards))
        if key not in high5:
            high5[key] = reference.strength5(key, g.ranking)
            low5[key] = reference.low_strength(reference.low_ranks5(key, g.low)) if g.low else 0
        return high5[key], low5[key]

    high = np.zeros(len(hands), np.int64)
    low = np.zeros(len(hands), np.int64)
    for i, hand in enumerate(hands):
        best = [five(cards) for cards in reference.allowed_hands(g, tuple(hand), tuple(board))]
        high[i] = max(b[0] for b in best)
        low[i] = max(b[1] for b in best)
    return high, low


def test_hilo_exact_columns_equal_the_reference(tmp_path, monkeypatch):
    """Hold'em with an 8-or-better low on two board classes: win, tie, lose, equity_high and
    equity_hilo (halves split high/low, quartered) of every class equal a count over every
    (hand, disjoint opponent) pair by the reference evaluator, times the class sizes."""
    g = game("holdem").variant(low=8)
    boards = [min(_member_boards(parse_cards(b))) for b in ("As 3h 6d 8c Kd", "2s 4s 5h Jh Js")]
    weights = [len(_member_boards(b)) for b in boards]
    tables = _grid_on_boards(g, boards, weights, tmp_path, monkeypatch)
    expected: dict = {}
    for board, weight in zip(boards, weights):
        hands = list(itertools.combinations([c for c in range(52) if c not in board], 2))
        high, low = _reference_strengths(g, board, hands)
        assert (low > 0).any() and (low == 0).any()
        for name, counts in _pair_counts(high, low, hands, [class_name(h) for h in hands]).items():
            row = expected.setdefault(name, [0, 0, 0, 0])
            for i, v in enumerate(counts):
                row[i] += weight * v
    _check_exact(tables, g, expected)


@pytest.mark.untraced
def test_pls7_exact_columns_equal_the_reference_on_one_board(tmp_path, monkeypatch):
    """PLS7 on one board class: win, tie, lose, equity_high and equity_hilo of 80 sampled
    classes (every hand of each against all 16,215 - overlap hands) equal the reference's
    count times the class size; combos and examples of all 1,755 classes by class name."""
    g = game("pls7")
    board = min(_member_boards(parse_cards("Ah 4h 5d 9c Js")))
    weight = len(_member_boards(board))
    tables = _grid_on_boards(g, [board], [weight], tmp_path, monkeypatch)
    hands = list(itertools.combinations([c for c in range(52) if c not in board], 3))
    names = [class_name(h) for h in hands]
    high, low = _reference_strengths(g, board, hands)
    classes = set(np.random.default_rng(6).choice(sorted(set(names)), 80, replace=False).tolist())
    sample = [i for i, name in enumerate(names) if name in classes]
    expected = {
        name: [weight * v for v in counts] for name, counts in _pair_counts(high, low, hands, names, sample).items()
    }
    _check_exact(tables, g, expected, classes)


def _reference_shares(g, holes, board):
    """Each player's pot share (RULES section 6, exact fractions) by the reference evaluator."""
    shows = [reference.showdown(g, hole, board) for hole in holes]
    highs = [s.high.strength for s in shows]
    lows = [s.low.strength if s.low else 0 for s in shows]
    high_winners = [p for p, h in enumerate(highs) if h == max(highs)]
    low_winners = [p for p, lo in enumerate(lows) if lo and lo == max(lows)]
    shares = [Fraction(0)] * len(holes)
    for winners, pot in ((high_winners, Fraction(1, 2) if low_winners else Fraction(1)), (low_winners, Fraction(1, 2))):
        for p in winners:
            shares[p] += pot / len(winners)
    return shares


@pytest.mark.parametrize("name, deals", [("holdem", 600), ("pls7", 400)])
def test_sampled_columns_equal_the_reference(name, deals, tmp_path):
    """A 3-player sampled grid in two unequal shards: every class's hands, scoop (share of its hands
    winning the whole pot), equity (mean pot share) and equity_se (their standard error, hand
    to hand) equal a count over the run's own deals with the reference evaluator; combos and
    examples by class name."""
    g = game(name)
    config = RunConfig(job="grid", game=name, deals=deals, shard_deals=deals * 2 // 3, players=3, seed=12)
    dealt = []
    real = grid.deal_cards

    def spy(*args, **kwargs):
        cards = real(*args, **kwargs)
        dealt.append(cards.copy())
        return cards

    study = dataclasses.replace(STUDIES["grid"], prepare=lambda config: None)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(grid, "deal_cards", spy)
        run_dir = runner.execute(study, config, SerialBackend(), tmp_path, quiet=True)
    table = pl.read_parquet(run_dir / "tables" / "grid.parquet")
    h = g.hole_cards
    shares: dict = {}
    for cards in np.concatenate(dealt).tolist():
        holes = [cards[p * h : (p + 1) * h] for p in range(3)]
        for hole, share in zip(holes, _reference_shares(g, holes, cards[3 * h :])):
            shares.setdefault(class_name(hole), []).append(share)
    assert sum(map(len, shares.values())) == 3 * deals
    combos = _classes_by_name(h)
    checked = 0
    for row in table.iter_rows(named=True):
        name = row["class"]
        assert row["combos"] == combos[name] and class_name(parse_cards(row["example"])) == name
        mine = shares.get(name, [])
        assert row["hands"] == len(mine), name
        if mine:
            assert row["scoop"] == pytest.approx(sum(s == 1 for s in mine) / len(mine), abs=1e-14), name
            assert row["equity"] == pytest.approx(float(sum(mine) / len(mine)), abs=1e-14), name
        if len(mine) >= 2:
            se = statistics.stdev(float(s) for s in mine) / math.sqrt(len(mine))
            assert row["equity_se"] == pytest.approx(se, abs=1e-12), name
            checked += 1
    assert checked >= 50
    by_equity = pl.read_parquet(run_dir / "tables" / "grid_by_equity.parquet")
    assert by_equity.sort("class").equals(table.sort("class"))


def test_sampled_standard_errors_match_the_spread_over_shards(tmp_path):
    """Hold'em, 3 players, 64 shards of 4,000 deals: each class's equity_se times sqrt(64) is
    0.5 to 1.6 times the standard deviation of the 64 shards' own equities, and on average over
    the 169 classes within 8 % of it (hands of a class rarely share a deal: hand to hand is right)."""
    config = RunConfig(job="grid", game="holdem", deals=64 * 4000, shard_deals=4000, players=3, seed=9)
    run_dir = execute(config, SerialBackend(), tmp_path, quiet=True)
    whole = pl.read_parquet(run_dir / "tables" / "grid.parquet")
    per_shard: dict = {}
    shards = sorted((run_dir / "shards" / "grid").glob("shard-*.parquet"))
    assert len(shards) == 64
    for path in shards:
        for row in grid.summarize({"grid": pl.read_parquet(path)}, config)["grid"].iter_rows(named=True):
            per_shard.setdefault(row["class"], []).append(row["equity"])
    ratios = [row["equity_se"] * 8 / statistics.stdev(per_shard[row["class"]]) for row in whole.iter_rows(named=True)]
    assert len(ratios) == 169 and 0.5 < min(ratios) and max(ratios) < 1.6
    assert statistics.fmean(ratios) == pytest.approx(1, abs=0.08)
