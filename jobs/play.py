"""When players fold: hands played by explicit policies, and the rule book's figures under play.

``sampyong run play --game pls7 --players 6 --policy regular --hands 10M [--stacks 100bb]``
plays each hand through the numba engine (``engine.fast``, which plays every hand exactly as
the reference engine ``engine.player`` does): blinds 1 and 2 chips, every seat starting from
the same stack, each seat acting by its policy (one for all, or one per seat). Preflop
percentiles come from the game's ranking of starting hands (``engine.ranking``): its
strengths are an upstream run (``jobs.hand_ranking.strength_runs``: the exact heads-up grid
for 2- and 3-card games, sampled for 4-card games) that the driver runs or reads once, and
every shard receives the ranking with its task. The same deal is also read as everyone showing down,
so the figures under play sit beside the everyone-shows-down figures of the very same cards.
``--record N`` writes the first N hands as PHH, played again by the reference engine.

Tables (rates with standard errors per hand; results in big blinds per hand):

* ``streets``: per street (preflop, flop, turn, river, showdown) the share of hands that
  reach it, the mean number of players there, and the share of hands won there without a showdown.
* ``showdown``: by the number of players at showdown, the share of hands, and among them
  hi_chop, low_exists, low_tie (of the hands with a low), scoop, quartered (as the showdown
  study defines them, on the players at showdown, main pot).
* ``positions``: per seat (PHH order: the small blind first, the button last) how often it
  plays (puts chips in preflop beyond a check in the big blind), reaches showdown, and its
  result in big blinds per hand.
* ``classes``: per starting-hand class (``evaluator.cards.class_name``), how often it is
  dealt, played and taken to showdown, and its result in big blinds per hand dealt.
* ``pots``: the pot at the end in big blinds, for hands won at showdown and before it.
* ``compare``: per number of players k, hi_chop, low_exists, scoop and quartered at showdowns of
  k players under play, beside the everyone-shows-down value of the first k seats of the same
  deals, and their difference.
"""

from __future__ import annotations

import numpy as np
import polars as pl
import pyarrow as pa

from engine.player import deal_hands
from engine.ranking import HandRanking
from engine.records import STATS
from engine.table import BIG_BLIND, Table
from evaluator.cards import hand_classes, hand_code
from evaluator.errors import SampyongError
from evaluator.fast import fast_evaluator
from evaluator.jit import njit
from evaluator.settle_kernels import SHOWDOWN_FLAGS, flags_among
from jobs.common import MONTE_CARLO_OPTIONS, PLAYERS, WORDS, Study, game_of, replace_option, section, table
from jobs.hand_ranking import ranking_from, strength_runs
from pipeline.plan import RunConfig, ShardSpec
from pipeline.study import DEALS, SHARD_DEALS, Option

STREETS = ("preflop", "flop", "turn", "river", "showdown")
FLAGS = SHOWDOWN_FLAGS
POT_BUCKETS = (0, 5, 10, 20, 50, 100, 200, 400)  # lower edges, in big blinds
HOLE_CARDS = (2, 3, 4)  # games whose starting hands have a heads-up grid to rank them by


def table_of(config: RunConfig) -> Table:
    """The run's table (game, betting, blinds, stacks, policies), from ``--policy``,
    ``--stacks`` and ``--betting``."""
    return Table.from_options(
        game_of(config), config.players, config.option("policy"), config.option("stacks"), config.option("betting")
    )


def validate(config: RunConfig) -> None:
    table_ = table_of(config)
    if table_.game.hole_cards not in HOLE_CARDS and table_.needs_ranking:
        raise SampyongError(
            f"play ranks starting hands by the heads-up grid, which covers games of 2 to 4 hole cards; "
            f"{table_.game.name} has {table_.game.hole_cards}"
        )


def starting_classes(game, hole: np.ndarray) -> np.ndarray | None:
    """Each hand's starting-hand class id (``evaluator.cards.hand_classes``) for ``hole[..., cards]``
    in any order; None for games of more than 4 hole cards (no class table)."""
    if game.hole_cards not in HOLE_CARDS:
        return None
    return hand_classes(game.hole_cards)[0][hand_code(hole)]


