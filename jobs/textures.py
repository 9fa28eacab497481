"""Board textures: how the 5-card board shapes the showdown (``--players``, default 6).

Each board gets a texture class from five board-only features:

* ``pairing``: ``none`` / ``pair`` / ``two_pair`` / ``trips+`` (trips, a full house or quads on board);
* ``suit``: most cards of one suit, ``<=2`` / ``3`` / ``4`` / ``5``;
* ``straight``, ``skip``: the fewest hole cards that complete one (``0`` when the board holds
  one) counting ranks only, ``0``..``3``, or ``none`` when it takes more than three;
* ``low``: the fewest hole cards a qualifying low needs (distinct ranks at or under the
  game's qualifier, ace low), ``0``..``3``, ``none`` when impossible or the game has no low.

These count what a player *could* hold under free use; under restricted hole use they are the
same board facts. Per class: ``frequency`` (share of deals), ``hi_chop``, ``low_exists``,
``scoop`` and the winning high category's shares, each with standard errors, for the
``players``-handed showdown. A second table keys the same statistics by the 1,755 suit
classes of the flop (the first three board cards).
"""

from __future__ import annotations

import numpy as np
import polars as pl
import pyarrow as pa

from evaluator.cards import hand_classes
from evaluator.deal import deal_cards, split_deal
from evaluator.fast import fast_evaluator
from evaluator.jit import njit
from jobs import showdown
from jobs.common import (
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
    words,
)
from jobs.showdown import CATEGORY_FIELDS, N_CATEGORIES, SUMMARY_FIELDS
from pipeline.plan import RunConfig, ShardSpec

PAIRING = ("none", "pair", "two_pair", "trips+")
SUIT = ("<=2", "3", "4", "5")
NEED = ("0", "1", "2", "3", "none")
FEATURES = ("pairing", "suit", "straight", "skip", "low")
N_TEXTURES = len(PAIRING) * len(SUIT) * len(NEED) ** 3
STAT_FIELDS = ("deals", "hi_chop", "low_exists", "scoop")


def _rank_sets(tops, step):
    """13-bit rank masks of five ranks ``step`` apart ending at each top (ace low as rank -1)."""
    masks = []
    for top in tops:
        ranks = [top - step * i for i in range(5)]
        masks.append(sum(1 << (12 if r == -1 else r) for r in ranks))
    return np.array(masks, dtype=np.int64)


STRAIGHTS = _rank_sets(range(3, 13), 1)  # wheel (top 5) .. broadway
SKIPS = _rank_sets(range(7, 13), 2)  # A-3-5-7-9 (top 9) .. 6-8-T-Q-A


def validate(config: RunConfig) -> None:
    game_of(config).check_players(config.players)


def prepare(config: RunConfig) -> None:
    hand_classes(3)
    run_shard(config, ShardSpec(index=0, deals=4, root_seed=0))


@njit(cache=True)
def _popcount(x):
    count = 0
    while x:
        x &= x - 1
        count += 1
    return count


@njit(cache=True)
def texture_of(board, straights, skips, low_limit):
    """Texture class id of one 5-card board (see the module doc for the features)."""
    ranks = 0
    counts = np.zeros(13, np.int64)
    suits = np.zeros(4, np.int64)
    for c in board:
        counts[c >> 2] += 1
        suits[c & 3] += 1
        ranks |= 1 << (c >> 2)
    pairs = 0
    most = 0
    for r in range(13):
        if counts[r] >= 2:
            pairs += 1
        most = max(most, counts[r])
    pairing = 3 if most >= 3 else min(pairs, 2)
    suit = max(0, suits.max() - 2)
    straight = 4
    for m in straights:
        straight = min(straight, 5 - _popcount(ranks & m))
    skip = 4
    if skips.shape[0] > 0:
        for m in skips:
            skip = min(skip, 5 - _popcount(ranks & m))
    low = 4
    if low_limit > 0:
        low_ranks = _popcount(((ranks & 0x7F) << 1 | (ranks >> 12)) & ((1 << low_limit) - 1))
        low = min(4, 5 - low_ranks)
    straight = min(straight, 4)
    skip = min(skip, 4)
    return (((pairing * 4 + suit) * 5 + straight) * 5 + skip) * 5 + low


@njit(cache=True)
def textures_of(boards, straights, skips, low_limit):
    """``texture_of`` of each row of ``boards`` (``uint8[n, cards]``)."""
    out = np.empty(boards.shape[0], np.int64)
    for i in range(boards.shape[0]):
        out[i] = texture_of(boards[i], straights, skips, low_limit)
    return out


def labels(texture: int) -> dict[str, str]:
    """The features of a texture class id, by name (``FEATURES``)."""
    return dict(zip(FEATURES, _labels(texture)))


