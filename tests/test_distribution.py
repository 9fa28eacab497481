"""The exact distribution job: brute force on small decks, hold'em 7-card counts (RULES section 9),
hand-counted lows and the showdown study's present shares."""

# Every column the distribution study publishes (jobs/distribution.py) and the independent value
# each is checked against (tests in this file):
#
# categories
#   category, best, present, pools, best_share, present_share
#       -> every pool of a 14-card deck with the reference evaluator, through the job's shards,
#          the pipeline's sums and summarize: test_small_deck_equals_brute_force (pls7, holdem,
#          pls7[ranking=both]); hold'em's 133,784,560 seven-card hands: best and best_share
#          against RULES section 9 and pools = C(52, 7) -> test_holdem_seven_card_counts;
#          present and present_share against the showdown study's sampled share ->
#          test_holdem_present_shares_agree_with_the_showdown_study
# low
#   qualifier, low_pools, pools, low_share
#       -> the 14-card deck with the reference's best 8-or-better low: test_small_deck_equals_brute_force;
#          hold'em's seven-card pools against a hand count (which gives RULES section 9's 21,504
#          and 57,344 five-card lows: test_low_hand_count_matches_the_rule_book) ->
#          test_holdem_seven_card_counts

import dataclasses
import itertools
from math import comb

import numpy as np
import polars as pl
import pytest

from evaluator import reference
from evaluator.errors import SampyongError
from evaluator.games import Category
from jobs import STUDIES, distribution
from jobs.common import game_of
from jobs.distribution import HOLDEM_7
from pipeline import runner
from pipeline.backends import SerialBackend
from pipeline.plan import RunConfig, ShardSpec
from tests.helpers import execute

SMALL_DECK = np.sort(np.random.default_rng(3).choice(52, 14, replace=False)).astype(np.uint8)


def _small_deck_plan(config):
    """The job's plan for a 14-card deck: shard i takes the pools whose lowest card is card i."""
    size = distribution.pool_size(config)
    return [
        ShardSpec(index=i, deals=comb(len(SMALL_DECK) - 1 - i, size - 1), root_seed=0)
        for i in range(len(SMALL_DECK) - size + 1)
    ]


@pytest.mark.untraced
@pytest.mark.parametrize("name, ranking", [("pls7", None), ("holdem", None), ("pls7", "both")])
def test_small_deck_equals_brute_force(name, ranking, tmp_path, monkeypatch):
    """Run on a random 14-card deck (one shard per lowest card, summed by the pipeline), every
    column of both tables equals a count over every pool with the reference evaluator:
    categories' best, present, pools and their shares; low's low_pools per qualifier (the best
    8-or-better low's top card at most the qualifier), pools and low_share."""
    config = distribution.configure(
        RunConfig(job="distribution", game=name, deals=1, shard_deals=0, players=1, seed=0, ranking=ranking)
    )
    g = game_of(config)
    size = g.hole_cards + g.board_cards
    monkeypatch.setattr(distribution, "DECK", SMALL_DECK)
    study = dataclasses.replace(STUDIES["distribution"], plan=_small_deck_plan, prepare=lambda config: None)
    run_dir = runner.execute(study, config, SerialBackend(), tmp_path, quiet=True)
    categories = pl.read_parquet(run_dir / "tables" / "categories.parquet")
    low = pl.read_parquet(run_dir / "tables" / "low.parquet")
    want_best = np.zeros(len(Category), np.int64)
    want_present = np.zeros(len(Category), np.int64)
    want_low = np.zeros(9, np.int64)
    eight = g.variant(low=8)  # the same highs; a q-low exists when the best 8-low tops at q or lower
    for pool in itertools.combinations(SMALL_DECK.tolist(), size):
        shown = reference.showdown(eight, pool[: g.hole_cards], pool[g.hole_cards :])
        want_best[shown.high.category] += 1
        for c in shown.present:
            want_present[c] += 1
        for q in (6, 7, 8):
            want_low[q] += shown.low is not None and shown.low.ranks[0] <= q
    pools = comb(len(SMALL_DECK), size)
    assert categories["category"].to_list() == [c.name for c in reversed(g.ranking.order)]
    for row in categories.iter_rows(named=True):
        c = Category[row["category"]]
        assert (row["best"], row["present"], row["pools"]) == (want_best[c], want_present[c], pools), c
        assert row["best_share"] == pytest.approx(want_best[c] / pools, abs=1e-15), c
        assert row["present_share"] == pytest.approx(want_present[c] / pools, abs=1e-15), c
    assert low["qualifier"].to_list() == [6, 7, 8]
    for row in low.iter_rows(named=True):
        q = row["qualifier"]
        assert (row["low_pools"], row["pools"]) == (want_low[q], pools), q
        assert row["low_share"] == pytest.approx(want_low[q] / pools, abs=1e-15), q
    assert want_low[8] > want_low[7] > want_low[6] > 0 and want_best.sum() == pools


