"""Starting hands in order of strength: the runs that rank them, and the 4-card study.

A class's strength is its heads-up equity against one uniformly random hand over uniformly
random boards: hi-lo equity (pot shares, ties and quartering included) where the game has a
low, else high equity. Every hand of a suit-isomorphism class has the same strength. The
strengths become an ``engine.ranking.HandRanking`` (preflop percentiles, top-N % ranges).

* 2 and 3 hole cards: **exact**, from the heads-up grid study (``sampyong run grid --exact``:
  about 10 s for hold'em and 75 s for a three-card game on 2 cores).
* 4 hole cards (``plo``, ``plo8``): **sampled** by this module's study, ``hand_ranking``
  (exact enumeration is far too slow). Each of the 16,432 classes plays its representative
  (its first hand) against ``SAMPLES`` = 16,384 deals of a random opponent hand and a random
  5-card board from the 48 other cards, drawn by ``evaluator.deal`` from a generator seeded by
  ``(SEED, class id)``: the table is the same bit for bit for any shards and workers. The
  standard error is at most 0.5 / sqrt(16,384) = 0.39 percentage points (measured:
  0.23-0.39 for plo, 0.20-0.37 for plo8), so classes closer than about a point may swap
  places. Shards of ``CLASSES_PER_SHARD`` classes; about 25 s on 2 cores.
* 5 or more hole cards: refused with a ``SampyongError``.

``strength_runs(game)`` names the run a game's ranking comes from and ``ranking_from`` reads
it; a study that needs a ranking declares that run as its upstream (``jobs.play``), so the
driver computes it once, through the user's backend, and hands the ranking to every shard.
``ranking(game, backend, out)`` does the same for the commands that need one in the driver
(``fit``, ``N%`` ranges).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import polars as pl
import pyarrow as pa

from engine.ranking import HandRanking
from evaluator.cards import hand_classes, iso_classes
from evaluator.errors import SampyongError
from evaluator.games import Game
from evaluator.jit import njit
from jobs.common import GAME_OPTIONS, Study, game_of, report_header, section, table
from pipeline.plan import RunConfig, ShardSpec

SAMPLES = 16_384  # deals per class: standard error <= 0.5 / 128 = 0.39 percentage points
SEED = 20_240_611  # the sampled table's seed; class k draws from default_rng([SEED, k])
SAMPLED_HOLE_CARDS = 4
CLASSES_PER_SHARD = 256
_BATCH_DEALS = 1 << 19  # deals per fast-evaluator call (about 30 MB of arrays)


def representatives(hole_cards: int) -> np.ndarray:
    """``uint8[classes, hole_cards]``: each class's first hand (sorted cards), in class order.

    >>> [list(map(int, hand)) for hand in representatives(2)[[0, -1]]]
    [[0, 1], [48, 49]]
    """
    hands, class_of, _ = iso_classes(hole_cards)
    _, first = np.unique(class_of, return_index=True)
    return hands[first].astype(np.uint8)


@njit(cache=True)
def _seat(hand, dealt, hole, board):
    """Seat 0 gets ``hand``, seat 1 each deal's first cards, the board the rest (numpy's strided
    copies of these short rows took 20 ns a deal, a sixth of the evaluation's time)."""
    n_hole = hand.shape[0]
    for i in range(dealt.shape[0]):
        for j in range(n_hole):
            hole[i, 0, j] = hand[j]
            hole[i, 1, j] = dealt[i, j]
        for j in range(board.shape[1]):
            board[i, j] = dealt[i, n_hole + j]