@njit(cache=True)
def add_boards(
    boards, outcomes, k, straights, skips, low_limit, flop_lookup, texture_counts, texture_wins, flop_counts
):
    for i in range(boards.shape[0]):
        t = texture_of(boards[i], straights, skips, low_limit)
        a = np.int64(boards[i, 0])
        b = np.int64(boards[i, 1])
        c = np.int64(boards[i, 2])
        if a > b:
            a, b = b, a
        if b > c:
            b, c = c, b
        if a > b:
            a, b = b, a
        f = flop_lookup[a * 2704 + b * 52 + c]
        code = np.int64(outcomes[i, k])  # showdown's outcome code: flags, then the winning category
        hi_chop = code & 1
        some_low = (code >> 1) & 1
        scoop = (code >> 3) & 1
        texture_counts[t, 0] += 1
        texture_counts[t, 1] += hi_chop
        texture_counts[t, 2] += some_low
        texture_counts[t, 3] += scoop
        texture_wins[t, code >> showdown.N_SUMMARY] += 1
        flop_counts[f, 0] += 1
        flop_counts[f, 1] += hi_chop
        flop_counts[f, 2] += some_low
        flop_counts[f, 3] += scoop


def run_shard(config: RunConfig, shard: ShardSpec) -> dict[str, pa.Table]:
    game = game_of(config)
    fast = fast_evaluator(game)
    players = config.players
    lookup, sizes, names, _ = hand_classes(3)
    texture_counts = np.zeros((N_TEXTURES, len(STAT_FIELDS)), np.int64)
    texture_wins = np.zeros((N_TEXTURES, N_CATEGORIES), np.int64)
    flop_counts = np.zeros((len(sizes), len(STAT_FIELDS)), np.int64)
    skips = SKIPS if game.ranking.has_skips else SKIPS[:0]
    summary = np.zeros((players + 1, len(SUMMARY_FIELDS)), np.int64)
    per_category = np.zeros((players + 1, len(CATEGORY_FIELDS), N_CATEGORIES), np.int64)
    rng = shard.generator()
    remaining = shard.deals
    while remaining:
        n = min(remaining, showdown.BLOCK_DEALS)
        cards = deal_cards(rng, n, players * game.hole_cards + 5)
        hole, board = split_deal(cards, players, game.hole_cards)
        high, low, present = fast.high_low_present(hole, board)
        outcomes = np.zeros((n, players + 1), np.int16)
        showdown.showdown_counts(
            high,
            low,
            fast.tables.category_of_position,
            present,
            summary,
            per_category,
            outcomes,
            showdown.RECORD,
            showdown.NO_JOINT,
        )
        add_boards(
            board, outcomes, players, STRAIGHTS, skips, game.low or 0, lookup, texture_counts, texture_wins, flop_counts
        )
        remaining -= n
    used = np.flatnonzero(texture_counts[:, 0])
    labels = [_labels(t) for t in used]
    textures = pa.table(
        {
            "texture": pa.array(used.astype(np.int32)),
            **{
                name: pa.array([lab[i] for lab in labels], pa.string())
                for i, name in enumerate(("pairing", "suit", "straight", "skip", "low"))
            },
            **{f: pa.array(texture_counts[used, i].astype(np.uint64)) for i, f in enumerate(STAT_FIELDS)},
            **{f"win_{c.name}": pa.array(texture_wins[used, int(c)].astype(np.uint64)) for c in game.ranking.order},
        }
    )
    flops = pa.table(
        {
            "flop_class": pa.array(np.arange(len(sizes), dtype=np.int32)),
            "flop": pa.array(names, pa.string()),
            **{f: pa.array(flop_counts[:, i].astype(np.uint64)) for i, f in enumerate(STAT_FIELDS)},
        }
    )
    return {"textures": textures, "flops": flops}


def _labels(texture: int) -> tuple[str, str, str, str, str]:
    texture, low = divmod(int(texture), 5)
    texture, skip = divmod(texture, 5)
    texture, straight = divmod(texture, 5)
    pairing, suit = divmod(texture, 4)
    return PAIRING[pairing], SUIT[suit], NEED[straight], NEED[skip], NEED[low]


def _rates(frame: pl.DataFrame, total: int) -> list[pl.Expr]:
    n = pl.col("deals").cast(pl.Float64)
    frequency = n / total
    exprs = [frequency.alias("frequency"), (frequency * (1 - frequency) / total).sqrt().alias("frequency_se")]
    for field in STAT_FIELDS[1:]:
        p = pl.col(field) / n
        exprs += [p.alias(field), (p * (1 - p) / n).sqrt().alias(f"{field}_se")]
    return exprs


