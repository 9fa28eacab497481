"""Issue #18, the fast engine: policy-played hands per second against pokerkit, side by side.

    python bench/play.py [--hands 200000] [--rounds 3] [--ref-hands 2000] [--peer-hands 1000]

The target: at least 50,000 six-handed PLS7 hands per second per core with the ``regular``
policy, its hand-strength samples included (against random hands: ``postflop.ranges`` off, as
``regular`` ships). Workloads, all six-handed, blinds 1/2:

* ``fast``: ``engine.fast.play_batch`` (numba) plays ``--hands`` hands, every seat with the
  same policy, stacks 200 chips (100 big blinds): PLS7 pot-limit and hold'em no-limit, each
  with ``regular`` and with ``pro-like``, and PLS7 with ``regular+ranges`` (``regular`` with
  ``postflop.ranges`` on: opponents' hands drawn from what their preflop actions allow,
  ``engine.reads``), whose ``x regular`` column is its cost. Inside the timing: everything ``play_batch`` does,
  i.e. each seat's strength on the full board (``highs``/``lows``, not passed in, so it
  computes them), every betting decision, every postflop hand strength (64 random opponent
  hands and runouts per request, ``engine.strength``) and the settling of every pot. Outside:
  dealing (``deal_hands``) and the preflop percentiles (``ranking.ranks(hole)`` of the game's ``HandRanking``, a
  table lookup; its own speed is printed under the table). numba compiles on a small batch
  first, outside the timing.
* ``reference``: ``engine.player.play_hand``, the readable engine the fast one copies, on the
  first ``--ref-hands`` of the same PLS7 ``regular`` deals, the same percentiles (the
  ``HandRanking`` called per hand, as the study's ``--record`` does). Outside the timing its
  finishing stacks must equal the fast engine's on those hands, hand by hand.
* ``pokerkit``: pokerkit plays ``--peer-hands`` six-handed NT and PO hands of random legal
  actions, generated once by the checked-against-pokerkit harness of
  ``tests/test_engine_pokerkit.py`` (only the hands it dealt six seats are kept), then played
  from the recorded script by ``bench/engine.py``'s ``peer_play``: creating the state,
  dealing, acting, settling. The harness's stacks are 1-120 chips (short: many all-ins).

What the ratios mean. This machine is shared and its speed varies up to 2x from minute to
minute, so no figure here means anything alone: every workload runs in each of ``--rounds``
rounds, the order reversed every other round, and the best round of each is kept. ``x
pokerkit`` divides a workload's hands per second by pokerkit's on the nearest variant it plays
(pot-limit Omaha, PO, for PLS7; no-limit hold'em, NT, for hold'em). The workloads are not
alike: pokerkit only enforces the rules of actions chosen for it beforehand, while the engines
also decide every action and sample hand strengths, so a ratio is a floor on the engines'
edge at equal work. ``cpu/wall`` is the process's CPU time over wall time in the best round:
about 1.0 means one core was busy (numba here runs no parallel loops), so hands per second
are per core; ``h/cpu-s`` is hands per CPU second, a little less sensitive to the machine's
sharing. The target line reads the fast PLS7 ``regular`` hands per second of the best round.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import random
import sys
import time
from collections.abc import Callable
from importlib import metadata
from pathlib import Path

sys.path[0] = str(Path(__file__).resolve().parent.parent)

import numba  # noqa: E402 - after the path fix above
import numpy as np  # noqa: E402

from bench.engine import peer_play  # noqa: E402 - the pokerkit replay of bench/engine.py
from engine.betting import NO_LIMIT, POT_LIMIT, Betting  # noqa: E402
from engine.fast import CHUNK, play_batch  # noqa: E402
from engine.player import deal_hands, play_hand  # noqa: E402
from engine.policy import builtin  # noqa: E402
from evaluator.games import game  # noqa: E402
from evaluator.tables import cache_dir  # noqa: E402
from jobs.hand_ranking import ranking  # noqa: E402
from pipeline.backends import RayBackend  # noqa: E402
from tests.test_engine_pokerkit import Tally, play_one  # noqa: E402

SEATS = 6
STACK = 200  # chips: 100 big blinds
BLINDS = [1, 2] + [0] * (SEATS - 2)
TARGET = 50_000  # six-handed PLS7 regular hands per second per core (issue #18)
GAMES = {"PLS7": ("pls7", POT_LIMIT, "PO"), "NLHE": ("holdem", NO_LIMIT, "NT")}  # name, betting, pokerkit peer
POLICIES = {"PLS7": ("regular", "regular+ranges", "pro-like"), "NLHE": ("regular", "pro-like")}


@dataclasses.dataclass
class Workload:
    label: str
    hands: int
    run: Callable[[], object]
    peer: str | None = None  # the pokerkit code its ratio is against
    best: float = float("inf")
    cpu: float = 0.0
    result: object = None


@dataclasses.dataclass
class Deal:
    """One game's deal for the fast engine, made outside the timing."""

    game: object
    betting: Betting
    cards: np.ndarray
    keys: np.ndarray
    ranks: np.ndarray
    ranks_seconds: float
    ranking: object  # the game's HandRanking, which ranges read


