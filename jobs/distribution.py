"""Exact category distribution over every pool of a free-use game (exact enumeration).

For a game whose hands are any 5 of ``hole + 5`` cards, every one of the C(52, hole + 5)
pools is enumerated once (PLS/PLS7: all 752,538,150 eight-card pools; hold'em: all
133,784,560 seven-card hands). Shard ``i`` takes the pools whose lowest card is card ``i``.

Tables (exact integers; ``*_share`` are the same counts over ``pools``):

* ``categories``: ``category, best, present, pools`` — pools whose best high is the category;
  pools in which some 5 cards make exactly the category.
* ``low``: ``qualifier, low_pools, pools`` — pools holding five distinct ranks at or under
  the qualifier (ace low), for qualifiers 6, 7 and 8.
"""

from __future__ import annotations

from math import comb

import numpy as np
import polars as pl
import pyarrow as pa

from evaluator import pool_kernels
from evaluator.errors import SampyongError
from evaluator.fast import fast_evaluator
from evaluator.games import Category
from evaluator.tables import MAX_FREE_POOL, PAIRED_CATEGORIES
from jobs.common import EXACT, GAME_OPTIONS, Study, game_of, markdown, report_header, section, table, words
from pipeline.aggregate import percent
from pipeline.plan import RunConfig, ShardSpec

DECK = np.arange(52, dtype=np.uint8)
QUALIFIERS = (6, 7, 8)


def pool_size(config: RunConfig) -> int:
    game = game_of(config)
    return game.hole_cards + game.board_cards


def validate(config: RunConfig) -> None:
    game = game_of(config)
    if not game.free_use or pool_size(config) > MAX_FREE_POOL:
        raise SampyongError(
            f"distribution enumerates free-use games of at most {MAX_FREE_POOL} cards "
            f"(any 5 of hole + board); {game.name} is not one (try the showdown job)"
        )


def exact(config: RunConfig) -> bool:
    """Always an enumeration of every pool."""
    return True


def configure(config: RunConfig) -> RunConfig:
    """Deal counts, shard sizes, players and seeds do not apply to an exact enumeration."""
    import dataclasses

    return dataclasses.replace(config, deals=comb(52, pool_size(config)), shard_deals=0, players=1, seed=0)


def plan(config: RunConfig) -> list[ShardSpec]:
    size = pool_size(config)
    return [ShardSpec(index=i, deals=comb(51 - i, size - 1), root_seed=0) for i in range(52 - size + 1)]


def prepare(config: RunConfig) -> None:
    count_pools(config, DECK, 52 - pool_size(config))  # compile and load tables on a tiny shard


