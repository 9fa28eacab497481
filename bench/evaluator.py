"""Evaluator throughput: hands/s per preset, side by side with the reference evaluator.

    python bench/evaluator.py [--hands 2000000]

Each preset's fast kernel runs on the same random batch as a slice evaluated by the reference
(the plain-Python rule book), in the same process, so the printed ratio is robust to a busy
machine. ``M hands/s`` deals every hand its own board, hole and board as views of one deal
array (``split_deal``, as the jobs do; a free-use game then reads the deal's rows themselves);
``contiguous`` is the same hands as two contiguous arrays, which numba reads with strides known
at compile time (a free-use game: the shared-board kernel); ``8/board`` deals 8 hands per board,
as the showdown job does, so the board's part is summed once for 8 hands. All kernels of all
presets take turns, best of ``--repeats`` rounds. Restricted games whose ``hi+lo`` reads the
hole table (with 8 per board only when three hole cards may play) also print the split
tables' rates beside it. Also: how long importing the evaluator takes once tables and the
numba cache are warm.

    python bench/evaluator.py --small

``--small`` measures what one call costs beside its hands (#28: callers that evaluate a few
hundred hands at a time, as the play engine and small ranges do): per preset, the time of a
call on 1 hand, the time per hand on 100,000, and the **break-even** batch, the hands whose
evaluation costs as much as the call itself (overhead / time per hand); also per hand at 10,
100, 1,000 and 10,000 hands a call. Best of 5 repetitions each.

    python bench/evaluator.py --peers [--peer-hands 20000000] [--rounds 7]

``--peers`` instead measures the project against PokerHandEvaluator (hold'em ``evaluate_7cards``
and Omaha ``evaluate_plo4_cards``), built here from the C sources of its PyPI source
distribution (``phevaluator==0.6.0``, downloaded with pip) with the system compiler (``-O3
-march=native``), through the small batch entry points of ``bench/peers`` (ctypes, one call per
array). The build is cached under the project's cache folder. Every evaluator reads the same
array of random hands (hold'em: 7 cards a row, which ours reads through ``FastEvaluator.high``
on ``split_deal``'s views of it, strengths only as the peer gives, and through
``high_ordinals``; Omaha: 5 board then 4 hole cards), in alternating rounds, best round kept,
wall and CPU time. Each call writes a fresh array of its results (our strengths 4 bytes a hand;
our ordinals and PokerHandEvaluator's ranks 2), whose pages the system zeroes as they are first
written; our hold'em is also timed writing into an array of its own made once (``, buffer``),
which measures the evaluations alone. Each peer's run is timed next to ours it is compared with.
The ratios are ours over the peer's hands per second, of the best rounds and the median of each
round's own ratio (the two ran a moment apart). Before timing, the peer's order of the first
``--check-hands`` hands is checked against ours (every pair of hands ordered alike: a strictly
monotone map between the two strength scales).
"""

from __future__ import annotations

import argparse
import ctypes
import hashlib
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

# This file is named like the package it measures: put the project root first on the path.
sys.path[0] = str(Path(__file__).resolve().parent.parent)

import numpy as np  # noqa: E402 - after the path fix above

from evaluator import reference  # noqa: E402
from evaluator.deal import deal_cards, split_deal  # noqa: E402
from evaluator.fast import FastEvaluator  # noqa: E402
from evaluator.games import PRESETS  # noqa: E402
from evaluator.games import game as preset
from evaluator.tables import cache_dir  # noqa: E402

