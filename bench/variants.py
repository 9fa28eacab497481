"""What a variant sweep costs: 16 variants on the same deals against one, side by side.

    python bench/variants.py [--deals 200000]

One shard of the variants job, in this process, on the same seed and deals, for: the base game
alone; 16 free-use variants (4 rankings x 4 low rules); the job's default sweep (the rule
book's one-knob-at-a-time comparisons); and the 16 variants of 4 hole-card rules x 4 rankings
(12 of them restricted, served by the slower split kernels). Dealing is shared, the categories
that can be made are computed once per hole rule, and another ranking mostly relabels the
base's highs (``FastEvaluator.rerank``), so the sweep should cost well under 16x one variant.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path[0] = str(Path(__file__).resolve().parent.parent)

from jobs import variants  # noqa: E402 - after the path fix above
from pipeline.plan import RunConfig, ShardSpec  # noqa: E402

RANKINGS = ("base", "trips_over_straight", "skip_over_flush", "both")
SWEEPS = {
    "base only": "base",
    "16 free-use (4 rankings x 4 lows)": ";".join(
        f"ranking={r},low={q}" for r in RANKINGS for q in ("6", "7", "8", "none")
    ),
    "rule book defaults (one knob at a time)": "",
    "16 (4 hole rules x 4 rankings)": ";".join(
        f"hole_use={h},ranking={r}" for h in ("0-3", "1-3", "2-3", "2-2") for r in RANKINGS
    ),
}


def seconds(deals: int, spec: str) -> tuple[float, int]:
    options = (("variants", spec),) if spec else ()
    config = RunConfig(job="variants", game="pls7", deals=deals, shard_deals=deals, players=8, seed=1, options=options)
    variants.prepare(config)  # compile and load tables outside the timing
    shard = ShardSpec(index=0, deals=deals, root_seed=1)
    best = float("inf")
    for _ in range(2):
        start = time.perf_counter()
        variants.run_shard(config, shard)
        best = min(best, time.perf_counter() - start)
    return best, len(variants.variant_games(config))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200_000)
    args = parser.parse_args()
    base, _ = seconds(args.deals, SWEEPS["base only"])
    print(f"{'base only':36} 1 variant   {base:6.2f} s  ({args.deals / base / 1e6:.2f} M deals/s, 8 hands, every k)")
    for label, spec in list(SWEEPS.items())[1:]:
        t, n = seconds(args.deals, spec)
        print(f"{label:36} {n} variants {t:6.2f} s  {t / base:5.1f}x one variant ({t / base / n:.2f}x per variant)")


if __name__ == "__main__":
    main()
