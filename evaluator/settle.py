"""Splitting pots in whole chips, exactly as RULES.md section 6 says.

Seats are numbered clockwise; ``button`` is the dealer's seat. Strengths are the reference's
integers (larger is better; a low of 0 is no low).

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


def clockwise_from_button(seats: Sequence[int], button: int, table_size: int) -> list[int]:
    """Seats ordered by their distance clockwise from the button (the button itself last)."""
    return sorted(seats, key=lambda s: (s - button - 1) % table_size)


def split_pot(
    pot: int, highs: Sequence[int], lows: Sequence[int], eligible: Sequence[int], button: int
) -> list[int]:
    """Chips each seat wins from one pot contested by ``eligible`` seats.

    With a qualifying low the pot is halved (the odd chip to the high half); tied winners of a
    half share it equally; every chip that does not divide evenly goes to the high winner, or
    with a tied high to the tied winner first clockwise from the button.
    """
    won = [0] * len(highs)
    if pot <= 0 or not eligible:
        return won
    best_high = max(highs[s] for s in eligible)
    high_winners = [s for s in eligible if highs[s] == best_high]
    best_low = max(lows[s] for s in eligible)
    low_winners = [s for s in eligible if best_low > 0 and lows[s] == best_low]
    halves = [(pot - pot // 2, high_winners), (pot // 2, low_winners)] if low_winners else [(pot, high_winners)]
    odd_chips = 0
    for half, winners in halves:
        share, rest = divmod(half, len(winners))
        for s in winners:
            won[s] += share
        odd_chips += rest
    won[clockwise_from_button(high_winners, button, len(highs))[0]] += odd_chips
    return won


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


def side_pots(contributions: Sequence[int], folded: Sequence[bool]) -> list[tuple[int, tuple[int, ...]]]:
    """``(chips, eligible seats)`` per contribution layer, smallest layer first.

    A layer nobody still in the hand reached (a folded player's excess) joins the layer below.
    """
    if any(c < 0 for c in contributions):
        raise SampyongError("contributions cannot be negative")
    levels = sorted({c for c in contributions if c > 0})
    pots: list[tuple[int, tuple[int, ...]]] = []
    previous = 0
    for level in levels:
        chips = sum(min(c, level) - min(c, previous) for c in contributions)
        eligible = tuple(s for s, c in enumerate(contributions) if c >= level and not folded[s])
        if not eligible and pots:
            pots[-1] = (pots[-1][0] + chips, pots[-1][1])
        elif eligible and pots and pots[-1][1] == eligible:
            pots[-1] = (pots[-1][0] + chips, eligible)
        else:
            pots.append((chips, eligible))
        previous = level
    if pots and not pots[0][1]:
        raise SampyongError("every player folded: nobody can win the pot")
    return pots


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