def upstream(config: RunConfig) -> list:
    """The run that ranks the game's starting hands, when some seat needs the ranking."""
    return strength_runs(game_of(config)) if table_of(config).needs_ranking else []


def inputs(config: RunConfig, tables: list) -> HandRanking | None:
    """The ranking every shard receives (None when no seat reads it)."""
    return ranking_from(game_of(config), tables) if tables else None


def prepare(config: RunConfig, ranking: HandRanking | None) -> None:
    run_shard(config, ShardSpec(index=0, deals=2, root_seed=0), ranking)


@njit(inline="always")
def _write(flags, out):
    for f in range(len(out)):
        out[f] = flags[f]


@njit(cache=True)
def _tally_showdowns(highs, lows, live, reached, showdown, everyone):
    """Per deal: the flags of the showdown under play (by its number of players) and of
    everyone showing down with the first k seats, k = 2 .. seats."""
    n, seats = highs.shape
    flags = np.zeros(6, np.int64)
    first = np.zeros(seats, np.bool_)
    for i in range(n):
        if reached[i] == 4:
            k = 0
            for s in range(seats):
                k += live[i, s]
            _write(flags_among(highs[i], lows[i], live[i]), flags)
            showdown[k, 0] += 1
            showdown[k, 1:] += flags
        first[:] = False
        first[0] = True
        for k in range(2, seats + 1):
            first[k - 1] = True
            _write(flags_among(highs[i], lows[i], first), flags)
            everyone[k, 0] += 1
            everyone[k, 1:] += flags


@njit(cache=True)
def _sum_rows(index, columns, out):
    """``out[index[i]] += columns[i]``, exactly (int64), for every row ``i``."""
    for i in range(index.shape[0]):
        for j in range(columns.shape[1]):
            out[index[i], j] += columns[i, j]


def _per_row(index: np.ndarray, size: int, columns) -> np.ndarray:
    """``columns`` (each per hand and seat) summed by ``index`` (the seat, or the hand's class)."""
    out = np.zeros((size, len(columns)), np.int64)
    _sum_rows(
        np.ascontiguousarray(index, np.int64).ravel(),
        np.stack([np.asarray(c, np.int64).ravel() for c in columns], axis=1),
        out,
    )
    return out


def deal_shard(table_: Table, shard: ShardSpec, ranking: HandRanking | None):
    """The shard's deals for ``table_``: ``(cards, keys, classes, highs, lows, ranks)``, each seat's
    starting-hand class (None for a game without a grid), its strengths on the full board and its
    preflop percentile (``ranking``: the game's ``HandRanking``, None when no seat reads it)."""
    game, players = table_.game, table_.seats
    cards, keys = deal_hands(shard.generator(), shard.deals, players, game)
    hole = np.ascontiguousarray(cards[:, : players * game.hole_cards].reshape(shard.deals, players, game.hole_cards))
    highs, lows = fast_evaluator(game).high_low(hole, np.ascontiguousarray(cards[:, players * game.hole_cards :]))
    classes = starting_classes(game, hole)
    if ranking is None and table_.needs_ranking:
        raise SampyongError("a shard needs the game's starting-hand ranking with its task")
    ranks = np.full(hole.shape[:2], 0.5) if ranking is None else ranking.percentile[classes]  # None: nobody looks
    return cards, keys, classes, highs, lows, ranks


def play_shard(config: RunConfig, shard: ShardSpec, ranking: HandRanking | None, keep_actions: bool = False):
    """The shard's deals (``deal_shard``) and the hands the fast engine played:
    ``(cards, keys, classes, highs, lows, played)``."""
    table_ = table_of(config)
    cards, keys, classes, highs, lows, ranks = deal_shard(table_, shard, ranking)
    played = table_.play(
        cards, keys, ranks, highs=highs, lows=lows, keep_actions=keep_actions, ranking=ranking, keep_stats=True
    )
    return cards, keys, classes, highs, lows, played


