"""Ranges: text that stands for a weighted set of starting hands, in any game.

The grammar (items separated by commas; a combo named by several items keeps its largest weight)::

    range   := item ("," item)*
    item    := term ["@" PERCENT]              AA@50: AA at half weight
             | PERCENT "%" "(" range ")"        eval7's group weights: 40%(ATs+, KQs)
             | DECIMAL "(" range ")"            0.6(AA, AK)
    term    := atom ("!" atom)*                 the hands of the first atom not in the others
    atom    := "random" | "*"                   every hand
             | NUMBER "%"                       the top N % of hands by the game's exact grid
             | cards                            one hand: As Ks, AsKsQh
             | hold'em notation                 2-card games: AA, QQ+, 22-55, AKs, AKo, AK,
                                                A2s+ (kicker up to one below), A5s-A2s
             | pattern                          any game (ProPokerTools' generic syntax):
                                                one spec per card, fewer than the hole
                                                cards are padded with *

A pattern spec is a rank (``A K Q J T 9 .. 2``, or ``*`` for any rank) followed by nothing
(any suit), a suit (``s h d c``) or a suit variable (``w x y z``: the same variable is the
same suit, different variables are different suits); a bare variable is any rank of that
suit. ``AA*`` is two aces and any card; ``AxAyxy`` is double-suited aces (two aces of suits
x and y and one more card of each); ``AxKx*`` an ace and a king of one suit and any card.

>>> from evaluator.games import game
>>> holdem, pls7 = game("holdem"), game("pls7")
>>> [parse_range(t, holdem).size for t in ("QQ+", "AKs", "AKo", "A5s-A2s", "22-55", "T9s+")]
[18, 4, 12, 16, 24, 4]
>>> r = parse_range("AA*!AAA", pls7)
>>> r.size, round(r.share(pls7), 6)
(288, 0.013032)
>>> parse_range("AA@50, KK", holdem).weights.count(0.5), parse_range("AxAyxy", game("plo")).size
(6, 864)
>>> parse_range("QQ+, AKq", holdem)
Traceback (most recent call last):
...
evaluator.errors.SampyongError: bad range 'QQ+, AKq' at 5: 'AKq' is not a hand, hold'em notation or a pattern of 2 cards
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import re
from collections.abc import Callable
from math import comb

import numpy as np

from evaluator.cards import RANKS, SUITS, format_cards, make_card, parse_cards
from evaluator.errors import SampyongError
from evaluator.games import Game

# top(percent) -> the combos of the top ``percent`` % by the game's exact grid (given by the caller).
TopProvider = Callable[[float], "set[tuple[int, ...]]"]
VARIABLES = "wxyz"
_PAIR = re.compile(r"^([2-9TJQKA])\1(\+)?$")
_PAIRS = re.compile(r"^([2-9TJQKA])\1-([2-9TJQKA])\2$")
_TWO = re.compile(r"^([2-9TJQKA])([2-9TJQKA])([so])?(\+)?$")
_TWOS = re.compile(r"^([2-9TJQKA])([2-9TJQKA])([so])?-([2-9TJQKA])([2-9TJQKA])([so])?$")
_SPEC = re.compile(r"([2-9TJQKA*])([shdcwxyz])?|([wxyz])")
_PERCENT = re.compile(r"^(\d+(?:\.\d+)?)%$")


@dataclasses.dataclass(frozen=True)
class Range:
    """Weighted starting hands: ``combos`` (sorted card tuples) and their ``weights`` (0 to 1].

    Parameters:
        text: the range as written.
        combos: each hand as a tuple of cards in increasing order.
        weights: each hand's weight, 1.0 unless the text gives one.
    """

    text: str
    combos: tuple[tuple[int, ...], ...]
    weights: tuple[float, ...]

    @property
    def size(self) -> int:
        return len(self.combos)

    @functools.cached_property
    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """``(uint8[size, cards], float64[size])``: the combos and weights as arrays, made once."""
        return np.array(self.combos, np.uint8), np.array(self.weights, np.float64)

    def share(self, game: Game) -> float:
        """The range's weighted share of all starting hands of ``game``."""
        return sum(self.weights) / comb(52, game.hole_cards)

    def describe(self) -> list[str]:
        """One line per hand: its cards and, when not 1, its weight."""
        return [format_cards(c) + ("" if w == 1 else f" @{100 * w:g}") for c, w in zip(self.combos, self.weights)]


