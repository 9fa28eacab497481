"""The reference hand engine against pokerkit, side by side on the same hands: hands per second.

    python bench/engine.py [--hands 1000] [--rounds 3] [--records /work/shared/data/hands]

(a) Records: every PHH record of the variants both engines play (NT, PO, FT, FO/8) under
``--records``, read into memory once, then parsed and replayed to the end by each engine:
``engine.phh.loads`` + ``engine.phh.replay``, and pokerkit's ``HandHistory.loads`` + iterating
its states. (pokerkit 0.7.7 plays FO/8 as pot-limit, a bug of its own, but the records'
fixed-limit bets are within pot-limit bounds, so it replays them.)

(b) Random hands: ``--hands`` NT and PO hands of 2-6 players with random stacks (1-60 big
blinds, some with antes) and random legal actions, generated once by the checked-against-pokerkit
harness of ``tests/test_engine_pokerkit.py`` (so every action is legal in both engines); then
each engine plays the recorded script from the first deal to the settled hand. The decisions
are outside the timing; dealing, acting and settling are inside, for both.

Each workload is timed ``--rounds`` times, the two engines taking turns (the order alternates
each round), and the best round of each is kept: this machine's speed is noisy, so the two are
measured side by side in the same run. Results are checked outside the timing: replays must
reach the records' finishing stacks (two Pluribus records split an odd chip in halves; both
engines give it whole to the first tied winner left of the button, which ``replay`` accepts
with a note), and both engines must finish every random hand alike but for the odd chips of
pots pokerkit merges after the losers muck (see the test module).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from decimal import Decimal
from importlib import metadata
from pathlib import Path

sys.path[0] = str(Path(__file__).resolve().parent.parent)

import pokerkit  # noqa: E402 - after the path fix above
from pokerkit import HandHistory  # noqa: E402

from engine import phh  # noqa: E402
from engine.hand import Hand  # noqa: E402
from evaluator.games import game  # noqa: E402
from tests.test_engine_pokerkit import (  # noqa: E402
    AUTOMATIONS,
    BLINDS,
    MERGED_POTS,
    MIN_BET,
    VARIANTS,
    Tally,
    play_one,
)

RECORD_VARIANTS = ("NT", "PO", "FT", "FO/8")


# --- (a) records -------------------------------------------------------------------------------


def read_records(root: Path) -> dict[str, list[str]]:
    """The text of every single-hand record under ``root``, by variant (those both engines play)."""
    texts: dict[str, list[str]] = {code: [] for code in RECORD_VARIANTS}
    for path in sorted(root.rglob("*.phh")):
        text = path.read_text(encoding="utf-8")
        code = phh.loads(text, str(path))[0].fields.get("variant")
        if code in texts:
            texts[code].append(text)
    return texts


def ours_records(texts: list[str]) -> None:
    for text in texts:
        for record in phh.loads(text):
            phh.replay(record)


def peer_records(texts: list[str]) -> None:
    for text in texts:
        for _ in HandHistory.loads(text):
            pass


def check_records(texts: list[str]) -> tuple[Counter, int, int]:
    """Our replay statuses, how many records pokerkit ends on the recorded finishing stacks, and
    on how many the two engines end alike."""
    statuses, peer_matches, alike = Counter(), 0, 0
    for text in texts:
        (record,) = phh.loads(text)
        replayed = phh.replay(record)
        statuses[replayed.status] += 1
        history = HandHistory.loads(text)
        *_, last = iter(history)
        expected = history.finishing_stacks
        peer_matches += expected is not None and list(last.stacks) == list(expected)
        alike += (
            replayed.finishing_stacks is not None
            and [Decimal(str(x)) for x in last.stacks] == replayed.finishing_stacks
        )
    return statuses, peer_matches, alike


# --- (b) random hands --------------------------------------------------------------------------


def scripts_for(code: str, hands: int, seed: str = "bench") -> tuple[list[list[tuple]], Tally]:
    """``hands`` random hands played through both engines by the test harness, as scripts, and
    the harness's tally (what it compared and skipped)."""
    scripts: list[list[tuple]] = []
    tally = Tally()
    for number in range(hands):
        play_one(code, seed, number, tally, record=scripts)
    return scripts, tally


