"""Policies against each other: a duplicate match on the same deals.

``sampyong run match --game pls7 --players 6 --policies pro-like,loose,regular --hands 10M``
plays hands through the numba engine (``engine.fast``) as ``run play`` does, the policies filling
the seats in order (a shorter list repeats: ``pro-like,loose`` at six seats is
pro-like, loose, pro-like, loose, pro-like, loose). In **duplicate** form (the default) every
deal is played once per rotation of the line-up through the seats (once per distinct seating:
two times for two policies alternating), on the same cards and the same strength samples, the way duplicate bridge and the computer poker competitions cancel the
luck of the deal: a policy's result on a deal is its chips summed over every rotation, and
the cards it held are held, in turn, by every policy. ``--no-duplicate`` plays each deal once.

Tables (big blinds per 100 hands, ± one standard error with one sample per deal, its rotations
summed):

* ``results``: per policy, the seats it holds, the hands it played and its result; the standard
  error of plain play of as many hands (each hand's result a sample of its own) and how many times
  smaller the duplicate form made it.
* ``positions``: per policy and seat (PHH order: the small blind first, the button last), its
  hands and result there (one sample per hand).

The same policy under two names comes out at exactly zero on every deal in duplicate form: each
rotation is the previous one with the names moved one seat on.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import polars as pl
import pyarrow as pa

from engine.policy import load_policy
from engine.ranking import HandRanking
from engine.table import BIG_BLIND, Table
from evaluator.errors import SampyongError
from jobs.common import MONTE_CARLO_OPTIONS, PLAYERS, Study, game_of, replace_option, section, table
from jobs.hand_ranking import ranking_from, strength_runs
from jobs.play import HOLE_CARDS, deal_shard
from pipeline.plan import RunConfig, ShardSpec
from pipeline.study import DEALS, SHARD_DEALS, Option

DEFAULT_POLICIES = "pro-like,loose,regular"


def lineup(config: RunConfig) -> list[str]:
    """Each seat's policy name, in seat order: ``--policies`` repeated to fill the table.

    >>> lineup(RunConfig("match", "pls7", 1, 1, 5, 0, options=(("policies", "tight,loose"),)))
    ['tight', 'loose', 'tight', 'loose', 'tight']
    """
    names = [n.strip() for n in (config.option("policies") or DEFAULT_POLICIES).split(",") if n.strip()]
    if not names:
        raise SampyongError("--policies names no policy")
    if len(names) > config.players:
        raise SampyongError(f"--policies names {len(names)} policies for {config.players} seats")
    return [names[s % len(names)] for s in range(config.players)]


def labels(config: RunConfig) -> list[str]:
    """The policies of the match, each once, in the order they first sit (by their names)."""
    return list(dict.fromkeys(policy.name for policy in table_of(config).policies))


def duplicate(config: RunConfig) -> bool:
    return config.option("duplicate", "True") == "True"


def table_of(config: RunConfig) -> Table:
    """The table with the line-up in its first rotation (``SampyongError`` for two different
    policies under one name)."""
    policies = tuple(load_policy(name) for name in lineup(config))
    by_name = {}
    for policy in policies:
        if by_name.setdefault(policy.name, policy) != policy:
            raise SampyongError(f"two different policies are named {policy.name!r}: rename one")
    base = Table.from_options(
        game_of(config), config.players, "showdown", config.option("stacks"), config.option("betting")
    )
    return dataclasses.replace(base, policies=policies)


def rotation(table_: Table, shift: int) -> Table:
    """``table_`` with its line-up moved ``shift`` seats on (seat s gets the policy of seat s - shift)."""
    n = table_.seats
    return dataclasses.replace(table_, policies=tuple(table_.policies[(s - shift) % n] for s in range(n)))


def rotations(config: RunConfig) -> int:
    """How many times each deal is played: once, or in duplicate form once per distinct seating of
    the line-up as it moves one seat on (six for six different policies, two for two alternating).

    >>> rotations(RunConfig("match", "holdem", 1, 1, 6, 0, options=(("policies", "tight,loose"),)))
    2
    """
    if not duplicate(config):
        return 1
    seated = lineup(config)
    return next(shift for shift in range(1, len(seated) + 1) if seated[-shift:] + seated[:-shift] == seated)


def validate(config: RunConfig) -> None:
    table_ = table_of(config)
    if table_.game.hole_cards not in HOLE_CARDS and table_.needs_ranking:
        raise SampyongError(
            f"policies that read preflop percentiles rank starting hands by the heads-up grid, which covers "
            f"games of 2 to 4 hole cards; {table_.game.name} has {table_.game.hole_cards}"
        )


def upstream(config: RunConfig) -> list:
    """The run that ranks the game's starting hands, when some policy reads it."""
    return strength_runs(game_of(config)) if table_of(config).needs_ranking else []


