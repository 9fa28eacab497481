"""``sy.run`` and the runs it leaves (``sampyong run``, ``report``, ``check``, ``view``, ``jobs``):
a study or campaign run to completion, its folder read back lazily as a ``Run``, its outputs
rebuilt from the shards and checked. Polars, Ray and the studies are imported inside the
functions that need them.

>>> import sampyong as sy
>>> sy.games().filter(name="pls7").row(0, named=True)["low"]
7
>>> run = sy.run("showdown", deals="20k", shard_deals="10k", players=4, backend="serial", out=_scratch())
>>> run.config.deals, sorted(run.tables), run.check()
(20000, ['categories', 'summary'], [])
>>> run.tables["summary"].columns[:4]
['game', 'players', 'deals', 'hi_chop']
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from evaluator.errors import SampyongError
from sampyong.examples import _scratch  # noqa: F401  (the doctests' scratch folders)

if TYPE_CHECKING:
    import polars as pl

    from pipeline.plan import RunConfig

# The ``run`` options every config has a field for (``exact`` only checks); a study's own
# options (``policy``, ``variants``, ...) ride in ``RunConfig.options``.
CONFIG_OPTIONS = frozenset({"game", "hole_use", "ranking", "low", "deals", "players", "seed", "shard_deals", "exact"})


@dataclasses.dataclass(frozen=True)
class Run:
    """A run's folder, read lazily: its config, tables (polars frames), report and figures.

    Parameters:
        dir: the run directory, ``OUT/JOB/RUN_ID``.
        config: the ``RunConfig`` that decides its numbers.

    >>> run = Run.at(_doctest_run().dir)
    >>> run.config.job, run.shards, run.tables["summary"]["deals"].to_list()
    ('showdown', 2, [4000])
    """

    dir: Path
    config: RunConfig

    @classmethod
    def at(cls, run_dir: str | Path) -> Run:
        """The run in ``run_dir`` (``OUT/JOB/RUN_ID``), finished or not; ``SampyongError`` when the
        folder holds no run of a study this sampyong knows."""
        from jobs import STUDIES
        from pipeline.store import RunStore

        config = RunStore.read_config(Path(run_dir))
        if config.job not in STUDIES:
            raise SampyongError(f"{run_dir} is a run of {config.job!r}, which this sampyong does not know")
        return cls(Path(run_dir), config)

    @property
    def shards(self) -> int:
        """How many shards the run's plan has."""
        return len(self._study.plan(self.config))

    @property
    def _study(self):
        from jobs import STUDIES

        return STUDIES[self.config.job]

    @property
    def tables(self) -> Mapping[str, pl.DataFrame]:
        """Each summary table by name (``tables/NAME.parquet``), read when asked for."""
        return _Tables(Path(self.dir) / "tables")

    @property
    def report(self) -> str:
        """``report.md``, the run's report in Markdown."""
        return (Path(self.dir) / "report.md").read_text(encoding="utf-8")

    @property
    def figures(self) -> list[Path]:
        """The run's figures (``figures/*.png``)."""
        return sorted((Path(self.dir) / "figures").glob("*.png"))

    def check(self) -> list[str]:
        """What is missing or wrong in the run folder (``sampyong check``): empty when sound."""
        return self._store.audit([s.index for s in self._study.plan(self.config)])

    @property
    def _store(self):
        from pipeline.store import RunStore

        return RunStore(Path(self.dir), self.config, self._study.tables)

    def _repr_markdown_(self) -> str:
        return self.report

    def _repr_html_(self) -> str | None:
        page = Path(self.dir) / "grid.html"
        if not page.is_file():
            return None
        import html

        return f'<iframe srcdoc="{html.escape(page.read_text(encoding="utf-8"))}" style="width:100%;height:720px;border:0"></iframe>'


class _Tables(Mapping):
    """``tables/*.parquet`` by name, each read at its first use."""

    def __init__(self, folder: Path):
        self._folder = folder
        self._read: dict = {}

    def __getitem__(self, name: str):
        if name not in self._read:
            import polars as pl

            path = self._folder / f"{name}.parquet"
            if not path.is_file():
                raise KeyError(name)
            self._read[name] = pl.read_parquet(path)
        return self._read[name]

    def __iter__(self):
        return iter(sorted(p.stem for p in self._folder.glob("*.parquet")))

    def __len__(self) -> int:
        return sum(1 for _ in self)


def execute(study, config, backend, out, *, resume, quiet, output_options=None) -> Path:
    """Run one study (the indirection tests replace); upstream runs land in the cache folder, as a
    campaign's do: a ranking's run is done once per machine, not once per output folder."""
    from evaluator.tables import cache_dir
    from pipeline.runner import execute as run_study

    return run_study(
        study,
        config,
        backend,
        out,
        resume=resume,
        quiet=quiet,
        upstream_out=cache_dir() / "runs",
        output_options=output_options,
    )