def run_shard(config: RunConfig, shard: ShardSpec, inputs: HandRanking | None) -> dict[str, pa.Table]:
    game = game_of(config)
    players = config.players
    stack = table_of(config).stacks[0]
    _, _, class_ids, highs, lows, played = play_shard(config, shard, inputs)
    reached = played.reached.astype(np.int64)
    streets = np.zeros((len(STREETS), 4), np.int64)  # hands, players_sum, players_sq, won_here
    for street in range(len(STREETS)):
        there = reached >= street
        counts = played.players_at[there, street].astype(np.int64)
        streets[street] = (there.sum(), counts.sum(), (counts**2).sum(), (reached == street).sum() if street < 4 else 0)
    showdown = np.zeros((players + 1, 1 + len(FLAGS)), np.int64)
    everyone = np.zeros((players + 1, 1 + len(FLAGS)), np.int64)
    _tally_showdowns(highs, lows, played.live, played.reached, showdown, everyone)
    net = played.finishing - stack
    at_showdown = (reached[:, None] == 4) & played.live
    columns = (np.ones(net.shape), played.voluntary, at_showdown, np.maximum(net, 0), np.maximum(-net, 0), net * net)
    positions = _per_row(np.broadcast_to(np.arange(players), net.shape), players, columns)
    names = hand_classes(game.hole_cards)[2] if class_ids is not None else []
    classes = _per_row(class_ids, len(names), columns) if class_ids is not None else np.zeros((0, 6), np.int64)
    pots = np.zeros((2, len(POT_BUCKETS), 3), np.int64)  # ending (folded, showdown) x bucket: hands, pot, pot_sq
    bucket = np.searchsorted(POT_BUCKETS, played.pot / BIG_BLIND, side="right") - 1
    ending = (reached == 4).astype(np.int64)
    np.add.at(pots, (ending, bucket), np.stack([np.ones_like(played.pot), played.pot, played.pot**2], axis=1))
    u64 = pa.uint64()
    return {
        "streets": pa.table(
            {
                "street": pa.array(STREETS, pa.string()),
                "order": pa.array(range(len(STREETS)), pa.int32()),
                **{
                    name: pa.array(streets[:, i].astype(np.uint64), u64)
                    for i, name in enumerate(("hands", "players_sum", "players_sq", "won_here"))
                },
            }
        ),
        "showdown": _by_players(showdown, players),
        "everyone": _by_players(everyone, players),
        "positions": pa.table(
            {
                "seat": pa.array(range(players), pa.int32()),
                **{
                    name: pa.array(positions[:, i].astype(np.uint64), u64)
                    for i, name in enumerate(("hands", "played", "showdown", "won", "lost", "net_sq"))
                },
            }
        ),
        "classes": pa.table(
            {
                "class": pa.array(names, pa.string()),
                **{
                    name: pa.array(classes[:, i].astype(np.uint64), u64)
                    for i, name in enumerate(("dealt", "played", "showdown", "won", "lost", "net_sq"))
                },
            }
        ),
        "stats": pa.table(
            {
                "seat": pa.array(range(players), pa.int32()),
                **{
                    name: pa.array(column.astype(np.uint64), u64)
                    for name, column in zip(STAT_COUNTS, stat_counts(played.stats).T)
                },
            }
        ),
        "pots": pa.table(
            {
                "ending": pa.array([e for e in ("folded", "showdown") for _ in POT_BUCKETS], pa.string()),
                "from_bb": pa.array(list(POT_BUCKETS) * 2, pa.int32()),
                **{
                    name: pa.array(pots[:, :, i].ravel().astype(np.uint64), u64)
                    for i, name in enumerate(("hands", "pot", "pot_sq"))
                },
            }
        ),
    }


