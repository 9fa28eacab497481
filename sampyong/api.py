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
from sampyong.rankings import RANKINGS, _ranking_file, ranking  # noqa: F401  (sy.ranking; the tests read the file names)

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


def games() -> pl.DataFrame:
    """The game presets: ``name, hole_cards, hole_use_min, hole_use_max, ranking, low, max_players``
    (``low`` null for high only).

    >>> games().filter(name="plo8").select("hole_cards", "low").row(0)
    (4, 8)
    """
    import polars as pl

    from evaluator.games import PRESETS

    return pl.DataFrame([
        {"name": g.name, "hole_cards": g.hole_cards, "hole_use_min": g.hole_use[0], "hole_use_max": g.hole_use[1],
         "ranking": g.ranking.name, "low": g.low, "max_players": g.max_players}
        for g in PRESETS.values()
    ], schema={"name": pl.String, "hole_cards": pl.Int64, "hole_use_min": pl.Int64, "hole_use_max": pl.Int64,
               "ranking": pl.String, "low": pl.Int64, "max_players": pl.Int64})


def policies(name: str | None = None) -> pl.DataFrame:
    """The built-in player policies, or the one ``name`` gives (built-in or a ``.toml`` file,
    checked): ``name, style, description, toml`` (the policy's file as written).

    >>> policies("station").select("name", "style").row(0)
    ('station', 'thresholds')
    """
    import polars as pl

    from engine.policy import builtin_names, builtin_text, load_policy

    names = builtin_names() if name is None else [name]
    rows = []
    for known in names:
        policy = load_policy(known)
        text = builtin_text(known) if known in builtin_names() else Path(known).read_text(encoding="utf-8")
        rows.append({"name": policy.name, "style": policy.style, "description": policy.description, "toml": text})
    return pl.DataFrame(rows, schema={"name": pl.String, "style": pl.String, "description": pl.String, "toml": pl.String})


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
    """Run a study (or a campaign: ``rulebook``, ``panel``) to completion and return its ``Run``.

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
    runner = make_backend(backend, "local" if address is None else address, workers)
    if study is None:  # a campaign: the rule book or the panel
        from jobs import campaigns

        run_dir = campaigns()[job].run_campaign(config, runner, Path(out), resume=resume, quiet=quiet)
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
    given = {name: value for name, value in given.items() if not (isinstance(value, bool) and value == bool(defaults.get(name)))}
    unused = [name for name in given if name not in defaults]
    if unused:
        raise SampyongError(f"{job} has no use for --{unused[0].replace('_', '-')}")
    # The declared defaults; a field no option sets is one the study's ``configure`` fixes.
    values: dict[str, Any] = {"game": "pls7", "deals": "20M", "shard_deals": "1M", "players": 8 if study is None else 2, "seed": 0}
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
        options=tuple(sorted((name, _option_text(value)) for name, value in given.items() if name not in CONFIG_OPTIONS)),
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


def _option_text(value) -> str:
    """An option's value as ``RunConfig.options`` keeps it: lists (of paths) as JSON."""
    import json

    if isinstance(value, (list, tuple)):
        return json.dumps([str(v) for v in value])
    return str(value)


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

    >>> equity(["As Ah", "Kd Kc"], board="Qs Js 2h 3c", game="holdem").frame.select("hand", "win").rows()
    [('As Ah', 0.9545454545454546), ('Kd Kc', 0.045454545454545456)]
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
    hands: list[str], *, board: str = "", dead: str = "", game: str = "pls7", samples: str | int | None = None,
    seed: int = 0, exact: bool | None = None, threads: int | None = None,
) -> Equity:
    """Equity of hands, ``random`` hands and ranges against each other (``sampyong equity``):
    exact when enumerating fits about a second, else sampled with standard errors; ``N%``
    ranges use the game's ranking (``ranking``). ``samples`` forces sampling (default 1M deals
    when enumeration does not fit), ``exact=True`` enumerates beyond the budget, ``threads``
    sets how many threads enumerate (default every core; the answer does not depend on it).
    ``SampyongError`` for bad cards, ranges or counts.

    >>> result = equity(["As Ah", "Kd Kc"], board="Qs Js 2h 3c", game="holdem")
    >>> result.exact, [round(h["equity"], 4) for h in result.hands]
    (True, [0.9545, 0.0455])
    """
    from evaluator.equity import equity as compute
    from evaluator.games import game as preset
    from pipeline.counts import parse_count

    if samples is not None and exact:
        raise SampyongError("give samples (Monte Carlo) or exact, not both")
    if samples is not None:
        exact = False
    rules = preset(game)
    result = compute(rules, list(hands), board=board, dead=dead,
                     samples=parse_count(str("1M" if samples is None else samples), "sample count"),
                     seed=seed, exact=exact, top=lambda percent: ranking(rules).top(percent), threads=threads)
    return Equity(result["game"], result["board"], result["exact"], result["samples"], tuple(result["hands"]))


