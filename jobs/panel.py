"""The rule book across a panel of policies: which conclusions survive a change of players.

``sampyong run panel --game pls7`` is a campaign, like the rule book: one job graph of ``play``
and ``match`` runs, then one report in ``OUT/panel/<id>/``.

* **The claims** (``jobs.play.CLAIMS``): the same deals played by each member of the panel
  (``--members``; by default ``tight``, ``regular``, ``loose``, ``pro-like``, the game's tuned
  policy ``tuned-GAME`` when it is built in, and ``mixed``: two tight, two loose and two pro-like
  players at one table). A row per claim, a column per member (its verdict and figure), and a
  last column: **holds under every policy**, **fails under every policy**, or **depends on the
  players**, naming the members on each side.
* **Skill and position**, per game (hold'em, PLO, PLO8 and the panel's game) whose tuned
  policy is built in: the tuned policy's big blinds per 100 hands against ``station`` and
  against ``loose`` in duplicate matches, and its result by seat when it plays every seat.

Every run keeps its own resumable directory under ``OUT``; ``--deals`` hands each.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import polars as pl

from engine.policy import builtin_names
from evaluator.errors import SampyongError
from jobs import STUDIES
from jobs.common import GAME_OPTIONS, table
from pipeline.aggregate import write_table
from pipeline.plan import RunConfig
from pipeline.runner import execute_all
from pipeline.store import atomic_write
from pipeline.study import DEALS, SEED, Option

NAME = "panel"
DESCRIPTION = "the rule book's claims under a panel of policies, and how much skill and position pay per game"
MIXED = "tight,tight,loose,loose,pro-like,pro-like"
PLAYERS = 6
SKILL_GAMES = ("holdem", "plo", "plo8", "pls7")
OPTIONS = (
    GAME_OPTIONS[0],
    DEALS.but(
        default="200k",
        help="Hands each run plays (each match deals this many, played once per seating).",
        aliases=("--hands",),
    ),
    SEED,
    Option(
        "members",
        "The panel: policies (each plays every seat), or mixed for two tight, two loose and two "
        "pro-like players (default: tight,regular,loose,pro-like,tuned-GAME,mixed).",
    ),
    Option(
        "skill",
        "Also measure how much skill and position pay in each game with a built-in tuned policy (the "
        "default), or not with --no-skill.",
        bool,
        default=True,
    ),
)


def members(config: RunConfig) -> dict[str, str]:
    """Each member's name and the ``--policy`` its play run seats.

    >>> members(RunConfig("panel", "plo5-8", 1, 1, 6, 0))
    {'tight': 'tight', 'regular': 'regular', 'loose': 'loose', 'pro-like': 'pro-like', 'mixed': 'tight,tight,loose,loose,pro-like,pro-like'}
    """
    tuned = f"tuned-{config.game}"
    default = ["tight", "regular", "loose", "pro-like", *([tuned] if tuned in builtin_names() else []), "mixed"]
    names = [n.strip() for n in config.option("members", ",".join(default)).split(",") if n.strip()]
    if not names or len(set(names)) != len(names):
        raise SampyongError("--members names each member once, e.g. tight,regular,mixed")
    return {name: MIXED if name == "mixed" else name for name in names}


def runs(config: RunConfig) -> list[RunConfig]:
    """The play and match runs behind the report, validated and configured."""
    shard = min(100_000, max(config.deals // 4, 1))

    def make(job, game, **options):
        run = RunConfig(
            job=job,
            game=game,
            deals=config.deals,
            shard_deals=shard,
            players=PLAYERS,
            seed=config.seed,
            options=tuple(sorted(options.items())),
        )
        STUDIES[job].validate(run)
        return STUDIES[job].configure(run)

    made = [make("play", config.game, policy=policy) for policy in members(config).values()]
    for game in dict.fromkeys((*SKILL_GAMES, config.game)) if config.option("skill", "True") == "True" else ():
        tuned = f"tuned-{game}"
        if tuned in builtin_names():
            made += [
                make("match", game, policies=f"{tuned},station"),
                make("match", game, policies=f"{tuned},loose"),
                make("play", game, policy=tuned),
            ]
    return list({c.run_id: c for c in made}.values())  # the game's tuned member is also its position run


def run_campaign(
    config: RunConfig, backend, out: Path, *, resume: bool, quiet: bool, upstream_out: Path | None = None
) -> Path:
    """Run the panel's runs as one job graph and write its report; the report's folder."""
    configs = runs(config)
    digest = hashlib.sha256("".join(c.run_id for c in configs).encode()).hexdigest()[:12]
    report_dir = Path(out) / NAME / digest
    run_dirs = execute_all(
        [(STUDIES[c.job], c) for c in configs], backend, out, resume=resume, quiet=quiet, upstream_out=upstream_out
    )
    write_report(config, dict(zip(configs, run_dirs)), report_dir)
    return report_dir


def _read(run_dir: Path, name: str) -> pl.DataFrame:
    return pl.read_parquet(run_dir / "tables" / f"{name}.parquet")


def claims(config: RunConfig, run_dirs: dict) -> pl.DataFrame:
    """A row per claim and member: the figure under play, its error, the hands it counts and the verdict."""
    by_policy = {c.option("policy"): d for c, d in run_dirs.items() if c.job == "play" and c.game == config.game}
    frames = []
    for member, policy in members(config).items():
        frame = _read(by_policy[policy], "rulebook").with_columns(pl.lit(member).alias("member"))
        frames.append(frame.select("claim", "among", "member", "play", "play_se", "play_hands", "everyone", "holds"))
    return pl.concat(frames)


def verdict_table(long: pl.DataFrame, order: list[str]) -> pl.DataFrame:
    """A row per claim, a column per member (``yes: 30.2 % ± 0.1``), and whether it survives.

    >>> long = pl.DataFrame({"claim": ["c"] * 3, "among": ["all"] * 3, "member": ["a", "b", "c"],
    ...                      "play": [0.3, 0.02, 0.31], "play_se": [0.001] * 3, "holds": ["yes", "no", "yes"]})
    >>> verdict_table(long, ["a", "b", "c"])["survives"].to_list()
    ['depends on the players (holds: a, c; fails: b)']
    """
    rows = []
    for (claim, among), group in long.group_by(["claim", "among"], maintain_order=True):
        row = {"claim": f"{claim} — among {among}"}
        verdicts = {}
        for member in order:
            found = group.filter(pl.col("member") == member).row(0, named=True)
            verdicts[member] = found["holds"]
            figure = (
                ""
                if found["play"] is None or found["play"] != found["play"]
                else f": {100 * found['play']:.1f} % ± {100 * found['play_se']:.1f}"
            )
            row[member] = f"{found['holds']}{figure}"
        row["survives"] = survives(verdicts)
        rows.append(row)
    return pl.DataFrame(rows)


def survives(verdicts: dict[str, str]) -> str:
    """Whether a claim holds under every member, fails under every member, or depends on them.

    >>> survives({"a": "yes", "b": "yes"}), survives({"a": "no", "b": "too few to tell"})
    ('holds under every policy', 'depends on the players (fails: a; cannot tell: b)')
    """
    sides = {"yes": [], "no": [], "other": []}
    for member, holds in verdicts.items():
        sides[holds if holds in ("yes", "no") else "other"].append(member)
    if len(sides["yes"]) == len(verdicts):
        return "holds under every policy"
    if len(sides["no"]) == len(verdicts):
        return "fails under every policy"
    parts = [
        f"{label}: {', '.join(sides[key])}"
        for key, label in (("yes", "holds"), ("no", "fails"), ("other", "cannot tell"))
        if sides[key]
    ]
    return f"depends on the players ({'; '.join(parts)})"


def skill(run_dirs: dict) -> pl.DataFrame:
    """Per game: the tuned policy's big blinds per 100 hands against station and against loose."""
    rows = {}
    for c, run_dir in run_dirs.items():
        if c.job != "match":
            continue
        tuned, opponent = c.option("policies").split(",")
        result = _read(run_dir, "results").filter(pl.col("policy") == tuned).row(0, named=True)
        row = rows.setdefault(c.game, {"game": c.game})
        row[f"vs_{opponent}"] = result["bb_per_100"]
        row[f"vs_{opponent}_se"] = result["bb_per_100_se"]
    return pl.DataFrame(list(rows.values()))


