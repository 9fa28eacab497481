"""How fast the calculator answers: wall time of whole ``sampyong`` commands, each in a fresh Python.

    python bench/calculator.py [--rounds 10]

Rows, run in alternating rounds (this machine is shared and noisy), median and best of each:

* ``floor``: a Python that imports the CLI (typer, rich) and numpy and does nothing: what every
  command pays before its own work.
* ``eval``: ``sampyong eval`` refereeing a PLO8 showdown (the reference rule book, no numba).
* ``equity holdem``: ``sampyong equity "As Ah" "Kd Kc" --game holdem``, exact over 1,712,304 boards.
* ``equity pls7``: ``sampyong equity "As Ah Kc" "Qd Qc 2h"``, exact over 1,370,754 boards, high and low.
* ``... on numba``: the same equities forced onto the numba kernels (``LIGHT_EVALUATIONS = 0``),
  the baseline: the ratio is the numpy path's median over it.

Each command runs through ``sampyong.cli.main`` in ``sys.executable``, not through a console
script, so that a launcher's own start-up (pyenv's shims take about 0.1 s) is not counted.
Warm: the first round is not counted (numba's cache and the tables are on disk by then).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

RUN = "import sys; from sampyong.cli import main; sys.argv = ['sampyong', *sys.argv[1:]]; main()"
ON_NUMBA = "import evaluator.equity as e; e.LIGHT_EVALUATIONS = 0; " + RUN
HOLDEM = ["equity", "As Ah", "Kd Kc", "--game", "holdem"]
PLS7 = ["equity", "As Ah Kc", "Qd Qc 2h"]
ROWS = {
    "floor": ("import sampyong.cli, numpy", []),
    "eval": (RUN, ["eval", "--board", "Ad 8c 5h Ks 2c", "As Ah 3s 6d", "Kh Qc Jh Td", "--game", "plo8"]),
    "equity holdem": (RUN, HOLDEM),
    "equity holdem on numba": (ON_NUMBA, HOLDEM),
    "equity pls7": (RUN, PLS7),
    "equity pls7 on numba": (ON_NUMBA, PLS7),
}


def wall(code: str, args: list[str]) -> float:
    """Seconds of one fresh Python running ``code`` with ``args``."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code, *args], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10, help="alternating rounds counted (one more warms up)")
    args = parser.parse_args()
    times: dict[str, list[float]] = {name: [] for name in ROWS}
    for round_ in range(args.rounds + 1):
        for name, (code, argv) in ROWS.items():
            seconds = wall(code, argv)
            if round_:
                times[name].append(seconds)
    print(f"wall seconds of whole commands, {args.rounds} alternating rounds, each in a fresh Python")
    for name, seconds in times.items():
        median = statistics.median(seconds)
        line = f"  {name:24} median {median:5.3f}  best {min(seconds):5.3f}"
        if f"{name} on numba" in times:
            line += f"   {statistics.median(times[f'{name} on numba']) / median:4.2f}x faster than on numba"
        print(line)


if __name__ == "__main__":
    main()
