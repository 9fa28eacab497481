"""All-in equity of hands, ranges (or ``random`` hands) in any game, PokerStove style.

A hand is given as cards (``As Ks``), ``random`` (every hand), or a range
(``evaluator.ranges``: ``QQ+, AKs``, ``AA*``, ``15%``). Exact when the enumeration's work
(``range_showdown.evaluations``) fits ``EXACT_WORK``, about a second on one core: every board
completion, and on each board every hand evaluated once and compared with the other ranges by
the showdown kernel (``evaluator.range_showdown``), boards equal up to a suit permutation
counted once. Otherwise Monte Carlo with standard errors (a range's hands drawn by weight,
never two hands or a hand and the board sharing a card). A hand's ``equity`` is its average
share of the pot (halves for high and low, split among ties as RULES section 6 says, odd chips
ignored); ``win`` is how often it takes the whole pot alone, ``tie`` how often it takes part of
it; ``high`` and ``low`` its average shares of the two halves, and ``scoop`` how often it
takes both halves of a pot that has a low. An exact answer's ``samples`` is the number of
boards enumerated.

Hold'em heads-up before the flop without dead cards is summed from the table of every pair of
hands (``evaluator.preflop``) once ``sampyong precompute`` has built it on the machine; the same
counts as the enumeration. Small spots of free-use games (a turn or a river against a range) take
two kernel calls (``_small_equity``).

A small enumeration of fixed hands in a free-use game (at most ``LIGHT_EVALUATIONS``, as for
hold'em hands all in before the flop) reads the tables in numpy (``evaluator.vectorized``) in a
process that has not loaded numba, so the calculator answers at once.

>>> r = equity("holdem", ["As Ah", "Kd Kc"], board="Qs Js 2h 3c")
>>> r["exact"], r["samples"], [round(h["equity"], 4) for h in r["hands"]]
(True, 44, [0.9545, 0.0455])
"""

from __future__ import annotations

import functools
import itertools
import math
import os
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from math import comb
from typing import NamedTuple

import numpy as np

from evaluator import preflop, vectorized
from evaluator import range_showdown as showdown
from evaluator.cards import check_distinct, format_cards, parse_cards
from evaluator.errors import SampyongError
from evaluator.games import Game
from evaluator.games import game as preset
from evaluator.isomorphism import card_masks, completions
from evaluator.ranges import Range, parse_range
from evaluator.settle import pot_shares, share_unit

# Enumerate when the work (``showdown.evaluations``) is at most this, about a second on one core;
# ``exact=True`` enumerates up to ``EXACT_LIMIT``.
EXACT_WORK = 200_000_000
EXACT_LIMIT = 20_000_000_000
BATCH = 1 << 16
# Enumerations of up to this many evaluations read the tables in numpy (``evaluator.vectorized``,
# some 30 M a second with the tally): done before numba would have loaded (about 0.5 s).
LIGHT_EVALUATIONS = 5_000_000
# Deal by deal (``free_kernels``' ``fixed_tuples``) for up to this many players (showdown codes, 2 bits a
# player, count into an array of 2**16), at most this many tuples, in blocks of about this many
# evaluations (a call costs some microseconds: a flop's deal takes two).
DEALS_PLAYERS = 8
DEALS_MOST = 5_000_000
DEALS_BLOCK = 50_000
# Below this work (``deals_work``), telling the spot's symmetries costs more than folding saves,
# and below the second, starting threads more than they save (the sums are the same either way).
FOLD_FROM = 50_000
THREADS_FROM = 500_000


def _entry(g: Game, text: str, top) -> tuple[int, ...] | None | Range:
    """Cards for a specific hand (a tuple), None for ``random``, else the range the text stands
    for. Kept: a hand or range is read once however often it is asked about (a provider ``top``
    is a pure function of the percent, and only ``N%`` ranges read it)."""
    return _read_entry(g, text, top if "%" in text else None)


@functools.lru_cache(maxsize=1024)
def _read_entry(g: Game, text: str, top) -> tuple[int, ...] | None | Range:
    if text.strip().lower() == "random":
        return None
    try:
        cards = parse_cards(text)
    except SampyongError:
        cards = None
    if cards is not None and len(cards) == g.hole_cards:
        return tuple(cards)
    return parse_range(text, g, top)


@functools.lru_cache(maxsize=1024)
def _label(cards: tuple[int, ...]) -> str:
    return format_cards(cards)