def run(
    job: str,
    *,
    backend: str = "auto",
    address: str | None = None,
    workers: int | None = None,
    out: str | Path = "outputs",
    resume: bool = True,
    quiet: bool = True,
    record: int | None = None,
    **options: Any,
) -> Run:
    """Run a study (or a campaign: ``rulebook``, ``panel``) to completion and return its ``Run``.

    Parameters:
        job: the study's name (``sampyong jobs``).
        backend: ``auto`` (this process while the work left is too small to pay for an embedded
            Ray, then Ray; Ray at once with ``address`` or ``workers``), ``ray`` (an embedded Ray,
            or the cluster at ``address``) or ``serial``.
        address, workers: Ray's ``local``/``auto``/``HOST:PORT``, and at most this many tasks.
        out: the output root; the run lands in ``OUT/JOB/RUN_ID``.
        resume: keep the shards a previous run of the same config finished.
        quiet: no progress bar.
        record: play: also write the run's first N hands as ``hands.phhs``.
        options: the study's options as ``sampyong run`` names them, with ``_`` for ``-``:
            ``game``, ``deals`` (``"200M"`` or an int), ``players``, ``seed``, ``shard_deals``,
            ``hole_use``, ``ranking``, ``low``, ``exact``, and the study's own (``policy``, ...).

    Every option the study has no use for, and every value out of range, is a ``SampyongError``
    before anything is written.

    >>> run("play", hands="2k", shard_deals="1k", policy="showdown", players=3, backend="serial", out=_scratch()).tables["streets"]["reach"].to_list()
    [1.0, 1.0, 1.0, 1.0, 1.0]
    >>> run("showdown", policy="tight")
    Traceback (most recent call last):
    ...
    evaluator.errors.SampyongError: showdown has no use for --policy
    """
    from pipeline.backends import make_backend

    given = {name: value for name, value in options.items() if value is not None}
    study, config = run_config(job, given)
    output_options = {}
    if record is not None:
        if study is None or study.option("record") is None:
            raise SampyongError(f"{job} has no use for --record")
        if not 1 <= record <= 1_000_000:
            raise SampyongError(f"--record takes 1 to 1,000,000 hands, not {record}")
        output_options["record"] = record
    runner = make_backend(backend, address, workers)
    if study is None:  # a campaign: the rule book or the panel
        from evaluator.tables import cache_dir
        from jobs import campaigns

        run_dir = campaigns()[job].run_campaign(
            config, runner, Path(out), resume=resume, quiet=quiet, upstream_out=cache_dir() / "runs"
        )
    else:
        run_dir = execute(study, config, runner, Path(out), resume=resume, quiet=quiet, output_options=output_options)
    return Run(Path(run_dir), config)


def run_config(job: str, given: dict):
    """The study named ``job`` (None for the rule book campaign) and the ``RunConfig`` of
    ``sampyong run JOB`` with the options ``given`` (only those the user wrote), validated and
    configured once. An unknown name, an option the study has no use for, a value out of range
    or a config the study cannot run is a ``SampyongError``."""
    from jobs import STUDIES, campaigns
    from pipeline.counts import parse_count
    from pipeline.plan import MAX_DEALS, RunConfig, check_limits
    from pipeline.study import SAMPLING_OPTIONS

    if job in campaigns():
        study, declared = None, campaigns()[job].OPTIONS
    elif job in STUDIES:
        study = STUDIES[job]
        declared = study.options
    else:
        raise SampyongError(f"unknown job {job!r}; choose one of {', '.join([*STUDIES, *campaigns()])}")
    aliases = {alias.lstrip("-").replace("-", "_"): o.name for o in declared for alias in o.aliases}
    given = {aliases.get(name, name): value for name, value in given.items()}  # play's hands= is deals=
    defaults = {o.name: o.default for o in declared}
    # A flag at its default says nothing (``exact=False``, ``duplicate=True``): same config, same run.
    given = {
        name: value
        for name, value in given.items()
        if not (isinstance(value, bool) and value == bool(defaults.get(name)))
    }
    unused = [name for name in given if name not in defaults]
    if unused:
        raise SampyongError(f"{job} has no use for --{unused[0].replace('_', '-')}")
    # The declared defaults; a field no option sets is one the study's ``configure`` fixes.
    values: dict[str, Any] = {
        "game": "pls7",
        "deals": "20M",
        "shard_deals": "1M",
        "players": 8 if study is None else 2,
        "seed": 0,
    }
    values |= {o.name: o.default for o in declared if o.default is not None} | given
    config = RunConfig(
        job=job,
        game=str(values["game"]).strip().lower(),
        deals=parse_count(str(values["deals"]), "deal count", at_most=MAX_DEALS),
        shard_deals=parse_count(str(values["shard_deals"]), "shard size", at_most=MAX_DEALS),
        players=values["players"],
        seed=values["seed"],
        hole_use=given.get("hole_use"),
        ranking=given.get("ranking"),
        low=given.get("low"),
        options=tuple(
            sorted((name, _option_text(value)) for name, value in given.items() if name not in CONFIG_OPTIONS)
        ),
    )
    check_limits(config)
    if study is None:
        return None, config
    study.validate(config)
    if "exact" in given and not study.is_exact(config):
        raise SampyongError(
            f"{job} with these options samples deals; --exact applies to distribution and to grid with 2 players"
        )
    sampling = [name for name in given if name in SAMPLING_OPTIONS]
    if study.is_exact(config) and sampling:
        raise SampyongError(
            f"{job} with these options is an exact enumeration: --{sampling[0].replace('_', '-')} does not apply"
        )
    return study, study.configure(config)