def precompute(*, threads: int | None = None, progress=None) -> Path:
    """Build the tables the calculator looks up rather than enumerates, unless this machine has
    them (``sampyong precompute``): hold'em heads-up before the flop, every pair of hands
    (``evaluator.preflop``; about a minute on two cores, once). The table's file.
    ``progress(done, total)`` follows the pair classes counted.

    >>> precompute().name  # doctest: +SKIP
    'holdem-preflop-v1-t5.npz'
    >>> precompute(threads=0)
    Traceback (most recent call last):
    ...
    evaluator.errors.SampyongError: threads must be at least 1
    """
    from evaluator import preflop

    if threads is not None and threads < 1:
        raise SampyongError("threads must be at least 1")
    return preflop.precompute(threads, progress)


@dataclasses.dataclass(frozen=True)
class Verdict:
    """A showdown refereed (``sy.evaluate``).

    Parameters:
        game: the game's name.
        board: the five board cards.
        pot: the chips in the pot.
        button: the dealer's seat.
        players: per seat, as the ``--json`` object writes it: ``hole``, ``high`` (``category``,
            ``cards``), ``low`` (``cards``, or None) and ``chips`` won.

    >>> evaluate("Ad 8c 5h Ks 2c", ["As Ah 3s 6d", "Kh Qc Jh Td"], game="plo8").frame.select("high", "chips").rows()
    [('three_of_a_kind', 100), ('one_pair', 0)]
    """

    game: str
    board: tuple[str, ...]
    pot: int
    button: int
    players: tuple[dict, ...]

    def as_dict(self) -> dict:
        """The ``sampyong eval --json`` object."""
        return {"game": self.game, "board": list(self.board), "pot": self.pot, "button": self.button,
                "players": list(self.players)}

    @property
    def frame(self) -> pl.DataFrame:
        """A row per seat: ``seat, hole, high, high_cards, low, chips``."""
        import polars as pl

        return pl.DataFrame([{
            "seat": seat, "hole": " ".join(p["hole"]), "high": p["high"]["category"], "high_cards": " ".join(p["high"]["cards"]),
            "low": " ".join(p["low"]["cards"]) if p["low"] else None, "chips": p["chips"],
        } for seat, p in enumerate(self.players)], schema={"seat": pl.Int64, "hole": pl.String, "high": pl.String,
                                                            "high_cards": pl.String, "low": pl.String, "chips": pl.Int64})

    def _repr_html_(self) -> str:
        return f"<p>{self.game}, board {' '.join(self.board)}, pot {self.pot}</p>" + self.frame._repr_html_()


def evaluate(board: str, hands: list[str], *, game: str = "pls7", pot: int = 100, button: int = 0) -> Verdict:
    """Referee one showdown (``sampyong eval``): each player's high and low and the chips won.

    >>> [p["chips"] for p in evaluate("Ad 8c 5h Ks 2c", ["As Ah 3s 6d", "Kh Qc Jh Td"], game="plo8", pot=101).players]
    [101, 0]
    """
    from evaluator.referee import referee

    result = referee(game, board, list(hands), pot=pot, button=button)
    return Verdict(result["game"], tuple(result["board"]), result["pot"], result["button"], tuple(result["players"]))


