"""The variants job: rates and paired differences against a reference brute force, and
agreement with the showdown job."""

# Every column the variants study publishes (jobs/variants.py) and the independent value each is
# checked against (tests in this file; ``brute``: 300 deals of 5 players in unequal shards through
# the pipeline, every variant re-evaluated deal by deal with the reference evaluator, the variants
# built from games.py's knobs rather than the job's parser):
#
# variants
#   variant, hole_use, ranking, low   games.py's name and knobs -> test_rates_equal_a_reference_brute_force
#   players, deals                    k = 2..5, the deals dealt -> test_rates_equal_a_reference_brute_force
#   hi_chop, low_exists, low_tie, scoop, quartered, hilo_split and each *_se (binomial per deal;
#   low_tie over the deals with a low) -> test_rates_equal_a_reference_brute_force; the same
#   columns equal the showdown study's on each variant's rules ->
#   test_base_variant_equals_the_showdown_job, test_each_variant_equals_the_showdown_job_on_its_rules
# variant_categories
#   variant, players, category, best, best_se, present, present_se (SE of the per-deal count
#   over k), win, win_se (binomial per deal) -> test_categories_equal_a_reference_brute_force;
#   equal to the showdown study's -> test_each_variant_equals_the_showdown_job_on_its_rules
# deltas
#   variant, players, deals, hi_chop, low_exists, scoop, quartered and each *_se (mean and
#   standard error of the per-deal difference of indicators from the base)
#   -> test_deltas_equal_paired_differences_by_brute_force
# win_deltas
#   variant, players, category, win, win_se (paired, the winning category's indicator)
#   -> test_deltas_equal_paired_differences_by_brute_force

import dataclasses
import math
import statistics
from fractions import Fraction

import numpy as np
import polars as pl
import pytest

from evaluator import reference
from evaluator.deal import deal_cards as real_deal_cards
from evaluator.errors import SampyongError
from evaluator.games import Category, game
from jobs import STUDIES, variants
from jobs.common import game_of
from pipeline import runner
from pipeline.backends import SerialBackend
from pipeline.plan import RunConfig
from tests.helpers import execute

OPTIONS = (("variants", "base;ranking=skip_over_flush;hole_use=2-3;low=8"),)


@pytest.fixture(scope="module")
def sweep(tmp_path_factory):
    out = tmp_path_factory.mktemp("variants")
    config = RunConfig(
        job="variants", game="pls7", deals=40_000, shard_deals=20_000, players=5, seed=11, options=OPTIONS
    )
    run_dir = execute(config, SerialBackend(), out, quiet=True)
    showdown = execute(
        RunConfig(job="showdown", game="pls7", deals=40_000, shard_deals=20_000, players=5, seed=11),
        SerialBackend(),
        out,
        quiet=True,
    )
    return run_dir, showdown


def test_tables_and_columns(sweep):
    """variants.csv and deltas.csv have the documented columns and one row per variant and k."""
    run_dir, _ = sweep
    table = pl.read_csv(run_dir / "tables" / "variants.csv")
    assert table.columns[:6] == ["variant", "hole_use", "ranking", "low", "players", "deals"]
    assert table.height == 4 * 4
    assert set(table["variant"]) == {"pls7", "pls7[ranking=skip_over_flush]", "pls7[hole_use=2-3]", "pls7[low=8]"}
    deltas = pl.read_csv(run_dir / "tables" / "deltas.csv")
    assert deltas.columns == [
        "variant",
        "players",
        "deals",
        "hi_chop",
        "hi_chop_se",
        "low_exists",
        "low_exists_se",
        "scoop",
        "scoop_se",
        "quartered",
        "quartered_se",
    ]


# --- a brute force with the reference evaluator ----------------------------------------------

BRUTE_VARIANTS = "base;ranking=skip_over_flush;hole_use=2-3;low=8;ranking=both,low=none;hole_use=2-2"
BRUTE_GAMES = {  # the same variants built from games.py's knobs, not from the job's parser
    g.name: g
    for g in (
        game("pls7"),
        game("pls7").variant(ranking="skip_over_flush"),
        game("pls7").variant(hole_use="2-3"),
        game("pls7").variant(low=8),
        game("pls7").variant(ranking="both", low=None),
        game("pls7").variant(hole_use="2-2"),
    )
}


def _reference_deal(g, holes, board):
    """Per k = 2..P (the first k hands): the summary flags, the winning high category, and
    each hand's best category and present categories, by the reference and RULES section 6."""
    shows = [reference.showdown(g, hole, board) for hole in holes]
    out = {}
    for k in range(2, len(holes) + 1):
        highs = [s.high.strength for s in shows[:k]]
        lows = [s.low.strength if s.low else 0 for s in shows[:k]]
        high_winners = [p for p in range(k) if highs[p] == max(highs)]
        low_winners = [p for p in range(k) if lows[p] and lows[p] == max(lows)]
        shares = [Fraction(0)] * k
        for winners, pot in (
            (high_winners, Fraction(1, 2) if low_winners else Fraction(1)),
            (low_winners, Fraction(1, 2)),
        ):
            for p in winners:
                shares[p] += pot / len(winners)
        flags = {
            "hi_chop": len(high_winners) >= 2,
            "low_exists": bool(low_winners),
            "low_tie": len(low_winners) >= 2,
            "scoop": max(shares) == 1,
            "quartered": Fraction(1, 4) in shares,
            "hilo_split": bool(low_winners) and set(low_winners) != set(high_winners),
        }
        out[k] = (
            flags,
            shows[high_winners[0]].high.category,
            [s.high.category for s in shows[:k]],
            [s.present for s in shows[:k]],
        )
    return out


