"""Exact equity on a fixed list of matchups: our time on 1 and 2 threads, beside eval7's.

    python bench/equity.py [--rounds 7] [--only NAME]

Every matchup is answered exactly (``evaluator.equity.equity(..., exact=True)``) in this
process with numba loaded and the kernels warm (a process's first small answer may take the
numpy path instead, ``evaluator.equity.LIGHT_EVALUATIONS``), in alternating rounds: ours on one thread, ours on two, then
eval7 where it answers (its ``py_hand_vs_range_exact``, hold'em, a hand against a range on a
complete board: it does not enumerate missing board cards, see
``tests/test_equity_peers.py``). Printed per matchup: the median and spread (min-max) of the
rounds in milliseconds, the first hand's equity, and ours over eval7 (median of each round's
ratio). eval7 is a test extra (``pip install -e '.[test]'``); without it its column is empty.

OMPEval and PokerStove, which no package registry publishes, are never built from here; the
README quotes them as measured by hand outside the repository.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path[0] = str(Path(__file__).resolve().parent.parent)

import evaluator.fast  # noqa: E402, F401 - numba loaded first: in-process answers take the kernels, as after any first call
from evaluator.equity import equity  # noqa: E402 - after the path fix above

# (name, game, hands, board, dead); the hold'em ones are the matchups OMPEval was measured on.
MATCHUPS = [
    ("AsAh v KdKc", "holdem", ["As Ah", "Kd Kc"], "", ""),
    ("AA v KK", "holdem", ["AA", "KK"], "", ""),
    ("QQ+,AKs v 22+,A2s+,KTs+,QJs,AJo+", "holdem", ["QQ+,AKs", "22+,A2s+,KTs+,QJs,AJo+"], "", ""),
    ("the same on Ks7d2c", "holdem", ["QQ+,AKs", "22+,A2s+,KTs+,QJs,AJo+"], "Ks 7d 2c", ""),
    ("AK v QQ v JTs", "holdem", ["AK", "QQ", "JTs"], "", ""),
    ("AsKs v QdQc on Qh7s2d9c", "holdem", ["As Ks", "Qd Qc"], "Qh 7s 2d 9c", ""),
    ("AhKh v 7c7d, dead 2s3s", "holdem", ["Ah Kh", "7c 7d"], "", "2s 3s"),
    ("AsAh v QQ+,AKs,JTs on a river", "holdem", ["As Ah", "QQ+,AKs,JTs"], "Ks 7d 2c 3h 9s", ""),
    ("AdKd v 22+,AT+,KQ on a river", "holdem", ["Ad Kd", "22+,AT+,KQ"], "Qd 7d 2c 3h 9s", ""),
    ("PLS7 AsAhKc v QdQc2h", "pls7", ["As Ah Kc", "Qd Qc 2h"], "", ""),
    ("PLS7 1,976 v 2,088 hands on a flop", "pls7", ["AA*, KK*, A2*, A3*", "QQ*, JJ*, 23*, 45*"], "Ks 7d 2c", ""),
    ("PLS7 every hand v every hand, river", "pls7", ["*", "*"], "Ks 7d 2c 9h 4s", ""),
    ("PLO8 2,120 v 2,120 hands on a flop", "plo8", ["AA2*, AA3*", "KKQ*, KKJ*"], "Ks 7d 2c", ""),
    ("PLO8 AsAd2c3h v KK** on a turn", "plo8", ["As Ad 2c 3h", "KK**"], "Ks 7d 2d 9h", ""),
]


def eval7_equity(game, hands, board, dead):
    """eval7's exact equity of the first hand, or None where it has no exact answer."""
    try:
        import eval7
    except ImportError:
        return None
    if game != "holdem" or len(hands) != 2 or len(board.split()) != 5 or dead or " " not in hands[0]:
        return None
    hero = [eval7.Card(c) for c in hands[0].split()]
    villain = eval7.HandRange(hands[1])
    cards = [eval7.Card(c) for c in board.split()]
    return lambda: eval7.py_hand_vs_range_exact(hero, villain, cards)


def timed(fn) -> tuple[float, object]:
    start = time.perf_counter()
    out = fn()
    return time.perf_counter() - start, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--only", help="run the matchups whose name contains this")
    args = parser.parse_args()
    print(
        f"{'matchup':38} {'ours, 1 thread (ms)':>24} {'ours, 2 threads':>20} {'eval7':>18} {'ours/eval7':>10}  equity"
    )
    for name, game, hands, board, dead in MATCHUPS:
        if args.only and args.only not in name:
            continue

        def ours(threads, game=game, hands=hands, board=board, dead=dead):
            return lambda: equity(game, hands, board=board, dead=dead, exact=True, threads=threads)

        theirs = eval7_equity(game, hands, board, dead)
        runs = {"one": ours(1), "two": ours(2)} | ({"eval7": theirs} if theirs else {})
        for run in runs.values():
            run()  # compile or load the kernels, read the tables
        times: dict[str, list[float]] = {key: [] for key in runs}
        ratios = []
        for _ in range(args.rounds):
            for key, run in runs.items():
                seconds, out = timed(run)
                times[key].append(seconds)
                if key == "one":
                    answer = out["hands"][0]["equity"]
                elif key == "eval7":
                    their_answer = out
            if theirs:
                ratios.append(times["eval7"][-1] / times["one"][-1])

        def cell(key, times=times):
            if key not in times:
                return ""
            ms = [1e3 * t for t in times[key]]
            return f"{statistics.median(ms):8.2f} ({min(ms):.2f}-{max(ms):.2f})"

        ratio = f"{statistics.median(ratios):9.2f}x" if ratios else ""
        check = ""
        if theirs:
            check = " (eval7 {:.6f}{})".format(their_answer, "" if abs(their_answer - answer) < 1e-6 else ": DIFFERS")
        print(f"{name:38} {cell('one'):>24} {cell('two'):>20} {cell('eval7'):>18} {ratio:>10}  {answer:.9f}{check}")


if __name__ == "__main__":
    main()