def summarize(counts: dict[str, pl.DataFrame], config: RunConfig) -> dict[str, pl.DataFrame]:
    total = config.deals
    t = counts["textures"]
    win_columns = [c for c in t.columns if c.startswith("win_")]
    textures = t.sort("texture").select(
        "pairing",
        "suit",
        "straight",
        "skip",
        "low",
        "deals",
        *_rates(t, total),
        *[(pl.col(c) / pl.col("deals")).alias(c) for c in win_columns],
    )
    f = counts["flops"]
    _, sizes, _, examples = hand_classes(3)
    flops = (
        f.sort("flop_class")
        .with_columns(pl.Series("example", examples))
        .select("flop", "example", "deals", *_rates(f, total))
    )
    return {"textures": textures, "flops": flops}


def figures(tables, config: RunConfig) -> dict:
    t = tables["textures"]
    grouped = t.group_by("pairing", "suit").agg((pl.col("hi_chop") * pl.col("deals")).sum() / pl.col("deals").sum())
    matrix = np.full((len(PAIRING), len(SUIT)), np.nan)
    for pairing, suit, value in grouped.iter_rows():
        matrix[PAIRING.index(pairing), SUIT.index(suit)] = 100 * value
    fig = new_figure((6, 4.5))
    ax = fig.subplots()
    image = ax.imshow(matrix, cmap="viridis")
    ax.set_xticks(range(len(SUIT)), ["2 or fewer", "3", "4", "5"])
    ax.set_yticks(range(len(PAIRING)), ["unpaired", "one pair", "two pair", "trips or more"])
    ax.set_xlabel("most cards of one suit on the board")
    ax.set_ylabel("board pairing")
    ax.set_title(f"{game_of(config).name}, {config.players} players: high chopped (% of deals) by board", fontsize=10)
    for (i, j), value in np.ndenumerate(matrix):
        if not np.isnan(value):
            bright = value > np.nanmin(matrix) + 0.6 * (np.nanmax(matrix) - np.nanmin(matrix))
            ax.text(j, i, f"{value:.1f} %", ha="center", va="center", color="black" if bright else "white", fontsize=8)
    colorbar = fig.colorbar(image, ax=ax, shrink=0.8)
    colorbar.set_label("high chopped (% of deals)")
    fig.tight_layout()
    return {"texture_heatmap": fig}


FEATURE_WORDS = {
    "pairing": "board pairing",
    "suit": "most of one suit",
    "straight": "hole cards for a straight",
    "skip": "hole cards for a skip straight",
    "low": "hole cards for a low",
    "flop": "flop class",
}
RATE_FORMATS = {"deals": "count", **{f: "percent" for f in ("frequency", "hi_chop", "low_exists", "scoop")}}
TEXTURES_LEGEND = (
    "Per texture: its share of deals, then among its deals the high chopped, a low exists and scooped "
    "rates of the showdown; hole cards for X: the fewest hole cards (by rank) that complete X with the "
    "board, none when it takes more than three. " + SE_LEGEND
)


def markdown_tables(name: str, frame: pl.DataFrame, config: RunConfig) -> str:
    """The Markdown of a textures table: percentages ± SE (the wins' SEs binomial over the row's deals)."""
    wins = [c for c in frame.columns if c.startswith("win_")]
    formats = {**RATE_FORMATS, **{c: "percent of deals" for c in wins}}
    headers = {**FEATURE_WORDS, **{c: f"wins with {words(c[4:])}" for c in wins}}
    return table(frame, formats, headers)


def report(tables: dict[str, pl.DataFrame], config: RunConfig, figure_files: list[str]) -> str:
    textures = tables["textures"]
    return markdown(
        [
            *report_header(
                f"Board textures: {game_of(config).name}, {config.players} players",
                f"{config.deals:,} deals (Monte Carlo, seed {config.seed}) of {config.players} hands and a board, "
                "everyone showing down. Each board gets a texture from five board-only features (described in "
                "`jobs/textures.py`): its pairing, the most cards of one suit, and the fewest hole cards (by "
                "rank) that make a straight, a skip straight and a qualifying low. Rates are percentages ± one "
                "standard error; `tables/*.csv` keep the fractions and their `_se` columns.",
                figure_files,
            ),
            *section(
                "Textures",
                markdown_tables(
                    "textures", textures.drop([c for c in textures.columns if c.startswith("win_")]), config
                ),
                TEXTURES_LEGEND,
            ),
            *section(
                "Flop classes (most frequent first)",
                markdown_tables("flops", tables["flops"].sort("deals", descending=True).head(50), config),
                "The 50 most frequent of the 1,755 suit classes of the flop (the first three board cards); "
                "rates as in the textures table.",
            ),
        ]
    )


STUDY = Study(
    name="textures",
    description="board textures (pairing, suits, straight/skip/low draws) and the 1,755 flop classes",
    tables=("textures", "flops"),
    run_shard=run_shard,
    summarize=summarize,
    report=report,
    figures=figures,
    options=replace_option(MONTE_CARLO_OPTIONS, PLAYERS.but(default=6)),
    validate=validate,
    prepare=prepare,
    markdown=markdown_tables,
)
