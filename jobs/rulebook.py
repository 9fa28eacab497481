"""Every study behind the rule book in one command, and one report beside the rule book's values.

``sampyong run rulebook --deals N`` runs every study as one job graph on one backend (each
study keeps its own resumable run directory under ``OUT``; the shards of all of them share
the workers, and each study's tables are built as soon as its last shard lands): the PLS7
showdown (N deals); the baselines (hold'em, PLO, PLO8, Big O showdowns, N/10 each); the
variants sweep of PLS7, textures and turn draws (N/10 each); the variants sweeps of the
baselines (N/100 each); the exact distributions of PLS7 and hold'em; and the exact heads-up
grids of hold'em and PLS7. It then writes ``OUT/rulebook/<id>/report.md`` with
``baselines.csv``, ``baseline_variants.csv`` and the figures.

The report sets each figure beside the rule book's words, in the Markdown format of the studies
(percentages ± one standard error, counts with separators, ``jobs.common``). For RULES section 7
("from four players about three hands in ten split ... heads-up only about one hand in seven")
it prints both 1 - scoop and the showdown study's ``hilo_split`` (the pot is split between
different players for high and low) and says which one the words mean (``table_size``).

The committed sample in ``docs/sample-rulebook/`` is ``sampyong run rulebook --deals 2M``: its
``report.md``, ``tables/*.csv``, ``tables/*.md`` and ``figures/`` copied over the old ones.
"""

from __future__ import annotations

import hashlib
import itertools
import os
from pathlib import Path

import numpy as np
import polars as pl

from evaluator.cards import iso_classes
from evaluator.deal import split_deal
from evaluator.fast import FastEvaluator
from evaluator.games import RANKINGS, Category, Game
from jobs import STUDIES, grid
from jobs.common import RATES, SE_LEGEND, WORDS, figure_links, table, words
from pipeline.aggregate import binomial_se, percent, write_figures, write_table
from pipeline.plan import RunConfig
from pipeline.runner import execute_all
from pipeline.store import atomic_write
from pipeline.study import DEALS, SEED

NAME = "rulebook"
DESCRIPTION = "every study (showdown, baselines, variants, textures, draws, distribution, grid) and one report"
OPTIONS = (DEALS.but(help="Deals of the largest runs (showdown, PLS7); the others take a tenth or a hundredth."), SEED)
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
    high = fast.high(*split_deal(hands, 1, 1))
    categories, counts = np.unique(fast.category(high[:, 0]), return_counts=True)
    return {Category(c).name: int(n) for c, n in zip(categories, counts)}


def run_rulebook(
    deals: int, seed: int, backend, out: Path, *, resume: bool, quiet: bool, upstream_out: Path | None = None
) -> Path:
    configs = studies(deals, seed)
    digest = hashlib.sha256("".join(c.run_id for c in configs).encode()).hexdigest()[:12]
    report_dir = Path(out) / "rulebook" / digest
    run_dirs = execute_all(
        [(STUDIES[c.job], c) for c in configs], backend, out, resume=resume, quiet=quiet, upstream_out=upstream_out
    )
    runs = {(c.job, c.game): run_dir for c, run_dir in zip(configs, run_dirs)}
    write_report(runs, report_dir, deals, seed)
    return report_dir


def run_campaign(
    config: RunConfig, backend, out: Path, *, resume: bool, quiet: bool, upstream_out: Path | None = None
) -> Path:
    """``run_rulebook`` of the campaign's config (``sampyong run rulebook``)."""
    return run_rulebook(config.deals, config.seed, backend, out, resume=resume, quiet=quiet, upstream_out=upstream_out)


def _read(run_dir: Path, table: str) -> pl.DataFrame:
    return pl.read_parquet(run_dir / "tables" / f"{table}.parquet")