def positions(run_dirs: dict) -> pl.DataFrame:
    """Per game and seat: the tuned policy's result when it plays every seat, in big blinds per 100 hands."""
    frames = []
    for c, run_dir in run_dirs.items():
        if c.job == "play" and c.option("policy") == f"tuned-{c.game}":
            frame = _read(run_dir, "positions").select(
                pl.lit(c.game).alias("game"),
                "seat",
                (pl.col("bb_per_hand") * 100).alias("bb_per_100"),
                (pl.col("bb_per_hand_se") * 100).alias("bb_per_100_se"),
            )
            frames.append(frame)
    return pl.concat(frames) if frames else pl.DataFrame()


def write_report(config: RunConfig, run_dirs: dict, report_dir: Path) -> None:
    order = list(members(config))
    long = claims(config, run_dirs)
    verdicts = verdict_table(long, order)
    tables = report_dir / "tables"
    write_table(tables, "claims", long, table(long, {"play": "percent", "everyone": "percent"}))
    write_table(tables, "verdicts", verdicts, table(verdicts))
    lines = [
        f"# The rule book across a panel: {config.game}, {PLAYERS} players",
        "",
        f"{config.deals:,} hands per member, the same deals for every member (seed {config.seed}); blinds 1/2, 100 big "
        "blinds, the game's own betting. Each cell is the claim's verdict under that member's play and its figure "
        "(± one standard error); a claim survives a change of players when it holds under every member.",
        "",
        "Members: " + "; ".join(f"{m} ({p})" if m == "mixed" else m for m, p in members(config).items()) + ".",
        "",
        "## The claims",
        "",
        table(verdicts).rstrip(),
    ]
    found_skill = skill(run_dirs)
    if found_skill.height:
        formats = {c: "number" for c in found_skill.columns if c.startswith("vs_") and not c.endswith("_se")}
        write_table(tables, "skill", found_skill, table(found_skill, formats))
        lines += [
            "",
            "## How much skill pays",
            "",
            "The game's tuned policy against station and against loose, alternating at six seats, in duplicate "
            "matches: big blinds per 100 hands.",
            "",
            table(found_skill, formats, {"vs_station": "against station", "vs_loose": "against loose"}).rstrip(),
        ]
        seats = positions(run_dirs)
        write_table(tables, "positions", seats, table(seats, {"bb_per_100": "number"}))
        lines += [
            "",
            "## The value of position",
            "",
            "The tuned policy at every seat (0 = small blind, 5 = button): its result by seat, big blinds per 100 "
            "hands.",
            "",
            table(seats, {"bb_per_100": "number"}).rstrip(),
        ]
    lines += ["", "## Runs", "", *(f"- {c.job} {c.game} {dict(c.options)}: `{d}`" for c, d in run_dirs.items())]
    report_dir.mkdir(parents=True, exist_ok=True)
    atomic_write(report_dir / "report.md", lambda tmp: Path(tmp).write_text("\n".join(lines) + "\n", encoding="utf-8"))