def count_pools(config: RunConfig, deck: np.ndarray, first: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(best, present, low_pools) counts of the pools of ``deck`` starting at position ``first``."""
    game = game_of(config)
    fast = fast_evaluator(game)
    t = fast.tables
    size = pool_size(config)
    best_positions = np.zeros(len(Category), np.int64)
    present_patterns = np.zeros(1 << len(Category), np.int64)
    low_patterns = np.zeros(256, np.int64)
    pool_kernels.enumerate_pools(
        deck,
        first,
        size,
        fast.lo_index,
        fast.start[size],
        t.rank_value[size],
        t.rank_present[size],
        t.flush_value,
        t.flush_present,
        t.offsuit_present,
        PAIRED_CATEGORIES,
        best_positions,
        present_patterns,
        low_patterns,
    )
    best = np.zeros(len(Category), np.int64)
    best[t.category_of_position] = best_positions[: len(t.category_of_position)]
    patterns = np.arange(len(present_patterns))
    present = np.array([present_patterns[(patterns >> c) & 1 == 1].sum() for c in range(len(Category))])
    masks = np.arange(256)
    low_pools = np.zeros(9, np.int64)
    for q in QUALIFIERS:
        qualifying = np.array([bin(m & ((1 << q) - 1)).count("1") >= 5 for m in masks])
        low_pools[q] = low_patterns[qualifying].sum()
    return best, present, low_pools


def run_shard(config: RunConfig, shard: ShardSpec) -> dict[str, pa.Table]:
    best, present, low_pools = count_pools(config, DECK, shard.index)
    name = game_of(config).name
    order = game_of(config).ranking.order
    return {
        "categories": pa.table(
            {
                "game": pa.array([name] * len(order), pa.string()),
                "category": pa.array([c.name for c in order], pa.string()),
                "rank": pa.array([order.index(c) for c in order], pa.int32()),
                "best": pa.array([best[c] for c in order], pa.uint64()),
                "present": pa.array([present[c] for c in order], pa.uint64()),
                "pools": pa.array([shard.deals] * len(order), pa.uint64()),
            }
        ),
        "low": pa.table(
            {
                "game": pa.array([name] * len(QUALIFIERS), pa.string()),
                "qualifier": pa.array(list(QUALIFIERS), pa.int32()),
                "low_pools": pa.array([low_pools[q] for q in QUALIFIERS], pa.uint64()),
                "pools": pa.array([shard.deals] * len(QUALIFIERS), pa.uint64()),
            }
        ),
    }


def summarize(counts: dict[str, pl.DataFrame], config: RunConfig) -> dict[str, pl.DataFrame]:
    categories = (
        counts["categories"]
        .sort("rank", descending=True)
        .select(
            "category",
            "best",
            "present",
            "pools",
            (pl.col("best") / pl.col("pools")).alias("best_share"),
            (pl.col("present") / pl.col("pools")).alias("present_share"),
        )
    )
    low = (
        counts["low"]
        .sort("qualifier")
        .select("qualifier", "low_pools", "pools", (pl.col("low_pools") / pl.col("pools")).alias("low_share"))
    )
    return {"categories": categories, "low": low}


HOLDEM_7 = {
    "straight_flush": 41_584,
    "four_of_a_kind": 224_848,
    "full_house": 3_473_184,
    "flush": 4_047_644,
    "straight": 6_180_020,
    "three_of_a_kind": 6_461_620,
    "two_pair": 31_433_400,
    "one_pair": 58_627_800,
    "high_card": 23_294_460,
}
PLS_PRESENT = {"three_of_a_kind": 0.120, "straight": 0.098, "flush": 0.0689, "skip_straight": 0.0639}
PLS_PRESENT_TEXT = {
    "three_of_a_kind": "~12.0 %",
    "straight": "~9.8 %",
    "flush": "~6.89 %",
    "skip_straight": "~6.39 %",
}  # as RULES writes them


FORMATS = {
    "categories": {
        "category": words,
        "best": "count",
        "present": "count",
        "pools": "count",
        "best_share": "percent",
        "present_share": "percent",
    },
    "low": {"low_pools": "count", "pools": "count", "low_share": "percent"},
}
HEADERS = {
    "categories": {
        "best": "pools: best high",
        "present": "pools: can be made",
        "best_share": "best high (exact)",
        "present_share": "can be made (exact)",
    },
    "low": {
        "qualifier": "low qualifier (this or better)",
        "low_pools": "pools with a low",
        "low_share": "a low (exact)",
    },
}


def markdown_tables(name: str, frame: pl.DataFrame, config: RunConfig) -> str:
    """The Markdown of a distribution table: exact counts, and exact shares as percentages to 4 decimals."""
    return table(frame, FORMATS.get(name), HEADERS.get(name))


def report(tables: dict[str, pl.DataFrame], config: RunConfig, figure_files: list[str]) -> str:
    game = game_of(config)
    pools = tables["categories"]["pools"][0]
    lines = [
        *report_header(
            f"Distribution: {game.name} (exact)",
            f"Every one of the {pools:,} pools of {pool_size(config)} cards (hole cards and board together), "
            "enumerated exactly: no sampling error. Per category, the pools whose best high is the "
            "category and the pools in which some 5 cards make exactly the category, as counts and as "
            "exact percentages of all pools (4 decimals).",
        ),
        *section("Categories", markdown_tables("categories", tables["categories"], config)),
    ]
    rows = {r["category"]: r for r in tables["categories"].iter_rows(named=True)}
    if game.ranking.name == "standard" and pool_size(config) == 7:
        lines += [
            "## Against RULES.md section 9 (7-card hold'em)",
            "",
            "| category | rule book | exact | equal |",
            "|---|---|---|---|",
        ]
        lines += [
            f"| {words(c)} | {n:,} | {rows[c]['best']:,} | {'yes' if rows[c]['best'] == n else 'NO'} |"
            for c, n in HOLDEM_7.items()
        ]
        lines.append("")
    if game.ranking.has_skips and pool_size(config) == 8:
        lines += [
            "## Against RULES.md section 9 (8-card pools, can be made)",
            "",
            "| category | rule book | exact |",
            "|---|---|---|",
        ]
        lines += [
            f"| {words(c)} | {text} | {percent(rows[c]['present_share'])} |" for c, text in PLS_PRESENT_TEXT.items()
        ]
        lines.append("")
    return markdown(
        [
            *lines,
            *section(
                "Lows",
                markdown_tables("low", tables["low"], config),
                "Pools holding five distinct ranks at or under the qualifier (ace low).",
            ),
        ]
    )


STUDY = Study(
    name="distribution",
    description="exact category and low distribution over every pool of a free-use game",
    tables=("categories", "low"),
    run_shard=run_shard,
    summarize=summarize,
    report=report,
    options=(*GAME_OPTIONS, EXACT),
    validate=validate,
    configure=configure,
    plan=plan,
    prepare=prepare,
    exact=exact,
    markdown=markdown_tables,
)