def equity(
    game: Game | str,
    hands: list[str],
    board: str = "",
    dead: str = "",
    samples: int = 1_000_000,
    seed: int = 0,
    exact: bool | None = None,
    top=None,
    threads: int | None = None,
) -> dict:
    """Equity of each hand or range.

    Parameters:
        game: a ``Game`` or a preset name.
        hands: per player, cards (``As Ks``), ``random`` or a range (``evaluator.ranges``).
        board, dead: cards already on the board (0, 3, 4 or 5) and cards out of play.
        samples, seed: the Monte Carlo deals and their seed, when enumeration does not fit.
        exact: None enumerates when it fits a budget of about a second (``EXACT_WORK``); True
            insists (an error above ``EXACT_LIMIT``); False samples.
        top: the top-N % provider for ranges such as ``15%`` (``evaluator.ranges``).
        threads: boards evaluated on this many threads when enumerating (default: every core);
            the answer does not depend on it.

    Returns a dict: ``game``, ``board``, ``exact``, ``samples`` (boards enumerated, or deals
    sampled) and per hand ``hand``, ``equity`` (with ``equity_se``), ``win``, ``tie``,
    ``high``, ``low``, ``scoop`` and, for a range, ``combos``. Raises ``SampyongError`` for bad
    cards or ranges, cards used twice, or hands no deal can give together.
    """
    g = preset(game) if isinstance(game, str) else game
    asked = _hands(g, tuple(hands), top)
    board_read, dead_read = _cards(board), _cards(dead)
    board_cards, dead_cards = list(board_read.cards), list(dead_read.cards)
    if len(board_cards) > g.board_cards or len(board_cards) in (1, 2) and g.board_cards == 5:
        raise SampyongError(f"the board takes 0, 3, 4 or {g.board_cards} cards, got {len(board_cards)}")
    known = len(asked.fixed) + len(board_cards) + len(dead_cards)
    if (asked.fixed_mask | board_read.mask | dead_read.mask).bit_count() < known:
        check_distinct(list(asked.fixed) + board_cards + dead_cards)  # says which card
    if not 0 <= seed <= 2**64 - 1:
        raise SampyongError(f"bad seed {seed}: must be 0 to 2**64-1")
    if samples <= 0:
        raise SampyongError("samples must be positive")
    if threads is not None and threads < 1:
        raise SampyongError("threads must be at least 1")
    entries, labels, combos = asked.entries, asked.labels, asked.combos
    missing = g.board_cards - len(board_cards)
    deck_left = 52 - known
    if deck_left < missing + g.hole_cards * len(entries) - len(asked.fixed):  # the hands still to deal
        raise SampyongError("not enough cards left in the deck for these hands and board")
    if exact is not False and preflop.covers(g, len(entries), board_cards, dead_cards):
        table = preflop.load()
        if table is not None:
            return _preflop_equity(table, g, entries, labels, combos)
    if exact is not False and not (asked.fixed_only and _light(g, comb(deck_left, missing) * len(entries))):
        small = _small_equity(g, asked, board_read, dead_read, exact)
        if small is not None:
            return small
    if exact is not False:
        s = _spot(g, hands, entries, board_cards, dead_cards)
        work = showdown.evaluations(s, folded=False)
        if work > EXACT_WORK:
            work = showdown.evaluations(s)
        by_deals = vectorized.covers(g) and len(entries) <= DEALS_PLAYERS and deals_work(s) < work
        if by_deals:
            work = deals_work(s)
        if exact and work > EXACT_LIMIT:
            raise SampyongError(
                f"too large to enumerate exactly (about {work:.1e} evaluations, over {EXACT_LIMIT:.0e}): sample instead"
            )
        if exact or work <= EXACT_WORK:
            _check_samples(True, samples, len(entries))
            if all(isinstance(e, tuple) for e in entries) and _light(g, s.completions * len(entries)):
                return _light_equity(g, entries, board_cards, dead_cards, labels)
            if by_deals:
                return _deals_equity(g, s, labels, combos, threads)
            result = showdown.showdown(g, s, threads)
            unit, weight = result.unit, result.totals[0, 6]
            if not weight:
                raise SampyongError("these ranges never fit together: every combination shares a card")
            rows = [
                {
                    "share": t[0] / unit / weight,
                    "high": t[1] / unit / weight,
                    "low": t[2] / unit / weight,
                    "win": t[3] / weight,
                    "tie": t[4] / weight,
                    "scoop": t[5] / weight,
                }
                for t in result.totals
            ]
            return _rows_result(g, board_cards, True, result.boards, rows, labels, combos)
    _check_samples(False, samples, len(entries))
    if any(isinstance(e, Range) for e in entries):
        return _sampled_ranges(g, labels, combos, entries, board_cards, dead_cards, samples, seed)
    return _sampled_hands(g, entries, board_cards, dead_cards, samples, seed, labels)


