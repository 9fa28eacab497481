"""The rule book as code: plain Python over the allowed 5-card subsets, slow on purpose.

Every fast path is tested against this module. Strength integers are shared with the kernels:

* high: ``position_of_category_in_ranking << 20 | tiebreak`` where the tiebreak ranks (0..12 for
  2..A, most significant first) fill 4-bit fields from bit 16 down; larger is stronger.
* low: ``LOW_BASE - packed`` where ``packed`` holds the five low ranks (ace = 1) high to low in
  4-bit fields; larger is better; ``NO_LOW`` (0) means no qualifying low.

>>> from evaluator.cards import parse_cards
>>> from evaluator.games import game
>>> h = best_high(game("pls7"), parse_cards("2h 4h 6h"), parse_cards("8h Th Kd Kc Ks"))
>>> h.category.name, h.text
('skip_straight_flush', 'Th 8h 6h 4h 2h')
>>> best_low(game("pls7"), parse_cards("Ah 2d 9c"), parse_cards("3s 4d 5c Kd Kh")).text
'5c 4d 3s 2d Ah'
"""

from __future__ import annotations

import dataclasses
import itertools

from evaluator.cards import format_cards, rank_of, suit_of
from evaluator.games import Category, Game, Ranking

C = Category
ACE = 12
TIEBREAK_BITS = 20
LOW_BASE = 1 << 20
NO_LOW = 0


def straight_top(ranks: set[int]) -> int | None:
    """Top rank of five consecutive ranks (the wheel A-2-3-4-5 tops at the 5), else None."""
    if len(ranks) != 5:
        return None
    if ranks == {ACE, 0, 1, 2, 3}:
        return 3
    top = max(ranks)
    return top if ranks == set(range(top - 4, top + 1)) else None


def skip_top(ranks: set[int]) -> int | None:
    """Top rank of a skip straight (five ranks two apart; A-3-5-7-9 tops at the 9), else None."""
    if len(ranks) != 5:
        return None
    if ranks == {ACE, 1, 3, 5, 7}:
        return 7
    top = max(ranks)
    return top if ranks == set(range(top - 8, top + 1, 2)) else None


def classify5(cards, ranking: Ranking) -> tuple[Category, tuple[int, ...]]:
    """Category and tiebreak ranks of exactly five cards under a ranking."""
    ranks = sorted((rank_of(c) for c in cards), reverse=True)
    distinct = set(ranks)
    flush = len({suit_of(c) for c in cards}) == 1
    straight = straight_top(distinct)
    skip = skip_top(distinct) if ranking.has_skips else None
    # Ranks ordered by (count, rank), most significant first: quads/trips/pairs then kickers.
    grouped = sorted(distinct, key=lambda r: (ranks.count(r), r), reverse=True)
    shape = sorted((ranks.count(r) for r in distinct), reverse=True)

    if flush and straight is not None:
        if straight == ACE and ranking.has_royal:
            return C.royal_flush, (ACE,)
        return C.straight_flush, (straight,)
    if flush and skip is not None:
        return C.skip_straight_flush, (skip,)
    if shape[0] == 4:
        return C.four_of_a_kind, tuple(grouped)
    if shape == [3, 2]:
        return C.full_house, tuple(grouped)
    if flush:
        return C.flush, tuple(ranks)
    if skip is not None:
        return C.skip_straight, (skip,)
    if straight is not None:
        return C.straight, (straight,)
    if shape[0] == 3:
        return C.three_of_a_kind, tuple(grouped)
    if shape == [2, 2, 1]:
        return C.two_pair, tuple(grouped)
    if shape[0] == 2:
        return C.one_pair, tuple(grouped)
    return C.high_card, tuple(ranks)


def pack_ranks(ranks: tuple[int, ...]) -> int:
    """Ranks in 4-bit fields, the first in bits 16-19."""
    return sum(r << (4 * (4 - i)) for i, r in enumerate(ranks))


def high_strength(category: Category, tiebreak: tuple[int, ...], ranking: Ranking) -> int:
    return (ranking.position(category) << TIEBREAK_BITS) | pack_ranks(tiebreak)


def strength5(cards, ranking: Ranking) -> int:
    category, tiebreak = classify5(cards, ranking)
    return high_strength(category, tiebreak, ranking)


def low_ranks5(cards, qualifier: int) -> tuple[int, ...] | None:
    """The five low ranks (ace = 1) high to low if the five cards make a low, else None."""
    values = sorted((1 if rank_of(c) == ACE else rank_of(c) + 2 for c in cards), reverse=True)
    if len(set(values)) == 5 and values[0] <= qualifier:
        return tuple(values)
    return None


def low_strength(low_ranks: tuple[int, ...] | None) -> int:
    return NO_LOW if low_ranks is None else LOW_BASE - pack_ranks(low_ranks)


@dataclasses.dataclass(frozen=True)
class HighHand:
    category: Category
    tiebreak: tuple[int, ...]
    cards: tuple[int, ...]
    strength: int

    @property
    def text(self) -> str:
        return format_cards(self.cards)


@dataclasses.dataclass(frozen=True)
class LowHand:
    ranks: tuple[int, ...]
    cards: tuple[int, ...]
    strength: int

    @property
    def text(self) -> str:
        return format_cards(self.cards)


def allowed_hands(game: Game, hole, board):
    """Every 5-card hand the game allows from these hole and board cards."""
    for used in game.hand_splits:
        for from_hole in itertools.combinations(hole, used):
            for from_board in itertools.combinations(board, 5 - used):
                yield from_hole + from_board


def _display_order(cards) -> tuple[int, ...]:
    """Most frequent rank first, then high to low (``Ks Kh Ad Qc 8c``)."""
    ranks = [rank_of(c) for c in cards]
    return tuple(sorted(cards, key=lambda c: (ranks.count(rank_of(c)), rank_of(c), suit_of(c)), reverse=True))


@dataclasses.dataclass(frozen=True)
class Showdown:
    """What one player shows: best high, best low (or None), and the categories present."""

    high: HighHand
    low: LowHand | None
    present: frozenset[Category]


def showdown(game: Game, hole, board) -> Showdown:
    """Best high, best low and present categories in one pass over the allowed 5-card hands."""
    best_h = None
    best_l = None
    present = set()
    for cards in allowed_hands(game, tuple(hole), tuple(board)):
        category, tiebreak = classify5(cards, game.ranking)
        present.add(category)
        strength = high_strength(category, tiebreak, game.ranking)
        if best_h is None or strength > best_h.strength:
            best_h = HighHand(category, tiebreak, _display_order(cards), strength)
        if game.low is not None:
            ranks = low_ranks5(cards, game.low)
            if ranks is not None and (best_l is None or ranks < best_l.ranks):
                best_l = LowHand(ranks, _low_order(cards), low_strength(ranks))
    assert best_h is not None  # a pool has at least one 5-card hand (Game checks hole use)
    return Showdown(best_h, best_l, frozenset(present))


def best_high(game: Game, hole, board) -> HighHand:
    """The strongest allowed 5-card high hand."""
    return showdown(game, hole, board).high


def best_low(game: Game, hole, board) -> LowHand | None:
    """The best allowed qualifying low, or None (also None when the game has no low)."""
    return showdown(game, hole, board).low


def present_categories(game: Game, hole, board) -> set[Category]:
    """Categories that at least one allowed 5-card hand makes exactly."""
    return set(showdown(game, hole, board).present)


def _low_order(cards) -> tuple[int, ...]:
    return tuple(sorted(cards, key=lambda c: ((rank_of(c) + 1) % 13, suit_of(c)), reverse=True))
