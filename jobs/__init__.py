"""Studies. A job module provides:

* ``DESCRIPTION`` — one line for ``sampyong jobs``; ``DEFAULT_PLAYERS`` — hands per deal;
* ``TABLES`` — the names of the count tables every shard returns;
* ``OPTIONS`` — the ``sampyong run`` options it uses (any other is refused);
* ``validate(config)`` — raise ``SampyongError`` for a config the job cannot run;
* ``configure(config) -> config`` — fix fields that do not apply (an exact job has no seed);
* ``exact(config) -> bool`` (exact jobs only) — whether this config is enumerated, not sampled;
* ``plan(config) -> [ShardSpec]`` — the shards (Monte Carlo jobs: ``pipeline.plan.plan_shards``);
* ``prepare(config)`` — warm caches in the driver (tables, compiled kernels);
* ``run_shard(config, shard) -> {table: pyarrow.Table}`` — counts only, a pure function;
* ``summarize(counts, config) -> {table: polars.DataFrame}`` — rates and standard errors;
* ``figures(tables, directory, config) -> [paths]`` and ``report(tables, config, figures) -> str``.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from evaluator.errors import SampyongError

# Options of ``sampyong run`` that studies share: the game and its knobs, and the sampling
# (which an exact enumeration has no use for).
GAME_OPTIONS = frozenset({"game", "hole_use", "ranking", "low"})
SAMPLING_OPTIONS = frozenset({"deals", "seed", "shard_deals"})
MONTE_CARLO_OPTIONS = GAME_OPTIONS | SAMPLING_OPTIONS | {"players"}

JOBS = {
    "showdown": "jobs.showdown",
    "distribution": "jobs.distribution",
    "grid": "jobs.grid",
    "variants": "jobs.variants",
    "textures": "jobs.textures",
    "draws": "jobs.draws",
    "rulebook": "jobs.rulebook",
}


def job_module(name: str) -> ModuleType:
    try:
        return importlib.import_module(JOBS[name])
    except KeyError:
        raise SampyongError(f"unknown job {name!r}; choose one of {', '.join(JOBS)}") from None