def _option_text(value) -> str:
    """An option's value as ``RunConfig.options`` keeps it: lists (of paths) as JSON."""
    import json

    if isinstance(value, (list, tuple)):
        return json.dumps([str(v) for v in value])
    return str(value)


class IncompleteRun(SampyongError):
    """A run that is not complete and sound (``sampyong report`` and ``check`` exit 1 on it).

    >>> run = _doctest_run()
    >>> next((run.dir / "shards").rglob("*.parquet")).unlink()
    >>> report(run.dir)
    Traceback (most recent call last):
    ...
    sampyong.runs.IncompleteRun: ... is not complete and sound (...); see `sampyong check ...`
    """

    exit_code = 1


def jobs() -> pl.DataFrame:
    """The studies ``run`` knows, and the campaigns (the rule book, the panel): ``name, description``.

    >>> "play" in jobs()["name"].to_list() and "rulebook" in jobs()["name"].to_list()
    True
    """
    import polars as pl

    from jobs import STUDIES, campaigns

    rows = [{"name": s.name, "description": s.description} for s in STUDIES.values()]
    rows += [{"name": c.NAME, "description": c.DESCRIPTION} for c in campaigns().values()]
    return pl.DataFrame(rows, schema={"name": pl.String, "description": pl.String})


def check(run_dir: str | Path) -> list[str]:
    """What is missing or wrong in a run folder, table by table (``sampyong check``): every shard
    of the plan has every table of its study, each file matching its checksum, run id, shard,
    schema version and row count. Empty when the run is complete and sound.

    >>> run = _doctest_run()
    >>> check(run.dir)
    []
    """
    return Run.at(run_dir).check()


def report(run_dir: str | Path) -> Run:
    """Rebuild a run's tables, figures and ``report.md`` from its shards (``sampyong report``);
    ``IncompleteRun`` (nothing written) for a run that is not complete and sound.

    >>> run = _doctest_run()
    >>> (run.dir / "report.md").unlink()
    >>> report(run.dir).report.startswith("# ")
    True
    """
    from pipeline.aggregate import build_outputs

    run = Run.at(run_dir)
    problems = run.check()
    if problems:
        more = f"; {len(problems) - 1} more" if len(problems) > 1 else ""
        raise IncompleteRun(
            f"{run_dir} is not complete and sound ({problems[0]}{more}); see `sampyong check {run_dir}`"
        )
    store = run._store
    inputs = None
    if run._study.inputs is not None:  # tables set beside upstream runs': read those again (run them if gone)
        from evaluator.tables import cache_dir
        from pipeline.backends import SerialBackend
        from pipeline.runner import study_inputs

        inputs = study_inputs(run._study, store.config, SerialBackend(), cache_dir() / "runs")
    build_outputs(run._study, store, store.read_manifest(), inputs)
    return run


def view(run_dir: str | Path) -> list[Path]:
    """Write the pages of a finished run again (``sampyong view``), e.g. a grid run's
    ``grid.html``, and return their paths; ``SampyongError`` for a run without tables or pages.

    >>> view(_doctest_run().dir)
    Traceback (most recent call last):
    ...
    evaluator.errors.SampyongError: ... is a showdown run, which has no page to view
    """
    from pipeline.aggregate import write_extra_outputs
    from pipeline.runner import read_tables

    run = Run.at(run_dir)
    tables = read_tables(run.dir)
    if not tables:
        raise SampyongError(f"{run_dir} has no tables: finish the run (or `sampyong report` it) first")
    written = [p for p in write_extra_outputs(run._study, run.dir, run.config, tables) if p.suffix == ".html"]
    if not written:
        raise SampyongError(f"{run_dir} is a {run.config.job} run, which has no page to view")
    return written


def _doctest_run() -> Run:
    """A small finished showdown run in a temporary folder, for the doctests."""
    return run("showdown", deals="4k", shard_deals="2k", players=2, backend="serial", out=_scratch())