def inputs(config: RunConfig, tables: list) -> HandRanking | None:
    return ranking_from(game_of(config), tables) if tables else None


def prepare(config: RunConfig, ranking: HandRanking | None) -> None:
    run_shard(config, ShardSpec(index=0, deals=2, root_seed=0), ranking)


def match_shard(config: RunConfig, shard: ShardSpec, ranking: HandRanking | None):
    """The shard's deals played once per rotation: ``(per_deal, per_hand, seat_net)`` with
    ``per_deal[deal, policy]`` the policy's chips summed over the rotations, ``per_hand[rotation,
    deal, policy]`` its chips in each, and ``seat_net[rotation, deal, seat]`` every seat's."""
    table_ = table_of(config)
    players = table_.seats
    cards, keys, _, highs, lows, ranks = deal_shard(table_, shard, ranking)
    names = labels(config)
    times = rotations(config)
    seat_net = np.empty((times, shard.deals, players), np.int64)
    per_hand = np.zeros((times, shard.deals, len(names)), np.int64)
    for shift in range(times):
        rotated = rotation(table_, shift)
        played = rotated.play(cards, keys, ranks, highs=highs, lows=lows, ranking=ranking)
        seat_net[shift] = played.finishing - np.asarray(table_.stacks)
        owner = np.zeros((players, len(names)), np.int64)
        owner[np.arange(players), [names.index(p.name) for p in rotated.policies]] = 1
        per_hand[shift] = seat_net[shift] @ owner
    return per_hand.sum(axis=0), per_hand, seat_net


def run_shard(config: RunConfig, shard: ShardSpec, inputs: HandRanking | None) -> dict[str, pa.Table]:
    names = labels(config)
    per_deal, per_hand, seat_net = match_shard(config, shard, inputs)
    table_ = table_of(config)
    players = table_.seats
    u64 = pa.uint64()

    def sums(x: np.ndarray, axis) -> dict[str, np.ndarray]:
        return {
            "won": np.maximum(x, 0).sum(axis=axis),
            "lost": np.maximum(-x, 0).sum(axis=axis),
            "sq": (x * x).sum(axis=axis),
        }

    dup, plain = sums(per_deal, 0), sums(per_hand, (0, 1))
    rows = []
    for shift in range(per_hand.shape[0]):
        rotated = rotation(table_, shift)
        for seat in range(players):
            rows.append((names.index(rotated.policies[seat].name), seat, seat_net[shift, :, seat]))
    positions = np.zeros((len(names), players, 4), np.int64)  # hands, won, lost, sq
    for label, seat, net in rows:
        positions[label, seat] += (len(net), np.maximum(net, 0).sum(), np.maximum(-net, 0).sum(), (net * net).sum())
    return {
        "results": pa.table(
            {
                "policy": pa.array(names, pa.string()),
                "deals": pa.array(np.full(len(names), shard.deals, np.uint64), u64),
                **{f"duplicate_{k}": pa.array(v.astype(np.uint64), u64) for k, v in dup.items()},
                **{f"plain_{k}": pa.array(v.astype(np.uint64), u64) for k, v in plain.items()},
            }
        ),
        "positions": pa.table(
            {
                "policy": pa.array([n for n in names for _ in range(players)], pa.string()),
                "seat": pa.array([s for _ in names for s in range(players)], pa.int32()),
                **{
                    k: pa.array(positions[:, :, i].ravel().astype(np.uint64), u64)
                    for i, k in enumerate(("hands", "won", "lost", "sq"))
                },
            }
        ),
    }


def _mean_se(won: pl.Expr, lost: pl.Expr, sq: pl.Expr, n: pl.Expr) -> tuple[pl.Expr, pl.Expr]:
    """The mean of samples summing to ``won - lost`` with squares ``sq``, and its standard error."""
    mean = (won.cast(pl.Float64) - lost.cast(pl.Float64)) / n
    return mean, ((sq.cast(pl.Float64) / n - mean**2).clip(lower_bound=0) / n).sqrt()


