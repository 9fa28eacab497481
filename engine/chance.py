"""The ``random-legal`` policy's decision, written once for both engines.

A ``random-legal`` seat picks every legal action with fixed weights and draws raise sizes over
the whole legal range (the minimum, the maximum, or any amount between). Its draws are fixed by
the hand's key and the number of actions so far (board deals included, hole-card deals not),
so the reference engine (``engine.player``, calling these functions from Python) and the numba
engine (``engine.fast``, calling them inside its kernel) take the same action in the same spot.

>>> from engine.policy import Policy, Random
>>> row = Policy("r", style="random-legal", random=Random(fold=0.0, check_call=0.0001, bet_raise=1.0)).encode()
>>> random_action(row, 12345, 0, True, 4, 200)[0] == RAISE
True
>>> random_action(row, 12345, 0, False, -1, -1)  # no raise allowed, no fold: a check
(1, 0)
"""

from __future__ import annotations

import numpy as np

from engine.policy import P_BET_RAISE, P_CHECK_CALL, P_FOLD, P_MAX_RAISE, P_MIN_RAISE
from engine.strength import _splitmix as _mix  # the strength samples' mixer: one SplitMix64
from evaluator.jit import njit

FOLD, CHECK_CALL, RAISE = 0, 1, 2


@njit(cache=True)
def uniform(key, step, draw):
    """A number in [0, 1) fixed by (hand key, action step, draw within the step)."""
    z = _mix(_mix(_mix(np.uint64(key)) ^ np.uint64(step)) ^ np.uint64(draw))
    return np.float64(z >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def random_action(row, key, step, can_fold, low, high):
    """``(kind, amount)`` of a ``random-legal`` seat: ``FOLD``, ``CHECK_CALL`` or ``RAISE`` to
    ``amount`` (a street total from ``low`` to ``high``; ``low`` -1 when no raise is allowed).
    ``row`` is ``Policy.encode()``."""
    fold = row[P_FOLD] if can_fold else 0.0
    bet_raise = row[P_BET_RAISE] if low >= 0 else 0.0
    pick = uniform(key, step, 0) * (fold + row[P_CHECK_CALL] + bet_raise)
    if pick < fold:
        return FOLD, np.int64(0)
    if pick < fold + row[P_CHECK_CALL] or bet_raise == 0.0:
        return CHECK_CALL, np.int64(0)
    size = uniform(key, step, 1)
    if size < row[P_MIN_RAISE]:
        return RAISE, np.int64(low)
    if size < row[P_MIN_RAISE] + row[P_MAX_RAISE]:
        return RAISE, np.int64(high)
    return RAISE, np.int64(min(low + np.int64(uniform(key, step, 2) * (high - low + 1)), high))
