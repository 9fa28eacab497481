"""Run configs to completion: plan shards, skip finished ones, run the rest, aggregate.

``execute_all`` runs several configs as one graph: the missing shards of every run go to the
backend as one stream of tasks (so no core waits at the end of one run for the next to
start), and each run's tables are built as soon as its last shard has landed.

A study may declare upstream runs (``Study.upstream``): they run first, on the same backend,
into ``upstream_out`` (a complete one is only read), and the study's ``inputs`` turns their
tables into data that every shard task carries (datatrove's ``depends=``, in one process).
"""

from __future__ import annotations

import contextlib
import dataclasses
import fcntl
import sys
from pathlib import Path

from evaluator.errors import SampyongError
from pipeline.aggregate import build_outputs
from pipeline.backends import Backend, ShardTask
from pipeline.plan import RunConfig, ShardSpec
from pipeline.progress import Progress
from pipeline.store import RunStore
from pipeline.study import Study


@dataclasses.dataclass
class _Run:
    """One config's study and store, its finished shards (the manifest), the shards still to
    do, and the data its shards are handed (``Study.inputs``)."""

    study: Study
    config: RunConfig
    store: RunStore
    manifest: dict
    shards: list[ShardSpec]
    todo: list[ShardSpec]
    inputs: object = None

    @property
    def total(self) -> int:
        return sum(s.deals for s in self.shards)

    @property
    def done(self) -> int:
        return sum(s.deals for s in self.shards if s.index in self.manifest)


def _open(study: Study, config: RunConfig, out: Path, resume: bool, log, inputs) -> _Run:
    if config.job != study.name:
        raise ValueError(f"a {config.job} config handed to the {study.name} study")
    store = RunStore.create(out, config, study.tables)
    manifest = store.finished_shards(log=log) if resume else {}
    if not resume:
        store.write_manifest({})
    shards = study.plan(config)
    todo = [s for s in shards if s.index not in manifest]
    if todo:
        study.warm(config, inputs)  # tables and compiled kernels once, before workers need them
    if manifest:
        log(f"{config.job} {config.game}: resuming, {len(manifest)} of {len(shards)} shards already done")
    return _Run(study, config, store, manifest, shards, todo, inputs)


def read_tables(run_dir: Path) -> dict:
    """A finished run's summary tables, ``{name: polars.DataFrame}`` from ``tables/*.parquet``."""
    import polars as pl

    return {path.stem: pl.read_parquet(path) for path in sorted((Path(run_dir) / "tables").glob("*.parquet"))}


def study_inputs(study: Study, config: RunConfig, backend: Backend, upstream_out: Path, quiet: bool = True):
    """What ``study`` hands its shards (and its summaries) for ``config``: its upstream runs done
    (or read, when complete), then ``study.inputs`` of their tables; None for a study without inputs."""
    if study.inputs is None:
        return None
    runs = study.upstream(config) if study.upstream is not None else []
    with _one_process_at_a_time(upstream_out, [c for _, c in runs]):
        dirs = execute_all(runs, backend, upstream_out, quiet=quiet, upstream=True) if runs else []
    return study.inputs(config, [read_tables(d) for d in dirs])


@contextlib.contextmanager
def _one_process_at_a_time(folder: Path, configs: list[RunConfig]):
    """Hold an exclusive ``flock`` per run of ``configs`` (files in ``FOLDER/.locks``, taken in
    one order): another process wanting the same upstream run meanwhile (a second command, a
    second pytest worker) waits, then finds it complete and only reads it, rather than doing
    every shard again beside the first."""
    names = sorted({f"{c.job}-{c.run_id}.lock" for c in configs})
    with contextlib.ExitStack() as held:
        try:
            if names:
                (Path(folder) / ".locks").mkdir(parents=True, exist_ok=True)
            files = [held.enter_context(open(Path(folder) / ".locks" / name, "w")) for name in names]
        except OSError as error:
            raise SampyongError(f"cannot write in {folder}: {error.strerror or error}") from None
        for file in files:
            fcntl.flock(file, fcntl.LOCK_EX)  # released when the file closes
        yield


def _build(run: _Run, options) -> None:
    try:
        build_outputs(run.study, run.store, run.manifest, run.inputs, options)
    except OSError as error:
        raise SampyongError(f"cannot write the tables of {run.store.run_dir}: {error.strerror or error}") from None


