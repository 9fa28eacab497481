"""Evaluator throughput: hands/s per preset, side by side with the reference evaluator.

    python bench/evaluator.py [--hands 2000000]

Each preset's fast kernel runs on the same random batch as a slice evaluated by the reference
(the plain-Python rule book), in the same process, so the printed ratio is robust to a busy
machine. ``M hands/s`` deals every hand its own board; ``8/board`` deals 8 hands per board,
as the showdown job does, so the board's part is summed once for 8 hands. Also: how long importing the evaluator takes once tables and the numba cache are warm.
"""

from __future__ import annotations

import argparse
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


def best_of(fn, repeats=5) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2_000_000)
    parser.add_argument("--reference-hands", type=int, default=2_000)
    args = parser.parse_args()
    print(f"{'game':8} {'kernel':>14} {'M hands/s':>10} {'8/board':>8} {'reference/s':>12} {'ratio':>9}")
    for name, game in PRESETS.items():
        rng = np.random.default_rng(1)
        cards = deal_cards(rng, args.hands, game.hole_cards + game.board_cards)
        hole, board = split_deal(cards, 1, game.hole_cards)
        # The showdown job's layout: 8 hands share each board (the board's sums are reused).
        shared = deal_cards(rng, args.hands // 8, 8 * game.hole_cards + game.board_cards)
        hole8, board8 = split_deal(shared, 8, game.hole_cards)
        fast = FastEvaluator(game)
        fast.high_low(hole[:10], board[:10])  # compile / load the cache
        fast.high_low_present(hole[:10], board[:10])
        t_fast = best_of(lambda: fast.high_low(hole, board))
        t_present = best_of(lambda: fast.high_low_present(hole, board))
        t_fast8 = best_of(lambda: fast.high_low(hole8, board8))
        t_present8 = best_of(lambda: fast.high_low_present(hole8, board8))
        n_ref = args.reference_hands
        ref_hole, ref_board = hole[:n_ref, 0].tolist(), board[:n_ref].tolist()
        t_ref = best_of(lambda: [reference.showdown(game, h, b) for h, b in zip(ref_hole, ref_board)], repeats=1)
        fast_rate, ref_rate = args.hands / t_fast, n_ref / t_ref
        rate8 = hole8.shape[0] * 8 / t_fast8
        kernel = fast.path
        print(f"{name:8} {kernel + ' hi+lo':>14} {fast_rate / 1e6:10.1f} {rate8 / 1e6:8.1f} {ref_rate:12,.0f} {fast_rate / ref_rate:9,.0f}x")
        print(f"{'':8} {'+present':>14} {args.hands / t_present / 1e6:10.1f} {hole8.shape[0] * 8 / t_present8 / 1e6:8.1f}")
        if fast.path == "split":
            t_subsets = best_of(lambda: fast._run_subsets(hole, board))
            print(f"{'':8} {'subsets (old)':>14} {args.hands / t_subsets / 1e6:10.1f}   split/subsets {t_subsets / t_present:4.1f}x")
    warm = subprocess.run(
        [sys.executable, "-c",
         "import time; t=time.perf_counter(); from evaluator.fast import fast_evaluator; from evaluator.games import game; "
         "import numpy as np; f=fast_evaluator(game('pls7')); f.high_low(np.zeros((1,1,3),np.uint8)+np.array([0,1,2],np.uint8), np.array([[3,4,5,6,7]],np.uint8)); print(time.perf_counter()-t)"],
        capture_output=True, text=True, check=True,
    )
    print(f"warm import + first PLS7 evaluation: {float(warm.stdout.strip()):.2f} s")


if __name__ == "__main__":
    main()