def parse_range(text: str, game: Game, top: TopProvider | None = None) -> Range:
    """The range ``text`` stands for in ``game``.

    ``top`` gives the top N % of hands (by the game's exact grid); without it ``N%`` is an
    error. Raises ``SampyongError`` with the position of the fault for text that is not a
    range, and for a range that holds no hand.
    """
    parser = _Parser(text, game, top)
    weights = parser.parse_range(0, len(text), 1.0)
    if not weights:
        raise SampyongError(f"range {text!r} holds no {game.name} hand")
    ordered = sorted(weights)
    return Range(text, tuple(ordered), tuple(weights[c] for c in ordered))


class _Parser:
    def __init__(self, text: str, game: Game, top: TopProvider | None):
        self.text, self.game, self.top = text, game, top

    def fail(self, at: int, message: str) -> SampyongError:
        return SampyongError(f"bad range {self.text!r} at {at}: {message}")

    def parse_range(self, start: int, end: int, weight: float) -> dict[tuple[int, ...], float]:
        combos: dict[tuple[int, ...], float] = {}
        for item_start, item_end in self._items(start, end):
            for combo, w in self.parse_item(item_start, item_end, weight).items():
                combos[combo] = max(w, combos.get(combo, 0.0))
        return combos

    def _items(self, start: int, end: int):
        """(start, end) of each comma-separated item, commas inside parentheses kept."""
        depth, begin = 0, start
        for i in range(start, end):
            ch = self.text[i]
            if ch == "(":
                depth += 1
            elif ch == ")":
                depth -= 1
                if depth < 0:
                    raise self.fail(i, "unmatched ')'")
            elif ch == "," and depth == 0:
                yield begin, i
                begin = i + 1
        if depth:
            raise self.fail(end, "missing ')'")
        yield begin, end

    def parse_item(self, start: int, end: int, weight: float) -> dict[tuple[int, ...], float]:
        raw = self.text[start:end]
        at = start + len(raw) - len(raw.lstrip())
        item = raw.strip()
        if not item:
            raise self.fail(at, "an empty item")
        group = re.match(r"^(\d+(?:\.\d+)?)(%?)\((.*)\)$", item, re.S)
        if group:
            value = float(group.group(1)) / (100 if group.group(2) else 1)
            if not 0 < value <= 1:
                raise self.fail(at, f"weight {group.group(1)}{group.group(2)} is not in (0, 1] (or (0%, 100%])")
            inner = at + item.index("(") + 1
            return self.parse_range(inner, inner + len(group.group(3)), weight * value)
        if "@" in item:
            term, _, percent = item.rpartition("@")
            try:
                value = float(percent) / 100
            except ValueError:
                raise self.fail(at + len(term) + 1, f"weight {percent!r} is not a percentage") from None
            if not 0 < value <= 1:
                raise self.fail(at + len(term) + 1, f"weight {percent} is not in (0, 100]")
            weight *= value
            item = term.strip()
        parts = item.split("!")
        offsets = [at]
        for part in parts[:-1]:
            offsets.append(offsets[-1] + len(part) + 1)
        combos = self.parse_atom(parts[0], offsets[0])
        for part, offset in zip(parts[1:], offsets[1:]):
            combos -= self.parse_atom(part, offset)
        return {c: weight for c in combos}

    def parse_atom(self, raw: str, at: int) -> set[tuple[int, ...]]:
        atom = raw.strip()
        at += len(raw) - len(raw.lstrip())
        size = self.game.hole_cards
        if not atom:
            raise self.fail(at, "an empty hand")
        if atom.lower() in ("random", "*"):
            return set(itertools.combinations(range(52), size))
        percent = _PERCENT.match(atom)
        if percent:
            value = float(percent.group(1))
            if not 0 < value <= 100:
                raise self.fail(at, f"{atom} is not a share from 0 % to 100 %")
            if self.top is None:
                raise self.fail(at, f"{atom} needs the exact grid of {self.game.name}")
            return set(self.top(value))
        if size == 2:
            holdem = _holdem(atom)
            if holdem is not None:
                return holdem
        cards = _cards(atom)
        if cards is not None:
            if len(cards) != size:
                raise self.fail(
                    at, f"{atom!r} has {len(cards)} card(s): a {self.game.name} hand needs {size} hole cards"
                )
            return {tuple(sorted(cards))}
        specs = _specs(atom, size)
        if specs is None:
            notation = "a hand, hold'em notation or a pattern" if size == 2 else "a hand or a pattern"
            raise self.fail(at, f"{atom!r} is not {notation} of {size} cards")
        return _expand(specs, size)


