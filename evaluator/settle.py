"""Splitting pots in whole chips, exactly as RULES.md section 6 says.

Seats are numbered clockwise; ``button`` is the dealer's seat. Strengths are the reference's
integers (larger is better; a low of 0 is no low).

Two functions hold the rules, over plain arrays: ``form_pots`` (the main and side pots of a
hand) and ``divide_pot`` (one pot among its high and low winners, with the odd chips). Every
engine calls them: the reference hand, the table and the referee here in Python, the fast
engine and the replay kernel as ``evaluator.settle_kernels`` compiles them (this module imports
no numba, so ``sampyong eval`` loads none). ``side_pots``, ``split_pot`` and ``settle`` are
their faces over lists.

>>> split_pot(101, highs=[5, 5, 1], lows=[0, 9, 7], eligible=[0, 1, 2], button=2)
[26, 75, 0]
>>> side_pots([50, 100, 200, 200], folded=[False] * 4)
[(200, (0, 1, 2, 3)), (150, (1, 2, 3)), (200, (2, 3))]
"""

from __future__ import annotations

from collections.abc import Sequence
from math import lcm

import numpy as np

from evaluator.errors import SampyongError

MAX_CHIPS = 2**62
"""The most chips a pot may hold: pots are divided in 64-bit integers (``divide_pot`` compiles)."""


def clockwise_from_button(seats: Sequence[int], button: int, table_size: int) -> list[int]:
    """Seats ordered by their distance clockwise from the button (the button itself last)."""
    return sorted(seats, key=lambda s: (s - button - 1) % table_size)


def split_pot(pot: int, highs: Sequence[int], lows: Sequence[int], eligible: Sequence[int], button: int) -> list[int]:
    """Chips each seat wins from one pot contested by ``eligible`` seats (``divide_pot``)."""
    contenders = [False] * len(highs)
    for s in eligible:
        contenders[s] = True
    won, _, _ = divide_pot(pot, list(highs), list(lows), contenders, button)
    return [int(w) for w in won]


def divide_pot(
    chips: int,
    highs: Sequence[int] | np.ndarray,
    lows: Sequence[int] | np.ndarray,
    contenders: Sequence[bool] | np.ndarray,
    button: int,
) -> tuple[np.ndarray, int, int]:
    """``(won, odd_chips, odd_seat)``: the chips each seat wins from one pot of ``chips`` contested
    by the seats where ``contenders`` (bool[seats]) is set, ``won`` int64[seats]; ``highs`` and
    ``lows`` are int64[seats] (in Python, any of the three may be a list).

    With a qualifying low among the contenders the pot is halved, the high half taking the chip
    that does not halve; tied winners of a half share it equally; every chip a half does not
    divide among its winners goes to ``odd_seat``, the high winner first clockwise from the
    button (RULES 6.1-6.3). ``odd_chips`` is what a table tells of it: those chips, and the halving
    chip when one high winner takes it alone. No chips or no contender: nothing won, no odd seat (-1).
    Plain arrays in and out: ``evaluator.settle_kernels`` compiles this same function.
    """
    seats = len(highs)
    won = np.zeros(seats, np.int64)
    best_high = 0
    best_low = 0
    contested = False
    for s in range(seats):
        if contenders[s]:
            if not contested or highs[s] > best_high:
                best_high = highs[s]
            best_low = max(best_low, lows[s])
            contested = True
    if chips <= 0 or not contested:
        return won, 0, -1
    high_count = 0
    low_count = 0
    for s in range(seats):
        if contenders[s] and highs[s] == best_high:
            high_count += 1
        if contenders[s] and best_low > 0 and lows[s] == best_low:
            low_count += 1
    high_half = chips - chips // 2 if low_count > 0 else chips
    low_half = chips - high_half
    for s in range(seats):
        if contenders[s] and highs[s] == best_high:
            won[s] += high_half // high_count
        if contenders[s] and best_low > 0 and lows[s] == best_low:
            won[s] += low_half // low_count
    rest = high_half % high_count + (low_half % low_count if low_count > 0 else 0)
    odd_seat = -1
    for step in range(seats):
        s = (button + 1 + step) % seats
        if contenders[s] and highs[s] == best_high:
            odd_seat = s
            break
    won[odd_seat] += rest
    halving = 1 if low_count > 0 and high_count == 1 and chips % 2 == 1 else 0
    return won, rest + halving, odd_seat