class IncompleteRun(SampyongError):
    """A run that is not complete and sound (``sampyong report`` and ``check`` exit 1 on it).

    >>> run = _doctest_run()
    >>> next((run.dir / "shards").rglob("*.parquet")).unlink()
    >>> report(run.dir)
    Traceback (most recent call last):
    ...
    sampyong.api.IncompleteRun: ... is not complete and sound (...); see `sampyong check ...`
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
        raise IncompleteRun(f"{run_dir} is not complete and sound ({problems[0]}{more}); see `sampyong check {run_dir}`")
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


@dataclasses.dataclass(frozen=True)
class Range:
    """A range expanded (``sy.range``): its hands and weights in one game.

    Parameters:
        game: the game's name.
        expression: the range as written.
        hands: each hand's cards (``"As Kd"``), in card order.
        weights: each hand's weight, 0 to 1.
        share: the weighted share of all starting hands of the game.

    >>> range("AA@50, KK", game="holdem").frame["weight"].sum()
    9.0
    """

    game: str
    expression: str
    hands: tuple[str, ...]
    weights: tuple[float, ...]
    share: float

    @property
    def size(self) -> int:
        """How many hands the range holds."""
        return len(self.hands)

    @property
    def frame(self) -> pl.DataFrame:
        """``hand, weight``, a row per hand."""
        import polars as pl

        return pl.DataFrame({"hand": list(self.hands), "weight": list(self.weights)},
                            schema={"hand": pl.String, "weight": pl.Float64})

    def _repr_html_(self) -> str:
        return f"<p>{self.game} {self.expression}: {self.size:,} hands, {100 * self.share:.3f} %</p>" + self.frame._repr_html_()


def range(expression: str, *, game: str = "pls7") -> Range:  # noqa: A001  the command's name
    """Expand a range (``sampyong range``): the hands it holds and its share of all starting hands.
    The grammar is in ``evaluator.ranges``; ``N%`` uses the game's ``ranking``.

    >>> r = range("QQ+, AKs", game="holdem")
    >>> r.size, round(100 * r.share, 3), r.hands[:2]
    (22, 1.659, ('Qs Qh', 'Qs Qd'))
    """
    from evaluator.cards import format_cards
    from evaluator.games import game as preset
    from evaluator.ranges import parse_range

    rules = preset(game)
    parsed = parse_range(expression, rules, lambda percent: ranking(rules).top(percent))
    return Range(rules.name, expression, tuple(format_cards(c) for c in parsed.combos), parsed.weights, parsed.share(rules))


@dataclasses.dataclass(frozen=True)
class Replays:
    """Hand records replayed through the engine (``sy.replay``).

    Parameters:
        results: one ``engine.phh.Replay`` per hand, in the order read: its ``record``,
            ``status`` (match, differ, illegal, skipped, no_record), ``finishing_stacks``,
            ``expected``, ``message``, the replayed ``hand`` and its writer's ``departures``
            from the rule book (``engine.departures``).

    >>> replay(_example_record()).frame.select("status", "variant").row(0)
    ('match', 'NT')
    """

    results: tuple

    @property
    def ok(self) -> bool:
        """No hand differs from its record or is illegal."""
        return not any(r.status.is_problem for r in self.results)

    @property
    def summary(self) -> str:
        """One line: hands, and how many match, differ, are illegal or are skipped (``engine.phh.summary``)."""
        from engine.phh import summary

        return summary(self.results)

    @property
    def frame(self) -> pl.DataFrame:
        """A row per hand: ``path, index, variant, status, message, departures`` (a list of kinds)."""
        import polars as pl

        columns = ("path", "index", "variant", "status", "message", "departures")
        return pl.DataFrame([{key: r.as_json()[key] for key in columns} for r in self.results],
                            schema={"path": pl.String, "index": pl.Int64, "variant": pl.String, "status": pl.String,
                                    "message": pl.String, "departures": pl.List(pl.String)})

    def _repr_html_(self) -> str:
        return f"<p>{self.summary}</p>" + self.frame._repr_html_()


def replay(paths: str | Path | list) -> Replays:
    """Replay hand records (PHH files, ``.phhs``, or folders searched for them) through the engine
    (``sampyong replay``): is every action legal, and do the finishing stacks equal the record's?
    ``SampyongError`` when a path cannot be read or a file is not PHH.

    >>> result = replay(_example_record())
    >>> result.ok, result.summary
    (True, '1 hands: 1 match, 0 differ, 0 illegal, 0 skipped')
    """
    from engine.phh import load_paths, replay as replay_one

    paths = [paths] if isinstance(paths, (str, Path)) else list(paths)
    return Replays(tuple(replay_one(record) for record in load_paths([Path(p) for p in paths])))


def table_app(folder: str | Path = "tables", policies: str | Path | None = None, announce=None):
    """The home-game server's ASGI app (``sampyong table``): the tables saved in ``folder`` are
    restored, hands in progress included, and each finished hand is appended to
    ``folder/<id>.phhs``. Bots play the built-in policies and the ``.toml`` files of
    ``policies`` (by name); those that read preflop percentiles get the game's ``ranking``.
    ``announce(session)`` is called for every table created. See ``table.app`` for the API.

    >>> import tempfile
    >>> from fastapi.testclient import TestClient
    >>> client = TestClient(table_app(tempfile.mkdtemp()))
    >>> client.post("/api/tables", json={"game": "pls9", "seats": ["Ann", "Bo"]}).json()["error"]
    "unknown game 'pls9'; choose one of pls7, pls, pls7-2, holdem, plo, plo8, plo5-8"
    """
    from table.app import create_app
    from table.bots import Bots

    rankings = {}

    def ranking_of(rules):
        if rules not in rankings:
            rankings[rules] = ranking(rules)
        return rankings[rules]

    if policies is not None and not Path(policies).is_dir():
        raise SampyongError(f"{policies} is not a folder of policy files")
    return create_app(Path(folder), Bots(ranking_of, Path(policies) if policies else None), announce)


def table(folder: str | Path = "tables", *, policies: str | Path | None = None, host: str = "127.0.0.1",
          port: int = 8000, echo=print) -> None:
    """Serve ``table_app(folder, policies)`` on ``host:port`` until interrupted (``sampyong table``):
    ``echo`` gets the URL, any table that could not be restored and, when the server listens
    beyond this machine, every table's links. ``SampyongError`` when the port is taken or the host
    cannot be bound.

    >>> import socket
    >>> with socket.socket() as taken:
    ...     taken.bind(("127.0.0.1", 0)); taken.listen()
    ...     table("tables", port=taken.getsockname()[1])
    Traceback (most recent call last):
    ...
    evaluator.errors.SampyongError: cannot listen on 127.0.0.1:... (Address already in use); choose another --host or --port
    """
    import socket

    import uvicorn

    try:
        with socket.create_server((host, port)):
            pass
    except OSError as error:
        reason = str(error.strerror or error).split(" (while")[0]
        raise SampyongError(f"cannot listen on {host}:{port} ({reason}); choose another --host or --port") from None
    local = host in ("127.0.0.1", "localhost", "::1")
    shown = _lan_address() if host in ("0.0.0.0", "::") else host
    base = f"http://{shown}:{port}"

    def announce(session):
        if local:
            return
        echo(f"table {session.id}: dealer {base}/?table={session.id}&key={session.dealer_key}")
        for seat, key in zip(session.seats, session.seat_keys):
            echo(f"  {seat.name}: {base}/?table={session.id}&key={key}")

    app = table_app(folder, policies, announce)
    for table_id, reason in app.state.tables.broken.items():
        echo(f"table {table_id} is not served: {reason}")
    for session in app.state.tables.tables.values():
        announce(session)
    echo(f"Sampyong table on {base}/  (records in {Path(folder)}/; Ctrl-C stops)")
    uvicorn.run(app, host=host, port=port, log_level="warning")


def _lan_address() -> str:
    """This machine's address on the home network (the one a phone would reach), else its name."""
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # no packet is sent: this only picks the outgoing interface
            return probe.getsockname()[0]
        except OSError:
            return socket.gethostname()