def make_deal(name: str, betting: Betting, hands: int, seed: int) -> Deal:
    g = game(name)
    cards, keys = deal_hands(np.random.default_rng(seed), hands, SEATS, g)
    hole = np.ascontiguousarray(cards[:, : SEATS * g.hole_cards].reshape(hands, SEATS, g.hole_cards))
    table = ranking(g, RayBackend(), cache_dir() / "runs")  # the grid: run once into the cache, then read
    start = time.perf_counter()
    ranks = table.ranks(hole)
    return Deal(g, betting, cards, keys, ranks, time.perf_counter() - start, table)


def policy_named(name: str):
    """A built-in policy, or ``NAME+ranges``: the built-in reading its opponents' ranges after the flop."""
    base = builtin(name.removesuffix("+ranges"))
    if not name.endswith("+ranges"):
        return base
    return dataclasses.replace(base, name=name, postflop=dataclasses.replace(base.postflop, ranges=True))


def fast(deal: Deal, policy: str, first: int | None = None):
    """``play_batch`` on the deal (or its first ``first`` hands), every seat playing ``policy``."""
    n = deal.cards.shape[0] if first is None else first
    return play_batch(
        deal.game,
        deal.betting,
        [policy_named(policy)] * SEATS,
        [STACK] * SEATS,
        BLINDS,
        deal.cards[:n],
        deal.keys[:n],
        deal.ranks[:n],
        ranking=deal.ranking,
    )


def reference(deal: Deal, policy: str, hands: int) -> list[list[int]]:
    """``play_hand`` on the deal's first ``hands`` hands: their finishing stacks."""
    policies = [builtin(policy)] * SEATS
    percentile = ranking(deal.game, RayBackend(), cache_dir() / "runs")
    return [
        play_hand(
            deal.game, deal.betting, policies, [STACK] * SEATS, BLINDS, deal.cards[i], deal.keys[i], percentile
        ).finishing_stacks
        for i in range(hands)
    ]


def six_handed_scripts(code: str, hands: int, seed: str = "bench-play") -> list[list[tuple]]:
    """``hands`` random six-handed hands of the test harness, as scripts. The harness draws the
    hand's key, then 2-6 seats, from the hand's generator; hands of fewer seats are not played
    at all (the assertion below notices if the harness changes its draws)."""
    scripts: list[list[tuple]] = []
    tally = Tally()
    number = 0
    while len(scripts) < hands:
        draws = random.Random(f"{code}:{seed}:{number}")
        draws.getrandbits(63)
        if draws.randint(2, 6) == SEATS:
            play_one(code, seed, number, tally, record=scripts)
            assert scripts[-1][0][1] == SEATS, scripts[-1][0]
        number += 1
    return scripts


