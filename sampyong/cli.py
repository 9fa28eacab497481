"""The ``sampyong`` command: thin typer commands that build a config and call one function.

Every user error is a ``SampyongError``: one line on stderr, exit code 2, no traceback.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Annotated, Optional

import typer

from evaluator.errors import SampyongError

app = typer.Typer(
    name="sampyong",
    help="Sampyong Lab: exact and simulated answers about PLS7 and other poker variants.",
    context_settings={"help_option_names": ["-h", "--help"]},
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

VERSION = "0.1.0"


def user_errors(command):
    """Turn a SampyongError into one line on stderr and exit code 2."""

    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except SampyongError as error:
            typer.echo(f"error: {error}", err=True)
            raise typer.Exit(getattr(error, "exit_code", 2)) from None

    return wrapper


def _version(value: bool) -> None:
    if value:
        typer.echo(f"sampyong {VERSION}")
        raise typer.Exit()


@app.callback()
def root(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit.")
    ] = False,
) -> None:
    """Sampyong Lab: exact and simulated answers about PLS7 and other poker variants."""


# --- listings -------------------------------------------------------------------------------


@app.command()
@user_errors
def games() -> None:
    """List the game presets, their knobs, and the ranking presets."""
    from evaluator.games import RANKINGS
    from sampyong import calculator

    for g in calculator.games().iter_rows(named=True):
        low = f"{g['low']}-or-better low" if g["low"] else "high only"
        typer.echo(
            f"{g['name']:8} {g['hole_cards']} hole cards, use {g['hole_use_min']}-{g['hole_use_max']}, "
            f"ranking {g['ranking']}, {low}, 2-{g['max_players']} players"
        )
    typer.echo("")
    typer.echo("knobs: --hole-use MIN-MAX|free|at-least-one|pls-2  --ranking NAME  --low 6|7|8|none")
    for r in RANKINGS.values():
        typer.echo(f"ranking {r.name:20} " + " < ".join(c.name for c in r.order))


@app.command()
@user_errors
def jobs() -> None:
    """List the studies `sampyong run` knows, and the rule book campaign."""
    from sampyong import runs

    for job in runs.jobs().iter_rows(named=True):
        typer.echo(f"{job['name']:12} {job['description']}")


# --- run and report ------------------------------------------------------------------------


def _where(
    backend: Annotated[
        str,
        typer.Option(
            help="auto: this process while the work left is too small to pay for an embedded Ray's start, "
            "then Ray (Ray at once with --address or --workers); ray; or serial, all in this process."
        ),
    ] = "auto",
    address: Annotated[
        str | None,
        typer.Option(help="Ray: local (an embedded Ray of its own, the default), auto, or HOST:PORT of a cluster."),
    ] = None,
    workers: Annotated[
        int | None, typer.Option(help="At most this many shard tasks at once (default: follow the cluster's CPUs).")
    ] = None,
    out: Annotated[Path, typer.Option(help="Output root; the run lands in OUT/JOB/RUN_ID.")] = Path("outputs"),
    resume: Annotated[bool, typer.Option(help="Skip shards a previous run of the same config finished.")] = True,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar or notes.")] = False,
) -> None:
    """The options of every run: where its work runs and lands (``sy.run``'s keywords)."""


def _study_command(job: str, options) -> Callable[..., None]:
    """``sampyong run JOB``: the options ``job`` declares (``pipeline.study.Option``), then
    ``_where``'s, as one typer command that calls ``sy.run``."""
    import inspect

    def command(**given) -> None:
        from sampyong import runs

        try:
            result = runs.run(job, **given)
        except KeyboardInterrupt:
            typer.echo("interrupted: finished shards are kept; rerun the same command to resume", err=True)
            raise typer.Exit(130) from None
        typer.echo(str(result.dir))

    def parameter(option) -> inspect.Parameter:
        if option.argument:
            declared = typer.Argument(
                None, help=option.help, show_default=False, metavar=option.name.upper().removesuffix("S")
            )
            paths = Optional[list[Path]]  # noqa: UP045  typer reads it at run time
            return inspect.Parameter(option.name, inspect.Parameter.KEYWORD_ONLY, default=declared, annotation=paths)
        text = option.help
        if option.default is not None and option.kind is not bool:
            text = f"{text.removesuffix('.')} (default: {option.default})."
        if option.kind is bool and option.default is True:  # on unless --no-NAME
            declared = typer.Option(True, "/".join(option.flags[:2]), *option.flags[2:], help=text, show_default=False)
        else:
            declared = typer.Option(
                False if option.kind is bool else None, *option.flags, help=text, show_default=False
            )
        kind = bool if option.kind is bool else Optional[option.kind]  # noqa: UP045  typer reads it at run time
        return inspect.Parameter(option.name, inspect.Parameter.KEYWORD_ONLY, default=declared, annotation=kind)

    where = inspect.signature(_where, eval_str=True).parameters.values()
    parameters = [parameter(o) for o in options] + [p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in where]
    # inspect.signature reads a function's __signature__ (PEP 362); typeshed's FunctionType does not declare it.
    command.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    command.__annotations__ = {p.name: p.annotation for p in parameters}
    return user_errors(command)


class StudyCommands(typer.core.TyperGroup):
    """``sampyong run``'s commands, one per study and one for the rule book, built from the options
    each declares when first asked for (so that the other commands never import the studies)."""

    @functools.cached_property
    def studies(self) -> Mapping:  # name -> click command (typer 0.28 vendors its own click)
        from jobs import STUDIES, campaigns

        commands = typer.Typer()
        for study in STUDIES.values():
            commands.command(
                study.name,
                help=f"{study.description[:1].upper()}{study.description[1:]}. The last line "
                "printed is the run directory.",
            )(_study_command(study.name, (*study.options, *study.output_options)))
        for campaign in campaigns().values():
            commands.command(
                campaign.NAME,
                help=f"A campaign: {campaign.DESCRIPTION}. The last line printed is the report's directory.",
            )(_study_command(campaign.NAME, campaign.OPTIONS))
        group = typer.main.get_command(commands)
        assert isinstance(group, typer.core.TyperGroup)  # more than one command: a group
        return group.commands

    def list_commands(self, ctx) -> list[str]:
        return list(self.studies)

    def get_command(self, ctx, name: str):
        if name not in self.studies:
            ctx.fail(f"unknown job {name!r}; choose one of {', '.join(self.studies)}")
        return self.studies[name]


app.add_typer(
    typer.Typer(cls=StudyCommands, no_args_is_help=True),
    name="run",
    help="Run a study (sampyong run STUDY --help lists its options). Every limit is checked before anything is "
    "written, and the last line printed is the run directory.",
)


@app.command()
@user_errors
def report(run_dir: Annotated[Path, typer.Argument(help="A run directory (OUT/JOB/RUN_ID).")]) -> None:
    """Rebuild a run's tables, figures and report.md from its shards.

    Refuses (exit code 1, nothing written) a run that is not complete and sound: run the same
    sampyong run command again to finish it, or see sampyong check RUN_DIR.
    """
    from sampyong import runs

    typer.echo(str(runs.report(run_dir).dir))


@app.command()
@user_errors
def check(run_dir: Annotated[Path, typer.Argument(help="A run directory (OUT/JOB/RUN_ID).")]) -> None:
    """Verify a run directory table by table: every shard of the plan has every table of its study,
    and each file matches its checksum, run_id, shard, schema version and row count.

    Exit code 0 only when the run is complete and sound; 1 lists what is missing or wrong.
    """
    from sampyong import runs

    problems = runs.check(run_dir)
    for problem in problems:
        typer.echo(problem)
    if problems:
        raise typer.Exit(1)
    typer.echo(f"ok: {runs.Run.at(run_dir).shards} shards complete and sound in {run_dir}")


# --- the referee ---------------------------------------------------------------------------


def _print_verdict(result: dict) -> None:
    typer.echo(f"{result['game']}  board {' '.join(result['board'])}  pot {result['pot']}")
    for seat, p in enumerate(result["players"]):
        low = " ".join(p["low"]["cards"]) if p["low"] else "no low"
        typer.echo(
            f"  seat {seat}: {' '.join(p['hole']):10}  high {p['high']['category']:20} "
            f"{' '.join(p['high']['cards'])}   low {low:16}  wins {p['chips']}"
        )


@app.command("eval")
@user_errors
def eval_(
    hands: Annotated[list[str] | None, typer.Argument(help='Hole cards per player, e.g. "As 2c Kh".')] = None,
    board: Annotated[str | None, typer.Option(help='The five board cards, e.g. "Ad 7s 4h 8s Qc".')] = None,
    game: Annotated[str, typer.Option(help="Game preset.")] = "pls7",
    pot: Annotated[int, typer.Option(help="Chips in the pot.")] = 100,
    button: Annotated[int, typer.Option(help="Seat of the dealer button (seats count from 0).")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    input_file: Annotated[
        str | None, typer.Option("--input", help="JSON lines of deals to judge (- for stdin); one result per line.")
    ] = None,
) -> None:
    """Referee a showdown: each player's high and low and the chips won."""
    from evaluator.referee import referee_lines
    from sampyong import calculator

    if input_file is not None:
        if board is not None or hands or as_json:
            raise SampyongError(
                "--input reads deals as JSON lines and prints JSON lines: drop --board, the hands and --json"
            )
        stream = sys.stdin if input_file == "-" else _open_input(input_file)
        for result in referee_lines(stream, game=game, pot=pot, button=button, source=input_file):
            typer.echo(json.dumps(result))
        return
    if board is None or not hands:
        raise SampyongError('give --board "CARDS" and one or more hands, or --input FILE')
    result = calculator.evaluate(board, hands, game=game, pot=pot, button=button).as_dict()
    if as_json:
        typer.echo(json.dumps(result))
    else:
        _print_verdict(result)


@app.command("equity")
@user_errors
def equity_(
    hands: Annotated[
        list[str],
        typer.Argument(
            help='Per player: cards ("As Ks Qh"), random, or a range ("QQ+, AKs", "AA*", "15%"; see `sampyong range --help`).'
        ),
    ],
    board: Annotated[str, typer.Option(help="Known board cards (0, 3, 4 or 5).")] = "",
    dead: Annotated[str, typer.Option(help="Cards known to be out of play.")] = "",
    game: Annotated[str, typer.Option(help="Game preset.")] = "pls7",
    samples: Annotated[
        str | None,
        typer.Option(
            help="Sample this many Monte Carlo deals instead of enumerating (default: 1M when enumeration does not fit)."
        ),
    ] = None,
    exact: Annotated[
        bool, typer.Option("--exact", help="Enumerate even when it takes longer than about a second.")
    ] = False,
    threads: Annotated[
        int | None, typer.Option(help="Threads that enumerate (default: every core; same answer).")
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed for Monte Carlo.")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """All-in equity of hands and ranges against each other: exact (every board, every deal of the
    ranges) when that takes about a second or less, else sampled with standard errors. Hold'em
    heads-up before the flop is looked up once `sampyong precompute` has built its table."""
    from evaluator.games import game as preset
    from sampyong import calculator

    result = calculator.equity(
        hands, board=board, dead=dead, game=game, samples=samples, seed=seed, exact=exact or None, threads=threads
    )
    if as_json:
        typer.echo(json.dumps(dataclasses.asdict(result) | {"hands": list(result.hands)}))
        return
    kind = (
        f"exact over {result.samples:,} boards" if result.exact else f"Monte Carlo, {result.samples:,} deals, +/- 1 SE"
    )
    typer.echo(f"{result.game}  board {result.board or '(none)'}  ({kind})")
    width = max(14, *(len(h["hand"]) for h in result.hands))
    for h in result.hands:
        se = "" if result.exact else f" +/- {100 * h['equity_se']:.2f}"
        scoop = f"  scoop {100 * h['scoop']:6.2f}%" if preset(game).low is not None else ""
        combos = f"  ({h['combos']:,} hands)" if "combos" in h else ""
        typer.echo(
            f"  {h['hand']:{width}} equity {100 * h['equity']:7.3f}%{se}   win {100 * h['win']:6.2f}%  "
            f"tie {100 * h['tie']:6.2f}%   high {100 * h['high']:6.2f}%  low {100 * h['low']:6.2f}%{scoop}{combos}"
        )


@app.command()
@user_errors
def precompute(
    threads: Annotated[int | None, typer.Option(help="Threads that count (default: every core).")] = None,
) -> None:
    """Build once the tables `sampyong equity` then looks up instead of enumerating: hold'em
    heads-up before the flop, every pair of starting hands (47,008 classes up to suits; about a
    minute on two cores). Kept in the cache folder ($SAMPYONG_CACHE or ~/.cache/sampyong)."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from sampyong import calculator

    with Progress(
        TextColumn("hold'em preflop pairs"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        transient=True,
        disable=not sys.stderr.isatty(),
        console=Console(stderr=True),
    ) as bar:
        task = bar.add_task("pairs", total=None)
        path = calculator.precompute(
            threads=threads, progress=lambda done, total: bar.update(task, completed=done, total=total)
        )
    typer.echo(f"hold'em heads-up preflop table: {path}")


@app.command("solve")
@user_errors
def solve_(
    board: Annotated[str, typer.Option(help='The board: 3, 4 or 5 cards ("Ks 7d 2c 9h").')],
    oop: Annotated[
        str,
        typer.Option(
            help='The range out of position, who acts first ("QQ+, AKs", "30%"; see `sampyong range --help`).'
        ),
    ],
    ip: Annotated[str, typer.Option(help="The range in position.")],
    game: Annotated[str, typer.Option(help="Game preset.")] = "pls7",
    pot: Annotated[int, typer.Option(help="Chips in the pot.")] = 100,
    stack: Annotated[int, typer.Option(help="Each player's chips behind (the effective stack).")] = 400,
    bets: Annotated[
        str | None,
        typer.Option(
            help='Bet sizes per street, as % of the pot, "pot" or "allin" (default "flop: 33%, 75%; turn: 50%, 100%; river: 75%, allin").'
        ),
    ] = None,
    raises: Annotated[
        str | None,
        typer.Option(
            help='Raise sizes per street: % of the pot after the call, "pot", "Nx" the bet faced, "allin" (default "100%"; "" for none).'
        ),
    ] = None,
    max_raises: Annotated[int, typer.Option(help="Raises a street allows after its first bet.")] = 1,
    betting: Annotated[
        str | None,
        typer.Option(
            help="no-limit or pot-limit (default: the game's; pot-limit caps every bet and raise at the pot)."
        ),
    ] = None,
    target: Annotated[float, typer.Option(help="Stop when the exploitability is at most this % of the pot.")] = 0.3,
    iterations: Annotated[int, typer.Option(help="Stop after this many DCFR iterations at most.")] = 1000,
    threads: Annotated[int | None, typer.Option(help="Threads (default: every core; same answer).")] = None,
    out: Annotated[Path | None, typer.Option(help="Run folder (default outputs/solve/GAME-BOARD-ID).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object instead of the summary.")] = False,
) -> None:
    """Solve a heads-up postflop spot: DCFR until the exploitability (exact best responses, % of
    the pot) reaches --target, then the run folder: strategy.parquet, settings.toml, report.md."""
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from sampyong import solutions
    from sampyong.solutions import run_folder

    with Progress(
        TextColumn("solving"),
        BarColumn(),
        TextColumn("{task.completed:,.0f}/{task.total:,.0f} iterations"),
        TextColumn("{task.fields[exploitability]}"),
        TimeElapsedColumn(),
        transient=True,
        disable=as_json or not sys.stderr.isatty(),
        console=Console(stderr=True),
    ) as bar:
        task = bar.add_task("solving", total=iterations, exploitability="")

        def progress(check) -> None:
            bar.update(task, completed=check.iteration, exploitability=f"exploitability {check.exploitability:.3f} %")

        solution = solutions.solve(
            game=game,
            board=board,
            oop=oop,
            ip=ip,
            pot=pot,
            stack=stack,
            bets=bets,
            raises=raises,
            max_raises=max_raises,
            betting=betting,
            target=target,
            iterations=iterations,
            threads=threads,
            progress=progress,
        )
    folder = solution.save(out or run_folder(solution.settings))
    summary = {
        "game": solution.game.name,
        "board": board,
        "exploitability": solution.exploitability,
        "iterations": solution.iterations,
        "seconds": round(solution.seconds, 3),
        "ev_oop": solution.ev("oop"),
        "ev_ip": solution.ev("ip"),
        "nodes": solution.tree.nodes,
        "out": str(folder),
    }
    if as_json:
        typer.echo(json.dumps(summary))
        return
    typer.echo(
        f"{solution.game.name}  board {board}  pot {pot}  stack {stack}: {solution.tree.nodes:,} nodes, "
        f"{solution.problem.n_hands[0]:,} v {solution.problem.n_hands[1]:,} combos"
    )
    typer.echo(
        f"  exploitability {solution.exploitability:.3f} % of the pot after {solution.iterations:,} iterations "
        f"({solution.seconds:.1f} s)"
    )
    typer.echo(f"  EV oop {summary['ev_oop']:.2f}  ip {summary['ev_ip']:.2f} chips")
    typer.echo(f"  report: {folder / 'report.md'}")


@app.command("range")
@user_errors
def range_(
    expression: Annotated[
        str,
        typer.Argument(
            help='A range: "QQ+, AKs", "A5s-A2s", "AA*", "AxAyxy", "15%", "AA@50", "0.6(AA, AK)", "AA*!AAA".'
        ),
    ],
    game: Annotated[str, typer.Option(help="Game preset.")] = "pls7",
    hands: Annotated[bool, typer.Option("--hands", help="List every hand of the range.")] = False,
) -> None:
    """Expand a range: how many hands it holds and its share of all starting hands.

    The grammar is in evaluator/ranges.py: comma-separated items; hold'em notation for 2-card
    games (QQ+, AKs, A5s-A2s, T9s+, 22-55); patterns for any game with * for any card and suit
    variables w x y z (AA*, AxAyxy); N% for the top N % by the game's heads-up grid (exact for 2-3 cards, sampled for 4);
    @N for a weight of N %, or eval7's N%(...) groups; ! to exclude (AA*!AAA).
    """
    from sampyong import calculator

    result = calculator.range(expression, game=game)
    weighted = sum(result.weights)
    weight = "" if weighted == result.size else f" (weighted: {weighted:,.2f})"
    typer.echo(
        f"{result.game}  {expression}: {result.size:,} hands{weight}, {100 * result.share:.3f} % of all starting hands"
    )
    if hands:
        for cards, w in zip(result.hands, result.weights):
            typer.echo(f"  {cards}" + ("" if w == 1 else f" @{100 * w:g}"))


@app.command()
@user_errors
def view(
    run_dir: Annotated[Path, typer.Argument(help="A finished run directory (OUT/JOB/RUN_ID), e.g. a grid run.")],
) -> None:
    """Write the pages of a finished run again, e.g. a grid run's RUN_DIR/grid.html: the grid to
    explore in a browser (colour by a column, hover for every number, find a class, highlight the
    top N % and read it as a range). One file, no network."""
    from sampyong import runs

    for path in runs.view(run_dir):
        typer.echo(str(path))


@app.command()
@user_errors
def table(
    folder: Annotated[
        Path,
        typer.Option(
            "--dir",
            help="Where the tables live: each table's hands in DIR/<id>.phhs, its state and journal in DIR/.tables/.",
        ),
    ] = Path("tables"),
    policies: Annotated[
        Path | None,
        typer.Option(
            help="A folder of policy files (.toml) bots may play besides the built-in ones, each by its file name."
        ),
    ] = None,
    host: Annotated[
        str,
        typer.Option(
            help="The address to listen on: 127.0.0.1 keeps it on this machine; 0.0.0.0 lets phones on the home network in (their seat links are printed)."
        ),
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="The port to listen on.")] = 8000,
) -> None:
    """Run a home game in the browser: open the printed URL, create a table (any game, seats, stacks,
    blinds, app-dealt or physical cards, bots), and play. The server referees every action, shows each
    seat only its own cards, and writes every finished hand as PHH to DIR/<id>.phhs (`sampyong replay`
    reads it). Killed and started again, it picks every hand up where it was. The API is documented at
    /docs."""
    from sampyong import home_game

    home_game.table(folder, policies=policies, host=host, port=port, echo=typer.echo)


@app.command()
@user_errors
def tune(
    game: Annotated[str, typer.Option(help="The game to tune for (a preset).")] = "pls7",
    players: Annotated[int, typer.Option(help="Players at the table.")] = 6,
    start: Annotated[
        str, typer.Option(help="The policy to start from (a built-in name or a .toml file).")
    ] = "pro-like",
    field: Annotated[str | None, typer.Option(help="The first round's opponents (default: the start policy).")] = None,
    rounds: Annotated[int, typer.Option(help="At most this many rounds of best response.")] = 3,
    trials: Annotated[int, typer.Option(help="Candidates scored in each round's search.")] = 60,
    hands: Annotated[
        str, typer.Option(help="Common deals each candidate is scored on (each played once per seat).")
    ] = "4k",
    margin: Annotated[
        float,
        typer.Option(help="Stop when the best response gains less than this many bb/100 plus two standard errors."),
    ] = 1.0,
    seed: Annotated[
        int, typer.Option(help="The seed of the deals and of the search: the same seed gives the same policy.")
    ] = 0,
    name: Annotated[str | None, typer.Option(help="The tuned policy's name (default: tuned-GAME).")] = None,
    out: Annotated[
        Path | None, typer.Option(help="Write the policy to this .toml file instead of printing it.")
    ] = None,
) -> None:
    """Tune a policy by self-play: each round, search every knob of the policy (CMA-ES) for the best
    response to the field, scored by duplicate matches on common deals, then make it the field; stop
    when the best response gains less than the margin. Prints the tuned policy as TOML, each round's
    gain with its standard error in its comments."""
    from sampyong import playing

    result = playing.tune(
        game,
        players=players,
        start=start,
        field=field,
        rounds=rounds,
        trials=trials,
        hands=hands,
        seed=seed,
        margin=margin,
        name=name,
        log=lambda line: typer.echo(line, err=True),
    )
    if out is None:
        typer.echo(result.toml, nl=False)
    else:
        out.write_text(result.toml, encoding="utf-8")
        typer.echo(str(out))


@app.command()
@user_errors
def policies(
    name: Annotated[
        str | None, typer.Argument(help="A built-in policy, or a .toml policy file, to check and print.")
    ] = None,
) -> None:
    """List the built-in player policies, or check and print one (its TOML)."""
    from sampyong import playing

    rows = playing.policies(name)
    if name is None:
        for policy in rows.iter_rows(named=True):
            typer.echo(f"{policy['name']:10} {policy['description']}")
        return
    policy = rows.row(0, named=True)
    typer.echo(policy["toml"].rstrip())
    typer.echo(f"# ok: {policy['name']}, style {policy['style']}")


@app.command()
@user_errors
def fit(
    records: Annotated[list[Path], typer.Argument(help="PHH records (files or folders) whose play to match.")],
    game: Annotated[
        str | None, typer.Option(help="Fit to the records of this game (default: the game most records play).")
    ] = None,
    start: Annotated[
        str | None,
        typer.Option(
            help="The policies the search starts from, a comma list of built-ins or .toml files (default: tight,loose,regular,station); the best fit is kept."
        ),
    ] = None,
    targets: Annotated[
        str | None,
        typer.Option(
            help="The statistics to fit, a comma list of flop, players, showdown, vpip, pfr, three_bet, af_flop, af_turn, af_river (default: all)."
        ),
    ] = None,
    hands: Annotated[
        str | None,
        typer.Option(
            help="Hands a trial plays, the same deals every trial (default: enough that each statistic's standard error is below a quarter of its tolerance, from a pilot run)."
        ),
    ] = None,
    trials: Annotated[
        int,
        typer.Option(
            help="Trials a start (CMA-ES: a third on the preflop knobs, played quickly, then the postflop knobs, then every knob)."
        ),
    ] = 2400,
    seed: Annotated[int, typer.Option(help="Seed of the trials' deals and of the search.")] = 1,
    name: Annotated[str, typer.Option(help="Name of the fitted policy.")] = "fitted",
    out: Annotated[
        Path | None,
        typer.Option(
            help="Folder of the report: report.md, convergence.png, fit.csv, starts.csv, NAME.toml and NAME-from-START.toml (default: outputs/fit/NAME)."
        ),
    ] = None,
    positions: Annotated[
        Path | None,
        typer.Option(
            help="Also fit each seat's preflop play to that seat's own VPIP and PFR, and write one policy per seat to this folder (NAME-seatK.toml)."
        ),
    ] = None,
) -> None:
    """Fit a policy to hand records of any game the engine plays: the flop seen, the players there,
    the showdowns, VPIP, PFR, three-bet and the aggression of each street, at the records' table.
    CMA-ES from several starts on common deals, the best kept. Prints the fitted policy as TOML, the
    records' figures and its own in comments; progress and the verdict on stderr, the report in
    --out. Fewer than 200 usable records: exit 2."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from sampyong import fits

    if positions is not None and positions.exists() and not positions.is_dir():
        raise SampyongError(f"--positions {positions}: not a folder")
    folder = out or Path("outputs") / "fit" / name
    if folder.exists() and not folder.is_dir():
        raise SampyongError(f"--out {folder}: not a folder")
    with Progress(
        TextColumn("fitting"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("trials"),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
        disable=not sys.stderr.isatty(),
    ) as bar:

        def log(line: str) -> None:
            bar.console.print(line, markup=False, highlight=False) if bar.live.is_started else typer.echo(
                line, err=True
            )

        def progress(total: int):
            task = bar.add_task("fitting", total=total)
            return lambda: bar.advance(task)

        result = fits.fit(
            records,
            game=game,
            start=start,
            hands=hands,
            trials=trials,
            seed=seed,
            name=name,
            targets=targets,
            positions=positions is not None,
            log=log,
            progress=progress,
        )
    typer.echo(result.toml(), nl=False)
    typer.echo(f"report: {result.save(folder) / 'report.md'}", err=True)
    if positions is not None:
        positions.mkdir(parents=True, exist_ok=True)
        files = []
        for seat in range(len(result.seats)):
            files.append(positions / f"{name}-seat{seat}.toml")
            files[-1].write_text(result.seat_toml(seat))
        for seat, figure, recorded, fitted, residual in result.seat_frame.iter_rows():
            typer.echo(
                f"seat {seat} {figure}: records {recorded:.3f}, fitted {fitted:.3f}, residual {residual:+.3f}", err=True
            )
        typer.echo("play them: --policy " + ",".join(str(f) for f in files), err=True)


@app.command()
@user_errors
def convert(
    paths: Annotated[list[Path], typer.Argument(help="Site hand-history files, or folders of them.")],
    out: Annotated[Path, typer.Option(help="Folder for the PHH records: one OUT/<file name>.phhs per file.")],
    site: Annotated[
        str | None,
        typer.Option(
            help="Read every file as this site's format (default: found from each file): stars, fulltilt, ipoker, party (and 888), bovada, winamax, merge, everleaf, ongame, kingsclub, microgaming."
        ),
    ] = None,
    strict: Annotated[
        bool, typer.Option(help="Fail (exit 2) at the first hand that cannot be converted, writing nothing.")
    ] = False,
) -> None:
    """Convert poker sites' hand histories to PHH records (PokerStars and rooms of its format,
    GGPoker, Full Tilt, iPoker, PartyPoker, 888, Bovada/Ignition, Winamax, Merge, Everleaf, OnGame,
    KingsClub, Microgaming). Every hand is played through
    the engine and written only when its finishing stacks are the site's (the site's rake taken
    from the winners); the others are listed with file, line, hand id and a reason, and the
    summary counts converted and skipped hands by reason."""
    from sampyong import conversion

    result = conversion.convert(paths, out=out, site=site, strict=strict)
    for skipped in result.skipped:
        typer.echo(f"skipped {skipped}")
    for file in result.unread:
        typer.echo(f"not read {file}: no hand of a known site")
    typer.echo(result.summary)
    typer.echo(f"written: {len(result.written)} file(s) in {out}")


@app.command("replay")
@user_errors
def replay_(
    paths: Annotated[
        list[Path],
        typer.Argument(help="PHH files (.phh, .phhs), site hand histories (converted as read), or folders of them."),
    ],
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per hand, one per line.")] = False,
) -> None:
    """Replay hand records (PHH) through the engine: is every action legal, and do the finishing
    stacks equal the record's?

    Exit code 0 when no hand differs or is illegal, 1 when some do, 2 when a path cannot be read
    or a file is not PHH. Hands of variants the engine does not play are skipped and counted.
    """
    from engine.phh import Status
    from sampyong import replays

    result = replays.replay(paths)  # every file read before a line is printed
    for hand in result.results:
        if as_json:
            typer.echo(json.dumps(hand.as_json()))
        elif hand.status.is_problem:
            detail = hand.message
            if hand.status is Status.DIFFER:
                detail += f": engine {_amounts(hand.finishing_stacks)}, record {_amounts(hand.expected)}"
            typer.echo(f"{hand.status.value:8} {hand.record.where}: {detail}")
    if not as_json:
        typer.echo(result.summary)
    if not result.ok:
        raise typer.Exit(1)


def _amounts(values) -> str:
    return "[" + ", ".join(f"{v:,}" for v in values) + "]"


def _open_input(path: str):
    try:
        return open(path, encoding="utf-8")
    except OSError as error:
        raise SampyongError(f"cannot read {path}: {error.strerror}") from None


def main() -> None:
    """Console entry point: usage errors too become one line and exit code 2."""
    # Typer vendors click: its usage errors (unknown option, bad value, missing argument)
    # derive from TyperException and carry click's format_message().
    from typer.exceptions import TyperException

    try:
        code = app(prog_name="sampyong", standalone_mode=False)
    except (typer.Abort, KeyboardInterrupt):
        typer.echo("interrupted: finished shards are kept; rerun the same command to resume", err=True)
        sys.exit(130)
    except TyperException as error:
        message = error.format_message() if hasattr(error, "format_message") else str(error)
        if not message:  # no arguments at all: the help was printed
            sys.exit(2)
        context = getattr(error, "ctx", None)
        where = context.command_path if context is not None else "sampyong"
        typer.echo(f"error: {message} (see '{where} -h')", err=True)
        sys.exit(getattr(error, "exit_code", 2))
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    main()
