"""A study is an object handed to the pipeline: what its shards compute and how its counts
become tables, figures and a report. The pipeline never looks a study up by name.

>>> import pyarrow as pa, polars as pl
>>> def coin(config, shard):
...     heads = int(shard.generator().integers(0, 2, shard.deals).sum())
...     return {"flips": pa.table({"heads": pa.array([heads], pa.uint64())})}
>>> toy = Study(
...     name="coin", description="heads in fair coin flips", tables=("flips",), run_shard=coin,
...     summarize=lambda counts, config: {"flips": counts["flips"]},
...     report=lambda tables, config, figures: "# coin\\n",
... )
>>> toy.plan(RunConfig(job="coin", game="-", deals=10, shard_deals=4, players=1, seed=0))
[ShardSpec(index=0, deals=4, root_seed=0), ShardSpec(index=1, deals=4, root_seed=0), ShardSpec(index=2, deals=2, root_seed=0)]
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from pathlib import Path

from pipeline.plan import RunConfig, ShardSpec, plan_shards

# The ``sampyong run`` options that sample deals, which an exact enumeration has no use for.
SAMPLING_OPTIONS = frozenset({"deals", "seed", "shard_deals"})


def _no_checks(config: RunConfig) -> None:
    return None


def _unchanged(config: RunConfig) -> RunConfig:
    return config


def _no_figures(tables: Mapping, directory: Path, config: RunConfig) -> list:
    return []


@dataclasses.dataclass(frozen=True)
class Study:
    """One study the pipeline can run.

    Parameters:
        name: the name ``sampyong run NAME`` knows it by (and its runs' folder).
        description: one line for ``sampyong jobs``.
        tables: the count tables every shard returns; a shard is finished only with all of them.
        run_shard: ``(config, shard) -> {table: pyarrow.Table}`` of unsigned 64-bit counts; pure:
            the same shard gives the same bytes on any worker.
        summarize: ``(counts, config) -> {table: polars.DataFrame}``, the summed counts made rates
            with standard errors (or exact shares).
        report: ``(tables, config, figures) -> str``, the Markdown of ``report.md``; ``figures``
            is what ``figures`` returned.
        figures: ``(tables, directory, config) -> [paths]``, the PNG figures written into
            ``directory`` (default: none).
        options: the ``sampyong run`` options the study uses; the CLI refuses any other.
        validate: raises ``SampyongError`` for a config the study cannot run (default: none).
        configure: fixes the fields that do not apply (an exact study has no seed).
        plan: the shards (default: ``plan_shards``, even shards of ``shard_deals``).
        prepare: warms tables and compiled kernels in the driver before workers need them
            (default: one 4-deal shard).
        exact: ``config -> bool``, whether the config is enumerated rather than sampled
            (None: always sampled).
        default_players: hands per deal when ``--players`` is not given.
    """

    name: str
    description: str
    tables: tuple[str, ...]
    run_shard: Callable[[RunConfig, ShardSpec], dict]
    summarize: Callable[[dict, RunConfig], dict]
    report: Callable[[dict, RunConfig, dict], str]
    figures: Callable[[dict, Path, RunConfig], list] = _no_figures
    options: frozenset = SAMPLING_OPTIONS
    validate: Callable[[RunConfig], None] = _no_checks
    configure: Callable[[RunConfig], RunConfig] = _unchanged
    plan: Callable[[RunConfig], list] = plan_shards
    prepare: Callable[[RunConfig], None] | None = None
    exact: Callable[[RunConfig], bool] | None = None
    default_players: int = 2

    def warm(self, config: RunConfig) -> None:
        """Run ``prepare``, or by default one tiny shard, in the driver."""
        if self.prepare is not None:
            self.prepare(config)
        else:
            self.run_shard(config, ShardSpec(index=0, deals=4, root_seed=0))

    def is_exact(self, config: RunConfig) -> bool:
        """Whether ``config`` is an exact enumeration (no sampling options apply)."""
        return self.exact is not None and self.exact(config)
