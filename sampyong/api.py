"""The Python API: ``import sampyong as sy``, one function per command, results as polars frames
and small frozen dataclasses, errors as ``SampyongError`` with the CLI's one-line message.

The CLI (``sampyong.cli``) is a thin layer over these functions. Polars, Ray and the studies are
imported inside the functions that need them, so ``import sampyong`` stays light.

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
    """

    dir: Path
    config: RunConfig

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
        from jobs import STUDIES
        from pipeline.store import RunStore

        study = STUDIES[self.config.job]
        return RunStore(Path(self.dir), self.config, study.tables).audit([s.index for s in study.plan(self.config)])

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


def games() -> pl.DataFrame:
    """The game presets: ``name, hole_cards, hole_use_min, hole_use_max, ranking, low, max_players``
    (``low`` null for high only)."""
    import polars as pl

    from evaluator.games import PRESETS

    return pl.DataFrame([
        {"name": g.name, "hole_cards": g.hole_cards, "hole_use_min": g.hole_use[0], "hole_use_max": g.hole_use[1],
         "ranking": g.ranking.name, "low": g.low, "max_players": g.max_players}
        for g in PRESETS.values()
    ], schema={"name": pl.String, "hole_cards": pl.Int64, "hole_use_min": pl.Int64, "hole_use_max": pl.Int64,
               "ranking": pl.String, "low": pl.Int64, "max_players": pl.Int64})


def policies() -> pl.DataFrame:
    """The built-in player policies: ``name, style, description``."""
    import polars as pl

    from engine.policy import builtin, builtin_names

    return pl.DataFrame([{"name": n, "style": builtin(n).style, "description": builtin(n).description}
                         for n in builtin_names()], schema={"name": pl.String, "style": pl.String, "description": pl.String})


def execute(study, config, backend, out, *, resume, quiet, output_options=None) -> Path:
    """Run one study (the indirection tests replace); upstream runs land in the cache folder."""
    from evaluator.tables import cache_dir
    from pipeline.runner import execute as run_study

    return run_study(study, config, backend, out, resume=resume, quiet=quiet, upstream_out=cache_dir() / "runs",
                     output_options=output_options)


def run(
    job: str,
    *,
    backend: str = "ray",
    address: str | None = None,
    workers: int | None = None,
    out: str | Path = "outputs",
    resume: bool = True,
    quiet: bool = True,
    record: int | None = None,
    **options: Any,
) -> Run:
    """Run a study (or the ``rulebook`` campaign) to completion and return its ``Run``.

    Parameters:
        job: the study's name (``sampyong jobs``).
        backend: ``ray`` (an embedded Ray, or the cluster at ``address``) or ``serial``.
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
    """
    from pipeline.backends import make_backend

    given = {name: value for name, value in options.items() if value is not None and value is not False}
    study, config = run_config(job, given)
    output_options = {}
    if record is not None:
        if study is None or "record" not in study.output_options:
            raise SampyongError(f"{job} has no use for --record")
        if not 1 <= record <= 1_000_000:
            raise SampyongError(f"--record takes 1 to 1,000,000 hands, not {record}")
        output_options["record"] = record
    runner = make_backend(backend, "local" if address is None else address, workers)
    if study is None:  # the rule book campaign
        from jobs.rulebook import run_rulebook

        run_dir = run_rulebook(config.deals, config.seed, runner, Path(out), resume=resume, quiet=quiet)
    else:
        run_dir = execute(study, config, runner, Path(out), resume=resume, quiet=quiet, output_options=output_options)
    return Run(Path(run_dir), config)


