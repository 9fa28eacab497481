"""Exact heads-up equity of every starting-hand class against one random hand, over all boards.

For each suit class of 5-card boards (134,459, each weighted by its size) every hand of the
remaining cards is evaluated once and sorted by strength; each hand's wins and ties against
every card-disjoint opponent then come from running counts by inclusion-exclusion over its
cards (all hands below it, minus those sharing one of its cards, plus those sharing two, ...).
Shard ``i`` takes a slice of the board classes. Works for games of 2 or 3 hole cards
(hold'em: 169 classes; PLS/PLS7: 1,755).

With ``--players N`` (N > 2) the grid is sampled instead: every hand of every deal counts for
its class, and ``grid`` has ``class, example, combos, hands, scoop, equity, equity_se``
(pot share with halves split high/low).

Exact ``grid`` columns: ``class`` (``evaluator.cards.class_name``), ``example``, ``combos`` (members
among all starting hands), ``win``/``tie``/``lose`` (exact counts of (hand, opponent, board)
deals on the high hand), ``equity_high`` (win + tie / 2 over all), and for games with a low
``equity_hilo`` (pot share with halves split high/low and quartered, odd chips ignored).
"""

from __future__ import annotations

import dataclasses
from functools import cache
from math import comb

import numpy as np
import polars as pl
import pyarrow as pa

from evaluator.cards import hand_classes, iso_classes
from evaluator.deal import deal_cards, split_deal
from evaluator.errors import SampyongError
from evaluator.fast import fast_evaluator
from evaluator.grid_kernels import hands_of, tally_boards
from evaluator.settle import share_unit
from evaluator.settle_kernels import pot_shares
from evaluator.tables import cache_dir, cached_arrays
from jobs.common import (
    EXACT,
    MONTE_CARLO_OPTIONS,
    PLAYERS,
    SE_LEGEND,
    Study,
    game_of,
    markdown,
    new_figure,
    replace_option,
    report_header,
    section,
    table,
)
from jobs.grid_view import grid_page
from pipeline.plan import RunConfig, ShardSpec, plan_shards

BOARD_SHARDS = 64
BOARD_BLOCK = 16  # boards evaluated per kernel call: all their hands at once


def validate(config: RunConfig) -> None:
    game = game_of(config)
    if game.hole_cards not in (2, 3) or game.board_cards != 5:
        raise SampyongError(f"grid covers games of 2 or 3 hole cards; {game.name} has {game.hole_cards}")
    game.check_players(config.players)
    if not exact(config):
        # A deal adds at most 4 hands of one class (four of each rank), each at most a whole pot
        # squared, to that class's share_units_sq: int64 within a shard, uint64 over the run.
        per_deal = 4 * share_unit(config.players) ** 2
        most_deals, most_shard = (2**64 - 1) // per_deal, (2**63 - 1) // per_deal
        if config.deals > most_deals or config.shard_deals > most_shard:
            raise SampyongError(
                f"grid with {config.players} players: at most {most_deals:,} deals and {most_shard:,} per shard "
                "(the squared pot shares must fit 64-bit counters)"
            )


def exact(config: RunConfig) -> bool:
    """Heads-up grids are enumerated exactly; more players are sampled."""
    return config.players == 2


def configure(config: RunConfig) -> RunConfig:
    """Exact (heads-up): deals, shard size and seed do not apply."""
    if not exact(config):
        return config
    return dataclasses.replace(config, deals=comb(52, 5), shard_deals=0, seed=0)


@cache
def board_classes() -> tuple[np.ndarray, np.ndarray]:
    """(representative boards uint8[134459, 5], class sizes), cached on disk: the driver and
    every worker need them, and classifying all 2,598,960 boards takes seconds."""

    def build() -> dict[str, np.ndarray]:
        boards, class_of, sizes = iso_classes(5)
        _, first = np.unique(class_of, return_index=True)
        return {"boards": boards[first].astype(np.uint8), "sizes": sizes}

    arrays = cached_arrays(cache_dir() / "board-classes-1.npz", build)
    return arrays["boards"], arrays["sizes"]


def plan(config: RunConfig) -> list[ShardSpec]:
    if not exact(config):
        return plan_shards(config)
    boards, sizes = board_classes()
    edges = np.linspace(0, len(boards), BOARD_SHARDS + 1).astype(int)
    return [
        ShardSpec(index=i, deals=int(sizes[a:b].sum()), root_seed=0) for i, (a, b) in enumerate(zip(edges, edges[1:]))
    ]


