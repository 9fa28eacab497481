"""Pipeline throughput: the showdown shard kernel alone, then `sampyong run showdown` end to end.

    python bench/pipeline.py [--deals 100M] [--kernel-deals 4M]

Prints deals/s for the in-process kernel (one core, best of 3 shards) and for the whole CLI on
embedded Ray (all cores, Ray start-up and aggregation included), their ratio, and the peak
memory of the driver and of the largest worker for two run sizes, to show memory stays flat as
deals grow.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil

sys.path[0] = str(Path(__file__).resolve().parent.parent)

from jobs import showdown  # noqa: E402 - after the path fix above
from pipeline.counts import parse_count  # noqa: E402
from pipeline.plan import RunConfig, ShardSpec  # noqa: E402


def kernel_rate(deals: int, players: int, repeats: int = 3) -> float:
    """Deals/s of one shard in this process, best of ``repeats`` (the machine is shared)."""
    config = RunConfig(job="showdown", game="pls7", deals=deals, shard_deals=deals, players=players, seed=1)
    showdown.STUDY.warm(config)
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        showdown.run_shard(config, ShardSpec(index=0, deals=deals, root_seed=1))
        best = min(best, time.perf_counter() - start)
    return deals / best


def end_to_end(deals: int, out: Path) -> tuple[float, float, float]:
    """(deals/s, peak driver RSS MiB, peak single-worker RSS MiB) of one CLI run."""
    command = [
        "sampyong",
        "run",
        "showdown",
        "--deals",
        str(deals),
        "--shard-deals",
        "5M",
        "--out",
        str(out),
        "--quiet",
        "--no-resume",
    ]
    start = time.perf_counter()
    process = psutil.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    driver_peak = worker_peak = 0
    while process.poll() is None:
        try:
            driver_peak = max(driver_peak, process.memory_info().rss)
            for child in process.children(recursive=True):
                if "ray::" in " ".join(child.cmdline()) or "default_worker" in " ".join(child.cmdline()):
                    worker_peak = max(worker_peak, child.memory_info().rss)
        except psutil.Error:
            pass
        time.sleep(0.2)
    if process.returncode != 0:
        raise SystemExit(f"sampyong run failed with exit code {process.returncode}")
    elapsed = time.perf_counter() - start
    return deals / elapsed, driver_peak / 2**20, worker_peak / 2**20


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", default="100M")
    parser.add_argument("--kernel-deals", default="4M")
    args = parser.parse_args()
    deals = parse_count(args.deals)
    kernel = kernel_rate(parse_count(args.kernel_deals), players=8)
    print(f"shard kernel, 8 hands, every k, one core, best of 3: {kernel / 1e6:6.2f} M deals/s")
    with tempfile.TemporaryDirectory() as tmp:
        rows = [(n, *end_to_end(n, Path(tmp))) for n in (deals // 4, deals)]
    for n, rate, driver, worker in rows:
        print(
            f"sampyong run showdown --deals {n:>13,}: {rate / 1e6:6.2f} M deals/s "
            f"({rate / kernel:4.2f}x the one-core kernel); peak RSS driver {driver:5.0f} MiB, worker {worker:5.0f} MiB"
        )
    (_, _, d1, w1), (_, _, d2, w2) = rows
    print(f"memory ratio for 4x the deals: driver {d2 / d1:4.2f}x, worker {w2 / max(w1, 1):4.2f}x")
    print(f"projected time for 1e9 deals at the larger run's rate: {1e9 / rows[1][1] / 60:4.1f} min")


if __name__ == "__main__":
    main()
