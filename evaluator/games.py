"""Games as data: hand categories, rankings (orders over categories) and rule sets (RULES.md 3-8).

>>> g = game("pls7")
>>> g.hole_cards, g.hole_use, g.ranking.name, g.low
(3, (0, 3), 'base', 7)
>>> g.variant(low=8, ranking="skip_over_flush").name
'pls7[ranking=skip_over_flush,low=8]'
>>> game("plo").max_players
11
"""

from __future__ import annotations

import dataclasses
import enum
from functools import cached_property

from evaluator.errors import SampyongError


class Category(enum.IntEnum):
    """High-hand categories; the value is the position in the base PLS ranking (0 = weakest)."""

    high_card = 0
    one_pair = 1
    two_pair = 2
    three_of_a_kind = 3
    straight = 4
    skip_straight = 5
    flush = 6
    full_house = 7
    four_of_a_kind = 8
    straight_flush = 9
    skip_straight_flush = 10
    royal_flush = 11


C = Category


@dataclasses.dataclass(frozen=True)
class Ranking:
    """An order over categories, weakest first.

    A ranking without ``skip_straight`` has no skip straights (those hands are high cards or
    flushes); one without ``royal_flush`` counts the royal as the top straight flush.
    """

    name: str
    order: tuple[Category, ...]

    @property
    def has_skips(self) -> bool:
        return C.skip_straight in self.order

    @property
    def has_royal(self) -> bool:
        return C.royal_flush in self.order

    def position(self, category: Category) -> int:
        return self.order.index(category)


def _swap(order: tuple[Category, ...], a: Category, b: Category) -> tuple[Category, ...]:
    swapped = list(order)
    i, j = swapped.index(a), swapped.index(b)
    swapped[i], swapped[j] = swapped[j], swapped[i]
    return tuple(swapped)


_BASE = tuple(Category)
RANKINGS: dict[str, Ranking] = {
    "base": Ranking("base", _BASE),
    "trips_over_straight": Ranking("trips_over_straight", _swap(_BASE, C.three_of_a_kind, C.straight)),
    "skip_over_flush": Ranking("skip_over_flush", _swap(_BASE, C.skip_straight, C.flush)),
    "both": Ranking(
        "both",
        _swap(_swap(_BASE, C.three_of_a_kind, C.straight), C.skip_straight, C.flush),
    ),
    "standard": Ranking(
        "standard",
        (
            C.high_card,
            C.one_pair,
            C.two_pair,
            C.three_of_a_kind,
            C.straight,
            C.flush,
            C.full_house,
            C.four_of_a_kind,
            C.straight_flush,
        ),
    ),
}

LOW_QUALIFIERS = (6, 7, 8)
BOARD_CARDS = 5


@dataclasses.dataclass(frozen=True)
class Game:
    """A rule set: hole cards, how many of them a 5-card hand must use, the ranking, the low.

    ``low`` is None (high only) or the qualifier rank (6, 7 or 8; ace counts low).
    """

    name: str
    hole_cards: int
    hole_use: tuple[int, int]
    ranking: Ranking
    low: int | None
    board_cards: int = BOARD_CARDS

    def __post_init__(self) -> None:
        lo, hi = self.hole_use
        if not 1 <= self.hole_cards <= 6:
            raise SampyongError(f"{self.name}: hole cards must be 1 to 6, not {self.hole_cards}")
        if not (0 <= lo <= hi <= self.hole_cards):
            raise SampyongError(f"{self.name}: hole use {lo}-{hi} is impossible with {self.hole_cards} hole cards")
        if not any(5 - self.board_cards <= h <= 5 for h in range(lo, hi + 1)):
            raise SampyongError(f"{self.name}: hole use {lo}-{hi} cannot make a 5-card hand")
        if self.low is not None and self.low not in LOW_QUALIFIERS:
            raise SampyongError(f"{self.name}: low qualifier must be one of 6, 7, 8 (or none), not {self.low}")

    @property
    def base_name(self) -> str:
        """The preset a variant was turned from: ``pls7`` for ``pls7[low=8]``."""
        return self.name.split("[")[0]

    @property
    def free_use(self) -> bool:
        """True when any 5 of the hole and board cards may play (the table fast path)."""
        return self.hole_use[0] == 0 and self.hole_use[1] >= min(self.hole_cards, 5)

    @property
    def max_players(self) -> int:
        return (52 - self.board_cards) // self.hole_cards

    @cached_property
    def hand_splits(self) -> tuple[int, ...]:
        """How many hole cards a 5-card hand may use, each count allowed by ``hole_use``."""
        lo, hi = self.hole_use
        return tuple(h for h in range(lo, hi + 1) if 5 - self.board_cards <= h <= 5)

    def check_players(self, players: int) -> None:
        if not 2 <= players <= self.max_players:
            raise SampyongError(
                f"{self.name}: players must be 2 to {self.max_players} "
                f"({self.hole_cards} hole cards each and {self.board_cards} on the board), not {players}"
            )

    def variant(
        self,
        *,
        hole_use: tuple[int, int] | str | None = None,
        ranking: str | Ranking | None = None,
        low: int | str | None = "keep",
    ) -> Game:
        """The same game with some knobs turned; the name records what changed."""
        changes: dict = {}
        if hole_use is not None:
            changes["hole_use"] = parse_hole_use(hole_use, self.hole_cards)
        if ranking is not None:
            changes["ranking"] = ranking if isinstance(ranking, Ranking) else parse_ranking(ranking)
        if low != "keep":
            changes["low"] = parse_low(low)
        knobs = [f"{key}={_knob_text(value)}" for key, value in changes.items() if value != getattr(self, key)]
        name = f"{self.base_name}[{','.join(knobs)}]" if knobs else self.name
        return dataclasses.replace(self, name=name, **changes)