def prepare(config: RunConfig) -> None:
    board_classes()
    hand_classes(game_of(config).hole_cards)
    fast_evaluator(game_of(config))


def _run_sampled(config: RunConfig, shard: ShardSpec) -> dict[str, pa.Table]:
    game = game_of(config)
    fast = fast_evaluator(game)
    size = game.hole_cards
    lookup, class_sizes, names, _ = hand_classes(size)
    n_classes = len(class_sizes)
    count, total, squares, scoops = (np.zeros(n_classes, np.int64) for _ in range(4))
    unit = share_unit(config.players)
    packer = 52 ** np.arange(size - 1, -1, -1)
    rng = shard.generator()
    remaining = shard.deals
    while remaining:
        n = min(remaining, 1 << 15)
        remaining -= n
        hole, board = split_deal(deal_cards(rng, n, config.players * size + 5), config.players, size)
        high, low = fast.high_low(hole, board)
        class_id = lookup[np.sort(hole, axis=2).astype(np.int64) @ packer].ravel()
        high_part = np.empty(high.shape, np.int64)
        low_part = np.empty(high.shape, np.int64)
        pot_shares(high, low, unit, high_part, low_part)
        share = (high_part + low_part).ravel()
        np.add.at(count, class_id, 1)
        np.add.at(total, class_id, share)
        np.add.at(squares, class_id, share * share)
        np.add.at(scoops, class_id, share == unit)
    counts = {"hands": count, "share_units": total, "share_units_sq": squares, "scoops": scoops}
    return _grid_table(game.name, names, counts)


def _grid_table(game_name: str, names: list[str], counts: dict[str, np.ndarray]) -> dict[str, pa.Table]:
    """A shard's ``grid`` table: the class keys, then each count as unsigned 64-bit."""
    return {
        "grid": pa.table(
            {
                "game": pa.array([game_name] * len(names), pa.string()),
                "class": pa.array(names, pa.string()),
                "class_id": pa.array(np.arange(len(names)), pa.int32()),
                **{column: pa.array(values.astype(np.uint64)) for column, values in counts.items()},
            }
        )
    }


def run_shard(config: RunConfig, shard: ShardSpec) -> dict[str, pa.Table]:
    if not exact(config):
        return _run_sampled(config, shard)
    game = game_of(config)
    fast = fast_evaluator(game)
    size = game.hole_cards
    lookup, class_sizes, names, _ = hand_classes(size)
    boards, weights = board_classes()
    edges = np.linspace(0, len(boards), BOARD_SHARDS + 1).astype(int)
    first, last = edges[shard.index], edges[shard.index + 1]
    n_classes = len(class_sizes)
    win, tie, lose, hilo4 = (np.zeros(n_classes, np.int64) for _ in range(4))
    positions = np.array(list(_combos(47, size)), dtype=np.int64)
    opponents = comb(47 - size, size)
    hands = np.empty((BOARD_BLOCK, len(positions), size), np.uint8)
    for block in range(first, last, BOARD_BLOCK):
        stop = min(block + BOARD_BLOCK, last)
        block_boards = boards[block:stop]
        block_hands = hands[: stop - block]
        hands_of(block_boards, positions, block_hands)
        high, low = fast.high_low(block_hands, block_boards)
        tally_boards(
            weights[block:stop].astype(np.int64),
            positions,
            block_hands,
            high,
            low,
            game.low is not None,
            lookup,
            opponents,
            win,
            tie,
            lose,
            hilo4,
        )
    counts = {"win": win, "tie": tie, "lose": lose}
    if game.low is not None:
        counts["hilo4"] = hilo4
    return _grid_table(game.name, names, counts)


def _combos(m: int, k: int):
    from itertools import combinations

    return combinations(range(m), k)