def _spot(g: Game, texts, entries, board_cards, dead_cards) -> showdown.Spot:
    """The showdown's spot: a hand is a range of one, ``random`` every hand."""
    hands, weights = [], []
    for entry in entries:
        if entry is None:
            every = np.array(list(itertools.combinations(range(52), g.hole_cards)), np.uint8)
            hands.append(every)
            weights.append(np.ones(len(every)))
        elif isinstance(entry, Range):
            hands.append(np.array(entry.combos, np.uint8))
            weights.append(np.array(entry.weights, np.float64))
        else:
            hands.append(np.array([sorted(entry)], np.uint8))
            weights.append(np.ones(1))
    s = showdown.spot(g, hands, weights, board_cards, dead_cards)
    for text, kept in zip(texts, s.hands):
        if not len(kept):
            raise SampyongError(f"range {text!r} has no hand left beside the board and dead cards")
    return s


def _player_arrays(g: Game, entry) -> tuple[np.ndarray, np.ndarray]:
    """A player's hands and weights: a fixed hand, a range, or every hand for ``random``."""
    if entry is None:
        return _every_hand(g.hole_cards), np.ones(comb(52, g.hole_cards))
    if isinstance(entry, Range):
        return entry.arrays
    return np.array([sorted(entry)], np.uint8), _ONE


_ONE = np.ones(1)


@functools.cache
def _every_hand(size: int) -> np.ndarray:
    return np.array(list(itertools.combinations(range(52), size)), np.uint8)


class _Hands:
    """The hands of one question, read and checked once (``_hands``): a calculator is asked about
    the same hands and ranges again and again, on other boards. Per player its ``entries`` (cards,
    None for ``random``, or a ``Range``), ``labels`` and ``combos`` (a range's size, else None);
    the ``fixed`` hands' cards and their ``fixed_mask``; and, made on first use, every player's
    hands in one array as ``spot_sums`` reads them (``arrays``: hands, player p's from
    ``offsets[p]``, and weights) with the number of tuples of one hand each before card removal."""

    def __init__(self, g: Game, texts: tuple[str, ...], top):
        if len(texts) < 2:
            raise SampyongError("give at least two hands (a hand may be 'random')")
        if len(texts) > g.max_players:
            raise SampyongError(f"{g.name}: at most {g.max_players} hands, got {len(texts)}")
        self.game, self.texts = g, texts
        self.entries = [_entry(g, text, top) for text in texts]
        self.labels = [
            _label(e) if isinstance(e, tuple) else "random" if e is None else text
            for text, e in zip(texts, self.entries)
        ]
        self.combos = [e.size if isinstance(e, Range) else None for e in self.entries]
        self.fixed = tuple(c for e in self.entries if isinstance(e, tuple) for c in e)
        self.fixed_mask = 0
        for c in self.fixed:
            self.fixed_mask |= 1 << c
        self.fixed_only = len(self.fixed) == g.hole_cards * len(self.entries)

    @functools.cached_property
    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
        """``(hands, offsets, weights, tuples)``."""
        players = [_player_arrays(self.game, e) for e in self.entries]
        return (
            np.concatenate([h for h, _ in players]),
            np.array([0, *itertools.accumulate(len(h) for h, _ in players)], np.int64),
            np.concatenate([w for _, w in players]),
            math.prod(len(h) for h, _ in players),
        )


def _hands(g: Game, texts: tuple[str, ...], top) -> _Hands:
    return _read_hands(g, texts, top if any("%" in text for text in texts) else None)  # as ``_entry`` reads ``top``


@functools.lru_cache(maxsize=256)
def _read_hands(g: Game, texts: tuple[str, ...], top) -> _Hands:
    return _Hands(g, texts, top)


class _Cards(NamedTuple):
    """Cards given as text, read once (``_cards``): the ``cards``, their ``mask`` and ``array``."""

    cards: tuple[int, ...]
    mask: int
    array: np.ndarray


@functools.lru_cache(maxsize=1024)
def _cards(text: str) -> _Cards:
    cards = tuple(parse_cards(text)) if text.strip() else ()
    mask = 0
    for c in cards:
        mask |= 1 << c
    return _Cards(cards, mask, np.array(cards, np.uint8))


@functools.cache
def _spot_sums(g: Game):
    """``g``'s ``spot_sums`` kernel (numba loads on first use: never for the light path)."""
    from evaluator.fast import fast_evaluator

    return fast_evaluator(g)._free_kernels.spot_sums


