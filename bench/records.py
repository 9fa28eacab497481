"""Issue #25, hand records: records per second read, replayed and counted, beside pokerkit.

    python bench/records.py [PATHS...] [--rounds 3]
    python bench/records.py --cli FILE.phhs [--rounds 3]   # issue #45: the CLI end to end, each backend

Default files: the Pluribus sessions of ``../shared/data/hands/pluribus`` (1,726 six-handed
no-limit hold'em hands in as many ``.phh`` files). Workloads, each over every hand of the
files, one process, one core:

* ``read``: ``engine.record_files.load_file`` on every file (TOML parsing into records).
* ``replay``: read, then ``engine.phh.replay`` of every record (every action checked by the
  engine, the pot settled, the finishing stacks compared).
* ``records study``: read, replay and count, as a shard of ``sampyong run records`` does
  (``jobs.records.run_shard`` over every shard, in this process: no pipeline, no Ray): the
  records replayed in bulk by ``engine.fast_replay``, the others by the reference.
* ``pokerkit read``: pokerkit's loader (``HandHistory.load``) on the same files.
* ``pokerkit replay``: pokerkit's loader, then every state of the hand (``iter(history)``),
  pokerkit's own replay of the actions.

The machine is shared and its speed varies up to 2x from minute to minute, so each workload
runs in each of ``--rounds`` rounds (the order reversed every other round) and the best round
is kept; ``x pokerkit`` compares a workload with pokerkit's of the same kind (read with read,
the others with replay). The target of the issue is 10,000 records per second per core end to
end (the ``records study`` line).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path[0] = str(Path(__file__).resolve().parent.parent)

from engine.phh import replay  # noqa: E402 - after the path fix above
from engine.record_files import load_file, record_files  # noqa: E402

PLURIBUS = Path(__file__).resolve().parents[2] / "shared" / "data" / "hands" / "pluribus"
TARGET = 10_000


def read(files) -> int:
    return sum(len(load_file(f)) for f in files)


def replayed(files) -> int:
    return sum(1 for f in files for record in load_file(f) if replay(record) is not None)


def study(files) -> int:
    import json

    from jobs.records import configure, run_shard
    from pipeline.plan import RunConfig, ShardSpec

    config = configure(
        RunConfig(
            job="records",
            game="any",
            deals=1,
            shard_deals=1,
            players=2,
            seed=0,
            options=(("paths", json.dumps([str(f) for f in files])),),
        )
    )
    hands = 0
    for index in range(config.deals):
        tables = run_shard(config, ShardSpec(index=index, deals=1, root_seed=0))
        hands += sum(tables["records"].column("hands").to_pylist())
    return hands


def pokerkit_read(files) -> int:
    from pokerkit import HandHistory

    hands = 0
    for f in files:
        with open(f, "rb") as stream:
            hands += 1 if f.suffix == ".phh" else 0
            if f.suffix == ".phh":
                HandHistory.load(stream)
            else:
                hands += sum(1 for _ in HandHistory.load_all(stream))
    return hands


def pokerkit_replay(files) -> int:
    from pokerkit import HandHistory

    hands = 0
    for f in files:
        with open(f, "rb") as stream:
            histories = [HandHistory.load(stream)] if f.suffix == ".phh" else list(HandHistory.load_all(stream))
        for history in histories:
            for _ in history:
                pass
            hands += 1
    return hands


WORKLOADS = {
    "read": read,
    "replay": replayed,
    "records study": study,
    "pokerkit read": pokerkit_read,
    "pokerkit replay": pokerkit_replay,
}


def phases(paths: list[Path]) -> None:
    """Where the time of one run goes, each part alone in this process: planning (``configure``:
    a big file's section headers only), an embedded Ray's start and stop with two workers ready
    (a task that imports the study), and the shards one after another (core-seconds)."""
    import json

    from jobs.records import configure, run_shard
    from pipeline.plan import RunConfig, ShardSpec

    start = time.perf_counter()
    config = configure(
        RunConfig(
            job="records",
            game="any",
            deals=1,
            shard_deals=1,
            players=2,
            seed=0,
            options=(("paths", json.dumps([str(p) for p in paths])),),
        )
    )
    planning = time.perf_counter() - start
    run_shard(config, ShardSpec(index=0, deals=1, root_seed=0))  # compiled kernels, outside the timing
    start = time.perf_counter()
    for index in range(config.deals):
        run_shard(config, ShardSpec(index=index, deals=1, root_seed=0))
    shards = time.perf_counter() - start
    import ray

    start = time.perf_counter()
    ray.init(
        address="local",
        num_cpus=2,
        include_dashboard=False,
        object_store_memory=200 * 1024 * 1024,
        log_to_driver=False,
        configure_logging=False,
    )
    ready = time.perf_counter()
    ray.get([ray.remote(_import_study).remote() for _ in range(2)])
    warm = time.perf_counter()
    ray.shutdown()
    stop = time.perf_counter()
    print(
        f"phases: planning {planning:.2f} s ({config.deals} shards); shards {shards:.2f} core-s "
        f"({shards / config.deals:.3f} s each); Ray start {ready - start:.2f} s, two workers importing the study "
        f"{warm - ready:.2f} s, stop {stop - warm:.2f} s"
    )


def _import_study() -> None:
    import jobs.records  # noqa: F401  what a worker imports before its first shard


def end_to_end(paths: list[Path], rounds: int) -> int:
    """``sampyong run records PATHS`` from the shell, each round on the default backend (auto),
    on Ray and serially, the order turned each round, a fresh output folder each time (no
    resume): wall time and records a second, the median and spread of the rounds; the tables of
    the three must be the same bytes. Then where the time goes (``phases``), and the machine's
    load averages before and after (the figures are only as quiet as the machine)."""
    import os
    import statistics
    import subprocess
    import tempfile

    before = os.getloadavg()
    hands = sum(len(load_file(f)) for f in record_files(paths))
    backends = ["default", "ray", "serial"]
    walls: dict[str, list[float]] = {backend: [] for backend in backends}
    tables = {}
    for round_ in range(rounds):
        for backend in backends[round_ % 3 :] + backends[: round_ % 3]:
            with tempfile.TemporaryDirectory() as out:
                start = time.perf_counter()
                subprocess.run(
                    [
                        sys.executable,
                        "-m",
                        "sampyong",
                        "run",
                        "records",
                        *map(str, paths),
                        *(["--backend", backend] if backend != "default" else []),
                        "--out",
                        out,
                    ],
                    check=True,
                    capture_output=True,
                )
                walls[backend].append(time.perf_counter() - start)
                (run,) = Path(out, "records").iterdir()
                tables[backend] = {t.name: t.read_bytes() for t in sorted((run / "tables").glob("*.csv"))}
    same = tables["default"] == tables["ray"] == tables["serial"]
    print(
        f"{hands:,} records; sampyong run records end to end, {rounds} rounds; tables the same on every backend: {same}"
    )
    for backend, times in walls.items():
        rates = [hands / t for t in times]
        print(
            f"{backend:7} wall {statistics.median(times):6.1f} s  records/s median {statistics.median(rates):8,.0f}  "
            f"spread {min(rates):,.0f}-{max(rates):,.0f}  ({statistics.median(rates) / TARGET:.2f} of the {TARGET:,} target)"
        )
    phases(paths)
    print(
        f"load averages (1, 5, 15 min) before {', '.join(f'{x:.1f}' for x in before)}, after "
        f"{', '.join(f'{x:.1f}' for x in os.getloadavg())}, on {os.cpu_count()} cores"
    )
    return 0 if same else 1


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="*", type=Path, default=[PLURIBUS])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--cli", action="store_true", help="time sampyong run records end to end instead (each backend)"
    )
    args = parser.parse_args(argv)
    if args.cli:
        return end_to_end(args.paths, args.rounds)
    files = record_files(args.paths)
    study(files[:5])  # imports and compiled kernels, outside the timing
    best: dict[str, tuple[float, int, float]] = {}
    for round_ in range(args.rounds):
        order = list(WORKLOADS) if round_ % 2 == 0 else list(reversed(WORKLOADS))
        for name in order:
            wall, cpu = time.perf_counter(), time.process_time()
            hands = WORKLOADS[name](files)
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            if name not in best or hands / wall > best[name][1] / best[name][0]:
                best[name] = (wall, hands, cpu / wall)
    print(f"{len(files):,} files; best of {args.rounds} rounds, one process")
    print(f"{'workload':16} {'hands':>8} {'hands/s':>10} {'cpu/wall':>9} {'x pokerkit':>11}")
    for name, (wall, hands, load) in best.items():
        peer = best["pokerkit read" if name == "read" else "pokerkit replay"]
        ratio = "-" if name.startswith("pokerkit") else f"{(hands / wall) / (peer[1] / peer[0]):.2f}"
        print(f"{name:16} {hands:8,} {hands / wall:10,.0f} {load:9.2f} {ratio:>11}")
    rate = best["records study"][1] / best["records study"][0]
    print(
        f"target: {TARGET:,} records/s per core end to end; records study gives {rate:,.0f} ({rate / TARGET:.2f} of it)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
