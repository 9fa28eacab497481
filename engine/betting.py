"""Betting structures as data: no-limit, pot-limit, fixed-limit, and each game's default.

>>> POT_LIMIT.kind, NO_LIMIT.max_bets
('pot-limit', None)
>>> fixed_limit(small_bet=2).big_bet
4
>>> default_betting("pls7") is POT_LIMIT and default_betting("holdem") is NO_LIMIT
True
"""

from __future__ import annotations

import dataclasses

from evaluator.errors import SampyongError

KINDS = ("no-limit", "pot-limit", "fixed-limit")


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


def default_betting(game_name: str) -> Betting:
    """The usual structure of a preset (the part of a variant's name before ``[``)."""
    try:
        return DEFAULTS[game_name.split("[")[0]]
    except KeyError:
        raise SampyongError(f"no default betting structure for {game_name!r}") from None


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