def _small_equity(g: Game, asked: _Hands, board: _Cards, dead: _Cards, exact) -> dict | None:
    """A small spot of a free-use game answered in one kernel call, or None when it is not small
    (over ``FOLD_FROM`` evaluations unfolded, where ``_deals_equity`` would fold suits and start
    threads) or over the budget of ``exact``: ``free_kernels``' ``spot_sums``, every card-disjoint
    tuple of the players' hands (fixed hands are one tuple) with its completions counted and
    summed by showdown code. The counts of ``_deals_equity`` without its per-spot work in Python,
    which is most of the time of a turn or a river."""
    players = len(asked.entries)
    if players > DEALS_PLAYERS or not vectorized.covers(g):
        return None
    missing = g.board_cards - len(board.cards)
    hands, offsets, weights, tuples = asked.arrays
    work = tuples * comb(12 + missing, missing) * players  # as ``deals_work``
    if work > min(FOLD_FROM, EXACT_LIMIT if exact else EXACT_WORK):  # the general path says why
        return None
    blocked = board.mask | dead.mask
    sums, total, kept, always = _spot_sums(g)(
        hands, offsets, weights, board.array, blocked, missing, _code_sums(players)
    )
    for text, count in zip(asked.texts, kept):
        if not count:
            raise SampyongError(f"range {text!r} has no hand left beside the board and dead cards")
    if not total:
        raise SampyongError("these ranges never fit together: every combination shares a card")
    deck = 52 - (blocked | int(always)).bit_count()
    return _sums_result(g, list(board.cards), comb(deck, missing), sums.tolist(), total, asked.labels, asked.combos)


def _preflop_equity(table, g: Game, entries, labels, combos) -> dict:
    """Two hold'em hands or ranges before the flop, summed from the cached table of every pair
    of hands (``evaluator.preflop``): the counts enumerating every board gives, looked up."""
    players = [_player_arrays(g, e) for e in entries]
    counts = preflop.showdown_counts(table, [h for h, _ in players], [w for _, w in players])
    if not counts.sum():
        raise SampyongError("these ranges never fit together: every combination shares a card")
    always = 0
    for hands, _ in players:
        always |= int(np.bitwise_and.reduce(card_masks(hands)))
    return _counts_result(g, [], comb(52 - always.bit_count(), g.board_cards), counts, labels, combos)


@functools.cache
def _code_sums(players: int) -> np.ndarray:
    """``float64[codes, players * 7]``: per showdown code (bit p: seat p holds the best high;
    bit players + p: the best low), each seat's pot share, its square, its high and low parts
    (in ``share_unit`` units, ``evaluator.settle.pot_shares``), and whether it won the whole pot,
    part of it, or both halves of a pot with a low. Codes with no high winner never happen
    (rows of 0)."""
    codes = np.arange(1 << (2 * players))
    bits = (codes[:, None] >> np.arange(2 * players)) & 1
    high, low = bits[:, :players], bits[:, players:]
    possible = high.any(axis=1)
    unit = share_unit(players)
    high_part, low_part = pot_shares(high[possible], low[possible], unit)
    units = high_part + low_part
    out = np.zeros((len(codes), players, 7))
    out[possible] = np.stack(
        [
            units,
            units * units,
            high_part,
            low_part,
            units == unit,
            (0 < units) & (units < unit),
            (units == unit) & low[possible].any(axis=1, keepdims=True),
        ],
        axis=2,
    )
    out[:, :, :4] /= np.array([unit, unit * unit, unit, unit])
    return out.reshape(len(codes), players * 7)


def _counts_result(g: Game, board_cards, samples: int, counts: np.ndarray, labels, combos) -> dict:
    """The exact answer from the weight of each showdown code (``_code_sums``)."""
    players = len(labels)
    return _sums_result(
        g, board_cards, samples, (counts @ _code_sums(players)).tolist(), float(counts.sum()), labels, combos
    )


def _sums_result(g: Game, board_cards, samples: int, sums: list, total: float, labels, combos) -> dict:
    """The exact answer from the showdown codes' weights summed through ``_code_sums``."""
    players = len(labels)
    values = [
        (t[0] / total, t[2] / total, t[3] / total, t[4] / total, t[5] / total, t[6] / total, 0.0)
        for t in (sums[7 * p : 7 * p + 7] for p in range(players))
    ]
    return _answer(g, board_cards, True, samples, values, labels, combos)


def _light(g: Game, work: int) -> bool:
    """Whether numpy answers before numba would have loaded: a small enumeration of fixed hands
    in a free-use game, in a process that has not loaded numba yet (where it has, the kernels
    are faster)."""
    return work <= LIGHT_EVALUATIONS and vectorized.covers(g) and not _numba_loaded()


def _numba_loaded() -> bool:
    return "numba" in sys.modules