def record_hands(config: RunConfig, count: int, ranking: HandRanking | None) -> str:
    """The first ``count`` hands of the run as a ``.phhs`` text (sections ``[1]``, ``[2]``, ...),
    played again through the reference engine from the same shards' deals: the records are the
    run's own hands (the fast engine plays them identically; ``tests/test_fast_engine.py``). Who
    played which seat is the run's (``run.json``), not repeated in every hand."""
    from engine.phh import dumps_many

    table_ = table_of(config)
    ranks = ranking if ranking is not None else (lambda hole: 0.5)
    hands = []
    for shard in STUDY.plan(config):
        if len(hands) >= count:
            break
        take = min(shard.deals, count - len(hands))
        cards, keys = deal_hands(shard.generator(), shard.deals, table_.seats, table_.game)
        hands += [table_.play_hand(cards[i], keys[i], ranks) for i in range(take)]
    return dumps_many(hands)


def _by_players(array, players) -> pa.Table:
    return pa.table(
        {
            "players": pa.array(range(2, players + 1), pa.int32()),
            "hands": pa.array(array[2:, 0].astype(np.uint64), pa.uint64()),
            **{flag: pa.array(array[2:, 1 + i].astype(np.uint64), pa.uint64()) for i, flag in enumerate(FLAGS)},
        }
    )


def _rate(hits: pl.Expr, n: pl.Expr, name: str) -> list[pl.Expr]:
    p = hits.cast(pl.Float64) / n
    return [p.alias(name), (p * (1 - p) / n).sqrt().alias(f"{name}_se")]


STAT_COUNTS = ("hands", *STATS, "aggressive_sq", "calls_sq", "aggressive_calls")  # squares: the aggression factor's SE


def stat_counts(stats: np.ndarray) -> np.ndarray:
    """Per seat, the ``STAT_COUNTS`` of hands' players' statistics (``[hand, seat,
    engine.records.STATS]``): the hands, each statistic's sum, and the squares behind the
    aggression factor's standard error."""
    stats = stats.astype(np.int64)
    a, c = stats[:, :, STATS.index("aggressive")], stats[:, :, STATS.index("calls")]
    return np.concatenate(
        [
            np.full((stats.shape[1], 1), len(stats)),
            stats.sum(0),
            np.stack([(a * a).sum(0), (c * c).sum(0), (a * c).sum(0)], 1),
        ],
        1,
    )


def stats_table(counts: pl.DataFrame, group: tuple[str, ...] = ()) -> pl.DataFrame:
    """Per ``group`` (``run records``: game and players dealt in) and seat, then over every seat
    (``seat`` null), from ``stat_counts``: VPIP, PFR, three-bet (of its
    chances), flop seen, went to showdown (of flops seen), won at showdown (of showdowns), the
    aggression factor (postflop bets and raises per call) and the continuation bet (of its
    chances), each with its standard error (the factor's by the delta method over hands)."""
    summed = counts.group_by(*group).agg(pl.exclude("seat").sum()) if group else counts.select(pl.exclude("seat").sum())
    overall = summed.with_columns(pl.lit(None, pl.Int32).alias("seat"))
    rows = pl.concat([counts, overall.select(counts.columns)]).sort(*group, "seat", nulls_last=True)
    f = pl.col

    def of(name: str, among: str, label: str) -> list[pl.Expr]:
        return _rate(f(name), f(among).cast(pl.Float64), label)

    n = f("hands").cast(pl.Float64)
    af = f("aggressive") / f("calls")
    af_var = (f("aggressive_sq") - 2 * af * f("aggressive_calls") + af**2 * f("calls_sq")) / n - (
        (f("aggressive") - af * f("calls")) / n
    ) ** 2
    return rows.select(
        *group,
        "seat",
        "hands",
        *of("vpip", "hands", "vpip"),
        *of("pfr", "hands", "pfr"),
        *of("three_bet", "three_bet_chance", "three_bet"),
        *of("flop", "hands", "flop"),
        *of("showdown", "flop", "wtsd"),
        *of("won_showdown", "showdown", "wsd"),
        af.alias("af"),
        (af_var.clip(lower_bound=0) / n).sqrt().truediv(f("calls") / n).alias("af_se"),
        *of("cbet", "cbet_chance", "cbet"),
    )


