"""What a seat reads of its opponents' hands from their preflop actions, under its own policy.

A ``thresholds`` policy with ``postflop.ranges`` does not measure its hand against random
hands: it assumes each opponent plays preflop as it does itself and keeps, for each opponent
still in, only the starting hands with which its own thresholds would have taken that
opponent's preflop actions. Each action caps the opponent's **percentile** (0 the best hand,
as ``engine.ranking``); the range is every hand under the tightest cap of its actions:

=================  ===========================================  ===============================
read               the preflop action                           cap under the reader's policy
=================  ===========================================  ===============================
``OPENED``         the first raise                              its open share at the opener's
                                                                position (``open_early`` to
                                                                ``open_late``)
``RERAISED``       any later raise                              ``reraise``
``CALLED``         a call of one raise nobody had called        ``call``
``OVERCALLED``     a call of one raise somebody had called      ``overcall``
``CALLED_RAISES``  a call of two or more raises                 ``call_reraised``
``LIMPED``         a call of the blinds                         its limping cap with ``limp``,
                                                                else its open share
``CHECKED``        the big blind's check (no choice to fold)    none (1)
=================  ===========================================  ===============================

No cap is below ``MIN_CAP``: an opponent who took an action the reader's model never takes
(a re-raise from a model that re-raises nothing) still holds some hand.

The read of an action and the cap of a set of reads are ``@njit`` functions written once:
the numba engine (``engine.fast``) calls them as it plays, the reference engine
(``engine.player``) through ``preflop_reads``, which reads a ``Hand``'s PHH actions, so both
sample opponent hands from the same ranges (``engine.strength``).

>>> from engine.policy import builtin
>>> row = builtin("regular").encode()
>>> read = preflop_read(True, 0, 0, True) | preflop_read(False, 2, 0, True)  # opened, then called a re-raise
>>> read == OPENED | CALLED_RAISES, range_cap(row, read, 0.0) == builtin("regular").preflop.call_reraised
(True, True)
>>> range_cap(row, CHECKED, 1.0), range_cap(row, 0, 0.5)
(1.0, 1.0)
"""

from __future__ import annotations

from engine.policy import (
    P_CALL,
    P_CALL_RERAISED,
    P_LIMP,
    P_OPEN_EARLY,
    P_OPEN_LATE,
    P_OVERCALL,
    P_RERAISE,
)
from evaluator.jit import njit

OPENED, RERAISED, CALLED, OVERCALLED, CALLED_RAISES, LIMPED, CHECKED = (1 << k for k in range(7))
MIN_CAP = 0.01  # the narrowest range: the best 1 % of starting hands


@njit(cache=True)
def preflop_read(raised, raises, callers, can_fold):
    """The read of one preflop action that is not a fold: ``raised`` (a bet or raise, else a
    check or call) facing ``raises`` raises so far, ``callers`` of the last one, and whether
    the player could have folded."""
    if raised:
        return OPENED if raises == 0 else RERAISED
    if raises == 0:
        return LIMPED if can_fold else CHECKED
    if raises == 1:
        return OVERCALLED if callers > 0 else CALLED
    return CALLED_RAISES


@njit(cache=True)
def range_cap(row, reads, position):
    """The percentile cap of an opponent whose preflop actions gave ``reads`` (a bit set) at
    ``position`` (0 first to act, 1 the button), under the policy ``row`` (``Policy.encode``)."""
    open_share = row[P_OPEN_EARLY] + (row[P_OPEN_LATE] - row[P_OPEN_EARLY]) * position
    cap = 1.0
    if reads & OPENED:
        cap = min(cap, open_share)
    if reads & RERAISED:
        cap = min(cap, row[P_RERAISE])
    if reads & CALLED:
        cap = min(cap, row[P_CALL])
    if reads & OVERCALLED:
        cap = min(cap, row[P_OVERCALL])
    if reads & CALLED_RAISES:
        cap = min(cap, row[P_CALL_RERAISED])
    if reads & LIMPED:
        cap = min(cap, max(row[P_CALL], open_share) * 1.5 if row[P_LIMP] == 1.0 else open_share)
    return max(cap, MIN_CAP)


def preflop_reads(hand) -> list[int]:
    """Each seat's reads (a bit set) from the preflop actions of ``hand`` (an ``engine.hand.Hand``),
    as the numba engine notes them while it plays."""
    reads = [0] * hand.seats
    raises = callers = 0
    for action in hand.actions:
        words = action.split()
        if words[0] == "d":
            if words[1] == "db":
                break
            continue
        seat, verb = int(words[0][1:]) - 1, words[1]
        if verb == "f":
            continue
        # With no raise yet a seat acts once, facing the blinds it posted: it may fold unless it
        # posted the largest.
        can_fold = raises > 0 or hand.posted[seat] < max(hand.posted)
        reads[seat] |= preflop_read(verb == "cbr", raises, callers, can_fold)
        if verb == "cbr":
            raises, callers = raises + 1, 0
        else:
            callers += 1
    return reads


def caps(hand, seat: int, row, order: dict[int, float]) -> list[float]:
    """The cap of each opponent of ``seat`` still in ``hand``, in seat order, under the policy
    ``row`` (``order``: the seats' positions, ``engine.player.positions``)."""
    reads = preflop_reads(hand)
    return [float(range_cap(row, reads[s], order[s])) for s in hand.live if s != seat]
