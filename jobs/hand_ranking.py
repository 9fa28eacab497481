"""Starting hands in order of strength, for ranges such as ``15%`` and preflop percentiles.

A class's strength is its heads-up equity against one uniformly random hand over uniformly
random boards: hi-lo equity (pot shares, ties and quartering included) where the game has a
low, else high equity. Every hand of a suit-isomorphism class has the same strength.

* 2 and 3 hole cards: **exact**. The first use runs the exact grid study (``sampyong run grid
  --exact``: about 10 s for hold'em and 75 s for a three-card game on 2 cores) into the cache
  folder; later uses read its table.
* 4 hole cards (``plo``, ``plo8``): **sampled**, since exact enumeration is far too slow. Each
  of the 16,432 classes plays its representative (its first hand) against ``SAMPLES`` = 16,384
  deals of a random opponent hand and a random 5-card board from the 48 other cards, drawn by
  ``evaluator.deal`` from a generator seeded by ``(SEED, class id)``: the table is the same
  bit for bit however the classes are batched and for any number of workers. The standard error is at most
  0.5 / sqrt(16,384) = 0.39 percentage points (measured: 0.23-0.39 for plo, 0.20-0.37 for plo8),
  so classes closer than about a point may swap places. The first use builds
  ``CACHE/hand_ranking/GAME-KEY.parquet`` (``class, equity, se, samples``; written atomically)
  with one worker process per idle core: plo or plo8 in 22-26 s on 2 idle cores, 35-45 s on
  one core beside other work. Later uses read it.
* 5 or more hole cards: refused with a ``SampyongError``.
"""

from __future__ import annotations

import functools
import hashlib
import os
import pickle
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import polars as pl
from numba import njit

from evaluator.cards import iso_classes
from evaluator.errors import SampyongError
from evaluator.games import Game
from evaluator.ranges import top_percent
from evaluator.tables import cache_dir
from pipeline.plan import RunConfig

SAMPLES = 16_384  # deals per class: standard error <= 0.5 / 128 = 0.39 percentage points
SEED = 20_240_611  # the sampled tables' seed; class k draws from default_rng([SEED, k])
SAMPLED_HOLE_CARDS = 4
_SAMPLED_VERSION = 1  # bump when the sampling changes: the cache key includes it
_BATCH_DEALS = 1 << 19  # deals per fast-evaluator call (about 30 MB of arrays)


def _grid_config(game: Game) -> RunConfig:
    base = game.base_name
    knobs = {"hole_use": "-".join(map(str, game.hole_use)), "ranking": game.ranking.name,
             "low": str(game.low) if game.low is not None else "none"}
    return RunConfig(job="grid", game=base, deals=1, shard_deals=1, players=2, seed=0, **knobs)


def _exact_strengths(game: Game, quiet: bool) -> list[float]:
    """Each class's exact equity from the grid study's table, computed once into the cache."""
    from jobs.grid import STUDY
    from pipeline.backends import RayBackend
    from pipeline.runner import execute

    config = _grid_config(game)
    STUDY.validate(config)
    config = STUDY.configure(config)
    table = cache_dir() / "grids" / "grid" / config.run_id / "tables" / "grid.parquet"
    if not table.is_file():
        execute(STUDY, config, RayBackend(), cache_dir() / "grids", quiet=quiet)
    grid = pl.read_parquet(table)
    key = "equity_hilo" if "equity_hilo" in grid.columns else "equity_high"
    return grid[key].to_list()


# --- Sampled strengths (4 hole cards) ---------------------------------------------------------


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
    from evaluator.settle import pot_shares, share_unit

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


def _idle_cores(pause: float = 0.2) -> float | None:
    """How many of the machine's cores were idle over ``pause`` seconds (Linux ``/proc/stat``;
    None elsewhere). Unlike the load average it does not lag, so it does not count the workers
    of a table built just before."""

    def ticks():
        values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]]
        return values[3] + values[4], sum(values)  # idle and iowait; all

    try:
        idle0, all0 = ticks()
        time.sleep(pause)
        idle1, all1 = ticks()
    except (OSError, ValueError, IndexError):
        return None
    return (os.cpu_count() or 1) * (idle1 - idle0) / max(all1 - all0, 1)