def _paired(xs, ys):
    """Mean and standard error of the per-deal differences x - y."""
    d = [x - y for x, y in zip(xs, ys)]
    return statistics.fmean(d), statistics.stdev(d) / len(d) ** 0.5


@pytest.fixture(scope="module")
def brute(tmp_path_factory):
    """The job's tables from a run of 300 deals of 5 players in shards of 200 and 100 (summed by
    the pipeline), and the same deals by the reference."""
    deals, players = 300, 5
    dealt = []

    def spy(*args, **kwargs):
        cards = real_deal_cards(*args, **kwargs)
        dealt.append(cards.copy())
        return cards

    config = RunConfig(
        job="variants",
        game="pls7",
        deals=deals,
        shard_deals=200,
        players=players,
        seed=21,
        options=(("variants", BRUTE_VARIANTS),),
    )
    study = dataclasses.replace(STUDIES["variants"], prepare=lambda config: None)  # no warm-up deals
    study.validate(config)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(variants, "deal_cards", spy)
        run_dir = runner.execute(
            study, study.configure(config), SerialBackend(), tmp_path_factory.mktemp("brute"), quiet=True
        )
    tables = {
        name: pl.read_parquet(run_dir / "tables" / f"{name}.parquet")
        for name in ("variants", "variant_categories", "deltas", "win_deltas")
    }
    dealt = np.concatenate(dealt)
    assert len(dealt) == deals
    expected = {}
    for name, g in BRUTE_GAMES.items():
        expected[name] = [
            _reference_deal(g, [cards[3 * p : 3 * p + 3] for p in range(players)], cards[3 * players :])
            for cards in dealt.tolist()
        ]
    return tables, expected, deals, players


def _binomial(successes, trials):
    """A rate and its binomial standard error, by the textbook formula (None without trials)."""
    if not trials:
        return None, None
    p = successes / trials
    return p, math.sqrt(p * (1 - p) / trials)


def _knobs(g):
    """A game's knob columns as the variants table writes them, from games.py's own fields."""
    return {
        "hole_use": f"{g.hole_use[0]}-{g.hole_use[1]}",
        "ranking": g.ranking.name,
        "low": "none" if g.low is None else str(g.low),
    }


@pytest.mark.untraced
def test_rates_equal_a_reference_brute_force(brute):
    """Every column of the variants table for k = 2..5 equals the reference over the same deals:
    the knobs (from games.py), deals, each rate (hi_chop, low_exists, low_tie over the deals with
    a low, scoop, quartered, hilo_split) and its binomial standard error per deal."""
    tables, expected, deals, players = brute
    table = tables["variants"]
    assert set(table["variant"]) == set(BRUTE_GAMES)
    assert table.height == len(BRUTE_GAMES) * (players - 1)
    for row in table.iter_rows(named=True):
        assert {knob: row[knob] for knob in ("hole_use", "ranking", "low")} == _knobs(BRUTE_GAMES[row["variant"]])
        assert row["deals"] == deals
        per_deal = [deal[row["players"]][0] for deal in expected[row["variant"]]]
        with_low = sum(f["low_exists"] for f in per_deal)
        for field in ("hi_chop", "low_exists", "low_tie", "scoop", "quartered", "hilo_split"):
            rate, se = _binomial(sum(f[field] for f in per_deal), with_low if field == "low_tie" else deals)
            where = (row["variant"], row["players"], field)
            assert row[field] == (None if rate is None else pytest.approx(rate, abs=1e-12)), where
            assert row[f"{field}_se"] == (None if se is None else pytest.approx(se, abs=1e-12)), where


@pytest.mark.untraced
def test_categories_equal_a_reference_brute_force(brute):
    """Every variant's per-hand best and present shares, with standard errors from the per-deal
    counts (the k hands of a deal share a board), and the winning category's share of deals with
    its binomial SE, equal a count over the same deals with the reference evaluator."""
    tables, expected, deals, players = brute
    table = tables["variant_categories"]
    assert table.height == sum(len(g.ranking.order) for g in BRUTE_GAMES.values()) * (players - 1)
    for row in table.iter_rows(named=True):
        k, c = row["players"], Category[row["category"]]
        per_deal = [deal[k] for deal in expected[row["variant"]]]
        rate, se = _binomial(sum(d[1] == c for d in per_deal), deals)
        assert row["win"] == pytest.approx(rate, abs=1e-12), (row["variant"], k, c)
        assert row["win_se"] == pytest.approx(se, abs=1e-12), (row["variant"], k, c)
        for field, counts in (
            ("best", [d[2].count(c) for d in per_deal]),
            ("present", [sum(c in p for p in d[3]) for d in per_deal]),
        ):
            assert row[field] == pytest.approx(statistics.fmean(counts) / k, abs=1e-12), (row["variant"], k, c, field)
            se = statistics.stdev(counts) / math.sqrt(deals) / k
            assert row[f"{field}_se"] == pytest.approx(se, abs=1e-12), (row["variant"], k, c, field)