def _light_equity(g: Game, known, board_cards, dead_cards, labels) -> dict:
    """Fixed hands enumerated in numpy over every completion of the board."""
    players = len(known)
    unit = share_unit(players)
    used = [c for h in known for c in h] + board_cards + dead_cards
    remaining = np.array(sorted(set(range(52)) - set(used)), dtype=np.uint8)
    missing = g.board_cards - len(board_cards)
    fast = vectorized.vectorized_evaluator(g)
    tally = _Tally(players, np.int64)
    fixed_hole = np.array(known, dtype=np.uint8)
    for full_board in _boards(np.array(board_cards, np.uint8), remaining, missing):
        hole = np.ascontiguousarray(np.broadcast_to(fixed_hole, (len(full_board), players, g.hole_cards)))
        high, low = fast.high_low(hole, full_board)
        tally.add(high, low, unit, 1)
    total = comb(len(remaining), missing)
    return _result(g, board_cards, True, total, total, unit, tally, labels, [None] * players)


def _deals_equity(g: Game, s: showdown.Spot, labels, combos, threads: int | None) -> dict:
    """A free-use game, deal by deal: every card-disjoint tuple of the ranges' hands, tuples
    equal up to a permutation of the suits that keeps the spot counted once with their weights
    summed, and each tuple's completions of the board counted by ``free_kernels``' ``fixed_tuples``
    (by the ranks of the new cards; one by one only where a flush may play). Blocks of tuples on
    threads, added in order."""
    from evaluator.fast import fast_evaluator

    kernel = fast_evaluator(g)._free_kernels.fixed_tuples
    holes, weights = _folded_deals(s)
    if not len(holes):
        raise SampyongError("these ranges never fit together: every combination shares a card")
    holes, weights, rank_weights = _by_ranks(holes, weights)
    players = len(s.hands)
    blocked = np.int64(sum(1 << c for c in s.board + s.dead))
    board = np.array(s.board, np.uint8)
    # Blocks of about DEALS_BLOCK evaluations, sized by the spot alone (never by the threads).
    size = max(1, DEALS_BLOCK // (comb(12 + s.missing, s.missing) * players))
    starts = range(0, len(holes), size)

    def block(start):
        counts = np.zeros(1 << (2 * players))
        part = slice(start, start + size)
        kernel(holes[part], weights[part], rank_weights[part], board, blocked, s.missing, counts)
        return counts

    workers = threads or os.cpu_count() or 1
    if workers == 1 or len(starts) == 1 or deals_work(s) < THREADS_FROM:
        parts = [block(start) for start in starts]
    else:
        with ThreadPoolExecutor(workers) as pool:
            parts = list(pool.map(block, starts))
    counts = np.zeros(1 << (2 * players))
    for part in parts:
        counts += part
    if not counts.sum():
        raise SampyongError("these ranges never fit together: every combination shares a card")
    return _counts_result(g, list(s.board), s.completions, counts, labels, combos)


def _folded_deals(s: showdown.Spot) -> tuple[np.ndarray, np.ndarray]:
    """The card-disjoint tuples of the spot's hands, one per orbit of the suit permutations that
    keep the spot (the smallest image, by each player's card mask in turn), with the orbit's
    summed weight: ``(uint8[tuples, players, hole cards], float64[tuples])``."""
    tuples, _, tuple_weights = showdown.deals(s.hands, s.weights)
    every = np.concatenate(s.hands).astype(np.int64)
    maps = s.symmetries if _unfolded_work(s) > FOLD_FROM else np.arange(52)[None, :]
    if len(maps) == 1 or len(tuples) <= 1:
        return np.ascontiguousarray(every[tuples].astype(np.uint8)), tuple_weights
    masks = np.stack([card_masks(cards[every]) for cards in maps])  # [maps, hands]
    best = np.zeros(len(tuples), np.int64)  # per tuple, the map giving its smallest image
    for g in range(1, len(maps)):
        less = np.zeros(len(tuples), np.bool_)
        equal = np.ones(len(tuples), np.bool_)
        for column in range(tuples.shape[1]):
            mine, theirs = masks[g, tuples[:, column]], masks[best, tuples[:, column]]
            less |= equal & (mine < theirs)
            equal &= mine == theirs
        best[less] = g
    image = masks[best[:, None], tuples]  # [tuples, players]: the smallest images' masks
    order = np.lexsort(image.T[::-1])
    image, best, tuples, tuple_weights = image[order], best[order], tuples[order], tuple_weights[order]
    first = np.ones(len(image), np.bool_)
    first[1:] = (image[1:] != image[:-1]).any(axis=1)
    weights = np.add.reduceat(tuple_weights, np.flatnonzero(first))
    holes = np.sort(maps[best[first, None, None], every[tuples[first]]], axis=2)
    return np.ascontiguousarray(holes.astype(np.uint8)), weights


def _by_ranks(holes: np.ndarray, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The deals sorted by their hands' ranks (each hand's, in order of players), and per deal
    the summed weight of the deals from it with the same ranks where it is the first of them,
    0 for the others: ``fixed_tuples`` counts boards by rank once per such run.

    >>> holes = np.array([[[51, 47], [43, 42]], [[50, 46], [43, 41]], [[3, 7], [0, 1]]], np.uint8)
    >>> _, _, rank_weights = _by_ranks(holes, np.array([1.0, 2.0, 4.0]))
    >>> rank_weights.tolist()
    [4.0, 3.0, 0.0]
    """
    ranks = np.sort(holes >> 2, axis=2).reshape(len(holes), -1).astype(np.int64)
    order = np.lexsort(ranks.T[::-1])
    holes, weights, ranks = holes[order], weights[order], ranks[order]
    first = np.ones(len(holes), np.bool_)
    first[1:] = (ranks[1:] != ranks[:-1]).any(axis=1)
    rank_weights = np.zeros(len(holes))
    starts = np.flatnonzero(first)
    rank_weights[starts] = np.add.reduceat(weights, starts) if len(starts) else []
    return np.ascontiguousarray(holes), weights, rank_weights


def deals_work(s: showdown.Spot) -> float:
    """The work of ``_deals_equity`` in hand evaluations: the tuples (at most the product of the
    ranges' sizes, over the spot's symmetries) times the rank multisets of the new cards, each
    evaluated for every player."""
    work = _unfolded_work(s)
    return work if work <= FOLD_FROM else work / len(s.symmetries)


def _unfolded_work(s: showdown.Spot) -> float:
    tuples = float(np.prod([len(h) for h in s.hands], dtype=np.float64))
    if tuples > DEALS_MOST:
        return math.inf
    return tuples * comb(12 + s.missing, s.missing) * len(s.hands)


def _sampled_hands(g: Game, known, board_cards, dead_cards, samples, seed, labels) -> dict:
    """Fixed and ``random`` hands, sampled."""
    from evaluator.deal import deal_cards  # numba's: only sampling loads it
    from evaluator.fast import fast_evaluator

    fast = fast_evaluator(g)
    players = len(known)
    unit = share_unit(players)
    tally = _Tally(players, np.int64)
    used = [c for h in known if h for c in h] + board_cards + dead_cards
    remaining = np.array(sorted(set(range(52)) - set(used)), dtype=np.uint8)
    missing = g.board_cards - len(board_cards)
    randoms = [i for i, h in enumerate(known) if h is None]
    fixed_hole = np.array([h if h else [0] * g.hole_cards for h in known], dtype=np.uint8)
    rng = np.random.default_rng(seed)
    need = missing + g.hole_cards * len(randoms)
    for start in range(0, samples, BATCH):
        n = min(BATCH, samples - start)
        drawn = deal_cards(rng, n, need, deck=remaining)
        hole = np.repeat(fixed_hole[None], n, axis=0)
        for k, i in enumerate(randoms):
            hole[:, i, :] = drawn[:, missing + k * g.hole_cards : missing + (k + 1) * g.hole_cards]
        full_board = np.concatenate([np.tile(np.array(board_cards, np.uint8), (n, 1)), drawn[:, :missing]], axis=1)
        high, low = fast.high_low(np.ascontiguousarray(hole), np.ascontiguousarray(full_board))
        tally.add(high, low, unit, 1)
    return _result(g, board_cards, False, samples, samples, unit, tally, labels, [None] * players)


def _check_samples(exact: bool, samples: int, players: int) -> None:
    most = (2**63 - 1) // share_unit(players) ** 2  # share^2 per sample, summed in int64
    if not exact and samples > most:
        raise SampyongError(
            f"at most {most:,} samples for {players} hands (the squared shares must fit 64-bit counters)"
        )


def _boards(board: np.ndarray, remaining: np.ndarray, missing: int) -> Iterator[np.ndarray]:
    """``board`` completed by every ``missing``-card subset of ``remaining``, in lexicographic
    order, in blocks of at most ``BATCH`` boards (``uint8[rows, board cards]``).

    >>> [b.tolist() for b in _boards(np.array([0], np.uint8), np.array([3, 5, 7], np.uint8), 2)]
    [[[0, 3, 5], [0, 3, 7], [0, 5, 7]]]
    """
    subsets = completions(remaining, missing)
    for start in range(0, len(subsets), BATCH):
        part = subsets[start : start + BATCH]
        full = np.empty((len(part), len(board) + missing), np.uint8)
        full[:, : len(board)] = board
        full[:, len(board) :] = part
        yield full


class _Tally:
    """Per player: weighted sums of pot shares (share, share^2, high, low), whole pots, ties, scoops."""

    def __init__(self, players: int, dtype):
        self.totals = np.zeros((players, 4), dtype)
        self.wins = np.zeros(players, dtype)
        self.ties = np.zeros(players, dtype)
        self.scoops = np.zeros(players, dtype)

    def add(self, high, low, unit, weight) -> None:
        """Add each deal's pot shares (``evaluator.settle.pot_shares``, in whole units) times
        ``weight``. Shares depend only on who won each half, so each distinct showdown is shared
        out once and counted; with weight 1 every sum is an exact integer."""
        self.add_showdowns(*_showdowns(high, low), unit, weight)

    def add_showdowns(self, high_winners, low_winners, deals, unit, weight) -> None:
        """Add showdowns given as who won the high and the low (``int64[k, players]`` of 0/1)
        and how many deals each was."""
        high_part, low_part = pot_shares(high_winners, low_winners, unit)
        units = high_part + low_part
        dtype = self.totals.dtype
        weights = deals.astype(dtype) * dtype.type(weight)  # per distinct showdown

        def summed(per_seat):  # over the showdowns, by seat
            return weights @ per_seat.astype(dtype)

        for column, part in enumerate([units, units * units, high_part, low_part]):
            self.totals[:, column] += summed(part)
        self.wins += summed(units == unit)
        self.ties += summed((0 < units) & (units < unit))
        self.scoops += summed((units == unit) & low_winners.any(axis=1, keepdims=True))


def _showdowns(high: np.ndarray, low: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The distinct showdowns of a batch: who won the high, who won the low (``int64[k,
    players]`` of 0/1; no low winner when no low qualified) and how many deals each was.

    >>> [a.tolist() for a in _showdowns(np.array([[5, 5], [9, 1], [5, 5]]), np.array([[0, 0], [0, 3], [0, 0]]))]
    [[[1, 1], [1, 0]], [[0, 0], [0, 1]], [2, 1]]
    """
    players = high.shape[1]
    top_high, top_low = high[:, 0], low[:, 0]
    for p in range(1, players):  # column by column: numpy reduces a short axis slowly
        top_high, top_low = np.maximum(top_high, high[:, p]), np.maximum(top_low, low[:, p])
    some_low = top_low > 0
    code = np.zeros(len(high), np.int64)  # bit p: seat p won the high; bit players + p: the low
    for p in range(players):
        code |= (high[:, p] == top_high).astype(np.int64) << p
        code |= ((low[:, p] == top_low) & some_low).astype(np.int64) << (players + p)
    if players <= 8:
        counts = np.bincount(code, minlength=1 << (2 * players))
        codes = np.flatnonzero(counts)
        counts = counts[codes]
    else:
        codes, counts = np.unique(code, return_counts=True)
    bits = (codes[:, None] >> np.arange(2 * players)) & 1
    return bits[:, :players], bits[:, players:], counts


def _result(g, board_cards, exact, samples, total, unit, tally, labels, combos) -> dict:
    """The answer from a tally of ``total`` deals (or weight)."""
    share, share_sq, high_share, low_share = (
        tally.totals[:, i] / unit ** (2 if i == 1 else 1) / total for i in range(4)
    )
    se = np.zeros(len(labels)) if exact else np.sqrt(np.maximum(share_sq - share**2, 0) / max(samples - 1, 1))
    rows = [
        {
            "share": share[i],
            "se": se[i],
            "high": high_share[i],
            "low": low_share[i],
            "win": tally.wins[i] / total,
            "tie": tally.ties[i] / total,
            "scoop": tally.scoops[i] / total,
        }
        for i in range(len(labels))
    ]
    return _rows_result(g, board_cards, exact, samples, rows, labels, combos)


def _rows_result(g, board_cards, exact, samples, rows, labels, combos) -> dict:
    """The answer's dict from each hand's shares (fractions of the pot) and rates."""
    values = [
        (row["share"], row["high"], row["low"], row["win"], row["tie"], row["scoop"], row.get("se", 0.0))
        for row in rows
    ]
    return _answer(g, board_cards, exact, samples, values, labels, combos)


def _answer(g, board_cards, exact, samples, values, labels, combos) -> dict:
    """The answer's dict from each hand's ``(share, high, low, win, tie, scoop, share's SE)``."""
    out = []
    for (share, high, low, win, tie, scoop, se), label, size in zip(values, labels, combos):
        hand = {
            "hand": label,
            "equity": float(share),
            "equity_se": float(se),
            "win": float(win),
            "tie": float(tie),
            "high": float(high),
            "low": float(low),
            "scoop": float(scoop),
        }
        if size is not None:
            hand["combos"] = size
        out.append(hand)
    return {
        "game": g.name,
        "board": _label(tuple(board_cards)),
        "exact": bool(exact),
        "samples": int(samples),
        "hands": out,
    }


def _sampled_ranges(g, labels, combos, entries, board_cards, dead_cards, samples, seed) -> dict:
    """Ranges (and fixed or ``random`` hands) sampled: each range's hand drawn by weight."""
    from evaluator.fast import fast_evaluator

    fast = fast_evaluator(g)
    players = len(entries)
    unit = share_unit(players)
    blocked = set(board_cards) | set(dead_cards)
    choices: list[tuple[np.ndarray, np.ndarray] | None] = []  # per player: (combos, weights), None for random
    for entry in entries:
        if entry is None:
            choices.append(None)
        elif isinstance(entry, Range):
            keep = [i for i, c in enumerate(entry.combos) if not blocked.intersection(c)]
            if not keep:
                raise SampyongError(f"range {entry.text!r} has no hand left beside the board and dead cards")
            choices.append(
                (np.array([entry.combos[i] for i in keep], np.uint8), np.array([entry.weights[i] for i in keep]))
            )
        else:
            choices.append((np.array([sorted(entry)], np.uint8), np.ones(1)))
    missing = g.board_cards - len(board_cards)
    tally = _Tally(players, np.float64)
    board = np.array(board_cards, np.uint8)
    rng = np.random.default_rng(seed)
    for start in range(0, samples, BATCH):
        n = min(BATCH, samples - start)
        hole, full = _sample_ranges(rng, n, choices, blocked, board, missing, g.hole_cards)
        high, low = fast.high_low(hole, full)
        tally.add(high, low, unit, 1.0)
    return _result(g, board_cards, False, samples, samples, unit, tally, labels, combos)


def _skip_held(drawn, hole, fixed, count):
    """Per row, the first ``count`` cards of ``drawn`` that no fixed hand (players ``fixed``) of
    the row holds."""
    rows = np.arange(len(drawn))[:, None]
    held = np.zeros((len(drawn), 52), np.bool_)
    held[rows, hole[:, fixed].reshape(len(drawn), -1)] = True
    first_free = np.argsort(held[rows, drawn], axis=1, kind="stable")[:, :count]  # free cards first, in order
    return np.take_along_axis(drawn, first_free, axis=1)


def _sample_ranges(rng, n, choices, blocked, board, missing, hole_cards):
    """``n`` deals: each range's hand drawn by weight, rows whose hands share a card drawn
    again, then random hands and the board from each row's own rest of the deck."""
    players = len(choices)
    hole = np.zeros((n, players, hole_cards), np.uint8)
    fixed = np.array([p for p, c in enumerate(choices) if c is not None], np.int64)
    todo = np.arange(n)
    for _ in range(10_000):
        for p in fixed:
            combos, weights = choices[p]
            if len(combos) == 1:
                picks = np.zeros(len(todo), np.int64)
            elif weights.min() == weights.max():
                picks = rng.integers(0, len(combos), size=len(todo))
            else:
                picks = rng.choice(len(combos), size=len(todo), p=weights / weights.sum())
            hole[todo, p] = combos[picks]
        cards = hole[todo][:, fixed].reshape(len(todo), -1)
        ordered = np.sort(cards, axis=1)
        todo = todo[(ordered[:, 1:] == ordered[:, :-1]).any(axis=1)] if cards.shape[1] > 1 else todo[:0]
        if not len(todo):
            break
    else:
        raise SampyongError("these ranges almost never fit together: their hands keep sharing cards")
    randoms = [p for p, c in enumerate(choices) if c is None]
    need = missing + hole_cards * len(randoms)
    from evaluator.deal import deal_cards  # numba's: only sampling loads it

    deck = np.array(sorted(set(range(52)) - blocked), np.uint8)
    # Enough cards that, after skipping those the row's fixed hands hold, ``need`` remain.
    drawn = deal_cards(rng, n, min(len(deck), need + hole_cards * len(fixed)), deck=deck)
    rest = _skip_held(drawn, hole, fixed, need)
    for k, p in enumerate(randoms):
        hole[:, p] = rest[:, missing + k * hole_cards : missing + (k + 1) * hole_cards]
    full = np.concatenate([np.tile(board, (n, 1)), rest[:, :missing]], axis=1)
    return np.ascontiguousarray(hole), np.ascontiguousarray(full)
