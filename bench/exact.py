"""Exact-answer compute times and the equity calculator's rate, side by side with eval7.

    python bench/exact.py [--grid-shards 8] [--samples 2000000]
    pip install eval7   # optional, only in the benchmark's environment: the comparison row

* distribution: every shard of the job run in this process (one core), so the printed time is
  compute only; the 2-core figure is half of it (the shards are independent and even enough).
* grid: ``--grid-shards`` of the 64 board shards, spread over the board classes, timed in this
  process and projected to all 134,459 classes (``--grid-shards 64`` runs them all).
* equity: As Ah vs Kd Kc preflop, Monte Carlo with our calculator and with eval7's
  ``py_hand_vs_range_monte_carlo`` on the same number of samples, one after the other in this
  process, best of 3 each; the ratio is ours / eval7 in samples per second. Our exact
  enumeration of all 1,712,304 boards is timed too.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path[0] = str(Path(__file__).resolve().parent.parent)

import numpy as np  # noqa: E402 - after the path fix above

from evaluator.equity import equity  # noqa: E402
from jobs import distribution, grid  # noqa: E402
from pipeline.plan import RunConfig  # noqa: E402


def timed(fn, repeats: int = 1) -> float:
    """Best wall time of ``repeats`` calls."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def bench_distribution(name: str) -> None:
    config = distribution.configure(RunConfig(job="distribution", game=name, deals=1, shard_deals=1, players=1, seed=0))
    distribution.prepare(config)
    shards = distribution.plan(config)
    seconds = timed(lambda: [distribution.run_shard(config, s) for s in shards])
    pools = sum(s.deals for s in shards)
    print(
        f"distribution {name:7} {pools:>13,} pools  {seconds:7.1f} s on one core  "
        f"~{seconds / 2:5.1f} s on 2 cores  {pools / seconds / 1e6:6.1f} M pools/s/core"
    )


def bench_grid(name: str, shards: int) -> None:
    config = grid.configure(RunConfig(job="grid", game=name, deals=1, shard_deals=1, players=2, seed=0))
    grid.prepare(config)
    plan = grid.plan(config)
    picked = np.unique(np.linspace(0, len(plan) - 1, shards).astype(int))
    grid.run_shard(config, plan[-1])  # load the numba cache outside the timing
    seconds = timed(lambda: [grid.run_shard(config, plan[i]) for i in picked])
    boards, _ = grid.board_classes()
    edges = np.linspace(0, len(boards), grid.BOARD_SHARDS + 1).astype(int)
    timed_boards = sum(edges[i + 1] - edges[i] for i in picked)
    total = seconds / timed_boards * len(boards)
    print(
        f"grid {name:7} {timed_boards:>7,} of {len(boards):,} board classes in {seconds:6.1f} s: "
        f"{seconds / timed_boards * 1e3:5.2f} ms/board, all boards ~{total:6.1f} s on one core, ~{total / 2:6.1f} s on 2 cores"
    )


def bench_equity(samples: int) -> None:
    hands = ["As Ah", "Kd Kc"]
    equity("holdem", hands, samples=10_000, exact=False)  # compile outside the timing
    equity("holdem", hands, board="2c 3d 4h")
    ours = timed(lambda: equity("holdem", hands, samples=samples, exact=False), repeats=3)
    exact_seconds = timed(lambda: equity("holdem", hands), repeats=3)
    print(
        f"equity As Ah vs Kd Kc: exact enumeration (1,712,304 boards) {exact_seconds:5.2f} s; "
        f"Monte Carlo {samples / ours / 1e6:5.2f} M samples/s"
    )
    try:
        import eval7
    except ImportError:
        print("eval7 not installed (pip install eval7 in this environment): no side-by-side row")
        return
    hero = [eval7.Card("As"), eval7.Card("Ah")]
    villain = eval7.HandRange("KdKc")
    theirs = timed(lambda: eval7.py_hand_vs_range_monte_carlo(hero, villain, [], samples), repeats=3)
    print(f"eval7 Monte Carlo {samples / theirs / 1e6:5.2f} M samples/s; ours / eval7 = {theirs / ours:4.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--grid-shards", type=int, default=8)
    parser.add_argument("--samples", type=int, default=2_000_000)
    args = parser.parse_args()
    for name in ("holdem", "pls7"):
        bench_distribution(name)
    for name in ("holdem", "pls7"):
        bench_grid(name, args.grid_shards)
    bench_equity(args.samples)


if __name__ == "__main__":
    main()