def summarize(counts: dict[str, pl.DataFrame], config: RunConfig) -> dict[str, pl.DataFrame]:
    game = game_of(config)
    _, sizes, names, examples = hand_classes(game.hole_cards)
    info = pl.DataFrame({"class_id": np.arange(len(names), dtype=np.int32), "example": examples, "combos": sizes})
    g = counts["grid"].join(info, on="class_id")
    if not exact(config):
        unit = float(share_unit(config.players))
        n = pl.col("hands").cast(pl.Float64)
        mean = pl.col("share_units").cast(pl.Float64) / unit / n
        variance = (pl.col("share_units_sq").cast(pl.Float64) / unit**2 / n - mean * mean) * n / (n - 1)
        grid = g.sort("class_id").select(
            "class",
            "example",
            "combos",
            "hands",
            (pl.col("scoops") / n).alias("scoop"),
            mean.alias("equity"),
            (variance.clip(lower_bound=0) / n).sqrt().alias("equity_se"),
        )
        return {"grid": grid, "grid_by_equity": grid.sort("equity", descending=True)}
    total = (pl.col("win") + pl.col("tie") + pl.col("lose")).cast(pl.Float64)
    columns = [
        "class",
        "example",
        "combos",
        "win",
        "tie",
        "lose",
        ((pl.col("win") + pl.col("tie") / 2) / total).alias("equity_high"),
    ]
    if "hilo4" in g.columns:
        columns.append((pl.col("hilo4") / 4 / total).alias("equity_hilo"))
    grid = g.sort("class_id").select(columns)
    key = "equity_hilo" if "hilo4" in g.columns else "equity_high"
    return {"grid": grid, "grid_by_equity": grid.sort(key, descending=True)}


EQUITY_WORDS = {
    "equity": "pot share",
    "equity_high": "high-only equity",
    "equity_hilo": "hi-lo equity",
}
SUIT_PATTERNS = {
    "aaa": "all three suited",
    "aab": "top two suited",
    "aba": "top and third suited",
    "abb": "lower two suited",
    "abc": "three suits",
}


def figures(tables, config: RunConfig) -> dict:
    grid = tables["grid"]
    key = "equity" if "equity" in grid.columns else "equity_hilo" if "equity_hilo" in grid.columns else "equity_high"
    opponents = f"{config.players - 1} random hand" + ("s" if config.players > 2 else "")
    how = "exact" if exact(config) else "Monte Carlo"
    label = f"{EQUITY_WORDS[key]} (%)"
    ranks = "AKQJT98765432"
    values = 100 * grid[key]
    if game_of(config).hole_cards == 2:
        # The familiar 13x13: pairs on the diagonal, suited above it, offsuit below.
        matrix = np.full((13, 13), np.nan)
        for name, value in zip(grid["class"], values):
            i, j = ranks.index(name[0]), ranks.index(name[1])
            if len(name) == 3 and name[2] == "o":
                i, j = j, i
            matrix[i, j] = value
        fig = new_figure((8, 7))
        ax = fig.subplots()
        image = ax.imshow(matrix, cmap="RdYlGn")
        for (i, j), value in np.ndenumerate(matrix):
            if not np.isnan(value):
                ax.text(j, i, f"{value:.0f}", ha="center", va="center", fontsize=7)
        ax.set_xticks(range(13), list(ranks))
        ax.set_yticks(range(13), list(ranks))
        ax.set_xlabel("rank of the lower card (suited) or the higher card (offsuit)")
        ax.set_ylabel("rank of the higher card (suited) or the lower card (offsuit)")
        ax.set_title(
            f"{game_of(config).name}: {EQUITY_WORDS[key]} (%) against {opponents}, {how}\n"
            "pairs on the diagonal, suited hands above it, offsuit below",
            fontsize=10,
        )
        colorbar = fig.colorbar(image, ax=ax, shrink=0.8)
        fig.tight_layout()
    else:
        # 1,755 classes: one panel per suit pattern, top rank down, middle rank across;
        # each cell shows the mean over the third card (readable at a glance, the table has all).
        patterns = sorted({name.split(" ")[1] for name in grid["class"]})
        fig = new_figure((3.3 * len(patterns) + 1.2, 4.2))
        axes = np.atleast_1d(fig.subplots(1, len(patterns)))
        for ax, pattern in zip(axes, patterns):
            matrix = np.full((13, 13), np.nan)
            rows = grid.filter(pl.col("class").str.ends_with(" " + pattern))
            sums: dict = {}
            for name, value in zip(rows["class"], 100 * rows[key]):
                cell = (ranks.index(name[0]), ranks.index(name[1]))
                sums.setdefault(cell, []).append(value)
            for (i, j), cell_values in sums.items():
                matrix[i, j] = float(np.mean(cell_values))
            image = ax.imshow(matrix, cmap="RdYlGn", vmin=values.min(), vmax=values.max())
            ax.set_title(f"suits {pattern}: {SUIT_PATTERNS.get(pattern, pattern)}", fontsize=9)
            ax.set_xticks(range(13), list(ranks), fontsize=7)
            ax.set_yticks(range(13), list(ranks), fontsize=7)
            ax.set_xlabel("second card's rank")
        axes[0].set_ylabel("top card's rank")
        fig.suptitle(
            f"{game_of(config).name}: {EQUITY_WORDS[key]} (%) of three-card hands against {opponents}, "
            f"{how} (each cell: the mean over the third card)"
        )
        fig.tight_layout(rect=(0, 0, 0.93, 1))
        colorbar = fig.colorbar(image, ax=axes, shrink=0.8, fraction=0.02, pad=0.02)
    colorbar.set_label(label)
    return {"grid_heatmap": fig}


