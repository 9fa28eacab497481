"""What a variant sweep costs: 16 variants on the same deals against one, side by side.

    python bench/variants.py [--deals 200000]

One shard of the variants job, in this process, on the same seed and deals, for: the base game
alone; 16 free-use variants (4 rankings x 4 low rules); the job's default sweep (the rule
book's one-knob-at-a-time comparisons); and the 16 variants of 4 hole-card rules x 4 rankings
(12 of them restricted, served by the slower split kernels). Dealing is shared, the categories
that can be made are computed once per hole rule, and another ranking mostly relabels the
base's highs (``FastEvaluator.rerank``), so the sweep should cost well under 16x one variant.

Columns: ``x base`` is the sweep's time over the base game's alone (the cheapest variant);
``x alone`` is the sweep's time over the sum of each of its variants run alone (a variant of
restricted hole use costs more than the base on its own). Every time is the best of
``--repeats`` rounds in which all the runs take turns.
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


def _config(deals: int, spec: str, game: str = "pls7", **knobs) -> RunConfig:
    options = (("variants", spec),) if spec else ()
    return RunConfig(
        job="variants", game=game, deals=deals, shard_deals=deals, players=8, seed=1, options=options, **knobs
    )


def _once(config: RunConfig) -> float:
    start = time.perf_counter()
    variants.run_shard(config, ShardSpec(index=0, deals=config.deals, root_seed=1))
    return time.perf_counter() - start


def side_by_side(configs: list[RunConfig], repeats: int) -> list[float]:
    """Best time of each config's shard, the configs run in turn ``repeats`` times (so a slow
    spell of this shared machine hits them all alike)."""
    for config in configs:
        variants.STUDY.warm(config)  # compile and load tables outside the timing
    best = [float("inf")] * len(configs)
    for _ in range(repeats):
        for i, config in enumerate(configs):
            best[i] = min(best[i], _once(config))
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200_000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    base = _config(args.deals, SWEEPS["base only"])
    print(f"{'sweep':40} {'variants':>8} {'seconds':>8} {'x base':>7} {'x alone':>8}")
    for label, spec in list(SWEEPS.items())[1:]:
        sweep = _config(args.deals, spec)
        games = variants.variant_games(sweep)
        # Each variant alone: its own one-variant run (its rules as the base), on the same deals.
        alone = [
            _config(
                args.deals,
                "base",
                hole_use=f"{g.hole_use[0]}-{g.hole_use[1]}",
                ranking=g.ranking.name,
                low="none" if g.low is None else str(g.low),
            )
            for g in games
        ]
        t_base, t_sweep, *t_alone = side_by_side([base, sweep, *alone], args.repeats)
        print(
            f"{label:40} {len(games):8} {t_sweep:8.2f} {t_sweep / t_base:6.1f}x {t_sweep / sum(t_alone):7.2f}x"
            f"   (base alone {t_base:.2f} s, {args.deals / t_base / 1e6:.2f} M deals/s; the {len(games)} alone {sum(t_alone):.2f} s)"
        )


if __name__ == "__main__":
    main()