def sample_classes(game: Game, hands: np.ndarray, class_ids, samples: int | None = None, seed: int | None = None):
    """Heads-up pot shares of each hand in ``hands`` (``uint8[k, hole_cards]``, sorted or not)
    against ``samples`` deals each of a random opponent hand and board from the other cards,
    hand ``i`` drawing from ``default_rng([seed, class_ids[i]])``.

    Returns ``(total, total_squares)`` (``int64[k]``): the sums over the deals of seat 0's share,
    and of its square, in units of ``evaluator.settle.share_unit(2)``. Exact integers, so the
    result does not depend on how hands are batched.
    """
    from evaluator.deal import deal_cards
    from evaluator.fast import fast_evaluator
    from evaluator.settle import share_unit
    from evaluator.settle_kernels import pot_shares

    samples = SAMPLES if samples is None else samples
    seed = SEED if seed is None else seed
    evaluator = fast_evaluator(game)
    unit = share_unit(2)
    hands = np.asarray(hands, dtype=np.uint8)
    k, n_hole = hands.shape
    n_dealt = n_hole + game.board_cards
    total = np.zeros(k, np.int64)
    squares = np.zeros(k, np.int64)
    per_batch = max(1, _BATCH_DEALS // samples)
    for lo in range(0, k, per_batch):
        hi = min(k, lo + per_batch)
        deals = (hi - lo) * samples
        hole = np.empty((deals, 2, n_hole), np.uint8)
        board = np.empty((deals, game.board_cards), np.uint8)
        for j in range(lo, hi):
            rows = slice((j - lo) * samples, (j - lo + 1) * samples)
            deck = np.setdiff1d(np.arange(52, dtype=np.uint8), hands[j])
            dealt = deal_cards(np.random.default_rng([seed, int(class_ids[j])]), samples, n_dealt, deck=deck)
            _seat(hands[j], dealt, hole[rows], board[rows])
        high, low = evaluator.high_low(hole, board)
        high_part = np.empty((deals, 2), np.int64)
        low_part = np.empty((deals, 2), np.int64)
        pot_shares(high, low, unit, high_part, low_part)
        share = (high_part[:, 0] + low_part[:, 0]).reshape(hi - lo, samples)
        total[lo:hi] = share.sum(axis=1)
        squares[lo:hi] = (share * share).sum(axis=1)
    return total, squares


# --- The study: sampled strengths of 4-card classes ------------------------------------------


def validate(config: RunConfig) -> None:
    game = game_of(config)
    if game.hole_cards != SAMPLED_HOLE_CARDS:
        raise SampyongError(
            f"hand_ranking samples 4-card games; {game.name} has {game.hole_cards} hole cards "
            "(2 and 3 are ranked exactly by `sampyong run grid --exact`)"
        )


def configure(config: RunConfig) -> RunConfig:
    """The sample is fixed: every class, ``SAMPLES`` deals each, seed ``SEED``."""
    classes = len(hand_classes(SAMPLED_HOLE_CARDS)[1])
    return dataclasses.replace(
        config, deals=classes * SAMPLES, shard_deals=CLASSES_PER_SHARD * SAMPLES, players=2, seed=SEED
    )


def run_shard(config: RunConfig, shard: ShardSpec) -> dict[str, pa.Table]:
    """The classes of shard ``i`` (``CLASSES_PER_SHARD`` from ``i * CLASSES_PER_SHARD``): their
    sums of pot shares and of squared shares over their deals."""
    first = shard.index * CLASSES_PER_SHARD
    ids = np.arange(first, first + shard.deals // SAMPLES, dtype=np.int64)
    total, squares = sample_classes(
        game_of(config), representatives(SAMPLED_HOLE_CARDS)[ids], ids, SAMPLES, config.seed
    )
    return {
        "strengths": pa.table(
            {
                "class": pa.array(ids, pa.int32()),
                "total": pa.array(total.astype(np.uint64), pa.uint64()),
                "squares": pa.array(squares.astype(np.uint64), pa.uint64()),
            }
        )
    }


def summarize(counts: dict[str, pl.DataFrame], config: RunConfig) -> dict[str, pl.DataFrame]:
    from evaluator.settle import share_unit

    unit, n = share_unit(2), SAMPLES
    names = hand_classes(SAMPLED_HOLE_CARDS)[2]
    frame = counts["strengths"].sort("class")
    total, squares = frame["total"].cast(pl.Float64).to_numpy(), frame["squares"].cast(pl.Float64).to_numpy()
    # The sample variance in units squared (shares are at most ``unit``).
    variance = (n * squares - total * total) / (n * (n - 1))
    return {
        "strengths": pl.DataFrame(
            {
                "class": frame["class"].cast(pl.Int64),
                "name": [names[k] for k in frame["class"].to_list()],
                "equity": total / (unit * n),
                "se": np.sqrt(variance / n) / unit,
                "samples": np.full(frame.height, n, np.int64),
            }
        )
    }


def report(tables: dict[str, pl.DataFrame], config: RunConfig, figure_files: list[str]) -> str:
    frame = tables["strengths"].sort("equity", descending=True).select("name", "equity", "se")
    shown = pl.concat([frame.head(10), frame.tail(10)])
    return (
        "\n".join(
            [
                *report_header(
                    f"Starting hands of {game_of(config).name}, strongest first",
                    f"Each of {tables['strengths'].height:,} classes against one random hand, {SAMPLES:,} deals a "
                    f"class (seed {config.seed}): heads-up equity, hi-lo where the game has a low.",
                ),
                *section(
                    "The 10 strongest and the 10 weakest classes",
                    table(shown, {"equity": "percent"}, {"se": "equity_se"}),
                ),
            ]
        )
        + "\n"
    )


STUDY = Study(
    name="hand_ranking",
    description="each 4-card starting-hand class's heads-up equity against a random hand (sampled, fixed seed): PLO, PLO8 rankings",
    tables=("strengths",),
    run_shard=run_shard,
    summarize=summarize,
    report=report,
    options=GAME_OPTIONS,
    validate=validate,
    configure=configure,
)


# --- Rankings: which run, and reading it -----------------------------------------------------


def strength_runs(game: Game) -> list[tuple[Study, RunConfig]]:
    """The run whose table ranks ``game``'s starting hands, validated and configured: the exact
    heads-up grid for 2 and 3 hole cards, this module's study for 4 (``SampyongError`` else)."""
    from jobs import grid

    knobs = {
        "hole_use": "-".join(map(str, game.hole_use)),
        "ranking": game.ranking.name,
        "low": str(game.low) if game.low is not None else "none",
    }
    if game.hole_cards in (2, 3):
        study = grid.STUDY
    elif game.hole_cards == SAMPLED_HOLE_CARDS:
        study = STUDY
    else:
        raise SampyongError(
            f"ranking starting hands covers games of 2 to 4 hole cards; {game.name} has {game.hole_cards}"
        )
    config = RunConfig(job=study.name, game=game.base_name, deals=1, shard_deals=1, players=2, seed=0, **knobs)
    study.validate(config)
    return [(study, study.configure(config))]


def ranking_from(game: Game, tables: list[dict[str, pl.DataFrame]]) -> HandRanking:
    """``game``'s ranking from the tables of its ``strength_runs``."""
    (found,) = tables
    if "strengths" in found:
        strengths = found["strengths"].sort("class")["equity"]
    else:
        grid = found["grid"]
        strengths = grid["equity_hilo" if "equity_hilo" in grid.columns else "equity_high"]
    return HandRanking.from_strengths(game.hole_cards, strengths.to_numpy())


def ranking(game: Game, backend, out: Path, quiet: bool = True) -> HandRanking:
    """``game``'s ranking in the driver: its ``strength_runs`` on ``backend`` into ``out``
    (complete runs are only read), then ``ranking_from``."""
    from pipeline.runner import execute_all, read_tables

    dirs = execute_all(strength_runs(game), backend, out, quiet=quiet, upstream=True)
    return ranking_from(game, [read_tables(d) for d in dirs])
