"""The exact distribution job: brute force on small decks, hold'em 7-card counts (RULES section 9)."""

import itertools
from math import comb

import numpy as np
import polars as pl
import pytest

from evaluator import reference
from evaluator.errors import SampyongError
from evaluator.games import Category
from jobs import distribution
from jobs.distribution import HOLDEM_7, count_pools
from jobs.common import game_of
from pipeline.backends import SerialBackend
from pipeline.plan import RunConfig
from tests.helpers import execute


@pytest.mark.parametrize("name, ranking", [("pls7", None), ("holdem", None), ("pls7", "both")])
def test_small_deck_equals_brute_force(name, ranking):
    """On a random 14-card deck every pool's counts equal the reference evaluator's."""
    config = RunConfig(job="distribution", game=name, deals=1, shard_deals=0, players=1, seed=0, ranking=ranking)
    g = game_of(config)
    deck = np.sort(np.random.default_rng(3).choice(52, 14, replace=False)).astype(np.uint8)
    size = g.hole_cards + g.board_cards
    best = np.zeros(len(Category), np.int64)
    present = np.zeros(len(Category), np.int64)
    low = np.zeros(9, np.int64)
    for first in range(len(deck) - size + 1):
        b, p, lo = count_pools(config, deck, first)
        best += b
        present += p
        low += lo
    want_best = np.zeros(len(Category), np.int64)
    want_present = np.zeros(len(Category), np.int64)
    want_low = np.zeros(9, np.int64)
    for pool in itertools.combinations(deck.tolist(), size):
        shown = reference.showdown(g, pool[: g.hole_cards], pool[g.hole_cards :])
        want_best[shown.high.category] += 1
        for c in shown.present:
            want_present[c] += 1
        for q in (6, 7, 8):
            want_low[q] += reference.best_low(g.variant(low=q), pool[: g.hole_cards], pool[g.hole_cards :]) is not None
    assert np.array_equal(best, want_best)
    assert np.array_equal(present, want_present)
    assert np.array_equal(low, want_low)
    assert best.sum() == comb(14, size)


def test_holdem_seven_card_counts(tmp_path):
    """All 133,784,560 seven-card hold'em hands split exactly as RULES section 9 says."""
    config = distribution.configure(RunConfig(job="distribution", game="holdem", deals=1, shard_deals=1, players=2, seed=5))
    run_dir = execute(config, SerialBackend(), tmp_path, quiet=True)
    categories = pl.read_csv(run_dir / "tables" / "categories.csv")
    counts = dict(zip(categories["category"], categories["best"]))
    assert counts == HOLDEM_7
    assert categories["best"].sum() == comb(52, 7)
    assert (categories["pools"] == comb(52, 7)).all()
    low = pl.read_csv(run_dir / "tables" / "low.csv")
    assert low.columns == ["qualifier", "low_pools", "pools", "low_share"]


def test_configure_ignores_deals_and_seed():
    """Deals, shard size, players and seed do not change an exact run's identity."""
    a = distribution.configure(RunConfig(job="distribution", game="pls7", deals=5, shard_deals=2, players=3, seed=1))
    b = distribution.configure(RunConfig(job="distribution", game="pls7", deals=9, shard_deals=4, players=8, seed=7))
    assert a.run_id == b.run_id and a.deals == comb(52, 8)
    assert sum(s.deals for s in distribution.plan(a)) == comb(52, 8)


def test_restricted_games_are_refused():
    """Omaha-style games cannot be enumerated as pools: a clear error."""
    with pytest.raises(SampyongError, match="free-use"):
        distribution.validate(RunConfig(job="distribution", game="plo8", deals=1, shard_deals=1, players=2, seed=0))
