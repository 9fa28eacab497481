"""Hand records written by pokerkit 0.7.7, the reference PHH writer: random-action hands, seeded.

Each hand is played by pokerkit alone, by its own rules: a seeded random choice among the
actions pokerkit allows (fold when facing a bet, check or call, a bet or raise of any size
from its minimum to its maximum), uneven stacks from 1 to 60 big blinds so that all-ins and
side pots are common, and pokerkit's own showdown (it shows the hands that can win and mucks
the others). pokerkit then writes the hand with its ``HandHistory.from_game_state`` and
``dumps``: the record is pokerkit's, every departure from the rule book included.

Variants: ``NT`` and ``PO`` as pokerkit writes them, and pot-limit Omaha hi-lo, which PHH has
no code for: played by pokerkit's pot-limit Omaha with its hi-lo hand types, written by its
writer under the code ``PO/8`` (the code ``replay`` reads for it).
"""

from __future__ import annotations

import fcntl
import json
import multiprocessing
import random
import warnings
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pokerkit
from pokerkit import Automation, HandHistory, Mode

DECK = [rank + suit for rank in "23456789TJQKA" for suit in "shdc"]
AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.RUNOUT_COUNT_SELECTION,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)


class PotLimitOmahaHighLow(pokerkit.PotLimitOmahaHoldem):
    """pokerkit's pot-limit Omaha with the hands of its fixed-limit Omaha hi-lo (8 or better)."""

    hand_types = (pokerkit.OmahaHoldemHand, pokerkit.OmahaEightOrBetterLowHand)


class Writer(HandHistory):
    """pokerkit's PHH writer, told the code of pot-limit Omaha hi-lo."""

    variants = {**HandHistory.variants, PotLimitOmahaHighLow: "PO/8"}
    game_types = {**HandHistory.game_types, "PO/8": PotLimitOmahaHighLow}
    required_field_names = {**HandHistory.required_field_names, "PO/8": HandHistory.required_field_names["PO"]}


GAMES = {
    "NT": (pokerkit.NoLimitTexasHoldem, 2),
    "PO": (pokerkit.PotLimitOmahaHoldem, 4),
    "PO/8": (PotLimitOmahaHighLow, 4),
}
BLINDS, MIN_BET = (1, 2), 2


def random_hand(code: str, rng: random.Random) -> str:
    """One hand of ``code`` played by pokerkit with random actions from ``rng``, as pokerkit writes it."""
    kind, hole_count = GAMES[code]
    n = rng.randint(2, 6)
    stacks = [rng.randint(1, 120) for _ in range(n)]
    antes = [1] * n if rng.random() < 0.15 else 0
    game = kind(AUTOMATIONS, False, antes, BLINDS, MIN_BET, mode=Mode.CASH_GAME)
    state = game(stacks, n)
    cards = rng.sample(DECK, n * hole_count + 5)
    for seat in range(n):
        state.deal_hole("".join(cards[seat * hole_count : (seat + 1) * hole_count]))
    board = cards[n * hole_count :]
    while state.status:
        if state.can_burn_card():
            state.burn_card("??")  # a card nobody sees: not one of the board cards drawn above
            continue
        if state.can_deal_board():
            due = state.board_dealing_count
            state.deal_board("".join(board[:due]))
            board = board[due:]
            continue
        if state.actor_index is None:
            break
        call = state.checking_or_calling_amount
        choice = rng.random()
        if call and choice < 0.15:
            state.fold()
        elif choice < 0.55 and state.can_complete_bet_or_raise_to():
            low = state.min_completion_betting_or_raising_to_amount
            high = state.max_completion_betting_or_raising_to_amount
            edge = rng.random()
            state.complete_bet_or_raise_to(low if edge < 0.3 else high if edge < 0.55 else rng.randint(low, high))
        else:
            state.check_or_call()
    assert not state.status, f"{code}: pokerkit stopped mid-hand: {list(state.operations)[-3:]}"
    return Writer.from_game_state(game, state, finishing_stacks=list(state.stacks)).dumps()


def random_records(seed: int, hands: int, codes=("NT", "PO", "PO/8")) -> tuple[str, ...]:
    """``hands`` pokerkit-written records, the codes in turn, from ``random.Random(seed)``."""
    rng = random.Random(seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return tuple(random_hand(codes[i % len(codes)], rng) for i in range(hands))


def shared_records(folder: Path, seed: int, hands: int) -> tuple[str, ...]:
    """``random_records(seed, hands)`` played once per test session and kept in ``folder`` (one
    folder for every pytest-xdist worker): two test modules read the same 3,000, which pokerkit
    takes 45 s to play. They are played in a spawned process, where CI's coverage tracer does not
    run: traced, pokerkit's play takes three times as long and measures none of our lines."""
    path = folder / f"pokerkit-records-{seed}-{hands}.json"
    with open(folder / f"{path.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # the other worker waits for the first one's file
        if not path.exists():
            with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
                texts = pool.submit(random_records, seed, hands).result()
            part = path.with_suffix(".part")
            part.write_text(json.dumps(texts))
            part.replace(path)
    return tuple(json.loads(path.read_text()))