def summarize(
    counts: dict[str, pl.DataFrame], config: RunConfig, ranking: HandRanking | None = None
) -> dict[str, pl.DataFrame]:
    hands = counts["positions"]["hands"][0]
    n = pl.lit(float(hands))
    streets = (
        counts["streets"]
        .sort("order")
        .select(
            "street",
            *_rate(pl.col("hands"), n, "reach"),
            (pl.col("players_sum") / pl.col("hands")).alias("players"),
            (
                (pl.col("players_sq") / pl.col("hands") - (pl.col("players_sum") / pl.col("hands")) ** 2).clip(
                    lower_bound=0
                )
                / pl.col("hands")
            )
            .sqrt()
            .alias("players_se"),
            *_rate(pl.col("won_here"), n, "won_here"),
        )
    )
    shown = counts["showdown"].sort("players")
    showdown = shown.select(
        "players",
        *_rate(pl.col("hands"), n, "share"),
        *[
            e
            for flag in FLAGS
            for e in _rate(pl.col(flag), pl.col("low_exists" if flag == "low_tie" else "hands").cast(pl.Float64), flag)
        ],
    )
    bb = float(BIG_BLIND)
    positions = (
        counts["positions"]
        .sort("seat")
        .select(
            "seat",
            *_rate(pl.col("played"), pl.col("hands").cast(pl.Float64), "played"),
            *_rate(pl.col("showdown"), pl.col("hands").cast(pl.Float64), "showdown"),
            ((pl.col("won").cast(pl.Float64) - pl.col("lost").cast(pl.Float64)) / pl.col("hands") / bb).alias(
                "bb_per_hand"
            ),
            (
                (
                    pl.col("net_sq") / pl.col("hands")
                    - ((pl.col("won").cast(pl.Float64) - pl.col("lost").cast(pl.Float64)) / pl.col("hands")) ** 2
                ).clip(lower_bound=0)
                / pl.col("hands")
            )
            .sqrt()
            .truediv(bb)
            .alias("bb_per_hand_se"),
        )
    )
    dealt = pl.col("dealt").cast(pl.Float64)
    classes = (
        counts["classes"]
        .filter(pl.col("dealt") > 0)
        .select(
            "class",
            "dealt",
            *_rate(pl.col("played"), dealt, "played"),
            *_rate(pl.col("showdown"), dealt, "showdown"),
            ((pl.col("won").cast(pl.Float64) - pl.col("lost").cast(pl.Float64)) / dealt / bb).alias("bb_per_hand"),
            (
                (
                    pl.col("net_sq") / dealt
                    - ((pl.col("won").cast(pl.Float64) - pl.col("lost").cast(pl.Float64)) / dealt) ** 2
                ).clip(lower_bound=0)
                / dealt
            )
            .sqrt()
            .truediv(bb)
            .alias("bb_per_hand_se"),
        )
        .sort("bb_per_hand", descending=True)
    )
    pots = (
        counts["pots"]
        .group_by("ending")
        .agg(pl.col("hands").sum(), pl.col("pot").sum(), pl.col("pot_sq").sum())
        .sort("ending")
        .select(
            "ending",
            *_rate(pl.col("hands"), n, "share"),
            (pl.col("pot") / pl.col("hands") / bb).alias("pot_bb"),
            (
                (pl.col("pot_sq") / pl.col("hands") - (pl.col("pot") / pl.col("hands")) ** 2).clip(lower_bound=0)
                / pl.col("hands")
            )
            .sqrt()
            .truediv(bb)
            .alias("pot_bb_se"),
        )
    )
    everyone = counts["everyone"].sort("players")
    rows = []
    for k in shown["players"].to_list():
        play_row = shown.filter(pl.col("players") == k).row(0, named=True)
        all_row = everyone.filter(pl.col("players") == k).row(0, named=True)
        for flag in ("hi_chop", "low_exists", "scoop", "quartered", "hilo_split"):
            a, m = play_row[flag], play_row["hands"]
            b, t = all_row[flag], all_row["hands"]
            pa_, pb = (a / m if m else float("nan")), b / t
            se_a = (pa_ * (1 - pa_) / m) ** 0.5 if m else float("nan")
            se_b = (pb * (1 - pb) / t) ** 0.5
            rows.append(
                {
                    "players": k,
                    "figure": flag,
                    "play": pa_,
                    "play_se": se_a,
                    "everyone": pb,
                    "everyone_se": se_b,
                    "difference": pa_ - pb,
                    "difference_se": (se_a**2 + se_b**2) ** 0.5 if m else float("nan"),
                }
            )
    compare = pl.DataFrame(rows)
    return {
        "streets": streets,
        "showdown": showdown,
        "positions": positions,
        "classes": classes,
        "pots": pots,
        "compare": compare,
        "rulebook": rulebook_under_play(counts, config),
        "stats": stats_table(counts["stats"]),
    }