@pytest.mark.untraced
def test_deltas_equal_paired_differences_by_brute_force(brute):
    """Each variant's differences from the base (deltas: hi_chop, low_exists, scoop, quartered;
    win_deltas: the winning category) and their paired standard errors equal the mean and
    standard error of the per-deal indicator differences from the reference (0 for the base)."""
    tables, expected, deals, players = brute
    deltas = tables["deltas"]
    assert deltas.height == len(BRUTE_GAMES) * (players - 1)
    for row in deltas.iter_rows(named=True):
        k, name = row["players"], row["variant"]
        assert row["deals"] == deals
        for field in ("hi_chop", "low_exists", "scoop", "quartered"):
            mine = [int(deal[k][0][field]) for deal in expected[name]]
            base = [int(deal[k][0][field]) for deal in expected["pls7"]]
            mean, se = _paired(mine, base)
            assert row[field] == pytest.approx(mean, abs=1e-12), (name, k, field)
            assert row[f"{field}_se"] == pytest.approx(se, abs=1e-7), (name, k, field)
    assert tables["win_deltas"].height == tables["variant_categories"].height
    for row in tables["win_deltas"].iter_rows(named=True):
        k, name, c = row["players"], row["variant"], Category[row["category"]]
        mean, se = _paired([int(d[k][1] == c) for d in expected[name]], [int(d[k][1] == c) for d in expected["pls7"]])
        assert row["win"] == pytest.approx(mean, abs=1e-12), (name, k, c)
        assert row["win_se"] == pytest.approx(se, abs=1e-7), (name, k, c)


def test_base_variant_equals_the_showdown_job(sweep):
    """The base variant's rates equal the showdown job's for the same seed, deals and shards."""
    run_dir, showdown = sweep
    ours = (
        pl.read_csv(run_dir / "tables" / "variants.csv")
        .filter(pl.col("variant") == "pls7")
        .drop("variant", "hole_use", "ranking", "low")
    )
    theirs = pl.read_csv(showdown / "tables" / "summary.csv").drop("game")
    assert ours.equals(theirs)


@pytest.mark.parametrize("knobs", [{"ranking": "skip_over_flush"}, {"hole_use": "2-3"}, {"low": "8"}])
def test_each_variant_equals_the_showdown_job_on_its_rules(sweep, tmp_path, knobs):
    """Every variant's rates and category shares equal the showdown job's on that variant's
    rules for the same seed, though the sweep reranks highs and shares the sums of variants
    with the same highs or present bits."""
    run_dir, _ = sweep
    config = RunConfig(job="showdown", game="pls7", deals=40_000, shard_deals=20_000, players=5, seed=11, **knobs)
    showdown = execute(config, SerialBackend(), tmp_path, quiet=True)
    name = game_of(config).name
    ours = pl.read_csv(run_dir / "tables" / "variants.csv").filter(pl.col("variant") == name)
    assert ours.height == 4
    assert ours.drop("variant", "hole_use", "ranking", "low").equals(
        pl.read_csv(showdown / "tables" / "summary.csv").drop("game")
    )
    ours = pl.read_csv(run_dir / "tables" / "variant_categories.csv").filter(pl.col("variant") == name).drop("variant")
    theirs = pl.read_csv(showdown / "tables" / "categories.csv").drop("game")
    assert ours.sort("players", "category").equals(theirs.select(ours.columns).sort("players", "category"))


def test_paired_error_is_smaller_than_independent(sweep):
    """Common random numbers: the paired SE of a difference is below the independent one."""
    run_dir, _ = sweep
    table = pl.read_csv(run_dir / "tables" / "variants.csv")
    deltas = pl.read_csv(run_dir / "tables" / "deltas.csv")
    for k in (3, 5):
        a = table.filter((pl.col("variant") == "pls7") & (pl.col("players") == k))["hi_chop_se"][0]
        b = table.filter((pl.col("variant") == "pls7[ranking=skip_over_flush]") & (pl.col("players") == k))[
            "hi_chop_se"
        ][0]
        paired = deltas.filter((pl.col("variant") == "pls7[ranking=skip_over_flush]") & (pl.col("players") == k))[
            "hi_chop_se"
        ][0]
        assert 0 < paired < (a**2 + b**2) ** 0.5


def test_bad_variant_text():
    """A malformed --variants list is a clear error."""
    with pytest.raises(SampyongError, match="bad variant"):
        variants.validate(
            RunConfig(
                job="variants",
                game="pls7",
                deals=1,
                shard_deals=1,
                players=2,
                seed=0,
                options=(("variants", "color=red"),),
            )
        )