def ours_play(code: str, scripts) -> list[list[int]]:
    variant = VARIANTS[code]
    rules = game(variant.game)
    finished = []
    for script in scripts:
        _, n, stacks, antes = script[0]
        hand = Hand(rules, variant.betting, stacks, [*BLINDS, *[0] * (n - 2)], antes, min_bet=MIN_BET)
        for step in script[1:]:
            kind = step[0]
            if kind == "call":
                hand.check_call()
            elif kind == "raise":
                hand.raise_to(step[1])
            elif kind == "fold":
                hand.fold()
            elif kind == "board":
                hand.deal_board(step[1])
            elif kind == "hole":
                hand.deal_hole(step[1], step[2])
            # "check": a check only pokerkit asks for (every opponent all-in); the engine skips it
        finished.append(hand.finishing_stacks)
    return finished


def peer_play(code: str, scripts) -> list[list[int]]:
    peer = VARIANTS[code].peer
    finished = []
    for script in scripts:
        _, n, stacks, antes = script[0]
        state = peer.create_state(AUTOMATIONS, False, antes, BLINDS, MIN_BET, stacks, n, mode=pokerkit.Mode.TOURNAMENT)
        for step in script[1:]:
            kind = step[0]
            if kind in ("call", "check"):
                state.check_or_call()
            elif kind == "raise":
                state.complete_bet_or_raise_to(step[1])
            elif kind == "fold":
                state.fold()
            elif kind == "board":
                state.burn_card("??")
                state.deal_board(step[1])
            elif kind == "hole":
                state.deal_hole(step[2], step[1])
        finished.append(list(state.stacks))
    return finished


# --- timing ------------------------------------------------------------------------------------


def side_by_side(ours, peer, rounds: int) -> tuple[float, float]:
    """Best seconds of ``ours()`` and ``peer()``, run in turns (the order alternating) ``rounds`` times."""
    best = [float("inf"), float("inf")]
    for round_ in range(rounds):
        order = [(0, ours), (1, peer)] if round_ % 2 == 0 else [(1, peer), (0, ours)]
        for index, run in order:
            start = time.perf_counter()
            run()
            best[index] = min(best[index], time.perf_counter() - start)
    return best[0], best[1]


def row(label: str, hands: int, ours: float, peer: float, note: str = "") -> str:
    return f"{label:24} {hands:6} {hands / ours:12.0f} {hands / peer:12.0f} {peer / ours:7.1f}x  {note}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1000, help="random hands per variant (default 1000)")
    parser.add_argument("--rounds", type=int, default=3, help="timed rounds per workload, best kept (default 3)")
    parser.add_argument("--records", type=Path, default=Path("/work/shared/data/hands"), help="a folder of PHH records")
    args = parser.parse_args()
    print(f"pokerkit {metadata.version('pokerkit')}, Python {sys.version.split()[0]}, best of {args.rounds} rounds")
    print(f"{'workload':24} {'hands':>6} {'engine h/s':>12} {'pokerkit h/s':>12} {'ratio':>8}  check")

    texts = read_records(args.records)
    every = [text for code in RECORD_VARIANTS for text in texts[code]]
    for label, group in [*((f"records {code}", texts[code]) for code in RECORD_VARIANTS), ("records, all", every)]:
        if not group:
            continue
        statuses, peer_matches, alike = check_records(group)
        ours, peer = side_by_side(lambda g=group: ours_records(g), lambda g=group: peer_records(g), args.rounds)
        note = f"engine {dict(sorted(statuses.items()))}; pokerkit {peer_matches} match; {alike} end alike"
        print(row(label, len(group), ours, peer, note))

    for code in VARIANTS:
        scripts, tally = scripts_for(code, args.hands)
        agree = sum(a == b for a, b in zip(ours_play(code, scripts), peer_play(code, scripts)))
        ours, peer = side_by_side(
            lambda s=scripts, c=code: ours_play(c, s), lambda s=scripts, c=code: peer_play(c, s), args.rounds
        )
        merged = tally.skips[MERGED_POTS]
        print(
            row(
                f"random {code}",
                len(scripts),
                ours,
                peer,
                f"{agree} finish alike, {merged} differ by pokerkit's merged-pot odd chips; {tally.decisions} decisions",
            )
        )


if __name__ == "__main__":
    main()