def _low_pools(size: int, q: int) -> int:
    """Pools of ``size`` cards holding five distinct ranks among the q lowest (ace low), counted
    by hand: j of the q low ranks present (inclusion-exclusion over ranks left empty), m cards
    on them, the rest off them."""
    total = 0
    for j in range(5, q + 1):
        for m in range(j, size + 1):
            onto = sum((-1) ** i * comb(j, i) * comb(4 * (j - i), m) for i in range(j + 1))
            total += comb(q, j) * onto * comb(52 - 4 * q, size - m)
    return total


def test_low_hand_count_matches_the_rule_book():
    """The hand count of pools with a low gives RULES section 9's 5-card figures: 21,504 7-lows, 57,344 8-lows."""
    assert _low_pools(5, 7) == 21_504 and _low_pools(5, 8) == 57_344


@pytest.fixture(scope="module")
def holdem_run(tmp_path_factory):
    config = distribution.configure(
        RunConfig(job="distribution", game="holdem", deals=1, shard_deals=1, players=2, seed=5)
    )
    return execute(config, SerialBackend(), tmp_path_factory.mktemp("distribution"), quiet=True)


def test_holdem_seven_card_counts(holdem_run):
    """All 133,784,560 seven-card hold'em hands split exactly as RULES section 9 says (best and
    best_share), pools is C(52, 7), and the pools with a 6-, 7- and 8-or-better low (low_pools,
    low_share) equal a hand count."""
    run_dir = holdem_run
    categories = pl.read_csv(run_dir / "tables" / "categories.csv")
    counts = dict(zip(categories["category"], categories["best"]))
    assert counts == HOLDEM_7
    assert categories["best"].sum() == comb(52, 7)
    assert (categories["pools"] == comb(52, 7)).all()
    for row in categories.iter_rows(named=True):
        assert row["best_share"] == pytest.approx(HOLDEM_7[row["category"]] / comb(52, 7), abs=1e-15)
    low = pl.read_csv(run_dir / "tables" / "low.csv")
    assert low.columns == ["qualifier", "low_pools", "pools", "low_share"]
    for row in low.iter_rows(named=True):
        want = _low_pools(7, row["qualifier"])
        assert (row["low_pools"], row["pools"]) == (want, comb(52, 7)), row
        assert row["low_share"] == pytest.approx(want / comb(52, 7), abs=1e-15)


def test_holdem_present_shares_agree_with_the_showdown_study(holdem_run, tmp_path):
    """Every category's exact present_share (hold'em, 7-card pools) lies within 4 standard errors
    of the showdown study's sampled 'can be made' share (200,000 deals of 2 hands), and the
    exact present counts are the shares times the pools."""
    categories = pl.read_parquet(holdem_run / "tables" / "categories.parquet")
    config = RunConfig(job="showdown", game="holdem", deals=200_000, shard_deals=100_000, players=2, seed=8)
    sampled = pl.read_parquet(execute(config, SerialBackend(), tmp_path, quiet=True) / "tables" / "categories.parquet")
    sampled = {r["category"]: r for r in sampled.iter_rows(named=True)}
    for row in categories.iter_rows(named=True):
        theirs = sampled[row["category"]]
        assert abs(row["present_share"] - theirs["present"]) <= 4 * theirs["present_se"] + 1e-6, (row, theirs)
        assert row["present"] == round(row["present_share"] * comb(52, 7))
        assert row["present"] >= row["best"]


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