FORMATS = {
    "combos": "count",
    "hands": "count",
    "win": "count",
    "tie": "count",
    "lose": "count",
    "scoop": "percent of hands",
    "equity": "percent",
    "equity_high": "percent",
    "equity_hilo": "percent",
}
HEADERS = {
    "class": "class",
    "combos": "combos",
    "hands": "hands dealt",
    "win": "high wins",
    "tie": "high ties",
    "lose": "high losses",
    "scoop": "scoops (of hands)",
    "equity": "pot share",
    "equity_high": "high-only equity (exact)",
    "equity_hilo": "hi-lo equity (exact)",
}


def markdown_tables(name: str, frame: pl.DataFrame, config: RunConfig) -> str:
    """The Markdown of a grid table: exact counts and equities (4 decimals), or sampled ones ± SE."""
    formats = {c: kind for c, kind in FORMATS.items() if c in frame.columns}
    return table(frame, formats, HEADERS)


def report(tables: dict[str, pl.DataFrame], config: RunConfig, figure_files: list[str]) -> str:
    game = game_of(config)
    if exact(config):
        title = f"Starting-hand grid: {game.name} (exact)"
        method = (
            f"Heads-up all-in equity of each of the {tables['grid'].height:,} starting-hand classes against one "
            "random hand, every board dealt, enumerated exactly (no sampling error). High wins, ties and "
            "losses count the (hand, opponent, board) deals of the class by the high hand alone; high-only "
            "equity is wins plus half the ties over all of them"
            + (
                "; hi-lo equity is the pot share with the halves split high and low and quartered (odd chips ignored)"
                if game.low is not None
                else ""
            )
            + ". Equities are exact percentages to 4 decimals; best first."
        )
    else:
        title = f"Starting-hand grid: {game.name}, {config.players} players (Monte Carlo)"
        method = (
            f"All-in pot share of each of the {tables['grid'].height:,} starting-hand classes against "
            f"{config.players - 1} random hands, {config.deals:,} deals (seed {config.seed}); every hand dealt "
            "counts for its class. Scoops: the share of the class's hands that win the whole pot. "
            + SE_LEGEND
            + " Best first."
        )
    return markdown(
        [
            *report_header(title, method, figure_files),
            "To explore the grid in a browser (colour by any column, hover, find a class, the top N % as a "
            "range), open [grid.html](grid.html) (`sampyong run grid` writes it; `sampyong view RUN_DIR` "
            "writes it again).",
            "",
            *section("Sorted by equity", markdown_tables("grid_by_equity", tables["grid_by_equity"], config)),
        ]
    )


STUDY = Study(
    name="grid",
    description="exact heads-up equity of every starting-hand class (1,755 / 169) over all boards",
    tables=("grid",),
    run_shard=run_shard,
    summarize=summarize,
    report=report,
    figures=figures,
    options=(
        *replace_option(
            MONTE_CARLO_OPTIONS,
            PLAYERS.but(
                help="Hands per deal: heads-up (2) is enumerated exactly for 2 and 3 hole cards, more players are sampled."
            ),
        ),
        EXACT.but(help="Insist on exact enumeration (heads-up): an error if the run would sample."),
    ),
    validate=validate,
    configure=configure,
    plan=plan,
    prepare=prepare,
    exact=exact,
    markdown=markdown_tables,
    outputs={"grid.html": grid_page},
)
