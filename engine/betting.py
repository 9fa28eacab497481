"""Betting structures as data (no-limit, pot-limit, fixed-limit, each game's default) and the
betting arithmetic both engines share, written once as numba functions over a structure's
encoding: the minimum raise and the bounds of a bet or raise (the pot-limit maximum, short
all-ins that do not reopen the betting, the fixed-limit cap). The reference engine
(``engine.hand``) calls them from Python, the numba engine (``engine.fast``) inside its kernel.

>>> POT_LIMIT.kind, NO_LIMIT.max_bets
('pot-limit', None)
>>> fixed_limit(small_bet=2).big_bet
4
>>> default_betting("pls7") is POT_LIMIT and default_betting("holdem") is NO_LIMIT
True
>>> structure = POT_LIMIT.encode(min_bet=2)
>>> raise_bounds(structure, street=0, last_raise=0, raises=0, live=3, opponents_with_chips=2,
...              most=200, max_bet=2, call=2, acted_at=-1, pot=3)  # first in: raise to 4 .. the pot, 7
(4, 7)
"""

from __future__ import annotations

import dataclasses

import numpy as np

from evaluator.errors import SampyongError
from evaluator.jit import njit

KINDS = ("no-limit", "pot-limit", "fixed-limit")
NO_LIMIT_KIND, POT_LIMIT_KIND, FIXED_LIMIT_KIND = range(len(KINDS))
# A structure's encoding for one hand (``Betting.encode``): int64 at these indices.
S_KIND, S_SMALL_BET, S_BIG_BET, S_MAX_BETS, S_MIN_BET = range(5)


@dataclasses.dataclass(frozen=True)
class Betting:
    """How much a player may bet or raise.

    Parameters:
        kind: ``no-limit`` (up to the whole stack), ``pot-limit`` (up to the pot after the
            pending call, plus that call) or ``fixed-limit`` (one bet size a street).
        small_bet: fixed-limit only: the bet and raise size preflop and on the flop (0: the
            hand's minimum bet, usually the big blind).
        big_bet: fixed-limit only: the size on the turn and the river (0: twice the small bet).
        max_bets: fixed-limit only: bets and raises a player may make in one betting round,
            all players together (the blinds not counted); None for no cap. The cap lifts
            when only two players are left in the hand.
    """

    kind: str
    small_bet: int = 0
    big_bet: int = 0
    max_bets: int | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise SampyongError(f"unknown betting structure {self.kind!r}; choose one of {', '.join(KINDS)}")
        if self.small_bet < 0 or self.big_bet < 0:
            raise SampyongError("bet sizes cannot be negative")

    def bet_size(self, street: int, min_bet: int) -> int:
        """The fixed-limit bet of ``street`` (0 preflop .. 3 river) in a hand whose minimum bet is ``min_bet``.

        >>> fixed_limit().bet_size(0, 2), fixed_limit().bet_size(3, 2)
        (2, 4)
        """
        small = self.small_bet or min_bet
        return small if street < 2 else (self.big_bet or 2 * small)

    def encode(self, min_bet: int) -> np.ndarray:
        """The structure as the betting functions read it in a hand whose minimum bet (and
        minimum raise) is ``min_bet``: ``int64[5]`` indexed by the ``S_*`` constants, the bet
        sizes resolved and no cap written -1.

        >>> fixed_limit().encode(min_bet=2).tolist()
        [2, 2, 4, 4, 2]
        """
        return np.array(
            [
                KINDS.index(self.kind),
                self.bet_size(0, min_bet),
                self.bet_size(2, min_bet),
                -1 if self.max_bets is None else self.max_bets,
                min_bet,
            ],
            np.int64,
        )


@njit(cache=True)
def min_raise_size(structure, street, last_raise):
    """The smallest raise increment on ``street`` (0 preflop .. 3 river): fixed-limit's bet of the
    street, else the last full bet or raise of the street, at least the minimum bet."""
    if structure[S_KIND] == FIXED_LIMIT_KIND:
        return structure[S_SMALL_BET] if street < 2 else structure[S_BIG_BET]
    return max(last_raise, structure[S_MIN_BET])


@njit(cache=True)
def raise_bounds(structure, street, last_raise, raises, live, opponents_with_chips, most, max_bet, call, acted_at, pot):
    """``(lowest, highest)`` street total the player to act may bet or raise to, or ``(-1, -1)``.

    ``live``: players still in; ``opponents_with_chips``: those of them, the player aside, not
    all-in; ``most``: the player's stack plus this street's bet; ``call``: the bet to match minus
    the player's (``max_bet`` the bet to match); ``acted_at``: the bet the player last acted at
    this street (-1: not yet); ``pot``: every chip in the middle; ``raises``: bets and raises
    this street. Short all-ins do not reopen the betting (WSOP Rules 96, 96a); fixed-limit's
    cap lifts heads-up; pot-limit's maximum is the pot after the call, plus the call.
    """
    if most <= max_bet or opponents_with_chips == 0:
        return -1, -1  # only a call, all-in or not; or nobody could call a raise
    size = min_raise_size(structure, street, last_raise)
    if acted_at >= 0 and max_bet - acted_at < size:
        return -1, -1  # short all-ins did not reopen the betting
    kind = structure[S_KIND]
    if kind == FIXED_LIMIT_KIND and 0 <= structure[S_MAX_BETS] <= raises and live > 2:
        return -1, -1
    low = min(max_bet + size, most)
    if kind == NO_LIMIT_KIND:
        return low, most
    if kind == POT_LIMIT_KIND:
        return low, min(most, max(low, max_bet + pot + call))
    return low, low


NO_LIMIT = Betting("no-limit")
POT_LIMIT = Betting("pot-limit")


def fixed_limit(small_bet: int = 0, big_bet: int = 0, max_bets: int | None = 4) -> Betting:
    """A fixed-limit structure (by default a cap of four bets a round, sizes from the blinds)."""
    return Betting("fixed-limit", small_bet, big_bet or 2 * small_bet, max_bets)


FIXED_LIMIT = fixed_limit()

# Each preset's usual structure; a --betting knob turns any game into another.
DEFAULTS = {
    "holdem": NO_LIMIT,
    "plo": POT_LIMIT,
    "plo8": POT_LIMIT,
    "plo5-8": POT_LIMIT,
    "pls7": POT_LIMIT,
    "pls": POT_LIMIT,
    "pls7-2": POT_LIMIT,
}


def default_betting(game) -> Betting:
    """The usual structure of a game's preset (``game``: a ``Game``, or a preset's name)."""
    name = getattr(game, "base_name", game)
    try:
        return DEFAULTS[name]
    except KeyError:
        raise SampyongError(f"no default betting structure for {name!r}") from None


def parse_betting(text: str) -> Betting:
    """A structure from its name: ``no-limit``/``nl``, ``pot-limit``/``pl``, ``fixed-limit``/``fl``/``limit``.

    >>> parse_betting("PL").kind
    'pot-limit'
    """
    names = {"nl": "no-limit", "pl": "pot-limit", "fl": "fixed-limit", "limit": "fixed-limit"}
    kind = names.get(text.strip().lower(), text.strip().lower())
    if kind == "fixed-limit":
        return FIXED_LIMIT
    return Betting(kind)