def time_rounds(workloads: list[Workload], rounds: int) -> None:
    """Each workload once per round, the order reversed every other round; keep each one's best."""
    for round_ in range(rounds):
        for w in workloads if round_ % 2 == 0 else workloads[::-1]:
            cpu, start = time.process_time(), time.perf_counter()
            w.result = w.run()
            wall, cpu = time.perf_counter() - start, time.process_time() - cpu
            if wall < w.best:
                w.best, w.cpu = wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200_000, help="hands per fast-engine workload (default 200000)")
    parser.add_argument("--rounds", type=int, default=3, help="timed rounds, best kept (default 3)")
    parser.add_argument("--ref-hands", type=int, default=2000, help="hands for the reference engine (default 2000)")
    parser.add_argument(
        "--peer-hands", type=int, default=1000, help="six-handed random hands per pokerkit variant (default 1000)"
    )
    parser.add_argument("--seed", type=int, default=18)
    args = parser.parse_args()
    args.ref_hands = min(args.ref_hands, args.hands)
    affinity = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else "?"
    print(
        f"numba {numba.__version__}, numpy {np.__version__}, pokerkit {metadata.version('pokerkit')}, "
        f"Python {sys.version.split()[0]}; CPUs {os.cpu_count()} (usable {affinity}), numba threads "
        f"{numba.config.NUMBA_NUM_THREADS} (play_batch uses no parallel loop)"
    )
    print(
        f"six-handed, blinds 1/2, fast/reference stacks {STACK} chips; best of {args.rounds} rounds; "
        f"fast {args.hands:,} hands, reference {args.ref_hands:,}, pokerkit {args.peer_hands:,} per variant"
    )

    # --- set-up, outside the timing -------------------------------------------------------------
    start = time.perf_counter()
    deals = {label: make_deal(name, betting, args.hands, args.seed) for label, (name, betting, _) in GAMES.items()}
    print(f"dealt and ranked in {time.perf_counter() - start:.1f} s", flush=True)
    start = time.perf_counter()
    for label, deal in deals.items():
        for policy in POLICIES[label]:
            fast(deal, policy, first=256)  # numba compiles (or loads its cache) outside the timing
    reference(deals["PLS7"], "regular", 20)
    print(f"warmed up in {time.perf_counter() - start:.1f} s", flush=True)
    start = time.perf_counter()
    scripts = {code: six_handed_scripts(code, args.peer_hands) for code in ("NT", "PO")}
    print(
        f"pokerkit scripts made (and checked against the reference engine) in {time.perf_counter() - start:.1f} s",
        flush=True,
    )

    workloads = [
        Workload(f"fast {label} {policy}", args.hands, lambda d=deal, p=policy: fast(d, p), GAMES[label][2])
        for label, deal in deals.items()
        for policy in POLICIES[label]
    ]
    workloads.append(
        Workload(
            "reference PLS7 regular", args.ref_hands, lambda: reference(deals["PLS7"], "regular", args.ref_hands), "PO"
        )
    )
    for code, group in scripts.items():
        workloads.append(Workload(f"pokerkit {code} random", len(group), lambda c=code, s=group: peer_play(c, s), code))
    time_rounds(workloads, args.rounds)

    # --- results ------------------------------------------------------------------------------
    by = {w.label: w for w in workloads}
    peer_rate = {code: by[f"pokerkit {code} random"].hands / by[f"pokerkit {code} random"].best for code in scripts}
    print()
    print(
        f"{'workload':24} {'hands':>8} {'hands/s':>10} {'cpu/wall':>8} {'h/cpu-s':>10} {'x pokerkit':>13}  "
        f"{'flop':>5} {'shown':>5} {'str/hand':>8} {'rounds':>6}  target"
    )
    for w in workloads:
        rate = w.hands / w.best
        line = (
            f"{w.label:24} {w.hands:8,} {rate:10,.0f} {w.cpu / w.best:8.2f} {w.hands / max(w.cpu, 1e-9):10,.0f} "
            f"{rate / peer_rate[w.peer]:8.1f}x {w.peer:>3}"
        )
        if w.label.startswith("fast"):
            played = w.result
            line += (
                f"  {np.mean(played.reached >= 1):5.1%} {np.mean(played.reached == 4):5.1%} "
                f"{played.strength_requests / w.hands:8.2f} {played.rounds:6}"
            )
            assert (played.finishing.sum(axis=1) == STACK * SEATS).all(), f"{w.label}: chips not conserved"
        else:
            line += " " * 30
        if w.label == "fast PLS7 regular":
            line += f"  {'met' if rate >= TARGET else 'NOT met'} ({rate / TARGET:.2f}x {TARGET:,}/s/core)"
        if w.label.endswith("+ranges"):
            plain = by[w.label.removesuffix("+ranges")]
            line += f"  {rate / (plain.hands / plain.best):.2f}x {plain.label.removeprefix('fast ')}"
        print(line)
    for label, deal in deals.items():
        rank_rate = deal.cards.shape[0] / deal.ranks_seconds
        w = by[f"fast {label} regular"]
        print(
            f"preflop ranks lookup ({label}, outside the timing): {rank_rate:,.0f} hands/s; with it inside, "
            f"fast {label} regular would do {w.hands / (w.best + deal.ranks_seconds):,.0f} hands/s"
        )
    ref, fast_w = by["reference PLS7 regular"], by["fast PLS7 regular"]
    print(
        f"fast over reference on the same PLS7 regular deals: {(fast_w.hands / fast_w.best) / (ref.hands / ref.best):,.0f}x; "
        f"{CHUNK:,}-hand chunks, so rounds = kernel passes summed over {-(-args.hands // CHUNK)} chunks"
    )

    # --- checks, outside the timing ---------------------------------------------------------------
    expected = fast_w.result.finishing[: args.ref_hands].tolist()
    differ = [i for i, (a, b) in enumerate(zip(ref.result, expected)) if a != b]
    print(
        f"reference vs fast finishing stacks, PLS7 regular: {args.ref_hands - len(differ):,} of {args.ref_hands:,} hands alike"
    )
    for code in scripts:
        finished = by[f"pokerkit {code} random"].result
        assert all(sum(f) == sum(s[0][2]) for f, s in zip(finished, scripts[code])), (
            f"pokerkit {code}: chips not conserved"
        )
    assert not differ, "hands where the engines differ: " + ", ".join(
        f"{i} (reference {ref.result[i]}, fast {expected[i]})" for i in differ[:10]
    )


if __name__ == "__main__":
    main()