def _default_workers() -> int:
    """One worker per idle core, at least one. Measured for plo on this project's 2-core
    machine: one process 33-36 s; two workers start in about 3 s each and evaluate about 15 %
    slower side by side (they share the caches): 23 s on idle cores, but 54 s against 46 s for
    one process beside other busy processes. The table does not depend on the number of workers."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cores = os.cpu_count() or 1
    idle = _idle_cores() if cores > 1 else None
    return cores if idle is None else max(1, min(cores, round(idle)))


def _sample_in_workers(game: Game, hands: np.ndarray, ids: np.ndarray, samples: int, seed: int, workers: int):
    """``sample_classes`` over ``workers`` processes, each running this file (not the ``jobs``
    package, whose other studies it does not need) on a share of the classes. Plain
    subprocesses rather than a ``multiprocessing`` pool: spawn imports the caller's ``__main__``
    again (a script without a main guard would run twice) and fork is unsafe in a process holding
    threads (Ray's); the kernels hold the GIL, so threads would not help."""
    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(root), os.environ.get("PYTHONPATH")) if p)}
    start = f"import runpy, sys; sys.argv[0] = {__file__!r}; runpy.run_path(sys.argv[0], run_name='__main__')"
    running: list[subprocess.Popen] = []
    with tempfile.TemporaryDirectory(prefix="sampyong-ranking-") as scratch:
        try:
            results = []
            for w, chunk in enumerate(np.array_split(np.arange(len(ids)), workers)):
                task, result = Path(scratch) / f"task-{w}.pkl", Path(scratch) / f"result-{w}.npy"
                task.write_bytes(pickle.dumps((game, hands[chunk], ids[chunk], samples, seed)))
                command = [sys.executable, "-c", start, str(task), str(result)]
                running.append(subprocess.Popen(command, cwd=root, env=env, stdin=subprocess.DEVNULL))
                results.append(result)
            codes = [p.wait() for p in running]
        finally:
            for p in running:  # only after an interrupt or error here
                if p.poll() is None:
                    p.kill()
                    p.wait()
        if any(codes):
            raise RuntimeError(f"hand-ranking workers exited with {codes}")
        parts = [np.load(result) for result in results]
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


def _sample_all(game: Game, samples: int, seed: int, workers: int) -> pl.DataFrame:
    from evaluator.settle import share_unit

    hands = representatives(game.hole_cards)
    ids = np.arange(len(hands), dtype=np.int64)
    if workers <= 1:
        total, squares = sample_classes(game, hands, ids, samples, seed)
    else:
        total, squares = _sample_in_workers(game, hands, ids, samples, seed, workers)
    unit = share_unit(2)
    # The sample variance in units squared, from exact integers (shares are at most ``unit``).
    variance = (samples * squares - total * total) / (samples * (samples - 1))
    return pl.DataFrame({
        "class": ids,
        "equity": total / (unit * samples),
        "se": np.sqrt(variance / samples) / unit,
        "samples": np.full(len(ids), samples, np.int64),
    })


def _rules_key(game: Game, samples: int, seed: int) -> str:
    """A file-name key of what the table depends on: the rules (not the game's name), samples, seed."""
    rules = (game.hole_cards, game.board_cards, tuple(game.hole_use), tuple(c.name for c in game.ranking.order),
             game.low, samples, seed, _SAMPLED_VERSION)
    return hashlib.sha256(repr(rules).encode()).hexdigest()[:16]


def sampled_path(game: Game, samples: int | None = None, seed: int | None = None, folder: Path | None = None) -> Path:
    """Where ``sampled_strengths`` caches ``game``'s table (defaults as there)."""
    samples = SAMPLES if samples is None else samples
    seed = SEED if seed is None else seed
    folder = cache_dir() / "hand_ranking" if folder is None else Path(folder)
    return folder / f"{game.base_name}-{_rules_key(game, samples, seed)}.parquet"


