"""Showdown statistics: deal P hands and a board; read the k-player showdown off the first k
hands for every k from 2 to P (nobody folds).

Per game and k (``players``):

* ``summary``: ``hi_chop`` (two or more tied best highs), ``low_exists`` (some player has a
  qualifying low), ``low_tie`` (the best low is tied, given a low exists), ``scoop`` (one
  player wins the whole pot), ``quartered`` (some player's share is exactly a quarter),
  ``hilo_split`` (the pot is split between different players for high and low: a qualifying
  low exists and the players who share the low half are not exactly those who share the high
  half, so the low changes who gets what; RULES section 7's "split");
  fractions of deals (``low_tie``: of deals with a low) with binomial standard errors.
  ``hilo_split`` and ``hilo_split_se`` are the last two columns (added after the others, whose
  numbers they leave unchanged).

  Every pot not scooped is either a ``hilo_split`` or a *pure high chop* (the high tied, and
  the low, if any, shared by exactly the same players), so 1 - ``scoop`` = ``hilo_split`` +
  pure high chops, deal by deal. (1 - ``scoop``) - ``hi_chop`` is smaller than ``hilo_split``
  by the deals whose high is tied and whose low goes to other players (heads-up about 0.4 %,
  four players 1.5 %).
* ``categories``: ``best`` (a player's best high is the category) and ``present`` (some
  allowed 5-card hand is exactly the category) as fractions of the k hands, with standard
  errors from the per-deal counts (the k hands of a deal share a board, so they are not
  independent); ``win`` (the category of the winning high) as a fraction of deals.
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pyarrow as pa

from evaluator.deal import deal_cards, split_deal
from evaluator.fast import fast_evaluator
from evaluator.games import Category
from evaluator.jit import njit
from evaluator.settle_kernels import SHOWDOWN_FLAGS, showdown_flags
from jobs.common import (
    MONTE_CARLO_OPTIONS,
    PLAYERS,
    RATES,
    SE_LEGEND,
    Study,
    figure_links,
    game_of,
    markdown,
    new_figure,
    replace_option,
    report_header,
    section,
    table,
    use_distinct_colors,
    words,
)
from pipeline.aggregate import percent
from pipeline.plan import RunConfig, ShardSpec

BLOCK_DEALS = 1 << 15
N_CATEGORIES = len(Category)
SUMMARY_FIELDS = SHOWDOWN_FLAGS
N_SUMMARY = len(SUMMARY_FIELDS)
CATEGORY_FIELDS = ("best", "best_sq", "present", "present_sq", "win")
# A deal's outcome for k players as one code: the SUMMARY_FIELDS flags (bit f) and, above
# them, the winning category. ``showdown_counts`` can RECORD the codes (for the textures job
# and the variants job's base) and PAIR its own outcomes with recorded ones (other variants).
# SKIP_BEST and SKIP_PRESENT leave out the per-player ``best`` and ``present`` sums, for a
# variant whose highs (or present bits) are another variant's, which already counted them.
RECORD, PAIR, SKIP_BEST, SKIP_PRESENT = 1, 2, 4, 8
FLAG_MASK = (1 << N_SUMMARY) - 1
NO_OUTCOMES = np.zeros((1, 1), dtype=np.int16)
NO_JOINT = np.zeros((1, 1, 1), dtype=np.int64)


def validate(config: RunConfig) -> None:
    game = game_of(config)
    game.check_players(config.players)


# A player's best hand is one category, counted directly. The categories present are several:
# their per-player counts travel in 16-bit lanes, four categories to a 64-bit word
# (N_CATEGORIES = 12 -> three words), so a hand's present bits update all categories
# branch-free. SPREAD[m] has a 1 in lane l for each bit l of the 4-bit m; LANE_MASK[m] has
# 0xFFFF there. A lane gains at most players - 1 <= 46 per deal (one hole card seats 47), so
# lanes fold into int64 totals every FOLD_EVERY deals, before 16 bits can overflow.
SPREAD = np.array([sum(1 << (16 * lane) for lane in range(4) if m >> lane & 1) for m in range(16)], dtype=np.int64)
LANE_MASK = (SPREAD.astype(np.uint64) * np.uint64(0xFFFF)).view(np.int64)
FOLD_EVERY = 1024


@njit(inline="always")
def _add_lanes(acc, j, bits, seen0, seen1, seen2):
    """Player ``j`` holds the categories ``bits``: count them, and count the earlier players
    (``seen``, in lanes) holding each; return the updated ``seen`` words."""
    m0 = bits & 15
    m1 = (bits >> 4) & 15
    m2 = (bits >> 8) & 15
    acc[j, 0, 0] += SPREAD[m0]
    acc[j, 0, 1] += SPREAD[m1]
    acc[j, 0, 2] += SPREAD[m2]
    acc[j, 1, 0] += seen0 & LANE_MASK[m0]
    acc[j, 1, 1] += seen1 & LANE_MASK[m1]
    acc[j, 1, 2] += seen2 & LANE_MASK[m2]
    return seen0 + SPREAD[m0], seen1 + SPREAD[m1], seen2 + SPREAD[m2]


@njit(inline="always")
def _fold_lanes(acc, totals):
    """Add the lane counts of ``acc[j, f, word]`` to ``totals[j, f, category]`` and clear them."""
    for j in range(acc.shape[0]):
        for f in range(2):
            for w in range(3):
                word = acc[j, f, w]
                for lane in range(4):
                    totals[j, f, 4 * w + lane] += (word >> (16 * lane)) & 0xFFFF
                acc[j, f, w] = 0


@njit(cache=True)
def showdown_counts(high, low, category_of_position, present, summary, per_category, outcomes, mode, joint):
    """Add one block's counts. ``summary[k, f]`` follows SUMMARY_FIELDS, ``per_category[k, f, c]``
    follows CATEGORY_FIELDS, for k players (rows 0 and 1 stay empty). ``mode`` RECORD writes
    each deal's outcome code to ``outcomes[i, k]``; PAIR counts this deal's outcome against
    the code there in ``joint[k, flags & their flags, category]``, the category being the
    winning one when both winners share it and N_CATEGORIES otherwise (the variants job's
    paired differences). RECORD | PAIR pairs a variant with itself. SKIP_BEST (SKIP_PRESENT)
    leaves the ``best`` (``present``) fields of ``per_category`` untouched: 1.3-1.5x faster.

    Every k is read off one pass over the players: the best high and low, their tie counts and
    how many players hold both are updated as each player joins. The per-deal counts X of a
    category among the first k hands enter through per-player sums, since
    X_k = sum_{j<k} x_j and X_k^2 = sum_{j<k} (x_j + 2 x_j * #{l < j: x_l}).
    """
    n, players = high.shape
    first = np.zeros((players, 2, N_CATEGORIES), dtype=np.int64)  # sum x_j, sum x_j * earlier
    second = np.zeros((players, 2, N_CATEGORIES), dtype=np.int64)  # same for "present"
    best_seen = np.zeros(N_CATEGORIES, dtype=np.int64)  # earlier players' best categories, this deal
    second_lanes = np.zeros((players, 2, 3), dtype=np.int64)  # the "present" sums in 16-bit lanes
    # Deals by k, SUMMARY_FIELDS flags (bit f) and winning category: one increment per k.
    outcome_counts = np.zeros((players + 1, 1 << N_SUMMARY, N_CATEGORIES), dtype=np.int64)
    for i in range(n):
        best_seen[:] = 0
        seen0 = np.int64(0)
        seen1 = np.int64(0)
        seen2 = np.int64(0)
        top_high = np.int64(-1)
        high_ties = np.int64(0)
        top_low = np.int64(0)
        low_ties = np.int64(0)
        both = np.int64(0)  # players among the high winners and the low winners
        winner_category = np.int64(0)
        for j in range(players):
            h = np.int64(high[i, j])
            lo = np.int64(low[i, j])
            c = np.int64(category_of_position[h >> 20])
            if not mode & SKIP_BEST:
                first[j, 0, c] += 1
                first[j, 1, c] += best_seen[c]
                best_seen[c] += 1
            if not mode & SKIP_PRESENT:
                seen0, seen1, seen2 = _add_lanes(second_lanes, j, np.int64(present[i, j]), seen0, seen1, seen2)
            high_reset = h > top_high
            if high_reset:
                top_high = h
                high_ties = 1
                winner_category = c
            elif h == top_high:
                high_ties += 1
            low_reset = lo > top_low
            if low_reset:
                top_low = lo
                low_ties = 1
            elif lo > 0 and lo == top_low:
                low_ties += 1
            in_high = h == top_high
            in_low = lo > 0 and lo == top_low
            if high_reset or low_reset:
                # One winner set is now just this player: the overlap is whether it is in the other.
                both = 1 if (in_high and in_low) else 0
            elif in_high and in_low:
                both += 1
            k = j + 1
            if k < 2:
                continue
            chop, some_low, low_tie, scoop, quarter, split = showdown_flags(
                high_ties, low_ties if top_low > 0 else 0, both
            )
            flags = chop | (some_low << 1) | (low_tie << 2) | (scoop << 3) | (quarter << 4) | (split << 5)
            outcome_counts[k, flags, winner_category] += 1
            if mode & RECORD:
                outcomes[i, k] = flags | (winner_category << N_SUMMARY)
            if mode & PAIR:
                other = np.int64(outcomes[i, k])
                same_winner = (other >> N_SUMMARY) == winner_category
                joint[k, flags & other & FLAG_MASK, winner_category if same_winner else N_CATEGORIES] += 1
        if (i + 1) % FOLD_EVERY == 0:
            _fold_lanes(second_lanes, second)
    _fold_lanes(second_lanes, second)
    # Fold the outcome histogram and the per-player sums into per-k totals.
    for k in range(2, players + 1):
        for flags in range(1 << N_SUMMARY):
            for c in range(N_CATEGORIES):
                count = outcome_counts[k, flags, c]
                per_category[k, 4, c] += count
                for f in range(N_SUMMARY):
                    summary[k, f] += count * ((flags >> f) & 1)
        for j in range(k):
            for c in range(N_CATEGORIES):
                per_category[k, 0, c] += first[j, 0, c]
                per_category[k, 1, c] += first[j, 0, c] + 2 * first[j, 1, c]
                per_category[k, 2, c] += second[j, 0, c]
                per_category[k, 3, c] += second[j, 0, c] + 2 * second[j, 1, c]


def run_shard(config: RunConfig, shard: ShardSpec) -> dict[str, pa.Table]:
    game = game_of(config)
    evaluator = fast_evaluator(game)
    players = config.players
    rng = shard.generator()
    summary = np.zeros((players + 1, len(SUMMARY_FIELDS)), dtype=np.int64)
    per_category = np.zeros((players + 1, len(CATEGORY_FIELDS), N_CATEGORIES), dtype=np.int64)
    remaining = shard.deals
    while remaining:
        n = min(remaining, BLOCK_DEALS)
        cards = deal_cards(rng, n, players * game.hole_cards + game.board_cards)
        hole, board = split_deal(cards, players, game.hole_cards)
        high, low, present = evaluator.high_low_present(hole, board)
        showdown_counts(
            high, low, evaluator.tables.category_of_position, present, summary, per_category, NO_OUTCOMES, 0, NO_JOINT
        )
        remaining -= n
    return _shard_tables(game.name, game.ranking.order, shard.deals, summary, per_category)


def _shard_tables(game_name, order, deals, summary, per_category) -> dict[str, pa.Table]:
    ks = list(range(2, summary.shape[0]))
    summary_table = pa.table(
        {
            "game": pa.array([game_name] * len(ks), pa.string()),
            "players": pa.array(ks, pa.int32()),
            "deals": pa.array([deals] * len(ks), pa.uint64()),
            **{f: pa.array(summary[ks, i], pa.uint64()) for i, f in enumerate(SUMMARY_FIELDS)},
        }
    )
    rows = [(k, c) for k in ks for c in order]
    category_table = pa.table(
        {
            "game": pa.array([game_name] * len(rows), pa.string()),
            "players": pa.array([k for k, _ in rows], pa.int32()),
            "category": pa.array([c.name for _, c in rows], pa.string()),
            "rank": pa.array([order.index(c) for _, c in rows], pa.int32()),
            **{
                f: pa.array([per_category[k, i, int(c)] for k, c in rows], pa.uint64())
                for i, f in enumerate(CATEGORY_FIELDS)
            },
        }
    )
    return {"summary": summary_table, "categories": category_table}


# --- summarizing --------------------------------------------------------------------------


def binomial(successes: pl.Expr, trials: pl.Expr, name: str) -> list[pl.Expr]:
    """A rate and its binomial standard error; null where there were no trials."""
    p = successes.cast(pl.Float64) / trials.cast(pl.Float64)
    return [
        pl.when(trials > 0).then(p).otherwise(None).alias(name),
        pl.when(trials > 0).then((p * (1 - p) / trials.cast(pl.Float64)).sqrt()).otherwise(None).alias(f"{name}_se"),
    ]


def per_hand(total: pl.Expr, squares: pl.Expr, name: str) -> list[pl.Expr]:
    """Mean of a per-deal count over k hands, with a standard error from the per-deal variance."""
    deals = pl.col("deals").cast(pl.Float64)
    k = pl.col("players").cast(pl.Float64)
    mean = total.cast(pl.Float64) / deals
    variance = (squares.cast(pl.Float64) / deals - mean * mean) * deals / (deals - 1)
    return [
        (mean / k).alias(name),
        (variance.clip(lower_bound=0) / deals).sqrt().truediv(k).alias(f"{name}_se"),
    ]


def summarize(counts: dict[str, pl.DataFrame], config: RunConfig) -> dict[str, pl.DataFrame]:
    s = counts["summary"]
    summary = s.select(
        "game",
        "players",
        "deals",
        *binomial(pl.col("hi_chop"), pl.col("deals"), "hi_chop"),
        *binomial(pl.col("low_exists"), pl.col("deals"), "low_exists"),
        *binomial(pl.col("low_tie"), pl.col("low_exists"), "low_tie"),
        *binomial(pl.col("scoop"), pl.col("deals"), "scoop"),
        *binomial(pl.col("quartered"), pl.col("deals"), "quartered"),
        *binomial(pl.col("hilo_split"), pl.col("deals"), "hilo_split"),
    ).sort("players")
    c = counts["categories"].join(s.select("game", "players", "deals"), on=["game", "players"])
    categories = c.sort(["players", "rank"], descending=[False, True]).select(
        "game",
        "players",
        "category",
        *per_hand(pl.col("best"), pl.col("best_sq"), "best"),
        *per_hand(pl.col("present"), pl.col("present_sq"), "present"),
        *binomial(pl.col("win"), pl.col("deals"), "win"),
    )
    return {"summary": summary, "categories": categories}


# --- figures and report -------------------------------------------------------------------


def figures(tables: dict[str, pl.DataFrame], config: RunConfig) -> dict:
    cats = tables["categories"]
    fig = new_figure((8, 4.5), dpi=90)
    ax = fig.subplots()
    use_distinct_colors(ax, cats["category"].n_unique())
    for name in cats["category"].unique(maintain_order=True):
        rows = cats.filter(pl.col("category") == name)
        if rows["win"].max() and rows["win"].max() > 0.001:
            ax.errorbar(
                rows["players"],
                100 * rows["win"],
                yerr=100 * rows["win_se"],
                marker="o",
                label=name.replace("_", " "),
                capsize=2,
            )
    ax.set_xticks(cats["players"].unique().sort().to_list())
    ax.set_xlabel("players at the showdown")
    ax.set_ylabel("deals won by the category (%)")
    ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3)
    ax.set_title(f"{game_of(config).name}: category of the winning high, by table size (± 1 SE)")
    ax.legend(fontsize=7, ncol=2, title="winning high", title_fontsize=7)
    fig.tight_layout()
    return {"win_by_players": fig}


# Published figures of RULES.md section 9 that a showdown run can check: (game name, players,
# table, row filter, column, value).
RULEBOOK = (
    ("pls7", 6, "summary", None, "hi_chop", 0.0705),
    ("pls7[ranking=skip_over_flush]", 6, "summary", None, "hi_chop", 0.0820),
    ("pls7[low=8]", 6, "summary", None, "low_exists", 0.70),
    ("pls7", 6, "categories", "three_of_a_kind", "present", 0.120),
    ("pls7", 6, "categories", "straight", "present", 0.098),
    ("pls7", 6, "categories", "flush", "present", 0.0689),
    ("pls7", 6, "categories", "skip_straight", "present", 0.0639),
)


def rulebook_checks(tables: dict[str, pl.DataFrame]) -> list[tuple[str, float, float, float]]:
    """(label, rule book value, ours, standard error) for every RULES figure this run measured."""
    out = []
    for game, players, table_name, category, column, value in RULEBOOK:
        frame = tables[table_name].filter((pl.col("game") == game) & (pl.col("players") == players))
        if category is not None:
            frame = frame.filter(pl.col("category") == category)
        if frame.height == 1:
            label = f"{game}, {players} players: {column}" + (f" {category}" if category else "")
            out.append((label, value, frame[column][0], frame[f"{column}_se"][0]))
    return out


FORMATS = {
    "summary": {"deals": "count", **{rate: "percent" for rate in RATES}},
    "categories": {"category": words, "best": "percent", "present": "percent", "win": "percent"},
}
SUMMARY_LEGEND = (
    "High chopped: two or more players tie for the best high. A low exists: some player has a "
    "qualifying low. Low tied: the best low is tied (of the deals with a low). Scooped: one player "
    "wins the whole pot. Someone gets a quarter: some player's share is exactly a quarter of the pot. "
    "Split high/low: a low exists and the low half goes to other players than the high half (the "
    "split of RULES section 7); 1 − scooped is split high/low plus the pots split only because the "
    "high is tied. " + SE_LEGEND
)
CATEGORIES_LEGEND = (
    "Best high: the share of the k hands whose best high is the category; can be made: the share "
    "of hands in which some allowed 5 cards are exactly the category (both with standard errors from "
    "the per-deal counts, as a deal's hands share a board); wins the high: the share of deals whose "
    "winning high is the category. " + SE_LEGEND
)


def markdown_tables(name: str, frame: pl.DataFrame, config: RunConfig) -> str:
    """The Markdown of a showdown table (``summary`` or ``categories``): percentages ± SE."""
    return table(frame, FORMATS.get(name))


def report(tables: dict[str, pl.DataFrame], config: RunConfig, figure_files: list[str]) -> str:
    deals = tables["summary"]["deals"][0]
    lines = [
        *report_header(
            f"Showdown: {game_of(config).name}",
            f"{deals:,} deals (Monte Carlo, seed {config.seed}) of {config.players} hands and a board; "
            "nobody folds, and the k-player showdown reads the first k hands of each deal, so every "
            "table size comes from the same deals. Rates are percentages of deals (of hands for a "
            "player's category) ± one standard error, with the digits shown stopping at the standard "
            "error's; `tables/*.csv` keep the fractions and their `_se` columns.",
        ),
        *section("Summary", markdown_tables("summary", tables["summary"], config), SUMMARY_LEGEND),
    ]
    checks = rulebook_checks(tables)
    if checks:
        # docs/tour.py copies this table into the README (without its z column).
        lines += ["## Against RULES.md section 9", "", "| figure | rule book | measured | z |", "|---|---|---|---|"]
        for label, value, ours, se in checks:
            z = (ours - value) / se if se else math.nan
            lines.append(f"| {label} | {100 * value:.2f} % | {percent(ours, se)} | {z:+.1f} |")
        lines += ["", "The rule book's figure and ours ± one standard error; z = (measured − rule book) / SE.", ""]
    return markdown(
        [
            *lines,
            *section("Categories", markdown_tables("categories", tables["categories"], config), CATEGORIES_LEGEND),
            *figure_links(figure_files),
        ]
    )


STUDY = Study(
    name="showdown",
    description="hand categories, chops, lows, scoops and quartering for 2..P players from one deal",
    tables=("summary", "categories"),
    run_shard=run_shard,
    summarize=summarize,
    report=report,
    figures=figures,
    options=replace_option(
        MONTE_CARLO_OPTIONS,
        PLAYERS.but(default=8, help="Hands per deal; the tables cover every table size from 2 to this."),
    ),
    validate=validate,
    markdown=markdown_tables,
)
