"""The solver on a fixed list of spots: time to a target exploitability on 1 and 2 threads.

    python bench/solve.py [--rounds 3] [--only NAME]

Each spot is prepared once (ranges parsed, tree built, every river's strengths evaluated: the
"build" column) and solved in alternating rounds, one thread then two, from scratch each time,
with the kernels warm (a first solve in a fresh process compiles or loads them). "solve" is the
DCFR iterations and the exploitability checks (exact best responses every ten iterations) until
the target is reached; printed per spot: the median and spread (min-max) of the rounds, the
iterations and the exploitability reached (the same on any thread count), and the solver's arrays.

The hold'em spots are the ones TexasSolver (C++, OpenMP; not in any package registry, so never
built from here) was measured on, by hand outside the repository, on this machine class: river
0.23 % of the pot in 0.03 s on one thread; turn 0.43 % in 2.6 s on two threads (5.1 s on one).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path[0] = str(Path(__file__).resolve().parent.parent)

FULL_HOLDEM = "22+,A2+,K2+,Q2+,J2+,T2+,92+,82+,72+,62+,52+,42+,32"
# (name, settings, target % of the pot)
SPOTS = [
    (
        "hold'em river, full ranges",
        dict(
            game="holdem",
            board="Qs Jh 2h 8d 3c",
            oop=FULL_HOLDEM,
            ip=FULL_HOLDEM,
            pot=100,
            stack=100,
            bets="75%, allin",
            raises="",
            max_raises=0,
        ),
        0.23,
    ),
    (
        "hold'em turn, full ranges",
        dict(
            game="holdem",
            board="Qs Jh 2h 8d",
            oop=FULL_HOLDEM,
            ip=FULL_HOLDEM,
            pot=100,
            stack=200,
            bets="50%, 100%",
            raises="pot",
            max_raises=3,
        ),
        0.43,
    ),
    (
        "PLS7 river, every combo",
        dict(
            game="pls7",
            board="Ks 7d 2c 9h 4s",
            oop="*",
            ip="*",
            pot=100,
            stack=400,
            bets="75%, pot",
            raises="pot",
            max_raises=1,
        ),
        0.3,
    ),
    (
        "PLS7 turn, top 30 %",
        dict(
            game="pls7",
            board="Ks 7d 2c 9h",
            oop="30%",
            ip="30%",
            pot=100,
            stack=400,
            bets="33%, 75%",
            raises="pot",
            max_raises=1,
        ),
        0.5,
    ),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", help="run the spots whose name contains this")
    args = parser.parse_args()
    from engine.betting import default_betting
    from evaluator.games import game
    from sampyong.solutions import prepare
    from solver.dcfr import solve
    from solver.solution import Settings

    for name, spot, target in SPOTS:
        if args.only and args.only.lower() not in name.lower():
            continue
        settings = Settings(**spot, betting=default_betting(game(spot["game"])).kind, target=target, iterations=2000)
        start = time.perf_counter()
        _, problem = prepare(settings)
        build = time.perf_counter() - start
        solve(problem, iterations=1)  # kernels compiled or loaded
        times: dict[int, list[float]] = {1: [], 2: []}
        reached = {}
        for _ in range(args.rounds):
            for threads in (1, 2):
                start = time.perf_counter()
                state, history = solve(problem, iterations=2000, target=target, threads=threads)
                times[threads].append(time.perf_counter() - start)
                reached[threads] = (state.iterations, history[-1].exploitability)
        assert reached[1] == reached[2], "the solve depends on the thread count"
        iterations, exploitability = reached[1]
        cells = [f"{statistics.median(t):.3f} s ({min(t):.3f}-{max(t):.3f})" for t in (times[1], times[2])]
        print(
            f"{name}: {problem.n_hands[0]:,} v {problem.n_hands[1]:,} combos, {problem.tree.nodes:,} nodes, "
            f"{problem.memory() / 2**20:,.0f} MB; build {build:.2f} s; {exploitability:.3f} % after {iterations} "
            f"iterations; 1 thread {cells[0]}, 2 threads {cells[1]}",
            flush=True,
        )


if __name__ == "__main__":
    main()
