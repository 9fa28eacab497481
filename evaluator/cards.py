"""Cards as small integers, their text form (RULES.md section 1), and suit-isomorphism classes.

A card is ``rank * 4 + suit`` with rank 0..12 for 2..A and suit 0..3 for s, h, d, c,
so the rank is ``card >> 2`` and the suit ``card & 3``.

>>> parse_cards("As 10d ♥7")
Traceback (most recent call last):
...
evaluator.errors.SampyongError: bad card '♥7': write rank then suit, e.g. 'As', 'Td', '10d', '7♥'
>>> format_cards(parse_cards("As 10d 7♥"))
'As Td 7h'
"""

from __future__ import annotations

import functools
import itertools
import re
from math import comb

import numpy as np

from evaluator.errors import SampyongError

RANKS = "23456789TJQKA"
SUITS = "shdc"
SUIT_SYMBOLS = {"♠": "s", "♥": "h", "♦": "d", "♣": "c"}
DECK_SIZE = 52

_CARD_TOKEN = re.compile(r"^(10|[2-9tjqka])([shdc])$", re.IGNORECASE)


def make_card(rank: int, suit: int) -> int:
    """The card of a rank (0..12 for 2..A) and a suit (0..3 for s, h, d, c)."""
    return rank * 4 + suit


def rank_of(card: int) -> int:
    return card >> 2


def suit_of(card: int) -> int:
    return card & 3


@functools.lru_cache(maxsize=1024)  # records parse the same 52 tokens millions of times
def parse_card(token: str) -> int:
    """One card from text: rank then suit; ``10`` for ``T``, either case, suit symbols allowed.

    >>> parse_card("Td") == parse_card("10D") == parse_card("t♦")
    True
    """
    text = token.strip()
    for symbol, letter in SUIT_SYMBOLS.items():
        text = text.replace(symbol, letter)
    match = _CARD_TOKEN.match(text)
    if not match:
        raise SampyongError(f"bad card {token!r}: write rank then suit, e.g. 'As', 'Td', '10d', '7♥'")
    rank_text = "T" if match.group(1) == "10" else match.group(1).upper()
    return make_card(RANKS.index(rank_text), SUITS.index(match.group(2).lower()))


def split_tokens(text: str) -> list[str]:
    """Card tokens from text separated by spaces or commas, or glued (``AsKd``)."""
    tokens: list[str] = []
    for chunk in re.split(r"[\s,]+", text.strip()):
        if not chunk:
            continue
        # Glued cards: peel off one card token at a time (a rank is '10' or one character).
        while chunk:
            size = 3 if chunk.startswith("10") else 2
            tokens.append(chunk[:size])
            chunk = chunk[size:]
    return tokens


def parse_cards(text: str | list[str]) -> list[int]:
    """Cards from text (``"As Kd"``, ``"AsKd"``, ``"As,Kd"``) or a list of tokens; duplicates are an error."""
    if isinstance(text, str):
        return list(_text_cards(text))
    cards = [parse_card(token) for s in text for token in split_tokens(s)]
    check_distinct(cards)
    return cards


@functools.lru_cache(maxsize=1 << 12)  # a calculator or a record reads the same hands and boards again and again
def _text_cards(text: str) -> tuple[int, ...]:
    glued = _glued(text)
    if glued is not None:
        return glued
    cards = tuple(parse_card(token) for token in split_tokens(text))
    check_distinct(list(cards))
    return cards


_WRITTEN = {RANKS[rank] + SUITS[suit]: make_card(rank, suit) for rank in range(13) for suit in range(4)}  # "As" -> card


@functools.lru_cache(maxsize=1 << 16)  # records write the same hole cards and boards again and again
def _glued(text: str) -> tuple[int, ...] | None:
    """Distinct cards glued as records write them (``"AsKd"``), else None (``parse_cards`` reads the rest)."""
    if len(text) % 2:
        return None
    found = [_WRITTEN.get(text[i : i + 2]) for i in range(0, len(text), 2)]
    cards = tuple(c for c in found if c is not None)
    return cards if len(cards) == len(found) and len(set(cards)) == len(cards) else None


def check_distinct(cards: list[int]) -> None:
    """Raise if a card appears twice."""
    seen: set[int] = set()
    for card in cards:
        if card in seen:
            raise SampyongError(f"card {format_card(card)} is listed twice")
        seen.add(card)


def format_card(card: int) -> str:
    return RANKS[rank_of(card)] + SUITS[suit_of(card)]


def format_cards(cards) -> str:
    return " ".join(format_card(int(c)) for c in cards)


# --- Suit-isomorphism classes -------------------------------------------------------------

SUIT_PERMUTATIONS = tuple(itertools.permutations(range(4)))


def canonical(cards) -> tuple[int, ...]:
    """The class representative: the smallest sorted card tuple over all 24 suit relabellings.

    >>> canonical(parse_cards("Kh Ah")) == canonical(parse_cards("Ac Kc"))
    True
    """
    return min(tuple(sorted(make_card(rank_of(c), perm[suit_of(c)]) for c in cards)) for perm in SUIT_PERMUTATIONS)


