"""Turn draws against trips: what one river card is worth to a hand chasing three of a kind.

A *spot* is a heads-up turn (two hands, four board cards) where the villain's best high is
exactly three of a kind and the hero's is worse, but at least one river card lifts the hero's
high above trips. Spots are sampled; each spot's river is then enumerated exactly (every
unseen card).

* ``draw``: the categories above trips the hero can reach with one river card, grouped as
  ``straight``, ``skip_straight``, ``flush`` and ``full_house+`` (full house or better),
  joined with ``+`` (``flush+straight``);
* ``outs``: river cards after which the hero's high beats the villain's high;
* ``equity``: the hero's exact pot share over the river cards (for games with a low: halves
  for high and low, split on ties, as RULES section 6 says), averaged over the spots of the
  row, with the standard error of that average (spot to spot).

Tables: ``draws`` (``draw, outs, spots, share, equity, equity_se, high_win`` = outs over
rivers) and
``draw_types`` (``draw, spots, share, mean_outs, equity, equity_se``).
"""

from __future__ import annotations

import dataclasses

import numpy as np
import polars as pl
import pyarrow as pa

from evaluator.deal import deal_cards, split_deal
from evaluator.errors import SampyongError
from evaluator.fast import fast_evaluator
from evaluator.games import Category
from jobs.common import MONTE_CARLO_OPTIONS, SE_LEGEND, Study, game_of, markdown, report_header, section, table, words
from pipeline.aggregate import binomial_se, percent
from pipeline.plan import RunConfig, ShardSpec

BLOCK = 1 << 14
GROUPS = (
    ("straight", (Category.straight,)),
    ("skip_straight", (Category.skip_straight,)),
    ("flush", (Category.flush,)),
    (
        "full_house+",
        (
            Category.full_house,
            Category.four_of_a_kind,
            Category.straight_flush,
            Category.skip_straight_flush,
            Category.royal_flush,
        ),
    ),
)
MAX_OUTS = 52


def validate(config: RunConfig) -> None:
    if config.players != 2:
        raise SampyongError("draws are heads-up spots (--players 2)")
    game = game_of(config)
    if game.board_cards != 5:
        raise SampyongError("draws need a 5-card board game")


def prepare(config: RunConfig) -> None:
    run_shard(config, ShardSpec(index=0, deals=64, root_seed=0))


def _turn_game(config: RunConfig):
    return dataclasses.replace(game_of(config), board_cards=4)


def _shares(high, low):
    """Hero (seat 0) pot share per deal, heads-up."""
    h = np.where(high[:, 0] > high[:, 1], 1.0, np.where(high[:, 0] == high[:, 1], 0.5, 0.0))
    lo = np.where(low[:, 0] > low[:, 1], 1.0, np.where(low[:, 0] == low[:, 1], 0.5, 0.0))
    some_low = (low[:, 0] > 0) | (low[:, 1] > 0)
    return np.where(some_low, 0.5 * h + 0.5 * lo, h)


def run_shard(config: RunConfig, shard: ShardSpec) -> dict[str, pa.Table]:
    game = game_of(config)
    river = fast_evaluator(game)
    turn = fast_evaluator(_turn_game(config))
    order = game.ranking.order
    trips = order.index(Category.three_of_a_kind)
    group_of_position = np.full(len(order), -1)
    for g, (_, members) in enumerate(GROUPS):
        for c in members:
            if c in order and order.index(c) > trips:
                group_of_position[order.index(c)] = g
    # Per (draw mask, outs): spots, and over spots the sums of S and S^2 where S is four
    # times the hero's pot share summed over the rivers (an integer: shares are quarters).
    stats = np.zeros((1 << len(GROUPS), MAX_OUTS + 1, 3), np.int64)
    rng = shard.generator()
    need = 2 * game.hole_cards + 4
    remaining = shard.deals
    while remaining:
        n = min(remaining, BLOCK)
        remaining -= n
        cards = deal_cards(rng, n, need)
        hole, board4 = split_deal(cards, 2, game.hole_cards)
        high = turn.high(hole, board4)
        position = high >> 20
        spots = np.flatnonzero((position[:, 1] == trips) & (high[:, 0] < high[:, 1]))
        if not len(spots):
            continue
        hole, board4 = hole[spots], board4[spots]
        # Every unseen river card of each spot.
        seen = np.zeros((len(spots), 52), bool)
        np.put_along_axis(seen, hole.reshape(len(spots), -1).astype(np.int64), True, axis=1)
        np.put_along_axis(seen, board4.astype(np.int64), True, axis=1)
        spot_index, river_card = np.nonzero(~seen)
        boards = np.concatenate([board4[spot_index], river_card[:, None].astype(np.uint8)], axis=1)
        r_high, r_low = river.high_low(np.ascontiguousarray(hole[spot_index]), np.ascontiguousarray(boards))
        hero_position = r_high[:, 0] >> 20
        lifted = hero_position > trips
        group = np.where(lifted, group_of_position[hero_position], -1)
        masks = np.zeros(len(spots), np.int64)
        np.bitwise_or.at(masks, spot_index[group >= 0], 1 << group[group >= 0])
        keep = masks > 0
        outs = np.bincount(spot_index, weights=r_high[:, 0] > r_high[:, 1], minlength=len(spots)).astype(int)
        quarters = np.rint(np.bincount(spot_index, weights=4 * _shares(r_high, r_low), minlength=len(spots))).astype(
            np.int64
        )
        for s in np.flatnonzero(keep):
            stats[masks[s], outs[s]] += (1, quarters[s], quarters[s] ** 2)
    nz = np.argwhere(stats[:, :, 0] > 0)
    return {
        "draws": pa.table(
            {
                "draw_mask": pa.array(nz[:, 0].astype(np.int32)),
                "outs": pa.array(nz[:, 1].astype(np.int32)),
                "spots": pa.array(stats[nz[:, 0], nz[:, 1], 0].astype(np.uint64)),
                "quarters": pa.array(stats[nz[:, 0], nz[:, 1], 1].astype(np.uint64)),
                "quarters_sq": pa.array(stats[nz[:, 0], nz[:, 1], 2].astype(np.uint64)),
            }
        )
    }