def _cards(atom: str) -> list[int] | None:
    try:
        return parse_cards(atom)
    except SampyongError:
        return None


def _ranks(a: str, b: str) -> range:
    lo, hi = sorted((RANKS.index(a), RANKS.index(b)))
    return range(lo, hi + 1)


def _two(high: int, low: int, suited: str | None) -> set[tuple[int, ...]]:
    out = set()
    for s1, s2 in itertools.product(range(4), repeat=2):
        if high == low and s1 >= s2:
            continue
        if (suited == "s" and s1 != s2) or (suited == "o" and s1 == s2):
            continue
        out.add(tuple(sorted((make_card(high, s1), make_card(low, s2)))))
    return out


def _holdem(atom: str) -> set[tuple[int, ...]] | None:
    """PokerStove notation, as eval7 reads it (``A2s+``: the kicker up to one below the ace)."""
    up = atom.upper().replace("S", "s").replace("O", "o")
    if m := _PAIR.match(up):
        rank = RANKS.index(m.group(1))
        ranks = range(rank, 13) if m.group(2) else [rank]
        return set().union(*(_two(r, r, None) for r in ranks))
    if m := _PAIRS.match(up):
        return set().union(*(_two(r, r, None) for r in _ranks(m.group(1), m.group(2))))
    if m := _TWO.match(up):
        high, low = sorted((RANKS.index(m.group(1)), RANKS.index(m.group(2))), reverse=True)
        if high == low:
            return None
        kickers = range(low, high) if m.group(4) else [low]
        return set().union(*(_two(high, k, m.group(3)) for k in kickers))
    if m := _TWOS.match(up):
        if m.group(1) != m.group(4) or m.group(3) != m.group(6) or m.group(1) in (m.group(2), m.group(5)):
            return None
        high = RANKS.index(m.group(1))
        return set().union(*(_two(high, k, m.group(3)) for k in _ranks(m.group(2), m.group(5)) if k < high))
    return None


def _specs(atom: str, size: int) -> list[tuple[str, str | None]] | None:
    """The (rank or '*', suit, variable or None) specs of a pattern, padded with '*' to ``size``."""
    specs = []
    position = 0
    text = atom.replace(" ", "")
    while position < len(text):
        m = _SPEC.match(text, position)
        if not m:
            return None
        specs.append(("*", m.group(3)) if m.group(3) else (m.group(1).upper(), m.group(2)))
        position = m.end()
    if not specs or len(specs) > size:
        return None
    return specs + [("*", None)] * (size - len(specs))


def _expand(specs: list[tuple[str, str | None]], size: int) -> set[tuple[int, ...]]:
    """Every hand matching the specs: each variable takes a distinct suit; constrained cards
    are chosen one per spec, then the unconstrained ones from the rest of the deck."""
    variables = sorted({s for _, s in specs if s and s in VARIABLES})
    out: set[tuple[int, ...]] = set()
    for suits in itertools.permutations(range(4), len(variables)):
        assign = dict(zip(variables, suits))
        choices = []
        free = 0
        for rank, suit in specs:
            if rank == "*" and suit is None:
                free += 1
                continue
            ranks = list(range(13)) if rank == "*" else [RANKS.index(rank)]
            if suit is None:
                allowed = list(range(4))
            elif suit in VARIABLES:
                allowed = [assign[suit]]
            else:
                allowed = [SUITS.index(suit)]
            choices.append([make_card(r, s) for r in ranks for s in allowed])
        for fixed in itertools.product(*choices):
            if len(set(fixed)) != len(fixed):
                continue
            rest = [c for c in range(52) if c not in fixed]
            for extra in itertools.combinations(rest, free):
                out.add(tuple(sorted(fixed + extra)))
    return out


def top_percent(classes: list[tuple[list[tuple[int, ...]], float]], percent: float) -> set[tuple[int, ...]]:
    """The hands of the best classes (``classes``: each class's hands and its equity) whose
    combined share first reaches ``percent`` % of all hands (the class that crosses it included).

    >>> classes = [([(0, 1)], 0.9), ([(2, 3), (4, 5)], 0.8), ([(6, 7)], 0.7)]
    >>> sorted(top_percent(classes, 50))
    [(0, 1), (2, 3), (4, 5)]
    """
    total = sum(len(hands) for hands, _ in classes)
    chosen: set[tuple[int, ...]] = set()
    for hands, _ in sorted(classes, key=lambda item: -item[1]):
        if len(chosen) >= total * percent / 100:
            break
        chosen.update(hands)
    return chosen
