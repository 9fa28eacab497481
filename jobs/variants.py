"""Rule-variant sweep on common random numbers: every variant is scored on the same deals.

One deal of P hands and a board is read under each variant; every variant gets the showdown
job's statistics for k = 2..P, and its difference from the base game (the ``--game`` preset
with its knobs) with a *paired* standard error: the per-deal difference of the two
indicators, so the noise the variants share cancels.

Default variants (one knob at a time from the base game; for PLS7 the rule book's
comparisons): hole use free / at least one / at least two (PLS-2) / exactly two; rankings
base / trips_over_straight / skip_over_flush / both; low 6 / 7 / 8 / none. ``--variants`` replaces the list:
``"hole_use=2-3;ranking=both,low=8"`` (``;`` between variants, ``,`` between knobs).

Tables: ``variants`` (``variant, hole_use, ranking, low, players, deals`` and the showdown
rates with ``_se``, ``hilo_split`` included), ``variant_categories`` (win/best/present shares per category), and
``deltas`` (``variant, players, deals``, then ``<rate>`` and ``<rate>_se`` as differences from
the base; ``low_tie`` is left out there because it is a ratio over a different set of deals
in each variant).
"""

from __future__ import annotations

import numpy as np
import polars as pl
import pyarrow as pa

from evaluator.deal import deal_cards, split_deal
from evaluator.errors import SampyongError
from evaluator.fast import fast_evaluator
from evaluator.games import RANKINGS, Game
from jobs import showdown
from jobs.common import (
    MONTE_CARLO_OPTIONS,
    PLAYERS,
    RATES,
    SE_LEGEND,
    WORDS,
    Study,
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
from jobs.showdown import CATEGORY_FIELDS, N_CATEGORIES, SUMMARY_FIELDS
from pipeline.plan import RunConfig, ShardSpec
from pipeline.study import Option

DELTA_FIELDS = ("hi_chop", "low_exists", "scoop", "quartered")  # indices 0, 1, 3, 4 of SUMMARY_FIELDS
DELTA_INDEX = (0, 1, 3, 4)


def default_variants(base: Game) -> str:
    """One knob at a time from the base game: hole use free / at least one / at least two /
    exactly two; the four PLS rankings; low 6 / 7 / 8 / none (those equal to the base drop out).

    >>> from evaluator.games import game
    >>> default_variants(game("holdem"))
    'base;hole_use=0-2;hole_use=1-2;hole_use=2-2;ranking=base;ranking=trips_over_straight;ranking=skip_over_flush;ranking=both;low=6;low=7;low=8;low=none'
    """
    h = base.hole_cards
    hole_uses = [f"hole_use={lo}-{hi}" for lo, hi in ((0, h), (1, h), (2, h), (2, 2)) if lo <= h]
    rankings = [f"ranking={r}" for r in ("base", "trips_over_straight", "skip_over_flush", "both")]
    lows = [f"low={q}" for q in ("6", "7", "8", "none")]
    return ";".join(dict.fromkeys(["base", *hole_uses, *rankings, *lows]))


def variant_games(config: RunConfig) -> list[Game]:
    """The base game first, then each variant (knobs applied to the base), duplicates dropped."""
    base = game_of(config)
    return [g for _, g in parse_variants(base, config.option("variants") or default_variants(base))]


def parse_variants(base: Game, text: str) -> list[tuple[str, Game]]:
    """``(name, game)`` of each variant of ``text`` (``;`` between variants, ``,`` between
    knobs), ``base`` first (named ``base``); a variant equal to one before it is dropped.

    >>> from evaluator.games import game
    >>> [name for name, _ in parse_variants(game("pls7"), "ranking=trips_over_straight;base;ranking=base")]
    ['base', 'ranking=trips_over_straight']
    """
    found = [("base", base)]
    for written in text.split(";"):
        text = written.strip()
        if not text or text == "base":
            continue
        knobs = {}
        for part in text.split(","):
            key, _, value = part.partition("=")
            key = key.strip().replace("-", "_")
            if key not in ("hole_use", "ranking", "low") or not value:
                raise SampyongError(f"bad variant {text!r}: write knob=value with knobs hole_use, ranking, low")
            knobs[key] = value.strip()
        found.append((text, base.variant(**knobs)))
    unique: dict[Game, str] = {}
    for name, g in found:
        unique.setdefault(g, name)
    return [(name, g) for g, name in unique.items()]


def validate(config: RunConfig) -> None:
    games = variant_games(config)
    for g in games:
        g.check_players(config.players)
    if len({g.hole_cards for g in games}) != 1:
        raise SampyongError("variants must deal the same number of hole cards")


def high_low_present(game: Game, hole: np.ndarray, board: np.ndarray, by_split: dict):
    """``FastEvaluator.high_low_present`` for a sweep. A restricted hole rule's hands are those
    with exactly h hole cards for each allowed h, so its high and low are the best of the
    one-count rules' and its present bits their union: each one-count rule is evaluated once
    (kept in ``by_split``) and shared by every rule allowing it. Exact; 1.5-2x less work for
    the rule book's three restricted rules, and no more for one rule alone (measured).

    >>> from evaluator.games import game
    >>> from evaluator.deal import deal_cards, split_deal
    >>> hole, board = split_deal(deal_cards(np.random.default_rng(1), 500, 3 * 3 + 5), 3, 3)
    >>> rule, by_split = game("pls7").variant(hole_use="1-3"), {}
    >>> shared = high_low_present(rule, hole, board, by_split)
    >>> all(np.array_equal(a, b) for a, b in zip(shared, fast_evaluator(rule).high_low_present(hole, board)))
    True
    >>> sorted(g.hole_use for g in by_split)
    [(1, 1), (2, 2), (3, 3)]
    """
    fast = fast_evaluator(game)
    if fast.path == "tables":
        return fast.high_low_present(hole, board)
    parts = []
    for h in game.hand_splits:
        one = game.variant(hole_use=f"{h}-{h}")
        if one not in by_split:
            by_split[one] = fast_evaluator(one).high_low_present(hole, board)
        parts.append(by_split[one])
    if len(parts) == 1:
        return parts[0]
    high, low, present = (part.copy() for part in parts[0])
    for h, lo, p in parts[1:]:
        np.maximum(high, h, out=high)
        np.maximum(low, lo, out=low)
        np.bitwise_or(present, p, out=present)
    return high, low, present


def run_shard(config: RunConfig, shard: ShardSpec) -> dict[str, pa.Table]:
    games = variant_games(config)
    players = config.players
    hole_cards = games[0].hole_cards
    rng = shard.generator()
    summary = np.zeros((len(games), players + 1, len(SUMMARY_FIELDS)), np.int64)
    per_category = np.zeros((len(games), players + 1, len(CATEGORY_FIELDS), N_CATEGORIES), np.int64)
    # Per variant, k, the flags it shares with the base and the shared winning category.
    joint_counts = np.zeros((len(games), players + 1, 1 << len(SUMMARY_FIELDS), N_CATEGORIES + 1), np.int64)
    # The base's outcome codes: every entry a block's counts read is written first (each deal,
    # each k >= 2), so one buffer serves every block.
    base_buffer = np.zeros((showdown.BLOCK_DEALS, players + 1), np.int16)
    # A variant whose highs (same hole use and ranking) or present bits (same hole use) are an
    # earlier variant's skips those per-player sums and copies the earlier variant's at the end.
    best_source = [
        next(u for u, g in enumerate(games) if (g.hole_use, g.ranking) == (v.hole_use, v.ranking)) for v in games
    ]
    present_source = [next(u for u, g in enumerate(games) if g.hole_use == v.hole_use) for v in games]
    remaining = shard.deals
    while remaining:
        n = min(remaining, showdown.BLOCK_DEALS)
        cards = deal_cards(rng, n, players * hole_cards + 5)
        hole, board = split_deal(cards, players, hole_cards)
        base_outcomes = base_buffer[:n]
        # The categories that can be made depend on the hole use alone; the high on the hole
        # use and the ranking (another ranking is mostly a relabelling, see ``rerank``); the
        # low on the hole use and the qualifier. Each is computed once per block.
        evaluated: dict = {}
        highs: dict = {}
        lows: dict = {}
        by_split: dict = {}
        for v, game in enumerate(games):
            fast = fast_evaluator(game)
            use = game.hole_use
            if use not in evaluated:
                high, low, present = high_low_present(game, hole, board, by_split)
                evaluated[use] = (fast, high, present)
                highs[(use, game.ranking)] = high
                lows[(use, game.low)] = low
            source, source_high, present = evaluated[use]
            high = highs.get((use, game.ranking))
            if high is None:
                high = fast.rerank(source_high, present, source, hole, board)
            low = lows.get((use, game.low))
            if low is None:
                low = fast.low(hole, board)
            if high is None or low is None:
                high, low = fast.high_low(hole, board)
            highs[(use, game.ranking)] = high
            lows[(use, game.low)] = low
            mode = showdown.RECORD | showdown.PAIR if v == 0 else showdown.PAIR  # the base first
            mode |= showdown.SKIP_BEST if best_source[v] != v else 0
            mode |= showdown.SKIP_PRESENT if present_source[v] != v else 0
            showdown.showdown_counts(
                high,
                low,
                fast.tables.category_of_position,
                present,
                summary[v],
                per_category[v],
                base_outcomes,
                mode,
                joint_counts[v],
            )
        remaining -= n
    best_field, present_field = (CATEGORY_FIELDS.index(f) for f in ("best", "present"))
    for v in range(len(games)):
        for field, source in ((best_field, best_source[v]), (present_field, present_source[v])):
            per_category[v, :, field : field + 2] = per_category[source, :, field : field + 2]  # and its squares
    flags = np.arange(1 << len(SUMMARY_FIELDS))
    joint = np.stack([joint_counts[:, :, (flags >> i) & 1 == 1].sum(axis=(2, 3)) for i in DELTA_INDEX], axis=2)
    joint_win = joint_counts[:, :, :, :N_CATEGORIES].sum(axis=2)
    rows = [(v, k) for v in range(len(games)) for k in range(2, players + 1)]
    keys = {
        "variant": pa.array([games[v].name for v, _ in rows], pa.string()),
        "players": pa.array([k for _, k in rows], pa.int32()),
    }
    summary_table = pa.table(
        {
            **keys,
            "order": pa.array([v for v, _ in rows], pa.int32()),
            "deals": pa.array([shard.deals] * len(rows), pa.uint64()),
            **{f: pa.array([summary[v, k, i] for v, k in rows], pa.uint64()) for i, f in enumerate(SUMMARY_FIELDS)},
            **{
                f"{f}_joint": pa.array([joint[v, k, i] for v, k in rows], pa.uint64())
                for i, f in enumerate(DELTA_FIELDS)
            },
        }
    )
    crows = [(v, k, c) for v, k in rows for c in games[v].ranking.order]
    category_table = pa.table(
        {
            "variant": pa.array([games[v].name for v, _, _ in crows], pa.string()),
            "players": pa.array([k for _, k, _ in crows], pa.int32()),
            "category": pa.array([c.name for _, _, c in crows], pa.string()),
            **{
                f: pa.array([per_category[v, k, i, int(c)] for v, k, c in crows], pa.uint64())
                for i, f in enumerate(CATEGORY_FIELDS)
            },
            "win_joint": pa.array([joint_win[v, k, int(c)] for v, k, c in crows], pa.uint64()),
        }
    )
    return {"summary": summary_table, "categories": category_table}


def _paired(field: str, base: str) -> list[pl.Expr]:
    """Mean of the per-deal difference of two 0/1 indicators and its standard error.

    (X - Y)^2 = X + Y - 2XY for indicators, so the variance needs only the joint count.
    """
    d = pl.col("deals").cast(pl.Float64)
    x, y, xy = (
        pl.col(field).cast(pl.Float64),
        pl.col(base).cast(pl.Float64),
        pl.col(f"{field}_joint").cast(pl.Float64),
    )
    mean = (x - y) / d
    second = (x + y - 2 * xy) / d
    variance = (second - mean * mean) * d / (d - 1)
    return [mean.alias(field), (variance.clip(lower_bound=0) / d).sqrt().alias(f"{field}_se")]


def summarize(counts: dict[str, pl.DataFrame], config: RunConfig) -> dict[str, pl.DataFrame]:
    games = {g.name: g for g in variant_games(config)}
    base_name = game_of(config).name
    s = counts["summary"].sort(["order", "players"])
    knobs = pl.DataFrame(
        {
            "variant": list(games),
            "hole_use": [f"{g.hole_use[0]}-{g.hole_use[1]}" for g in games.values()],
            "ranking": [g.ranking.name for g in games.values()],
            "low": ["none" if g.low is None else str(g.low) for g in games.values()],
        }
    )
    rates = showdown.summarize({"summary": s.rename({"variant": "game"}), "categories": _categories(counts, s)}, config)
    variants = (
        rates["summary"]
        .rename({"game": "variant"})
        .join(knobs, on="variant", maintain_order="left")
        .select("variant", "hole_use", "ranking", "low", pl.exclude("variant", "hole_use", "ranking", "low"))
    )
    base = s.filter(pl.col("variant") == base_name).select(
        "players", *[pl.col(f).alias(f"{f}_base") for f in DELTA_FIELDS]
    )
    deltas = s.join(base, on="players").select(
        "variant", "players", "deals", *[e for f in DELTA_FIELDS for e in _paired(f, f"{f}_base")]
    )
    cats = counts["categories"]
    base_wins = cats.filter(pl.col("variant") == base_name).select(
        "players", "category", pl.col("win").alias("win_base")
    )
    win_deltas = (
        cats.join(base_wins, on=["players", "category"], how="left")
        .with_columns(pl.col("win_base").fill_null(0))
        .join(s.select("variant", "players", "deals"), on=["variant", "players"])
        .select("variant", "players", "category", *_paired("win", "win_base"))
    )
    return {
        "variants": variants,
        "variant_categories": rates["categories"].rename({"game": "variant"}),
        "deltas": deltas,
        "win_deltas": win_deltas,
    }


def _categories(counts, summary) -> pl.DataFrame:
    rank = {c.name: i for i, c in enumerate(RANKINGS["base"].order)}
    return (
        counts["categories"]
        .rename({"variant": "game"})
        .with_columns(pl.col("category").replace_strict(rank, return_dtype=pl.Int32).alias("rank"))
    )


def figures(tables, config: RunConfig) -> dict:
    deltas = tables["deltas"].filter(pl.col("variant") != game_of(config).name)
    fig = new_figure((4 * len(DELTA_FIELDS), 5))
    axes = fig.subplots(1, len(DELTA_FIELDS), sharey=True)
    players = deltas["players"].unique().sort().to_list()
    for ax, field in zip(axes, DELTA_FIELDS):
        use_distinct_colors(ax, deltas["variant"].n_unique())
        for name in deltas["variant"].unique(maintain_order=True):
            rows = deltas.filter(pl.col("variant") == name)
            ax.errorbar(
                rows["players"],
                100 * rows[field],
                yerr=200 * rows[f"{field}_se"],
                marker="o",
                capsize=2,
                markersize=3,
                label=name,
            )
        ax.axhline(0, color="grey", lw=0.8)
        ax.set_title(WORDS[field], fontsize=10)
        ax.set_xlabel("players at the showdown")
        ax.set_xticks(players)
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("variant − base (percentage points)")
    fig.suptitle(f"{game_of(config).name}: each rule variant against the base game, same deals (± 2 paired SE)")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=min(len(labels), 6), fontsize=7, frameon=False)
    fig.tight_layout(rect=(0, 0.05 + 0.035 * ((len(labels) - 1) // 6), 1, 1))
    return {"variant_deltas": fig}


KNOB_WORDS = {"hole_use": "hole cards used (min-max)", "low": "low qualifier", "ranking": "ranking"}
RATE_FORMATS = {"deals": "count", **{rate: "percent" for rate in RATES}}
DELTA_FORMATS = {"deals": "count", **{field: "points" for field in DELTA_FIELDS}}
FORMATS = {
    "variants": RATE_FORMATS,
    "variant_categories": {"category": words, "best": "percent", "present": "percent", "win": "percent"},
    "deltas": DELTA_FORMATS,
    "win_deltas": {"category": words, "win": "points"},
}
HEADERS = {
    "variants": KNOB_WORDS,
    "deltas": {field: f"{WORDS[field]}: change" for field in DELTA_FIELDS},
    "win_deltas": {"win": "wins the high (of deals): change"},
}
DELTAS_LEGEND = (
    "Each variant minus the base game on the same deals, in percentage points (pp) ± one paired "
    "standard error (from the per-deal difference, so the noise the two share cancels); the base's "
    "own row is 0. Low tied is left out: it is a share of a different set of deals in each variant."
)
VARIANTS_LEGEND = (
    "Every variant's own rates, as the showdown study defines them (split high/low: a low exists and "
    "the low half goes to other players than the high half). " + SE_LEGEND
)


def markdown_tables(name: str, frame: pl.DataFrame, config: RunConfig) -> str:
    """The Markdown of a variants table: rates in percent, differences in percentage points."""
    return table(frame, FORMATS.get(name), HEADERS.get(name))


def report(tables: dict[str, pl.DataFrame], config: RunConfig, figure_files: list[str]) -> str:
    deals = tables["variants"]["deals"][0]
    return markdown(
        [
            *report_header(
                f"Rule variants of {game_of(config).name}",
                f"{deals:,} deals (Monte Carlo, seed {config.seed}) of {config.players} hands, every variant "
                "read on the same deals, nobody folding; the k-player showdown uses the first k hands. The "
                "first table gives each variant's difference from the base game in percentage points with a "
                "paired standard error; the second, every variant's own rates in percent ± one standard "
                "error. `tables/*.csv` keep the fractions and their `_se` columns.",
                figure_files,
            ),
            *section("Differences from the base", markdown_tables("deltas", tables["deltas"], config), DELTAS_LEGEND),
            *section("Every variant", markdown_tables("variants", tables["variants"], config), VARIANTS_LEGEND),
        ]
    )


STUDY = Study(
    name="variants",
    description="rule variants (hole use, ranking, low) on the same deals, with paired differences",
    tables=("summary", "categories"),
    run_shard=run_shard,
    summarize=summarize,
    report=report,
    figures=figures,
    options=(
        *replace_option(MONTE_CARLO_OPTIONS, PLAYERS.but(default=8)),
        Option(
            "variants",
            'The variants to compare, separated by ";", each a list of knobs: "hole_use=2-3;ranking=both,low=8" '
            "(default: the rule book's).",
        ),
    ),
    validate=validate,
    markdown=markdown_tables,
)