# The rule book's conclusions about showdowns (RULES sections 7 and 9, PLS7), each with the
# range its words allow ("about three in ten": 25 to 35 %), what it counts among which
# showdowns, and the everyone-shows-down table size it was measured at.
CLAIMS = (
    dict(
        claim="From four players about three hands in ten split (section 7)",
        rulebook=0.30,
        words="about 3 in 10",
        allowed=(0.25, 0.35),
        flag="hilo_split",
        among="all hands",
        everyone_at=4,
    ),
    dict(
        claim="From four players about three hands in ten split (section 7)",
        rulebook=0.30,
        words="about 3 in 10",
        allowed=(0.25, 0.35),
        flag="hilo_split",
        among="showdowns of 4 or more",
        everyone_at=4,
    ),
    dict(
        claim="Heads-up only about one hand in seven splits (section 7)",
        rulebook=1 / 7,
        words="about 1 in 7",
        allowed=(1 / 8, 1 / 6),
        flag="hilo_split",
        among="heads-up showdowns",
        everyone_at=2,
    ),
    dict(
        claim="High chop about 7.05 % with all 6 players (section 9)",
        rulebook=0.0705,
        words="about 7.05 %",
        allowed=(0.0605, 0.0805),
        flag="hi_chop",
        among="showdowns of 6",
        everyone_at=6,
    ),
)


def holds_within(rate: float, se: float, n: int, allowed: tuple[float, float]) -> str:
    """Whether a claim whose words allow ``allowed`` holds at ``rate`` (± ``se``, of ``n`` hands):
    yes, no, too few to tell (the sample cannot tell the ends of the range apart), or n/a (none).

    >>> holds_within(0.31, 0.004, 10_000, (0.25, 0.35)), holds_within(0.31, 0.05, 90, (0.25, 0.35))
    ('yes', 'too few to tell')
    """
    low, high = allowed
    if not n:
        return "n/a"
    if max(se, 0.5 / n**0.5) > (high - low) / 4:
        return "too few to tell"
    return "yes" if low <= rate <= high else "no"


def rulebook_under_play(counts: dict[str, pl.DataFrame], config: RunConfig) -> pl.DataFrame:
    """Each of ``CLAIMS``: the rule book's figure, everyone showing down (these deals, the first
    k seats), the figure under play among the hands it speaks of, and whether the claim's words
    still hold. The rule book's figures are PLS7's: for another game they are left out (None)."""
    shown = counts["showdown"].sort("players")
    everyone = counts["everyone"].sort("players")
    hands = int(counts["positions"]["hands"][0])
    pls7 = game_of(config).name == "pls7"
    rows = []
    for c in CLAIMS:
        k = c["everyone_at"]
        if k > config.players:
            continue
        among = {
            "all hands": pl.lit(True),
            "showdowns of 4 or more": pl.col("players") >= 4,
            "heads-up showdowns": pl.col("players") == 2,
            "showdowns of 6": pl.col("players") == 6,
        }[c["among"]]
        picked = shown.filter(among)
        hits = int(picked[c["flag"]].sum())
        n = hands if c["among"] == "all hands" else int(picked["hands"].sum())
        play = hits / n if n else float("nan")
        row_all = everyone.filter(pl.col("players") == k).row(0, named=True)
        every = row_all[c["flag"]] / row_all["hands"]
        se = (play * (1 - play) / n) ** 0.5 if n else float("nan")
        holds = holds_within(play, se, n, c["allowed"]) if pls7 else "n/a"
        rows.append(
            {
                "claim": c["claim"],
                "among": c["among"],
                "rulebook": c["rulebook"] if pls7 else None,
                "rulebook_words": c["words"] if pls7 else None,
                "everyone": every,
                "everyone_se": (every * (1 - every) / row_all["hands"]) ** 0.5,
                "play": play,
                "play_se": se,
                "play_hands": n,
                "holds": holds,
            }
        )
    return pl.DataFrame(
        rows,
        schema={
            "claim": pl.String,
            "among": pl.String,
            "rulebook": pl.Float64,
            "rulebook_words": pl.String,
            "everyone": pl.Float64,
            "everyone_se": pl.Float64,
            "play": pl.Float64,
            "play_se": pl.Float64,
            "play_hands": pl.Int64,
            "holds": pl.String,
        },
    )