def run_config(job: str, given: dict):
    """The study named ``job`` (None for the rule book campaign) and the ``RunConfig`` of
    ``sampyong run JOB`` with the options ``given`` (only those the user wrote), validated and
    configured once. An unknown name, an option the study has no use for, a value out of range
    or a config the study cannot run is a ``SampyongError``."""
    from jobs import STUDIES, rulebook
    from pipeline.counts import parse_count
    from pipeline.plan import MAX_DEALS, RunConfig, check_limits
    from pipeline.study import SAMPLING_OPTIONS

    deals, shard_deals = "20M", "1M"
    if job == rulebook.NAME:
        study, known, players = None, rulebook.OPTIONS, 8
    elif job in STUDIES:
        study = STUDIES[job]
        known, players = study.options, study.default_players
        deals, shard_deals = study.default_deals, study.default_shard_deals
    else:
        raise SampyongError(f"unknown job {job!r}; choose one of {', '.join([*STUDIES, rulebook.NAME])}")
    unused = [name for name in given if name not in known]
    if unused:
        raise SampyongError(f"{job} has no use for --{unused[0].replace('_', '-')}")
    config = RunConfig(
        job=job,
        game=str(given.get("game", "pls7")).strip().lower(),
        deals=parse_count(str(given.get("deals", deals)), "deal count", at_most=MAX_DEALS),
        shard_deals=parse_count(str(given.get("shard_deals", shard_deals)), "shard size", at_most=MAX_DEALS),
        players=given.get("players", players),
        seed=given.get("seed", 0),
        hole_use=given.get("hole_use"),
        ranking=given.get("ranking"),
        low=given.get("low"),
        options=tuple(sorted((name, str(value)) for name, value in given.items() if name not in CONFIG_OPTIONS)),
    )
    check_limits(config)
    if study is None:
        return None, config
    study.validate(config)
    if "exact" in given and not study.is_exact(config):
        raise SampyongError(f"{job} with these options samples deals; --exact applies to distribution and to grid with 2 players")
    sampling = [name for name in given if name in SAMPLING_OPTIONS]
    if study.is_exact(config) and sampling:
        raise SampyongError(f"{job} with these options is an exact enumeration: --{sampling[0].replace('_', '-')} does not apply")
    return study, study.configure(config)


@dataclasses.dataclass(frozen=True)
class Equity:
    """All-in equity of hands or ranges (``sy.equity``).

    Parameters:
        game: the game's name.
        board: the known board cards.
        exact: True when every deal was enumerated (then no standard errors).
        samples: the boards enumerated, or the deals sampled.
        hands: a row per hand: ``hand, equity, equity_se, win, tie, high, low, scoop`` (and
            ``combos`` for a range), as ``evaluator.equity.equity`` defines them.
    """

    game: str
    board: str
    exact: bool
    samples: int
    hands: tuple[dict, ...]

    @property
    def frame(self) -> pl.DataFrame:
        """The rows as a polars frame."""
        import polars as pl

        return pl.DataFrame(list(self.hands))

    def _repr_html_(self) -> str:
        kind = "exact" if self.exact else f"Monte Carlo, {self.samples:,} deals"
        return f"<p>{self.game}, board {self.board or '(none)'}: {kind}</p>" + self.frame._repr_html_()


def equity(
    hands: list[str], *, board: str = "", dead: str = "", game: str = "pls7", samples: str | int = "1M", seed: int = 0,
    exact: bool | None = None,
) -> Equity:
    """Equity of hands, ``random`` hands and ranges against each other (``sampyong equity``):
    exact when it fits, else sampled with standard errors; ``N%`` ranges use the game's ranking
    (``ranking``). ``SampyongError`` for bad cards, ranges or counts.

    >>> result = equity(["As Ah", "Kd Kc"], board="Qs Js 2h 3c", game="holdem")
    >>> result.exact, [round(h["equity"], 4) for h in result.hands]
    (True, [0.9545, 0.0455])
    """
    from evaluator.equity import equity as compute
    from evaluator.games import game as preset
    from pipeline.counts import parse_count

    rules = preset(game)
    result = compute(rules, list(hands), board=board, dead=dead, samples=parse_count(str(samples), "sample count"),
                     seed=seed, exact=exact, top=lambda percent: ranking(rules).top(percent))
    return Equity(result["game"], result["board"], result["exact"], result["samples"], tuple(result["hands"]))


def evaluate(board: str, hands: list[str], *, game: str = "pls7", pot: int = 100, button: int = 0) -> dict:
    """Referee one showdown (``sampyong eval``): each player's high and low and the chips won,
    as plain data (the ``--json`` object).

    >>> [p["chips"] for p in evaluate("Ad 8c 5h Ks 2c", ["As Ah 3s 6d", "Kh Qc Jh Td"], game="plo8", pot=101)["players"]]
    [101, 0]
    """
    from evaluator.referee import referee

    return referee(game, board, list(hands), pot=pot, button=button)


def ranking(game, quiet: bool = True):
    """The game's starting-hand ranking (``engine.ranking.HandRanking``: percentiles, ``top``):
    its strength run done once on an embedded Ray into the cache folder, read afterwards."""
    from evaluator.games import game as preset
    from evaluator.tables import cache_dir
    from jobs import ranking as build
    from pipeline.backends import RayBackend

    rules = preset(game) if isinstance(game, str) else game
    return build(rules, RayBackend(), cache_dir() / "runs", quiet=quiet)


def _scratch() -> Path:
    """A temporary folder for the doctests."""
    import tempfile

    return Path(tempfile.mkdtemp(prefix="sampyong-doctest-"))
