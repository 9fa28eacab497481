"""The settlement rules of ``evaluator.settle`` as numba kernels: the pots of a hand and their
split (``evaluator.settle``'s own ``form_pots`` and ``divide_pot``, compiled), who wins each half
of a pot, what a showdown was, and each seat's share of an all-in pot.

Apart from ``evaluator.settle`` so that refereeing a showdown (``sampyong eval``) imports no
numba; ``tests/test_settle.py`` holds the two to the same answers.
"""

from __future__ import annotations

import numpy as np

from evaluator import settle
from evaluator.jit import njit

form_pots = njit(inline="always")(settle.form_pots)
divide_pot = njit(inline="always")(settle.divide_pot)


@njit(inline="always")
def settle_pots(bets, out, dead, highs, lows, button):
    """``(won, ok)``: the chips each seat wins from every pot of a hand (``form_pots``, each
    split by ``divide_pot``), as ``Hand._settle`` pays them; ``ok`` False where
    ``evaluator.settle.side_pots`` refuses (a pot nobody contests).

    >>> won, ok = settle_pots(np.array([50, 100, 200, 200]), np.zeros(4, np.bool_), 0,
    ...                       np.array([9, 8, 7, 1]), np.zeros(4, np.int64), 3)
    >>> won.tolist(), ok
    ([200, 150, 200, 0], True)
    """
    chips, contenders = form_pots(bets, out, dead)
    won = np.zeros(bets.shape[0], np.int64)
    for p in range(chips.shape[0]):
        if not contenders[p].any():
            return won, False
        share, _, _ = divide_pot(chips[p], highs, lows, contenders[p], button)
        won += share
    return won, True


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
        quartered = (
            (high_winners > both and high_winners == 2)
            or (low_winners > both and low_winners == 2)
            or (both > 0 and 2 * (high_winners + low_winners) == high_winners * low_winners)
        )
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