def baselines(runs: dict) -> pl.DataFrame:
    frames = []
    for game in ("pls7", *BASELINES):
        run_dir = runs[("showdown", game)]
        summary = _read(run_dir, "summary")
        split = summary.select("game", "players", "hilo_split", "hilo_split_se")
        summary = summary.select(
            "game", "players", "deals", "hi_chop", "hi_chop_se", "low_exists", "low_exists_se", "scoop", "scoop_se"
        )
        wins = _read(run_dir, "categories").pivot(on="category", index=["game", "players"], values="win")
        wins = wins.rename({c: f"win_{c}" for c in wins.columns if c not in ("game", "players")})
        frames.append(summary.join(wins, on=["game", "players"]).join(split, on=["game", "players"]))
    # hilo_split comes last, so the columns before it are the table as it was without it.
    frame = pl.concat(frames, how="diagonal_relaxed").fill_null(0.0)
    return frame.select(pl.exclude("hilo_split", "hilo_split_se"), "hilo_split", "hilo_split_se")


def baseline_variants(runs: dict) -> pl.DataFrame:
    """Every game's variant sweep: differences from its base game with paired standard errors."""
    frames = []
    for game in ("pls7", *BASELINES):
        deltas = _read(runs[("variants", game)], "deltas")
        frames.append(deltas.select(pl.lit(game).alias("game"), pl.all()))
    return pl.concat(frames, how="diagonal_relaxed")


# RULES section 7, word for word, and what its figures say in numbers.
SECTION_7 = (
    "Four or more players: hi-lo. Three or fewer: play high only (**PLS**). From four players about "
    "three hands in ten split, so the low works as a second game; heads-up only about one hand in "
    "seven splits, and that split just hands chips back."
)
SECTION_7_FIGURES = {2: ("about one in seven", 1 / 7), 4: ("about three in ten", 3 / 10)}


def table_size(show: pl.DataFrame) -> list[str]:
    """RULES section 7 beside the PLS7 showdown: 1 - scoop and ``hilo_split`` for every table size,
    and which of the two the rule book's words mean.

    ``hilo_split`` (the pot is split between different players for high and low: a low exists
    and the players sharing the low half are not exactly those sharing the high half) is what the
    words mean. 1 - scoop adds the pure high chops (the high tied, and the low if any shared by
    the same players), deal by deal, which have nothing to do with the low. Subtracting every high
    chop instead, (1 - scoop) - hi_chop, also takes away the deals whose high is tied and whose
    low goes to other players, high/low splits at the table; all of these are counts of deals,
    so each has a binomial standard error.

    Parameters:
        show: the PLS7 showdown ``summary`` table (``players``, ``deals``, ``hi_chop``, ``scoop``,
            ``hilo_split`` with ``_se``).

    Returns the section's lines (heading, quote, table, the sentences that read it). Raises
    ``KeyError`` if a row for 2 or 4 players is missing.
    """
    rows = []
    for r in show.sort("players").iter_rows(named=True):
        n = r["deals"]
        chop, scoop, split = (round(r[f] * n) for f in ("hi_chop", "scoop", "hilo_split"))
        not_scooped = (n - scoop) / n
        minus_chop = (n - scoop - chop) / n
        chop_and_split = (split + scoop + chop - n) / n  # split - ((1 - scoop) - hi_chop), a count of deals
        words_, value = SECTION_7_FIGURES.get(r["players"], (None, None))
        rows.append(
            {
                "players": r["players"],
                "rule book": f"{words_} ({100 * value:.1f} %)" if words_ else "–",
                "split high/low": percent(r["hilo_split"], r["hilo_split_se"]),
                "not scooped (1 − scoop)": percent(not_scooped, r["scoop_se"]),
                "(1 − scoop) − high chopped": percent(minus_chop, binomial_se(minus_chop, n)),
                "high chopped, low to others": percent(chop_and_split, binomial_se(chop_and_split, n)),
                "_split": r["hilo_split"],
                "_not_scooped": not_scooped,
                "_minus_chop": minus_chop,
                "_both": chop_and_split,
            }
        )
    by = {row["players"]: row for row in rows}
    two, four = by[2], by[4]
    shown = pl.DataFrame([{k: v for k, v in row.items() if not k.startswith("_")} for row in rows])
    return [
        "## Section 7: how often the pot is split",
        "",
        f"> {SECTION_7}",
        "",
        table(shown),
        "The rule book's words mean **split high/low**: the pot is split between different players "
        "for high and low, that is a qualifying low exists and the players who share the low half are "
        "not exactly those who share the high half (the showdown study's `hilo_split`, counted deal by "
        f"deal). Heads-up that is {two['split high/low']}, near the rule book's one hand in seven "
        f"(14.3 %); four-handed {four['split high/low']}, three in ten. Read as 1 − scoop the words "
        f"would be wrong: {two['not scooped (1 − scoop)']} heads-up is one hand in "
        f"{1 / two['_not_scooped']:.1f}, {four['not scooped (1 − scoop)']} four-handed one in "
        f"{1 / four['_not_scooped']:.1f}. Beside split high/low, 1 − scoop counts the pots split only "
        "because the high is tied (with no low, or with the low shared by the same players), which "
        "have nothing to do with the low: deal by deal, 1 − scoop = split high/low + those pure high "
        "chops. (1 − scoop) − high chopped subtracts every tied high, so it also leaves out the deals "
        "whose high is tied and whose low goes to other players, which are high/low splits at the "
        "table: it falls short of split high/low by exactly those deals (the last column; "
        f"{two['high chopped, low to others']} heads-up, {four['high chopped, low to others']} four-handed). "
        + SE_LEGEND,
        "",
    ]