def play(game: str = "pls7", *, players: int = 6, policy: str | None = None, stacks: str | None = None,
         betting: str | None = None, seed: int = 0):
    """One hand dealt from ``seed`` and played by the reference engine at the table ``sampyong run
    play`` sets with the same options; the finished ``engine.hand.Hand``, with its ``actions``
    (PHH notation), ``board``, ``hole`` cards, ``pot`` and ``finishing_stacks``.

    >>> hand = play("holdem", players=2, policy="station", seed=3)
    >>> hand.done, sum(hand.finishing_stacks) == sum(hand.starting_stacks)
    (True, True)
    >>> hand.actions[:2]
    ['d dh p1 ...', 'd dh p2 ...']
    """
    import numpy as np

    from engine.player import deal_hands
    from engine.table import Table
    from evaluator.games import game as preset

    rules = preset(game)
    table = Table.from_options(rules, players, policy=policy, stacks=stacks, betting=betting)
    cards, keys = deal_hands(np.random.default_rng(seed), 1, table.seats, rules)
    percentile = ranking(rules) if table.needs_ranking else (lambda hole: 0.5)
    return table.play_hand(cards[0], keys[0], percentile)


@dataclasses.dataclass(frozen=True)
class Tuned:
    """A policy tuned by self-play (``sy.tune``).

    Parameters:
        policy: the tuned ``engine.policy.Policy``.
        rounds: each round (``engine.tune.Round``): the best response's gain against the field in
            big blinds per 100 hands, ± its standard error, on fresh deals.
        toml: the policy as a TOML file, the rounds in comments.
        converged: whether the last best response gained less than the margin + 2 SE.

    >>> tuned = tune("holdem", players=2, start="regular", rounds=1, trials=4, hands=200)
    >>> tuned.policy.name, tuned.frame.columns
    ('tuned-holdem', ['round', 'gain', 'gain_se', 'search_gain', 'trials'])
    """

    policy: Any
    rounds: tuple
    toml: str
    converged: bool

    @property
    def frame(self) -> pl.DataFrame:
        """A row per round: ``round, gain, gain_se, search_gain, trials``."""
        import polars as pl

        return pl.DataFrame([dataclasses.asdict(r) for r in self.rounds],
                            schema={"round": pl.Int64, "gain": pl.Float64, "gain_se": pl.Float64,
                                    "search_gain": pl.Float64, "trials": pl.Int64})