def verdicts(frame: pl.DataFrame, config: RunConfig) -> list[str]:
    """The rule-book table in sentences: what each claim says, and whether it holds under play."""
    if game_of(config).name != "pls7":
        return [
            f"The rule book's figures are PLS7's; for {game_of(config).name} the table sets everyone showing "
            "down beside play, figure by figure."
        ]
    out = []
    for row in frame.iter_rows(named=True):
        if row["play_hands"] == 0:
            out.append(f"- {row['claim']}: no {row['among']} in this run, so play cannot tell.")
            continue
        said = f"{100 * row['play']:.1f} % of {row['among']} ({row['play_hands']:,})"
        if row["holds"] == "too few to tell":
            out.append(f"- {row['claim']}: too few {row['among']} to tell ({said}).")
        elif row["holds"] == "yes":
            out.append(
                f"- {row['claim']}: **holds** under play: {said}; everyone showing down gives {100 * row['everyone']:.1f} %."
            )
        else:
            out.append(
                f"- {row['claim']}: **does not hold** under play: {said}, against {100 * row['everyone']:.1f} % "
                "when everyone shows down."
            )
    return out


FORMATS = {
    "reach": "percent",
    "won_here": "percent",
    "players": "number",
    "share": "percent",
    "played": "percent",
    "showdown": "percent",
    "bb_per_hand": "number",
    "pot_bb": "number",
    "play": "percent",
    "everyone": "percent",
    "difference": "points",
    "rulebook": "percent",
    **{flag: "percent" for flag in FLAGS},
    "af": "number",
    **{name: "percent" for name in ("vpip", "pfr", "three_bet", "flop", "wtsd", "wsd", "cbet")},
}
HEADERS = {
    "reach": "hands reaching it",
    "won_here": "pots won here without a showdown",
    "players": "players there",
    "share": "share of hands",
    "played": "played",
    "showdown": "reached showdown",
    "bb_per_hand": "big blinds per hand",
    "pot_bb": "pot (big blinds)",
    "play": "under play",
    "everyone": "everyone shows down",
    "dealt": "hands dealt",
    "seat": "seat (0 = small blind, last = button)",
    "players_at": "players",
    "rulebook_words": "rule book",
    "holds": "holds under play",
}
LEGENDS = {
    "streets": "Of all hands; players there is the mean number still in when the street's betting begins.",
    "showdown": "By the number of players at showdown: the share of all hands, then each figure among those showdowns "
    "(low tied: of those with a low).",
    "positions": "Per seat: how often it puts chips in preflop by choice, reaches showdown, and wins, in big blinds per hand.",
    "pots": "The pot at the end of the hand, won at showdown or before it.",
    "compare": "Showdowns of k players under play, beside everyone showing down with the first k seats of the same deals.",
    "stats": "Per seat, then over all seats: VPIP and PFR of hands dealt, three-bet of the hands facing one raise, "
    "flop seen, went to showdown (WTSD) of flops seen, won at showdown (W$SD) of showdowns, the aggression "
    "factor (postflop bets and raises per call) and the continuation bet of the preflop raiser's chances.",
}