def write_report(runs: dict, report_dir: Path, deals: int, seed: int) -> None:
    report_dir.mkdir(parents=True, exist_ok=True)
    figures = report_dir / "figures"
    # Every study's PNGs, copied under the study's name by the helper that saves figures.
    write_figures(
        figures,
        {
            f"{job}-{game}-{png.stem}": png
            for (job, game), run_dir in runs.items()
            for png in sorted((run_dir / "figures").glob("*.png"))
        },
    )
    base = baselines(runs)
    base_formats = {
        "deals": "count",
        **{rate: "percent" for rate in RATES},
        **{c: "percent of deals" for c in base.columns if c.startswith("win_")},
    }
    base_headers = {c: f"wins with {words(c[4:])}" for c in base.columns if c.startswith("win_")}
    write_table(report_dir / "tables", "baselines", base, table(base, base_formats, base_headers))
    sweeps = baseline_variants(runs)
    sweep_formats = {"deals": "count", **{rate: "points" for rate in RATES}}
    sweep_headers = {rate: f"{WORDS[rate]}: change" for rate in RATES}
    write_table(report_dir / "tables", "baseline_variants", sweeps, table(sweeps, sweep_formats, sweep_headers))

    five = five_card_counts("base")
    five_rule = {
        "royal_flush": 4,
        "skip_straight_flush": 24,
        "straight_flush": 36,
        "four_of_a_kind": 624,
        "full_house": 3744,
        "flush": 5084,
        "skip_straight": 6120,
        "straight": 10200,
        "three_of_a_kind": 54912,
        "two_pair": 123552,
        "one_pair": 1098240,
        "high_card": 1296420,
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
    holdem7 = dict(
        zip(*_read(runs[("distribution", "holdem")], "categories").select("category", "best").to_dict().values())
    )
    holdem_grid = dict(zip(*_read(runs[("grid", "holdem")], "grid").select("class", "equity_high").to_dict().values()))
    pls_grid = _read(runs[("grid", "pls7")], "grid")

    from jobs.distribution import HOLDEM_7

    tenth, hundredth = max(deals // 10, 1), max(deals // 100, 1)
    base6 = base.filter(pl.col("players") == 6)
    lines = [
        "# The PLS7 rule book, regenerated",
        "",
        f"Every figure of RULES.md that a run can check, beside the rule book's own words (seed {seed}). "
        f"Sampled (Monte Carlo, nobody folding): the PLS7 showdown, {deals:,} deals of 8 hands, read for "
        f"2 to 8 players; the baselines (hold'em, PLO, PLO8, Big O) and the PLS7 variants, textures and "
        f"draws, {tenth:,} deals each; the baselines' variant sweeps, {hundredth:,} each. Sampled rates "
        "are percentages ± one standard error, shown to the standard error's digit; differences between "
        "variants are in percentage points (pp) with paired standard errors. Enumerated exactly: the "
        "5-card hands, the 7- and 8-card distributions and the heads-up starting-hand grids; their "
        'percentages say "exact" and have 4 decimals. `tables/*.csv` keep the raw fractions and their '
        "`_se` columns.",
        "",
        "## Section 4: categories and their order",
        "",
        "| 5-card hands | rule book | exact |",
        "|---|---|---|",
        *[f"| {words(c)} | {n:,} | {five.get(c, 0):,} |" for c, n in five_rule.items()],
        "",
        "| 8-card pools, can be made | rule book | exact |",
        "|---|---|---|",
        f"| three of a kind | ~12.0 % | {percent(present['three_of_a_kind'])} |",
        f"| straight | ~9.8 % | {percent(present['straight'])} |",
        f"| flush | ~6.89 % | {percent(present['flush'])} |",
        f"| skip straight | ~6.39 % | {percent(present['skip_straight'])} |",
        "",
        "| 6-handed showdown | rule book | measured |",
        "|---|---|---|",
        f"| high chop, base ranking | ~7.05 % | {percent(six['hi_chop'], six['hi_chop_se'])} |",
        f"| high chop, skips over flushes | ~8.20 % | {percent(*skip_chop)} |",
        f"| a low exists, 8-or-better | about 70 % | {percent(*low8)} |",
        f"| a low exists, 7-or-better | (kept) | {percent(six['low_exists'], six['low_exists_se'])} |",
        "",
        *table_size(show),
        "## Section 9: reference figures",
        "",
        "| 7-card hold'em | rule book | exact |",
        "|---|---|---|",
        *[f"| {words(c)} | {n:,} | {holdem7.get(c, 0):,} |" for c, n in HOLDEM_7.items()],
        "",
        f"Starting hands: 22,100 three-card hands in {len(iso_classes(3)[2]):,} classes "
        f"(hold'em: 1,326 in {len(iso_classes(2)[2])}). Hold'em grid, high-only equity against one random "
        f"hand (exact): AA {percent(holdem_grid['AA'])}, 72o {percent(holdem_grid['72o'])}, "
        f"32o {percent(holdem_grid['32o'])}.",
        "",
        "## Baselines",
        "",
        "Every game's 6-handed showdown: the rates of the showdown study, then the share of deals each "
        "category wins the high (standard errors binomial over the deals).",
        "",
        table(
            base6.select(
                "game",
                "players",
                "deals",
                "hi_chop",
                "hi_chop_se",
                "low_exists",
                "low_exists_se",
                "scoop",
                "scoop_se",
                "hilo_split",
                "hilo_split_se",
            ),
            base_formats,
        ),
        table(
            base6.select("game", "deals", *[c for c in base6.columns if c.startswith("win_")]),
            base_formats,
            base_headers,
        ),
        f"Rule variants of every game, 6 players (PLS7 {tenth:,} deals, the others "
        f"{hundredth:,}): each variant minus the game's own rules on the same deals, in percentage points "
        "± one paired standard error.",
        "",
        table(
            sweeps.filter(pl.col("players") == 6).select(
                "game", "variant", "hi_chop", "hi_chop_se", "low_exists", "low_exists_se", "scoop", "scoop_se"
            ),
            sweep_formats,
            sweep_headers,
        ),
        "## PLS7 starting hands (exact, heads-up vs a random hand): top 20 by hi-lo equity",
        "",
        grid.markdown_tables("grid", pls_grid.sort("equity_hilo", descending=True).head(20), None),
        "High wins, ties and losses count the (hand, opponent, board) deals of the class by the high "
        "hand; high-only equity is wins plus half the ties over all; hi-lo equity is the pot share with "
        "the halves split high and low and quartered (odd chips ignored).",
        "",
        "## Figures",
        "",
        *figure_links(p.name for p in sorted(figures.glob("*.png"))),
        "",
        "Each study's own report, tables and shards: "
        + ", ".join(
            f"`{job} {game}`: `{os.path.relpath(run_dir, report_dir)}`" for (job, game), run_dir in runs.items()
        ),
    ]
    atomic_write(report_dir / "report.md", lambda tmp: tmp.write_text("\n".join(lines) + "\n"))