def tune(game: str = "pls7", *, players: int = 6, start: str = "pro-like", field: str | None = None, rounds: int = 3,
         trials: int = 60, hands: str | int = "4k", seed: int = 0, margin: float = 1.0, name: str | None = None,
         log=None) -> Tuned:
    """Tune a policy by self-play (``sampyong tune``): from ``start``, each round searches every knob
    for the best response to the field (``field``, default ``start``; then the last best
    response) by CMA-ES, each of ``trials`` candidates scored by a duplicate match on ``hands``
    common deals, until the best response gains less than ``margin`` bb/100 + 2 SE on fresh
    deals or ``rounds`` run out (``engine.tune``). The same arguments give the same policy.
    ``log(line)`` hears each round.

    >>> tune("holdem", players=2, rounds=0)
    Traceback (most recent call last):
    ...
    evaluator.errors.SampyongError: rounds must be at least 1, not 0
    """
    from engine.betting import default_betting
    from engine.policy import load_policy
    from engine.tune import tune as tune_policy, tuned_toml
    from evaluator.games import game as preset
    from pipeline.counts import parse_count

    rules = preset(game)
    rules.check_players(players)
    if not 2 <= rules.hole_cards <= 4:
        raise SampyongError(f"tune ranks starting hands by the heads-up grid, which covers games of 2 to 4 hole cards; "
                            f"{rules.name} has {rules.hole_cards}")
    if rounds < 1:
        raise SampyongError(f"rounds must be at least 1, not {rounds}")
    if margin < 0:
        raise SampyongError(f"the margin cannot be negative, not {margin}")
    if trials < 4:
        raise SampyongError(f"tuning needs at least 4 trials a round, not {trials}")
    deals = parse_count(str(hands), "hand count", at_most=10**7)
    label = name or f"tuned-{rules.name}"
    begin = dataclasses.replace(load_policy(start), name=label, description=f"tuned by self-play at {rules.name}, {players} players")
    opponents = load_policy(field) if field else begin
    policy, history = tune_policy(rules, default_betting(rules), begin, opponents, players, ranking(rules), hands=deals,
                                  trials=trials, rounds=rounds, margin=margin, seed=seed, log=log or (lambda line: None))
    policy = dataclasses.replace(policy, name=label, description=begin.description)
    last = history[-1]
    return Tuned(policy, tuple(history), tuned_toml(policy, history, rules, players, margin),
                 last.gain < margin + 2 * last.gain_se)


def _scratch() -> Path:
    """A temporary folder for the doctests."""
    import tempfile

    return Path(tempfile.mkdtemp(prefix="sampyong-doctest-"))


def _doctest_run() -> Run:
    """A small finished showdown run in a temporary folder, for the doctests."""
    return run("showdown", deals="4k", shard_deals="2k", players=2, backend="serial", out=_scratch())


def _example_records(count: int) -> Path:
    """``count`` copies of the one-hand hold'em record in a ``.phhs``, for the doctests."""
    text = _example_record().read_text(encoding="utf-8")
    path = _scratch() / "hands.phhs"
    import builtins  # this module's ``range`` is the command

    path.write_text("\n".join(f"[{i}]\n{text}" for i in builtins.range(1, count + 1)), encoding="utf-8")
    return path


def _example_record() -> Path:
    """A one-hand hold'em record in a temporary folder, for the doctests."""
    path = _scratch() / "hand.phh"
    path.write_text('''variant = "NT"
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [200, 200]
actions = ["d dh p1 AsKs", "d dh p2 7h2d", "p2 cbr 6", "p1 f"]
finishing_stacks = [198, 202]
''', encoding="utf-8")
    return path


def __getattr__(name: str):
    # ``solve`` and ``load_solution`` live in ``sampyong.solutions`` (the solver's face), ``fit`` and
    # ``Fit`` in ``sampyong.fits``, read from here on first use so that the CLI calls every command
    # through this module.
    if name in ("solve", "load_solution"):
        from sampyong import solutions

        return getattr(solutions, name)
    if name in ("fit", "Fit"):  # the fit's face, ``sampyong.fits``
        from sampyong import fits

        return getattr(fits, name)
    raise AttributeError(f"module 'sampyong.api' has no attribute {name!r}")


from sampyong.conversion import Conversion, convert  # noqa: E402,F401  sy.convert lives in its own module
