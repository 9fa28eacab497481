"""Every study behind the rule book in one command, and one report beside the rule book's values.

``sampyong run rulebook --deals N`` runs every study as one job graph on one backend (each
study keeps its own resumable run directory under ``OUT``; the shards of all of them share
the workers, and each study's tables are built as soon as its last shard lands): the PLS7
showdown (N deals); the baselines (hold'em, PLO, PLO8, Big O showdowns, N/10 each); the
variants sweep of PLS7, textures and turn draws (N/10 each); the variants sweeps of the
baselines (N/100 each); the exact distributions of PLS7 and hold'em; and the exact heads-up
grids of hold'em and PLS7. It then writes ``OUT/rulebook/<id>/report.md`` with
``baselines.csv``, ``baseline_variants.csv`` and the figures.
"""

from __future__ import annotations

import hashlib
import os
import itertools
from pathlib import Path

import numpy as np
import polars as pl

from evaluator.cards import iso_classes
from evaluator.fast import FastEvaluator
from evaluator.games import RANKINGS, Category, Game
from jobs import STUDIES
from jobs.common import figure_links
from pipeline.aggregate import markdown_table, write_figures, write_table
from pipeline.plan import RunConfig
from pipeline.runner import execute_all
from pipeline.store import atomic_write

NAME = "rulebook"
DESCRIPTION = "every study (showdown, baselines, variants, textures, draws, distribution, grid) and one report"
OPTIONS = frozenset({"deals", "seed"})
BASELINES = ("holdem", "plo", "plo8", "plo5-8")