def pot_shares(high: np.ndarray, low: np.ndarray, unit: int) -> tuple[np.ndarray, np.ndarray]:
    """Each seat's share of one all-in pot per deal, in ``unit``s (odd chips ignored), as
    ``(high_part, low_part)``, each ``int64[n, players]`` like ``high`` and ``low``.

    With a qualifying low the pot is halved; tied winners split a half (or the whole pot)
    equally. ``unit`` must divide by twice every number of winners (``share_unit``).

    >>> [part.tolist() for part in pot_shares(np.array([[5, 5, 1]]), np.array([[0, 9, 7]]), share_unit(3))]
    [[[3, 3, 0]], [[0, 6, 0]]]
    """
    high_wins = high == high.max(axis=1, keepdims=True)
    top_low = low.max(axis=1, keepdims=True)
    low_wins = (low == top_low) & (top_low > 0)
    high_share = np.where(top_low > 0, unit // 2, unit) // high_wins.sum(axis=1, keepdims=True)
    low_share = unit // 2 // np.maximum(low_wins.sum(axis=1, keepdims=True), 1)
    return high_wins * high_share, low_wins * low_share


def side_pots(contributions: Sequence[int], folded: Sequence[bool], dead: int = 0) -> list[tuple[int, tuple[int, ...]]]:
    """``(chips, eligible seats)`` per pot (``form_pots``), the main pot first.

    A layer nobody still in the hand reached (a folded player's excess) joins the layer below;
    ``dead`` money (the antes) goes to the main pot, or first into a pot of its own.
    """
    if any(c < 0 for c in contributions):
        raise SampyongError("contributions cannot be negative")
    chips, contenders = form_pots(list(contributions), list(folded), dead)
    pots = [(c, tuple(s for s, yes in enumerate(row) if yes)) for c, row in zip(chips.tolist(), contenders.tolist())]
    if not all(seats for _, seats in pots):
        raise SampyongError("every player folded: nobody can win the pot")
    return pots


def form_pots(
    bets: Sequence[int] | np.ndarray, out: Sequence[bool] | np.ndarray, dead: int
) -> tuple[np.ndarray, np.ndarray]:
    """``(chips, contenders)``: the pots of one hand, the main pot first, ``chips`` int64[pots] and
    ``contenders`` bool[pots, seats], from each seat's ``bets`` (int64[seats], every chip it put
    in but its ante), whether it is ``out`` (bool[seats]: folded or mucked, its chips stay in)
    and the ``dead`` money (the antes). In Python ``bets`` and ``out`` may be lists (read faster).

    Each layer of bets is a pot, smallest first (RULES 6.4); a layer nobody still in reached (a
    folded player's excess) joins the pot below, and so does a layer with the same contenders.
    The dead money goes into the main pot when every seat still in contests it, else into a pot
    of its own ahead of the others that every seat still in contests. When every seat that bet
    is out, a pot has no contender (``side_pots`` refuses it). Plain arrays in and out:
    ``evaluator.settle_kernels`` compiles this same function.
    """
    seats = len(bets)
    chips = np.zeros(seats + 1, np.int64)
    contenders = np.zeros((seats + 1, seats), np.bool_)
    live = 0  # sets of seats as bits (seat s: 1 << s), compared in one step
    for s in range(seats):
        if not out[s]:
            live |= 1 << s
    count = 1  # the layers from pot 1 on: pot 0 is kept for the antes' own pot
    first = last = 0  # the contenders of the first and the last layer's pot
    previous = 0
    while True:
        level = -1  # the next bet level above ``previous``
        for s in range(seats):
            if bets[s] > previous and (level < 0 or bets[s] < level):
                level = bets[s]
        if level < 0:
            break
        layer = 0
        reached = 0
        for s in range(seats):
            layer += min(bets[s], level) - min(bets[s], previous)
            if bets[s] >= level:
                reached |= 1 << s
        if count > 1 and ((reached & live) == last or (reached & live) == 0):
            chips[count - 1] += layer
        else:
            last = reached & live
            first = last if count == 1 else first
            chips[count] = layer
            for s in range(seats):
                contenders[count, s] = (last >> s) & 1 == 1
            count += 1
        previous = level
    if count > 1 and first == live:
        chips[1] += dead
    elif dead > 0:
        chips[0] = dead
        for s in range(seats):
            contenders[0, s] = not out[s]
        return chips[:count], contenders[:count]
    return chips[1:count], contenders[1:count]


def settle(
    highs: Sequence[int],
    lows: Sequence[int],
    contributions: Sequence[int],
    button: int,
    folded: Sequence[bool] | None = None,
) -> list[int]:
    """Chips each seat wins at showdown, side pots included; the total equals the contributions."""
    folded = list(folded) if folded is not None else [False] * len(highs)
    if not (len(highs) == len(lows) == len(contributions) == len(folded)):
        raise SampyongError("highs, lows, contributions and folds must name the same seats")
    if not 0 <= button < len(highs):
        raise SampyongError(f"button must be a seat from 0 to {len(highs) - 1}, not {button}")
    won = [0] * len(highs)
    for chips, eligible in side_pots(contributions, folded):
        for seat, amount in enumerate(split_pot(chips, highs, lows, eligible, button)):
            won[seat] += amount
    return won


def share_unit(players: int) -> int:
    """Pot shares in whole units: every high or low split among up to ``players`` divides it."""
    return 2 * lcm(*range(1, players + 1))
