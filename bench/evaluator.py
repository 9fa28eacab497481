"""Evaluator throughput: hands/s per preset, side by side with the reference evaluator.

    python bench/evaluator.py [--hands 2000000]

Each preset's fast kernel runs on the same random batch as a slice evaluated by the reference
(the plain-Python rule book), in the same process, so the printed ratio is robust to a busy
machine. ``M hands/s`` deals every hand its own board, hole and board as views of one deal
array (``split_deal``, as the jobs do); ``contiguous`` is the same hands as two contiguous
arrays, which numba reads with strides known at compile time; ``8/board`` deals 8 hands per board,
as the showdown job does, so the board's part is summed once for 8 hands. All kernels of all
presets take turns, best of ``--repeats`` rounds. Restricted games whose ``hi+lo`` reads the
hole table (with 8 per board only when three hole cards may play) also print the split
tables' rates beside it. Also: how long importing the evaluator takes once tables and the
numba cache are warm.
"""

from __future__ import annotations

import argparse
import ctypes
import subprocess
import sys
import time

from pathlib import Path

# This file is named like the package it measures: put the project root first on the path.
sys.path[0] = str(Path(__file__).resolve().parent.parent)

import numpy as np  # noqa: E402 - after the path fix above

from evaluator import reference  # noqa: E402
from evaluator.deal import deal_cards, split_deal  # noqa: E402
from evaluator.fast import FastEvaluator  # noqa: E402
from evaluator.games import PRESETS  # noqa: E402


def keep_freed_memory() -> None:
    """Ask glibc to keep freed memory for reuse. Otherwise each 8 MB output array of a call can
    go back to the OS when freed and the next call pays its page faults again: the first
    preset measured in a process ran 1.2-1.4x slower through ``high_low`` than its kernel
    with preallocated outputs, the later presets not at all."""
    try:
        libc = ctypes.CDLL("libc.so.6")
    except OSError:  # not glibc: nothing to tune
        return
    m_trim_threshold, m_mmap_threshold = -1, -3
    libc.mallopt(m_trim_threshold, 1 << 30)
    libc.mallopt(m_mmap_threshold, 1 << 25)  # glibc's largest


def best_of(fns: dict, repeats: int) -> dict:
    """Best time of each function over ``repeats`` rounds, the functions taking turns within a
    round, so a slow spell of this shared machine hits them all alike."""
    times: dict = {name: [] for name in fns}
    for _ in range(repeats):
        for name, fn in fns.items():
            start = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - start)
    return {name: min(t) for name, t in times.items()}


def preset_runs(game, hands: int) -> tuple[FastEvaluator, dict, np.ndarray, np.ndarray, int]:
    """The timed calls of one preset, compiled and ready: ``(fast, runs, hole, board, hands
    with 8 per board)``."""
    rng = np.random.default_rng(1)
    cards = deal_cards(rng, hands, game.hole_cards + game.board_cards)
    hole, board = split_deal(cards, 1, game.hole_cards)
    # The showdown job's layout: 8 hands share each board (the board's sums are reused).
    shared = deal_cards(rng, hands // 8, 8 * game.hole_cards + game.board_cards)
    hole8, board8 = split_deal(shared, 8, game.hole_cards)
    # The same hands as two contiguous arrays: numba then knows every stride.
    hole_c, board_c = np.ascontiguousarray(hole), np.ascontiguousarray(board)
    fast = FastEvaluator(game)
    runs = {
        "fast": lambda: fast.high_low(hole, board),
        "contiguous": lambda: fast.high_low(hole_c, board_c),
        "present": lambda: fast.high_low_present(hole, board),
        "fast8": lambda: fast.high_low(hole8, board8),
        "present8": lambda: fast.high_low_present(hole8, board8),
    }
    if fast.uses_hole_table(1):  # hi+lo reads the hole table: the split tables beside it
        runs["split"] = lambda: fast._run_split(hole, board, want_present=False)
        runs["split8"] = lambda: fast._run_split(hole8, board8, want_present=False)
    if fast.path == "split":
        runs["subsets"] = lambda: fast._run_subsets(hole, board)
    for run in runs.values():  # compile or load the cache, and touch the tables
        run()
    return fast, runs, hole, board, hole8.shape[0] * 8


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2_000_000)
    parser.add_argument("--reference-hands", type=int, default=2_000)
    parser.add_argument("--repeats", type=int, default=7, help="rounds; each kernel's best round counts")
    args = parser.parse_args()
    keep_freed_memory()
    prepared = {name: preset_runs(game, args.hands) for name, game in PRESETS.items()}
    # Every round times every preset's kernels in turn, so each preset's best comes from the
    # same minutes of this shared machine, whose speed drifts from one minute to the next.
    every_run = {(name, kind): run for name, (_, runs, *_) in prepared.items() for kind, run in runs.items()}
    best = best_of(every_run, args.repeats)
    print(f"{'game':8} {'kernel':>16} {'M hands/s':>10} {'contiguous':>10} {'8/board':>8} {'reference/s':>12} {'ratio':>9}")
    for name, (fast, runs, hole, board, shared8) in prepared.items():
        t = {kind: best[name, kind] for kind in runs}
        game = fast.game
        n_ref = args.reference_hands
        ref_hole, ref_board = hole[:n_ref, 0].tolist(), board[:n_ref].tolist()
        t_ref = best_of({"ref": lambda: [reference.showdown(game, h, b) for h, b in zip(ref_hole, ref_board)]}, 1)["ref"]
        own = args.hands
        ref_rate = n_ref / t_ref
        kernel = "hole table" if fast.uses_hole_table(1) else fast.path
        print(f"{name:8} {kernel + ' hi+lo':>16} {own / t['fast'] / 1e6:10.1f} {own / t['contiguous'] / 1e6:10.1f} "
              f"{shared8 / t['fast8'] / 1e6:8.1f} {ref_rate:12,.0f} {own / t['fast'] / ref_rate:9,.0f}x")
        print(f"{'':8} {'+present':>16} {own / t['present'] / 1e6:10.1f} {'':10} {shared8 / t['present8'] / 1e6:8.1f}")
        if "split" in t:
            print(f"{'':8} {'split hi+lo':>16} {own / t['split'] / 1e6:10.1f} {'':10} {shared8 / t['split8'] / 1e6:8.1f}"
                  f"   hole table/split {t['split'] / t['fast']:4.2f}x {t['split8'] / t['fast8']:4.2f}x")
        if "subsets" in t:
            print(f"{'':8} {'subsets (old)':>16} {own / t['subsets'] / 1e6:10.1f}"
                  f"   split/subsets {t['subsets'] / t['present']:4.1f}x")
    warm = subprocess.run(
        [sys.executable, "-c",
         "import time; t=time.perf_counter(); from evaluator.fast import fast_evaluator; from evaluator.games import game; "
         "import numpy as np; f=fast_evaluator(game('pls7')); f.high_low(np.zeros((1,1,3),np.uint8)+np.array([0,1,2],np.uint8), np.array([[3,4,5,6,7]],np.uint8)); print(time.perf_counter()-t)"],
        capture_output=True, text=True, check=True,
    )
    print(f"warm import + first PLS7 evaluation: {float(warm.stdout.strip()):.2f} s")


if __name__ == "__main__":
    main()