def studies(deals: int, seed: int) -> list[RunConfig]:
    """The runs behind the report, in the order they are computed."""
    tenth = max(deals // 10, 1)
    hundredth = max(deals // 100, 1)
    shard = min(1_000_000, max(deals // 20, 1))
    small_shard = min(1_000_000, max(tenth // 10, 1))
    tiny_shard = min(250_000, max(hundredth // 4, 1))

    def run(job, game, n, shard_deals, players, **knobs):
        config = RunConfig(job=job, game=game, deals=n, shard_deals=shard_deals, players=players, seed=seed, **knobs)
        return STUDIES[job].configure(config)

    # The slowest studies first, so the last shards to finish are short ones.
    return [
        run("grid", "pls7", 1, 1, 2),
        run("showdown", "pls7", deals, shard, 8),
        *[run("showdown", g, tenth, small_shard, 8) for g in BASELINES],
        run("variants", "pls7", tenth, small_shard, 8),
        run("textures", "pls7", tenth, small_shard, 6),
        run("draws", "pls7", tenth, small_shard, 2),
        *[run("variants", g, hundredth, tiny_shard, 8) for g in BASELINES],
        run("distribution", "pls7", 1, 1, 1),
        run("distribution", "holdem", 1, 1, 1),
        run("grid", "holdem", 1, 1, 2),
    ]


def five_card_counts(ranking: str) -> dict[str, int]:
    """Exact categories of all 2,598,960 five-card hands."""
    g = Game("five", 1, (0, 1), RANKINGS[ranking], 7, board_cards=4)
    hands = np.array(list(itertools.combinations(range(52), 5)), np.uint8)
    fast = FastEvaluator(g)
    high, _ = fast.high_low(np.ascontiguousarray(hands[:, None, :1]), np.ascontiguousarray(hands[:, 1:]))
    categories, counts = np.unique(fast.category(high[:, 0]), return_counts=True)
    return {Category(c).name: int(n) for c, n in zip(categories, counts)}


def run_rulebook(deals: int, seed: int, backend, out: Path, *, resume: bool, quiet: bool) -> Path:
    configs = studies(deals, seed)
    digest = hashlib.sha256("".join(c.run_id for c in configs).encode()).hexdigest()[:12]
    report_dir = Path(out) / "rulebook" / digest
    with backend.session():
        run_dirs = execute_all([(STUDIES[c.job], c) for c in configs], backend, out, resume=resume, quiet=quiet)
    runs = {(c.job, c.game): run_dir for c, run_dir in zip(configs, run_dirs)}
    write_report(runs, report_dir, deals, seed)
    return report_dir


def _read(run_dir: Path, table: str) -> pl.DataFrame:
    return pl.read_parquet(run_dir / "tables" / f"{table}.parquet")


def baselines(runs: dict) -> pl.DataFrame:
    frames = []
    for game in ("pls7", *BASELINES):
        run_dir = runs[("showdown", game)]
        summary = _read(run_dir, "summary").select(
            "game", "players", "deals", "hi_chop", "hi_chop_se", "low_exists", "low_exists_se", "scoop", "scoop_se"
        )
        wins = _read(run_dir, "categories").pivot(on="category", index=["game", "players"], values="win")
        wins = wins.rename({c: f"win_{c}" for c in wins.columns if c not in ("game", "players")})
        frames.append(summary.join(wins, on=["game", "players"]))
    return pl.concat(frames, how="diagonal_relaxed").fill_null(0.0)


def baseline_variants(runs: dict) -> pl.DataFrame:
    """Every game's variant sweep: differences from its base game with paired standard errors."""
    frames = []
    for game in ("pls7", *BASELINES):
        deltas = _read(runs[("variants", game)], "deltas")
        frames.append(deltas.select(pl.lit(game).alias("game"), pl.all()))
    return pl.concat(frames, how="diagonal_relaxed")


def write_report(runs: dict, report_dir: Path, deals: int, seed: int) -> None:
    report_dir.mkdir(parents=True, exist_ok=True)
    figures = report_dir / "figures"
    # Every study's PNGs, copied under the study's name by the helper that saves figures.
    write_figures(figures, {
        f"{job}-{game}-{png.stem}": png
        for (job, game), run_dir in runs.items()
        for png in sorted((run_dir / "figures").glob("*.png"))
    })
    base = baselines(runs)
    write_table(report_dir / "tables", "baselines", base)
    sweeps = baseline_variants(runs)
    write_table(report_dir / "tables", "baseline_variants", sweeps)

    five = five_card_counts("base")
    five_rule = {
        "royal_flush": 4, "skip_straight_flush": 24, "straight_flush": 36, "four_of_a_kind": 624,
        "full_house": 3744, "flush": 5084, "skip_straight": 6120, "straight": 10200,
        "three_of_a_kind": 54912, "two_pair": 123552, "one_pair": 1098240, "high_card": 1296420,
    }
    show = _read(runs[("showdown", "pls7")], "summary")
    six = show.filter(pl.col("players") == 6).row(0, named=True)
    variants = _read(runs[("variants", "pls7")], "variants")

    def variant(name, column, players=6):
        row = variants.filter((pl.col("variant") == name) & (pl.col("players") == players)).row(0, named=True)
        return row[column], row[f"{column}_se"]

    skip_chop = variant("pls7[ranking=skip_over_flush]", "hi_chop")
    low8 = variant("pls7[low=8]", "low_exists")
    dist = _read(runs[("distribution", "pls7")], "categories")
    present = dict(zip(dist["category"], dist["present_share"]))
    holdem7 = dict(zip(*_read(runs[("distribution", "holdem")], "categories").select("category", "best").to_dict().values()))
    holdem_grid = dict(zip(*_read(runs[("grid", "holdem")], "grid").select("class", "equity_high").to_dict().values()))
    pls_grid = _read(runs[("grid", "pls7")], "grid")
    splits = show.select("players", (1 - pl.col("scoop")).alias("split"), pl.col("scoop_se").alias("split_se"))

    def pct(value, se=None):
        return f"{100 * value:.3f} %" + (f" ± {100 * se:.3f}" if se is not None else " (exact)")

    from jobs.distribution import HOLDEM_7

    lines = [
        "# The PLS7 rule book, regenerated",
        "",
        f"Seed {seed}; PLS7 showdown {deals:,} deals, baselines, variants, textures and draws {max(deals // 10, 1):,} "
        "each (Monte Carlo, ± one standard error); distributions and grids enumerated exactly.",
        "",
        "## Section 4: categories and their order",
        "",
        "| 5-card hands | rule book | exact |",
        "|---|---|---|",
        *[f"| {c} | {n:,} | {five.get(c, 0):,} |" for c, n in five_rule.items()],
        "",
        "| 8-card pools, can be made | rule book | exact |",
        "|---|---|---|",
        f"| three_of_a_kind | ~12.0 % | {pct(present['three_of_a_kind'])} |",
        f"| straight | ~9.8 % | {pct(present['straight'])} |",
        f"| flush | ~6.89 % | {pct(present['flush'])} |",
        f"| skip_straight | ~6.39 % | {pct(present['skip_straight'])} |",
        "",
        "| 6-handed showdown | rule book | measured |",
        "|---|---|---|",
        f"| high chop, base ranking | ~7.05 % | {pct(six['hi_chop'], six['hi_chop_se'])} |",
        f"| high chop, skips over flushes | ~8.20 % | {pct(*skip_chop)} |",
        f"| a low exists, 8-or-better | about 70 % | {pct(*low8)} |",
        f"| a low exists, 7-or-better | (kept) | {pct(six['low_exists'], six['low_exists_se'])} |",
        "",
        "## Section 7: table size (share of pots that split, 1 - scoop)",
        "",
        markdown_table(splits),
        "Rule book: from four players about three hands in ten split; heads-up about one in seven.",
        "",
        "## Section 9: reference figures",
        "",
        "| 7-card hold'em | rule book | exact |",
        "|---|---|---|",
        *[f"| {c} | {n:,} | {holdem7.get(c, 0):,} |" for c, n in HOLDEM_7.items()],
        "",
        f"Starting hands: 22,100 three-card hands in {len(iso_classes(3)[2]):,} classes "
        f"(hold'em: 1,326 in {len(iso_classes(2)[2])}). Hold'em grid (exact): AA {pct(holdem_grid['AA'])}, "
        f"72o {pct(holdem_grid['72o'])}, 32o {pct(holdem_grid['32o'])}.",
        "",
        "## Baselines",
        "",
        markdown_table(base.filter(pl.col("players") == 6)),
        f"Rule variants of every game, 6 players (PLS7 {max(deals // 10, 1):,} deals, the others "
        f"{max(deals // 100, 1):,}; difference from the game's own rules, paired standard errors):",
        "",
        markdown_table(
            sweeps.filter(pl.col("players") == 6).select(
                "game", "variant", "hi_chop", "hi_chop_se", "low_exists", "low_exists_se", "scoop", "scoop_se"
            )
        ),
        "## PLS7 starting hands (exact, heads-up vs a random hand): top 20 by hi-lo equity",
        "",
        markdown_table(pls_grid.sort("equity_hilo", descending=True).head(20)),
        "## Figures",
        "",
        *figure_links(p.name for p in sorted(figures.glob("*.png"))),
        "",
        "Each study's own report, tables and shards: "
        + ", ".join(f"`{job} {game}`: `{os.path.relpath(run_dir, report_dir)}`" for (job, game), run_dir in runs.items()),
    ]
    atomic_write(report_dir / "report.md", lambda tmp: tmp.write_text("\n".join(lines) + "\n"))

