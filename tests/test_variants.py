"""The variants job: common random numbers, paired differences, and agreement with showdown."""

import polars as pl
import pytest

from evaluator.errors import SampyongError
from jobs import variants
from pipeline.backends import SerialBackend
from pipeline.plan import RunConfig
from pipeline.runner import execute

OPTIONS = (("variants", "base;ranking=skip_over_flush;hole_use=2-3;low=8"),)


@pytest.fixture(scope="module")
def sweep(tmp_path_factory):
    out = tmp_path_factory.mktemp("variants")
    config = RunConfig(job="variants", game="pls7", deals=40_000, shard_deals=20_000, players=5, seed=11, options=OPTIONS)
    run_dir = execute(config, SerialBackend(), out, quiet=True)
    showdown = execute(RunConfig(job="showdown", game="pls7", deals=40_000, shard_deals=20_000, players=5, seed=11), SerialBackend(), out, quiet=True)
    return run_dir, showdown


def test_tables_and_columns(sweep):
    """variants.csv and deltas.csv have the documented columns and one row per variant and k."""
    run_dir, _ = sweep
    table = pl.read_csv(run_dir / "tables" / "variants.csv")
    assert table.columns[:6] == ["variant", "hole_use", "ranking", "low", "players", "deals"]
    assert table.height == 4 * 4
    assert set(table["variant"]) == {"pls7", "pls7[ranking=skip_over_flush]", "pls7[hole_use=2-3]", "pls7[low=8]"}
    deltas = pl.read_csv(run_dir / "tables" / "deltas.csv")
    assert deltas.columns == ["variant", "players", "deals", "hi_chop", "hi_chop_se", "low_exists", "low_exists_se",
                              "scoop", "scoop_se", "quartered", "quartered_se"]


def test_base_difference_with_itself_is_exactly_zero(sweep):
    """The base variant's paired difference with itself is exactly 0 with SE 0."""
    run_dir, _ = sweep
    base = pl.read_csv(run_dir / "tables" / "deltas.csv").filter(pl.col("variant") == "pls7")
    for column in base.columns[3:]:
        assert (base[column] == 0).all()


def test_base_variant_equals_the_showdown_job(sweep):
    """The base variant's rates equal the showdown job's for the same seed, deals and shards."""
    run_dir, showdown = sweep
    ours = pl.read_csv(run_dir / "tables" / "variants.csv").filter(pl.col("variant") == "pls7").drop("variant", "hole_use", "ranking", "low")
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
    name = config.game_rules.name
    ours = pl.read_csv(run_dir / "tables" / "variants.csv").filter(pl.col("variant") == name)
    assert ours.height == 4
    assert ours.drop("variant", "hole_use", "ranking", "low").equals(pl.read_csv(showdown / "tables" / "summary.csv").drop("game"))
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
        b = table.filter((pl.col("variant") == "pls7[ranking=skip_over_flush]") & (pl.col("players") == k))["hi_chop_se"][0]
        paired = deltas.filter((pl.col("variant") == "pls7[ranking=skip_over_flush]") & (pl.col("players") == k))["hi_chop_se"][0]
        assert 0 < paired < (a**2 + b**2) ** 0.5


def test_bad_variant_text():
    """A malformed --variants list is a clear error."""
    with pytest.raises(SampyongError, match="bad variant"):
        variants.validate(RunConfig(job="variants", game="pls7", deals=1, shard_deals=1, players=2, seed=0, options=(("variants", "color=red"),)))