def class_name(cards) -> str:
    """A readable class name.

    Two cards use the familiar hold'em notation (``AA``, ``AKs``, ``AKo``). Otherwise the ranks
    high to low, a space, and the suit pattern: cards in that order with suits renamed
    ``a, b, c, d`` by first appearance, e.g. ``AKQ aab`` (ace and king suited, queen off) or
    ``AAK aba`` (the king shares a suit with one ace). The class representative decides the
    order of equal ranks, so every class has exactly one name.

    >>> class_name(parse_cards("Ks Ah")), class_name(parse_cards("Qd Ad Kc"))
    ('AKo', 'AKQ aba')
    """
    rep = sorted(canonical(cards), key=lambda c: (-rank_of(c), suit_of(c)))
    ranks = "".join(RANKS[rank_of(c)] for c in rep)
    if len(rep) == 2:
        if ranks[0] == ranks[1]:
            return ranks
        return ranks + ("s" if suit_of(rep[0]) == suit_of(rep[1]) else "o")
    letters: dict[int, str] = {}
    pattern = "".join(letters.setdefault(suit_of(c), "abcd"[len(letters)]) for c in rep)
    return f"{ranks} {pattern}"


def _all_hands(size: int) -> np.ndarray:
    flat = itertools.chain.from_iterable(itertools.combinations(range(DECK_SIZE), size))
    return np.fromiter(flat, dtype=np.int8, count=comb(DECK_SIZE, size) * size).reshape(-1, size).astype(np.int64)


def _lowest_relabelling(hands: np.ndarray) -> np.ndarray:
    """The smallest code (sorted cards as base-52 digits) any suit relabelling gives each hand."""
    ranks, suits = hands >> 2, hands & 3
    weights = DECK_SIZE ** np.arange(hands.shape[1] - 1, -1, -1, dtype=np.int64)
    codes = [np.sort(ranks * 4 + np.asarray(perm)[suits], axis=1) @ weights for perm in SUIT_PERMUTATIONS]
    return np.minimum.reduce(codes)


@functools.cache
def iso_classes(size: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """All C(52, size) card sets in lexicographic order, grouped into suit-isomorphism classes.

    Returns ``(hands, class_of_hand, class_size)``: ``hands`` is the (C(52,size), size) array of
    sorted card sets, ``class_of_hand[i]`` the class id of ``hands[i]`` (ids ordered by the
    canonical representative: the smallest code a suit relabelling gives), ``class_size[k]``
    how many card sets class ``k`` holds. Sizes 2, 3, 4, 5 give 169, 1,755, 16,432 and 134,459
    classes. Two hands are in one class exactly when their four per-suit rank masks are the
    same multiset, so the masks, sorted, group the hands in one pass; only one member per class
    is relabelled 24 ways to order the classes (size 5: 2.2 s instead of 8.9 s).
    """
    hands = _all_hands(size)
    masks = np.zeros((len(hands), 4), np.int64)  # per suit, the ranks held
    rows = np.arange(len(hands))
    for column in hands.T:
        masks[rows, column & 3] |= np.int64(1) << (column >> 2)
    masks.sort(axis=1)
    key = masks @ (np.int64(1) << (13 * np.arange(3, -1, -1, dtype=np.int64)))
    _, first, group_of_hand, group_size = np.unique(key, return_index=True, return_inverse=True, return_counts=True)
    order = np.argsort(_lowest_relabelling(hands[first]))
    class_of_group = np.empty_like(order)
    class_of_group[order] = np.arange(len(order))
    return hands, class_of_group[group_of_hand.ravel()].astype(np.int64), group_size[order].astype(np.int64)


@functools.cache
def hand_classes(hole_cards: int) -> tuple[np.ndarray, np.ndarray, list[str], list[str]]:
    """``(lookup, sizes, names, examples)`` of the starting-hand classes of ``hole_cards`` cards:
    ``lookup[code]`` the class id of a hand whose sorted cards give ``code`` (base-52 digits,
    ``hand_code``), ``sizes`` the hands per class, ``names`` (``class_name``) and one example
    per class, in class-id order (``iso_classes``).

    >>> lookup, sizes, names, examples = hand_classes(2)
    >>> len(names), names[-1], int(sizes[-1]), int(lookup[hand_code(parse_cards("Ah As"))])
    (169, 'AA', 6, 168)
    """
    hands, class_of, sizes = iso_classes(hole_cards)
    lookup = np.full(DECK_SIZE**hole_cards, -1, dtype=np.int16)  # 16,432 classes at most: int16 holds them
    lookup[hands @ DECK_SIZE ** np.arange(hole_cards - 1, -1, -1)] = class_of
    _, first = np.unique(class_of, return_index=True)
    names = [class_name(hands[i].tolist()) for i in first]
    examples = [format_cards(sorted(hands[i].tolist(), key=lambda c: (-(c >> 2), c & 3))) for i in first]
    return lookup, sizes, names, examples


def hand_code(hole) -> np.ndarray:
    """The lookup code of each hand of ``hole[..., cards]`` (cards in any order): its sorted
    cards as base-52 digits."""
    hole = np.sort(np.asarray(hole, np.int64), axis=-1)
    return hole @ DECK_SIZE ** np.arange(hole.shape[-1] - 1, -1, -1)