def _knob_text(value) -> str:
    if isinstance(value, Ranking):
        return value.name
    if isinstance(value, tuple):
        return f"{value[0]}-{value[1]}"
    return "none" if value is None else str(value)


def parse_hole_use(value: tuple[int, int] | str, hole_cards: int) -> tuple[int, int]:
    """``"2-3"``, ``"2"`` (exactly two), or a preset name: free, at-least-one, pls-2, exactly-2."""
    if isinstance(value, tuple):
        return (int(value[0]), int(value[1]))
    text = value.strip().lower()
    if text == "free":
        return (0, hole_cards)
    if text == "at-least-one":
        return (1, hole_cards)
    if text == "pls-2":
        return (2, hole_cards)
    if text.startswith("exactly-"):
        text = text.removeprefix("exactly-")
    parts = text.split("-")
    try:
        numbers = [int(p) for p in parts]
    except ValueError:
        numbers = []
    if len(numbers) == 1:
        return (numbers[0], numbers[0])
    if len(numbers) == 2:
        return (numbers[0], numbers[1])
    raise SampyongError(
        f"bad hole use {value!r}: write MIN-MAX (e.g. 2-3), N, or free / at-least-one / pls-2 / exactly-2"
    )


def parse_ranking(name: str) -> Ranking:
    try:
        return RANKINGS[name]
    except KeyError:
        raise SampyongError(f"unknown ranking {name!r}; choose one of {', '.join(RANKINGS)}") from None


def parse_low(value: int | str | None) -> int | None:
    if value is None or (isinstance(value, str) and value.strip().lower() in ("none", "no", "off")):
        return None
    try:
        qualifier = int(value)
    except (TypeError, ValueError):
        raise SampyongError(f"bad low qualifier {value!r}: use 6, 7, 8 or none") from None
    if qualifier not in LOW_QUALIFIERS:
        raise SampyongError(f"bad low qualifier {value!r}: use 6, 7, 8 or none")
    return qualifier


PRESETS: dict[str, Game] = {
    g.name: g
    for g in (
        Game("pls7", 3, (0, 3), RANKINGS["base"], 7),
        Game("pls", 3, (0, 3), RANKINGS["base"], None),
        Game("pls7-2", 3, (2, 3), RANKINGS["base"], 7),
        Game("holdem", 2, (0, 2), RANKINGS["standard"], None),
        Game("plo", 4, (2, 2), RANKINGS["standard"], None),
        Game("plo8", 4, (2, 2), RANKINGS["standard"], 8),
        Game("plo5-8", 5, (2, 2), RANKINGS["standard"], 8),
    )
}


def game(name: str) -> Game:
    """A preset by name."""
    try:
        return PRESETS[name.strip().lower()]
    except KeyError:
        raise SampyongError(f"unknown game {name!r}; choose one of {', '.join(PRESETS)}") from None


def resolve_game(
    name: str,
    *,
    hole_use: str | None = None,
    ranking: str | None = None,
    low: str | None = None,
) -> Game:
    """A preset with optional knobs, as the CLI spells them (``low`` "none" turns the low off)."""
    return game(name).variant(hole_use=hole_use, ranking=ranking, low="keep" if low is None else low)