def sampled_strengths(
    game: Game,
    samples: int | None = None,
    seed: int | None = None,
    folder: Path | None = None,
    workers: int | None = None,
    quiet: bool = True,
) -> pl.DataFrame:
    """Each class's sampled heads-up equity (columns ``class, equity, se, samples``), read from
    the cache folder (``folder``, default ``CACHE/hand_ranking``) or computed once and written
    there atomically. ``samples`` and ``seed`` default to ``SAMPLES`` and ``SEED`` (read at
    call time); ``workers`` processes (default: one per core) share the classes."""
    if game.hole_cards != SAMPLED_HOLE_CARDS:
        raise SampyongError(f"sampled hand strengths cover 4-card games; {game.name} has {game.hole_cards}")
    samples = SAMPLES if samples is None else samples
    seed = SEED if seed is None else seed
    if samples < 2:
        raise SampyongError(f"sampled hand strengths need at least 2 deals per class, not {samples}")
    path = sampled_path(game, samples, seed, folder)
    if path.is_file():
        return pl.read_parquet(path)
    from pipeline.store import atomic_write

    started = time.perf_counter()
    if not quiet:
        print(f"Ranking {game.name}'s starting hands: {samples:,} deals per class, once...", file=sys.stderr)
    table = _sample_all(game, samples, seed, _default_workers() if workers is None else workers)
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, lambda tmp: table.write_parquet(tmp))
    if not quiet:
        print(f"... {time.perf_counter() - started:.0f} s, cached in {path}", file=sys.stderr)
    return table


# --- Classes with their members -------------------------------------------------------------


def with_members(hole_cards: int, strengths) -> list[tuple[list[tuple[int, ...]], float]]:
    """Each class's hands (sorted card tuples, from ``iso_classes``) with its strength.

    >>> classes = with_members(2, range(169))  # class 0 is 22, the last AA
    >>> len(classes), classes[0], len(classes[-1][0])
    (169, ([(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)], 0), 6)
    """
    hands, class_of, class_size = iso_classes(hole_cards)
    strengths = list(strengths)
    if len(strengths) != len(class_size):
        raise SampyongError(f"{len(strengths)} strengths for {len(class_size)} classes of {hole_cards} cards")
    members: list[list[tuple[int, ...]]] = [[] for _ in range(len(class_size))]
    for hand, cls in zip(hands.tolist(), class_of.tolist()):
        members[cls].append(tuple(hand))
    return list(zip(members, strengths))


@functools.lru_cache(maxsize=8)
def class_strengths(game: Game, quiet: bool = True) -> list[tuple[list[tuple[int, ...]], float]]:
    """Each starting-hand class of ``game``: its hands (sorted card tuples) and its equity
    against one random hand over random boards, exact for 2 and 3 hole cards and sampled for 4
    (see the module). ``SampyongError`` for 5 or more hole cards."""
    if game.hole_cards in (2, 3):
        strengths = _exact_strengths(game, quiet)
    elif game.hole_cards == SAMPLED_HOLE_CARDS:
        strengths = sampled_strengths(game, quiet=quiet)["equity"].to_list()
    else:
        raise SampyongError(f"top-% ranges need a ranking of starting hands, which covers 2- to 4-card games; {game.name} has {game.hole_cards}")
    return with_members(game.hole_cards, strengths)


def top_provider(game: Game, quiet: bool = True):
    """A ``top(percent)`` for ``evaluator.ranges.parse_range``: the top N % of ``game``'s hands."""

    def top(percent: float) -> set[tuple[int, ...]]:
        return top_percent(class_strengths(game, quiet), percent)

    return top


if __name__ == "__main__":  # a worker of _sample_in_workers: THIS_FILE TASK RESULT
    _game, _hands, _ids, _samples, _seed = pickle.loads(Path(sys.argv[1]).read_bytes())
    np.save(sys.argv[2], np.stack(sample_classes(_game, _hands, _ids, _samples, _seed)))
