"""Run a config to completion: plan shards, skip finished ones, run the rest, aggregate."""

from __future__ import annotations

import sys
from pathlib import Path

from evaluator.errors import SampyongError
from jobs import job_module
from pipeline.aggregate import build_outputs
from pipeline.backends import Backend
from pipeline.plan import RunConfig
from pipeline.progress import Progress
from pipeline.store import RunStore


def execute(
    config: RunConfig,
    backend: Backend,
    out: Path,
    *,
    resume: bool = True,
    quiet: bool = False,
) -> Path:
    """Compute every missing shard of ``config`` under ``out`` and write the tables; return the run dir."""
    job = job_module(config.job)
    job.validate(config)
    config = job.configure(config)
    job.prepare(config)  # warm tables and compiled kernels once, before workers need them
    store = RunStore.create(out, config)

    def log(message: str) -> None:
        if not quiet:
            print(message, file=sys.stderr)

    manifest = store.finished_shards(log=log) if resume else {}
    if not resume:
        store._write_manifest({})
    shards = job.plan(config)
    todo = [s for s in shards if s.index not in manifest]
    done_deals = sum(s.deals for s in shards if s.index in manifest)
    if manifest:
        log(f"resuming: {len(manifest)} of {len(shards)} shards already done")

    with Progress(total=sum(s.deals for s in shards), done=done_deals, quiet=quiet, label=config.job) as progress:

        def on_result(shard, tables) -> None:
            try:
                store.write_shard(shard.index, tables, manifest)
            except OSError as error:
                raise SampyongError(f"cannot write shard {shard.index} in {store.run_dir}: {error.strerror or error}") from None
            progress.advance(shard.deals)

        backend.run(job.run_shard, config, todo, on_result)
    try:
        build_outputs(store, manifest)
    except OSError as error:
        raise SampyongError(f"cannot write the tables of {store.run_dir}: {error.strerror or error}") from None
    return store.run_dir