def _draw_name(mask: int) -> str:
    return "+".join(name for g, (name, _) in enumerate(GROUPS) if mask >> g & 1)


def rivers(config: RunConfig) -> int:
    """Unseen river cards in every spot: the deck less two hands and the turn board."""
    return 52 - 2 * game_of(config).hole_cards - 4


def _mean_se(config: RunConfig) -> list[pl.Expr]:
    n = pl.col("spots").cast(pl.Float64)
    scale = 4.0 * rivers(config)
    mean = pl.col("quarters").cast(pl.Float64) / scale / n
    variance = (pl.col("quarters_sq").cast(pl.Float64) / scale**2 / n - mean * mean) * n / (n - 1)
    return [mean.alias("equity"), pl.when(n > 1).then((variance.clip(lower_bound=0) / n).sqrt()).alias("equity_se")]


def summarize(counts: dict[str, pl.DataFrame], config: RunConfig) -> dict[str, pl.DataFrame]:
    d = counts["draws"].with_columns(pl.col("draw_mask").map_elements(_draw_name, return_dtype=pl.String).alias("draw"))
    total = d["spots"].sum()
    draws = d.sort(["draw_mask", "outs"]).select(
        "draw",
        "outs",
        "spots",
        (pl.col("spots") / total).alias("share"),
        *_mean_se(config),
        (pl.col("outs") / rivers(config)).alias("high_win"),
    )
    by_type = (
        d.group_by("draw_mask", "draw")
        .agg(
            pl.col("spots").sum(),
            ((pl.col("outs") * pl.col("spots")).sum()).alias("outs_sum"),
            pl.col("quarters").sum(),
            pl.col("quarters_sq").sum(),
        )
        .sort("draw_mask")
        .select(
            "draw",
            "spots",
            (pl.col("spots") / total).alias("share"),
            (pl.col("outs_sum") / pl.col("spots")).alias("mean_outs"),
            *_mean_se(config),
        )
    )
    return {"draws": draws, "draw_types": by_type}


HEADERS = {
    "draw": "draw",
    "outs": "outs",
    "spots": "spots",
    "share": "share of spots",
    "mean_outs": "mean outs",
    "equity": "hero's equity",
    "high_win": "rivers winning the high (exact)",
}


def markdown_tables(name: str, frame: pl.DataFrame, config: RunConfig) -> str:
    """The Markdown of a draws table: shares of all spots (binomial SE), equity ± SE, exact out shares."""
    total = frame["spots"].sum()  # every spot of the run: both tables cover them all
    formats = {
        "draw": words,
        "spots": "count",
        "equity": "percent",
        "high_win": "percent",
        "share": lambda value, row: percent(value, binomial_se(value, total)),
    }
    return table(frame, formats, HEADERS)


def report(tables: dict[str, pl.DataFrame], config: RunConfig, figure_files: list[str]) -> str:
    spots = tables["draw_types"]["spots"].sum()
    return markdown(
        [
            *report_header(
                f"Turn draws against trips: {game_of(config).name}",
                f"{spots:,} spots among {config.deals:,} sampled heads-up turns (seed {config.seed}); each spot's river "
                "enumerated exactly. A spot: the villain's best high is three of a kind, the hero's is worse, and some "
                "river lifts the hero above trips. Draw: the categories above trips one river card reaches "
                "(full house+ = full house or better); outs: rivers after which the hero's high beats the villain's; "
                "hero's equity: the hero's exact pot share over the rivers, averaged over the spots. Shares of "
                "spots and equities are percentages ± one standard error (spot to spot); rivers winning the high "
                "is outs over the unseen cards, exact.",
            ),
            *section("By draw type", markdown_tables("draw_types", tables["draw_types"], config), SE_LEGEND),
            *section("By draw and outs", markdown_tables("draws", tables["draws"], config)),
        ]
    )


STUDY = Study(
    name="draws",
    description="turn draws against trips: draw type, outs and exact river equity",
    tables=("draws",),
    run_shard=run_shard,
    summarize=summarize,
    report=report,
    options=MONTE_CARLO_OPTIONS,
    validate=validate,
    prepare=prepare,
    markdown=markdown_tables,
)