def report(tables: dict[str, pl.DataFrame], config: RunConfig, figure_files: list[str]) -> str:
    names = ", ".join(sorted({p.name for p in table_of(config).policies}))
    lines = [
        f"# When players fold: {game_of(config).name}, {config.players} players, {names}",
        "",
        f"{config.deals:,} hands played by the policies "
        f"({config.option('policy') or 'regular'}), stacks {config.option('stacks') or '100bb'}, blinds 1/2, "
        f"{table_of(config).betting.kind}. Rates are percentages ± one standard error, the digits stopping at "
        "the standard error's; `tables/*.csv` keep the fractions and their `_se` columns.",
    ]
    compare = tables["compare"].with_columns(
        pl.col("figure").map_elements(lambda f: WORDS.get(f, f), return_dtype=pl.String)
    )
    shown = {
        "streets": tables["streets"],
        "showdown": tables["showdown"],
        "positions": tables["positions"],
        "pots": tables["pots"],
        "compare": compare,
        "stats": tables["stats"],
    }
    for name, frame in shown.items():
        lines += ["", *section(name.capitalize(), table(frame, FORMATS, HEADERS), LEGENDS[name])]
    rulebook = (
        tables["rulebook"]
        .with_columns(pl.concat_str([pl.col("claim"), pl.lit(" — among "), pl.col("among")]).alias("claim"))
        .drop("among", "play_hands", "rulebook")
    )
    lines += [
        "",
        *section(
            "The rule book under play",
            table(rulebook, FORMATS, HEADERS),
            "Each claim of the rule book about showdowns: its figure, everyone showing down with "
            "the first k seats of these deals, and the figure under play among the hands it speaks of. "
            "A claim holds when the figure under play stays within the claim's own words.",
        ),
        *verdicts(tables["rulebook"], config),
    ]
    top = tables["classes"].head(15)
    lines += [
        "",
        *section(
            "Classes (the 15 best by big blinds per hand; all in tables/classes.csv)", table(top, FORMATS, HEADERS)
        ),
    ]
    return "\n".join(lines) + "\n"


def markdown_of(name: str, frame: pl.DataFrame, config: RunConfig) -> str:
    if name == "compare":
        frame = frame.with_columns(pl.col("figure").map_elements(lambda f: WORDS.get(f, f), return_dtype=pl.String))
    return table(frame, FORMATS, HEADERS)


STUDY = Study(
    name="play",
    description="hands played by explicit policies (fold, call, raise): streets, showdowns, positions, pots, against everyone showing down",
    tables=("streets", "showdown", "everyone", "positions", "classes", "pots", "stats"),
    run_shard=run_shard,
    summarize=summarize,
    report=report,
    options=(
        *replace_option(
            MONTE_CARLO_OPTIONS,
            PLAYERS.but(default=6, help="Players at the table."),
            DEALS.but(default="1M", help="Hands to play: 1e6, 200M or 1_000_000.", aliases=("--hands",)),
            SHARD_DEALS.but(default="100k", help="Hands per shard, the unit of work and of resume."),
        ),
        Option(
            "policy",
            "A policy for every seat, or one per seat as a comma list (tight,loose,...; see sampyong "
            "policies; default: regular).",
        ),
        Option("stacks", "Starting stacks in big blinds: 100bb or 40 (default: 100bb)."),
        Option(
            "betting",
            "The betting structure: no-limit, pot-limit or fixed-limit (default: the game's own: hold'em no-limit, the others "
            "pot-limit).",
        ),
    ),
    validate=validate,
    prepare=prepare,
    upstream=upstream,
    inputs=inputs,
    outputs={
        "hands.phhs": lambda tables, config, ranking, options: (
            record_hands(config, options["record"], ranking) if options.get("record") else None
        )
    },
    output_options=(
        Option(
            "record", "Also write the run's first N hands as RUN_DIR/hands.phhs (check them with sampyong replay).", int
        ),
    ),
    markdown=markdown_of,
)