PEERS = Path(__file__).resolve().parent / "peers"  # our batch entry points over each peer
PHE_SDIST = "phevaluator==0.6.0"
PHE_SOURCES = [
    "evaluator5.c",
    "evaluator6.c",
    "evaluator7.c",
    "evaluator_plo4.c",
    "hash.c",
    "hashtable.c",
    "hashtable5.c",
    "hashtable6.c",
    "hashtable7.c",
    "dptables.c",
    "tables_bitwise.c",
    "tables_plo4.c",
]


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
    parser.add_argument("--peers", action="store_true", help="compare with PokerHandEvaluator instead")
    parser.add_argument("--small", action="store_true", help="measure the cost of a call on small batches instead")
    parser.add_argument(
        "--peer-hands", type=int, default=20_000_000, help="hands per evaluator in --peers (default 20M)"
    )
    parser.add_argument(
        "--check-hands", type=int, default=1_000_000, help="hands whose order is checked against the peer"
    )
    parser.add_argument("--rounds", type=int, default=7, help="--peers: alternating rounds (default 7), best kept")
    args = parser.parse_args()
    keep_freed_memory()
    if args.peers:
        peers_main(args)
        return
    if args.small:
        small_batches()
        return
    prepared = {name: preset_runs(game, args.hands) for name, game in PRESETS.items()}
    # Every round times every preset's kernels in turn, so each preset's best comes from the
    # same minutes of this shared machine, whose speed drifts from one minute to the next.
    every_run = {(name, kind): run for name, (_, runs, *_) in prepared.items() for kind, run in runs.items()}
    best = best_of(every_run, args.repeats)
    print(
        f"{'game':8} {'kernel':>16} {'M hands/s':>10} {'contiguous':>10} {'8/board':>8} {'reference/s':>12} {'ratio':>9}"
    )
    for name, (fast, runs, hole, board, shared8) in prepared.items():
        t = {kind: best[name, kind] for kind in runs}
        game = fast.game
        n_ref = args.reference_hands
        ref_hole, ref_board = hole[:n_ref, 0].tolist(), board[:n_ref].tolist()
        t_ref = best_of(
            {
                "ref": lambda g=game, holes=ref_hole, boards=ref_board: [
                    reference.showdown(g, h, b) for h, b in zip(holes, boards)
                ]
            },
            1,
        )["ref"]
        own = args.hands
        ref_rate = n_ref / t_ref
        kernel = "hole table" if fast.uses_hole_table(1) else fast.path
        print(
            f"{name:8} {kernel + ' hi+lo':>16} {own / t['fast'] / 1e6:10.1f} {own / t['contiguous'] / 1e6:10.1f} "
            f"{shared8 / t['fast8'] / 1e6:8.1f} {ref_rate:12,.0f} {own / t['fast'] / ref_rate:9,.0f}x"
        )
        print(f"{'':8} {'+present':>16} {own / t['present'] / 1e6:10.1f} {'':10} {shared8 / t['present8'] / 1e6:8.1f}")
        if "split" in t:
            print(
                f"{'':8} {'split hi+lo':>16} {own / t['split'] / 1e6:10.1f} {'':10} {shared8 / t['split8'] / 1e6:8.1f}"
                f"   hole table/split {t['split'] / t['fast']:4.2f}x {t['split8'] / t['fast8']:4.2f}x"
            )
        if "subsets" in t:
            print(
                f"{'':8} {'subsets (old)':>16} {own / t['subsets'] / 1e6:10.1f}"
                f"   split/subsets {t['subsets'] / t['present']:4.1f}x"
            )
    warm = subprocess.run(
        [
            sys.executable,
            "-c",
            "import time; t=time.perf_counter(); from evaluator.fast import fast_evaluator; from evaluator.games import game; "
            "import numpy as np; f=fast_evaluator(game('pls7')); f.high_low(np.zeros((1,1,3),np.uint8)+np.array([0,1,2],np.uint8), np.array([[3,4,5,6,7]],np.uint8)); print(time.perf_counter()-t)",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    print(f"warm import + first PLS7 evaluation: {float(warm.stdout.strip()):.2f} s")


def small_batches() -> None:
    """``--small``: the per-call cost and the break-even batch of each preset (see the docstring)."""

    def per_call(fast, hole, board, calls: int) -> float:
        best = float("inf")
        for _ in range(5):
            start = time.perf_counter()
            for _ in range(calls):
                fast.high_low(hole, board)
            best = min(best, (time.perf_counter() - start) / calls)
        return best

    sizes = (10, 100, 1000, 10_000)
    print(
        f"{'game':8} {'1 hand':>9} {'per hand':>9} {'break-even':>10}  "
        + " ".join(f"{n:>8,}" for n in sizes)
        + "  (ns a hand)"
    )
    for name, game in PRESETS.items():
        fast = FastEvaluator(game)
        cards = deal_cards(np.random.default_rng(1), 100_000, game.hole_cards + game.board_cards)
        hole, board = split_deal(cards, 1, game.hole_cards)
        fast.high_low(hole, board)  # compile or load the cache, touch the tables
        one = per_call(fast, hole[:1], board[:1], 20_000)
        each = per_call(fast, hole, board, 5) / len(cards)
        at = [per_call(fast, hole[:n], board[:n], max(20, 200_000 // n)) / n for n in sizes]
        print(
            f"{name:8} {one * 1e6:7.2f}us {each * 1e9:7.1f}ns {one / each:10,.0f}  "
            + " ".join(f"{t * 1e9:8.1f}" for t in at)
        )


# --- --peers: PokerHandEvaluator, built from its sources ---------------------------------------


def build(name: str, sources: list[Path], includes: list[Path]) -> ctypes.CDLL:
    """A shared library of the C ``sources`` built once with the system compiler (cached by their
    content and the command)."""
    command = [os.environ.get("CC", "gcc"), "-O3", "-march=native", "-shared", "-fPIC", *(f"-I{d}" for d in includes)]
    digest = hashlib.sha256(" ".join(command).encode())
    for source in sources:
        digest.update(source.read_bytes())
    target = cache_dir() / "peers" / f"{name}-{digest.hexdigest()[:16]}.so"
    if not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        print(f"building {name} ({len(sources)} sources) ...", flush=True)
        partial = target.with_suffix(".partial")
        subprocess.run([*command, *map(str, sources), "-o", str(partial)], check=True)
        partial.replace(target)
    return ctypes.CDLL(str(target))


def phe_tree() -> Path:
    """PokerHandEvaluator's C sources, from its PyPI source distribution (downloaded once)."""
    tree = cache_dir() / "peers" / "phevaluator"
    if not (tree / "_pheval_csrc" / "src" / "tables_plo4.c").exists():
        with tempfile.TemporaryDirectory() as folder:
            subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "pip",
                    "download",
                    PHE_SDIST,
                    "--no-deps",
                    "--no-binary",
                    ":all:",
                    "-q",
                    "-d",
                    folder,
                ],
                check=True,
            )
            (archive,) = Path(folder).glob("*.tar.gz")
            with tarfile.open(archive) as tar:
                tar.extractall(folder, filter="data")
            shutil.rmtree(tree, ignore_errors=True)
            shutil.move(str(next(Path(folder).glob("phevaluator-*"))), tree)
    return tree


def peer_function(library: ctypes.CDLL, name: str):
    function = getattr(library, name)
    function.restype = None
    function.argtypes = [ctypes.c_void_p, ctypes.c_long, ctypes.c_void_p]

    def run(cards: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
        out = np.empty(len(cards), np.uint16) if out is None else out
        function(cards.ctypes.data, len(cards), out.ctypes.data)
        return out

    return run


def disagreements(ours: np.ndarray, theirs: np.ndarray, bigger_is_better: bool) -> int:
    """Hands whose order against some other hand differs between the two scales: 0 exactly when
    one strength maps to the other by a strictly monotone function."""
    theirs = theirs.astype(np.int64) * (1 if bigger_is_better else -1)
    pairs = np.unique(np.stack([ours.astype(np.int64), theirs], axis=1), axis=0)  # sorted by ours, then theirs
    bad = np.zeros(len(pairs), bool)
    bad[1:] |= pairs[1:, 0] == pairs[:-1, 0]  # one of ours, two of theirs
    bad[1:] |= pairs[1:, 1] <= pairs[:-1, 1]  # theirs not rising with ours (or one of theirs, two of ours)
    bad[:-1] |= bad[1:].copy()
    if not bad.any():
        return 0
    return int(np.isin(ours, pairs[bad, 0]).sum())


def timed(runs: dict, rounds: int) -> dict:
    """Per run, its ``(wall, cpu)`` seconds in each of ``rounds`` rounds, the order reversed
    every other round."""
    times: dict = {name: [] for name in runs}
    for round_ in range(rounds):
        for name in list(runs) if round_ % 2 == 0 else list(runs)[::-1]:
            cpu, start = time.process_time(), time.perf_counter()
            runs[name]()
            times[name].append((time.perf_counter() - start, time.process_time() - cpu))
    return times


def peers_main(args) -> None:
    n = args.peer_hands
    rng = np.random.default_rng(28)
    holdem_cards = deal_cards(rng, n, 7)  # 2 hole cards then 5 board cards
    omaha_cards = deal_cards(rng, n, 9)  # 5 board cards then 4 hole cards (PokerHandEvaluator's order)
    holdem, plo, plo8, pls7 = (FastEvaluator(preset(name)) for name in ("holdem", "plo", "plo8", "pls7"))
    hole7, board7 = split_deal(holdem_cards, 1, 2)
    omaha_hole = omaha_cards[:, 5:].reshape(n, 1, 4)
    omaha_board = omaha_cards[:, :5]
    pls7_cards = deal_cards(rng, n, 8)
    pls7_hole, pls7_board = split_deal(pls7_cards, 1, 3)
    phe_src = phe_tree() / "_pheval_csrc"
    phe = build(
        "phevaluator",
        [PEERS / "phe_batch.c", *(phe_src / "src" / f for f in PHE_SOURCES)],
        [phe_src / "include", phe_src / "src"],
    )
    phe7, phe_omaha = peer_function(phe, "phe_eval7"), peer_function(phe, "phe_eval_plo4")
    # Our own outputs: strengths (4 bytes) and ordinals (2 bytes, as the peer gives).
    holdem_out, ordinals_out = np.empty((n, 1), np.uint32), np.empty((n, 1), np.uint16)
    # Each peer's run is next to ours it is compared with, so a round's own ratio compares two runs a
    # moment apart (the order reverses every other round).
    runs = {
        "ours hold'em": lambda: holdem.high(hole7, board7),  # strengths only, as the peer's: no low to make
        "PHEvaluator hold'em": lambda: phe7(holdem_cards),
        "ours hold'em, ordinals": lambda: holdem.high_ordinals(hole7, board7),
        "ours hold'em, buffer": lambda: holdem.high(hole7, board7, out=holdem_out),
        "ours hold'em, ordinals, buffer": lambda: holdem.high_ordinals(hole7, board7, out=ordinals_out),
        "ours PLO": lambda: plo.high_low(omaha_hole, omaha_board),
        "PHEvaluator Omaha": lambda: phe_omaha(omaha_cards),
        "ours PLO8 hi+lo": lambda: plo8.high_low(omaha_hole, omaha_board),
        "ours PLS7 hi+lo": lambda: pls7.high_low(pls7_hole, pls7_board),
    }
    for run in runs.values():  # compile or load numba's cache, touch every table
        run()

    m = min(args.check_hands, n)
    checks = (
        ("ours hold'em", holdem.high_low(hole7[:m], board7[:m])[0], "PHEvaluator hold'em", phe7(holdem_cards[:m])),
        ("ours PLO", plo.high_low(omaha_hole[:m], omaha_board[:m])[0], "PHEvaluator Omaha", phe_omaha(omaha_cards[:m])),
    )
    for own, ours, name, theirs in checks:  # the peer's smaller ranks are the better hands
        print(f"order of {m:,} hands, {own} against {name}: {disagreements(ours[:, 0], theirs, False)} disagreements")

    times = timed(runs, args.rounds)
    rate = {name: n / min(wall for wall, _ in t) for name, t in times.items()}
    cpu_rate = {name: n / min(cpu for _, cpu in t) for name, t in times.items()}
    print(f"\n{n:,} hands per evaluator, best of {args.rounds} alternating rounds, one core")
    print(f"{'evaluator':30} {'M hands/s':>10} {'M/cpu-s':>9}")
    for name in runs:
        print(f"{name:30} {rate[name] / 1e6:10.1f} {cpu_rate[name] / 1e6:9.1f}")
    print()
    for own, peer in (
        ("ours hold'em", "PHEvaluator hold'em"),
        ("ours PLO", "PHEvaluator Omaha"),
        ("ours PLO8 hi+lo", "PHEvaluator Omaha"),
    ):
        paired = statistics.median(theirs[0] / ours[0] for ours, theirs in zip(times[own], times[peer]))
        print(
            f"{own} / {peer}: {rate[own] / rate[peer]:.2f}x wall, {cpu_rate[own] / cpu_rate[peer]:.2f}x cpu "
            f"(best rounds); {paired:.2f}x wall, median of rounds"
        )


if __name__ == "__main__":
    main()