def execute_all(
    runs: list[tuple[Study, RunConfig]],
    backend: Backend,
    out: Path,
    *,
    resume: bool = True,
    quiet: bool = False,
    upstream_out: Path | None = None,
    upstream: bool = False,
    output_options: dict | None = None,
) -> list[Path]:
    """Run several studies' configs as one stream of shard tasks, then build each run's outputs.

    Each study's upstream runs come first (into ``upstream_out``, on ``backend``), then every
    run's directory is opened (its finished shards checked when resuming, its study warmed
    when shards are left), the missing shards of all runs go to ``backend`` at once, and each
    run's tables, figures and report are built as soon as its last shard has landed (at once
    for a run already complete).

    Parameters:
        runs: (study, config) pairs; each config one its study accepts (validated and configured by
            the caller) and whose ``job`` is the study's name.
        backend: where the shards run (``pipeline.backends``).
        out: the output folder; runs land in ``OUT/JOB/RUN_ID``.
        resume: keep the sound finished shards of an earlier run (False: start afresh).
        quiet: no progress bar and no messages on standard error.
        upstream_out: where upstream runs land (default: ``out``); a driver's cache folder keeps
            them from one command to the next.
        upstream: these are upstream runs: a complete one with its report is only read.
        output_options: options of the studies' extra ``outputs`` (``{"record": 300}``).

    Returns the run directories, in the order of ``runs``. Raises ``SampyongError`` if a run is
    listed twice, a config is one its study refuses, or a folder or file cannot be written. Raises
    ``ValueError`` if a config's ``job`` is not its study's name.
    """

    if upstream:  # inside the caller's session
        return _execute_all(
            runs, backend, out, resume, quiet, out if upstream_out is None else upstream_out, True, output_options
        )
    with backend.session():  # one Ray for the upstream runs and these
        return _execute_all(
            runs, backend, out, resume, quiet, out if upstream_out is None else upstream_out, False, output_options
        )


def _execute_all(runs, backend, out, resume, quiet, upstream_out, upstream, output_options) -> list[Path]:
    def log(message: str) -> None:
        if not quiet:
            print(message, file=sys.stderr)

    runs = [
        _open(study, config, out, resume, log, study_inputs(study, config, backend, upstream_out, quiet))
        for study, config in runs
    ]
    by_config = {run.config: run for run in runs}
    if len(by_config) != len(runs):
        raise SampyongError("the same run is listed twice")
    row = {run.config: i for i, run in enumerate(runs)}
    tasks = [ShardTask(run.study.shard_fn(run.inputs), run.config, shard) for run in runs for shard in run.todo]
    remaining = {run.config: len(run.todo) for run in runs}
    labels = [f"{run.config.job} {run.config.game}" if len(runs) > 1 else run.config.job for run in runs]

    with Progress([(label, run.total, run.done) for label, run in zip(labels, runs)], quiet=quiet) as progress:

        def on_result(task: ShardTask, tables: dict) -> None:
            run = by_config[task.config]
            try:
                run.store.write_shard(task.shard.index, tables, run.manifest)
            except OSError as error:
                raise SampyongError(
                    f"cannot write shard {task.shard.index} in {run.store.run_dir}: {error.strerror or error}"
                ) from None
            progress.advance(row[task.config], task.shard.deals)
            remaining[task.config] -= 1
            if remaining[task.config] == 0:
                _build(run, output_options)

        for run in runs:
            if not run.todo and not (upstream and (run.store.run_dir / "report.md").is_file()):
                _build(run, output_options)
        if tasks:  # runs already complete need no backend: a Ray start costs seconds
            backend.run(tasks, on_result, on_status=progress.cluster)
    return [run.store.run_dir for run in runs]


def execute(
    study: Study,
    config: RunConfig,
    backend: Backend,
    out: Path,
    *,
    resume: bool = True,
    quiet: bool = False,
    upstream_out: Path | None = None,
    output_options: dict | None = None,
) -> Path:
    """Run one study's config to completion: its upstream runs, its missing shards, then its outputs.

    Parameters:
        study: the study (``jobs.STUDIES[name]``, or any ``Study``).
        config: a config the study accepts (validated and configured by the caller).
        backend: where the shards run.
        out: the output folder.
        resume: keep the sound finished shards of an earlier run.
        quiet: no progress bar and no messages.
        upstream_out: where its upstream runs land (default: ``out``).
        output_options: options of the study's extra ``outputs``.

    Returns the run directory, ``OUT/JOB/RUN_ID``. Raises ``SampyongError`` if the config is one the
    study refuses or a folder or file cannot be written. Raises ``ValueError`` if ``config.job`` is
    not ``study.name``.
    """
    return execute_all(
        [(study, config)],
        backend,
        out,
        resume=resume,
        quiet=quiet,
        upstream_out=upstream_out,
        output_options=output_options,
    )[0]