def summarize(
    counts: dict[str, pl.DataFrame], config: RunConfig, ranking: HandRanking | None = None
) -> dict[str, pl.DataFrame]:
    held = {
        policy.name: sum(p.name == policy.name for p in table_of(config).policies)
        for policy in table_of(config).policies
    }
    times = rotations(config)
    per_100 = 100 / BIG_BLIND
    frame = counts["results"].with_columns(pl.col("policy").replace_strict(held, return_dtype=pl.Int64).alias("seats"))
    deals = pl.col("deals").cast(pl.Float64)
    hands_per_deal = pl.col("seats") * times
    mean, se = _mean_se(pl.col("duplicate_won"), pl.col("duplicate_lost"), pl.col("duplicate_sq"), deals)
    plain_mean, plain_se = _mean_se(pl.col("plain_won"), pl.col("plain_lost"), pl.col("plain_sq"), deals * times)
    results = (
        frame.select(
            "policy",
            "seats",
            (pl.col("deals") * hands_per_deal).alias("hands"),
            (mean / hands_per_deal * per_100).alias("bb_per_100"),
            (se / hands_per_deal * per_100).alias("bb_per_100_se"),
            (plain_se / pl.col("seats") * per_100).alias("plain_se"),
        )
        .with_columns((pl.col("plain_se") / pl.col("bb_per_100_se")).alias("se_shrink"))
        .sort("bb_per_100", descending=True)
    )
    hands = pl.col("hands").cast(pl.Float64)
    seat_mean, seat_se = _mean_se(pl.col("won"), pl.col("lost"), pl.col("sq"), hands)
    positions = (
        counts["positions"]
        .filter(pl.col("hands") > 0)
        .select(
            "policy",
            "seat",
            "hands",
            (seat_mean * per_100).alias("bb_per_100"),
            (seat_se * per_100).alias("bb_per_100_se"),
        )
        .sort("policy", "seat")
    )
    return {"results": results, "positions": positions}


FORMATS = {"bb_per_100": "number", "plain_se": "number", "se_shrink": "number"}
HEADERS = {
    "bb_per_100": "big blinds per 100 hands",
    "plain_se": "± if played plainly",
    "se_shrink": "error shrunk by",
    "seats": "seats held",
    "seat": "seat (0 = small blind, last = button)",
}


def report(tables: dict[str, pl.DataFrame], config: RunConfig, figure_files: list[str]) -> str:
    table_ = table_of(config)
    form = (
        f"in duplicate form: every deal played {rotations(config)} times, the line-up moved one seat on each time"
        if duplicate(config)
        else "each deal played once (not duplicate)"
    )
    lines = [
        f"# Match: {', '.join(labels(config))} at {table_.game.name}, {config.players} players",
        "",
        f"{config.deals:,} deals, {form}; stacks {config.option('stacks') or '100bb'}, blinds 1/2, "
        f"{table_.betting.kind}. Results in big blinds per 100 hands ± one standard error, one sample per deal.",
        "",
        *(
            f"- {row['policy']}: {row['bb_per_100']:+.2f} ± {row['bb_per_100_se']:.2f} big blinds per 100 hands"
            for row in tables["results"].iter_rows(named=True)
        ),
    ]
    lines += [
        "",
        *section(
            "Results",
            table(tables["results"], FORMATS, HEADERS),
            "Each policy's result per 100 hands it played; ± if played plainly is the standard error of "
            "as many hands each dealt afresh, and the duplicate form's error is that many times smaller.",
        ),
    ]
    lines += [
        "",
        *section(
            "By seat",
            table(tables["positions"], FORMATS, HEADERS),
            "Each policy's result at each seat, one sample per hand.",
        ),
    ]
    return "\n".join(lines) + "\n"


def markdown_of(name: str, frame: pl.DataFrame, config: RunConfig) -> str:
    return table(frame, FORMATS, HEADERS)


STUDY = Study(
    name="match",
    description="policies against each other on the same deals, in duplicate form: big blinds per 100 hands with standard errors",
    tables=("results", "positions"),
    run_shard=run_shard,
    summarize=summarize,
    report=report,
    options=(
        *replace_option(
            MONTE_CARLO_OPTIONS,
            PLAYERS.but(default=6, help="Players at the table."),
            DEALS.but(
                default="1M",
                help="Deals to play (each once per rotation in duplicate form): 1e6, 200M or 1_000_000.",
                aliases=("--hands",),
            ),
            SHARD_DEALS.but(default="50k", help="Deals per shard, the unit of work and of resume."),
        ),
        Option(
            "policies",
            "The policies filling the seats in order, a comma list repeated to fill the table (see "
            "sampyong policies; default: pro-like,loose,regular).",
        ),
        Option(
            "duplicate",
            "Play every deal once per rotation of the line-up through the seats (the default), or once "
            "with --no-duplicate.",
            bool,
            default=True,
        ),
        Option("stacks", "Starting stacks in big blinds: 100bb or 40 (default: 100bb)."),
        Option("betting", "The betting structure: no-limit, pot-limit or fixed-limit (default: the game's own)."),
    ),
    validate=validate,
    prepare=prepare,
    upstream=upstream,
    inputs=inputs,
    markdown=markdown_of,
)
