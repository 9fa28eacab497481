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
from numba import njit

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


# --- The same rules for the numba kernels: who wins each half, and what a showdown was ---------


@njit(inline="always")
def half_winners(high, low, eligible):
    """``(best high, its winners, best low, its winners)`` among the seats where ``eligible``
    (a boolean mask) is set; a best low of 0 is no low, with 0 winners. Every kernel that
    splits a pot or describes a showdown counts the winners of each half here.

    >>> half_winners(np.array([5, 5, 1]), np.array([0, 9, 7]), np.array([True, True, True]))
    (5, 2, 9, 1)
    """
    best_high = np.int64(-1)
    best_low = np.int64(0)
    for s in range(high.shape[0]):
        if eligible[s]:
            best_high = max(best_high, np.int64(high[s]))
            best_low = max(best_low, np.int64(low[s]))
    high_count = 0
    low_count = 0
    for s in range(high.shape[0]):
        if eligible[s]:
            high_count += np.int64(high[s]) == best_high
            low_count += best_low > 0 and np.int64(low[s]) == best_low
    return best_high, high_count, best_low, low_count


# What ``showdown_flags`` returns, in order: the names every table of them uses.
SHOWDOWN_FLAGS = ("hi_chop", "low_exists", "low_tie", "scoop", "quartered", "hilo_split")


@njit(inline="always")
def showdown_flags(high_winners, low_winners, both):
    """``(hi_chop, low_exists, low_tie, scoop, quartered, hilo_split)`` of a showdown whose high
    half has ``high_winners`` winners, whose low half ``low_winners`` (0: no low), ``both`` of
    them winning both. A scoop is one player taking the whole pot; quartered, some player's
    share exactly a quarter (high only 1/(2T), low only 1/(2U), both 1/(2T) + 1/(2U); without a
    low 1/T); hilo_split, a low exists and its winners are not the high's.

    >>> [bool(f) for f in showdown_flags(2, 2, 1)]  # high and low each tied, one player in both
    [True, True, True, False, True, True]
    """
    some_low = low_winners > 0
    if not some_low:
        scoop = high_winners == 1
        quartered = high_winners == 4
    else:
        scoop = high_winners == 1 and low_winners == 1 and both == 1
        quartered = ((high_winners > both and high_winners == 2) or (low_winners > both and low_winners == 2)
                     or (both > 0 and 2 * (high_winners + low_winners) == high_winners * low_winners))
    split = some_low and not (high_winners == both and low_winners == both)
    return high_winners > 1, some_low, low_winners > 1, scoop, quartered, split


@njit(inline="always")
def flags_among(high, low, seats):
    """``showdown_flags`` of the showdown among the seats where ``seats`` (a mask) is set."""
    best_high, high_count, best_low, low_count = half_winners(high, low, seats)
    both = 0
    for s in range(high.shape[0]):
        if seats[s]:
            both += np.int64(high[s]) == best_high and best_low > 0 and np.int64(low[s]) == best_low
    return showdown_flags(high_count, low_count, both)


@njit(cache=True)
def pot_shares(high, low, unit, high_part, low_part):
    """Each seat's share of one all-in pot per deal, in ``unit``s (odd chips ignored).

    With a qualifying low the pot is halved; tied winners split a half (or the whole pot)
    equally. ``high_part`` and ``low_part`` (``int64[n, players]``) receive the two halves.
    """
    n, players = high.shape
    everyone = np.ones(players, np.bool_)
    for i in range(n):
        top_high, high_ties, top_low, low_ties = half_winners(high[i], low[i], everyone)
        # One division per pot half per deal (integer division is slow), then per seat a select.
        high_share = (unit // 2 if top_low > 0 else unit) // high_ties
        low_share = unit // 2 // low_ties if top_low > 0 else 0
        for p in range(players):
            high_part[i, p] = high_share if np.int64(high[i, p]) == top_high else 0
            low_part[i, p] = low_share if top_low > 0 and np.int64(low[i, p]) == top_low else 0
