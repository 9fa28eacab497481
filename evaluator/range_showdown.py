"""Range against range on every board: each hand evaluated once per board, then compared on integers.

This is the showdown of the equity calculator and of the solver's terminal nodes. Per board,
every hand of every range is evaluated once (``FastEvaluator``: high strength and low); the
hands that share a card with the board take no part.

Two players (``heads_up``): both ranges sorted by high strength and swept upwards, as
published range solvers do. The other range's hands below the current strength are tallied by
card subset (the empty set, each card, each pair, ... up to one card short of a whole hand)
and by low class, so a hand's weight against the whole other range *without the hands that
share a card with it* is a sum over its own card subsets with alternating signs
(inclusion-exclusion; the one hand sharing every card is the hand itself, counted apart).
Three counts per hand (other hands lower, lower or equal, all) by low class give the nine
cells high (win, tie, lose) by low (better, equal, worse), and each cell's pot shares follow
RULES section 6: no low anywhere, the high takes the pot; otherwise halves, ties split.

Three or more players (``multiway``): every card-disjoint tuple of the ranges' hands compared
on the evaluated integers.

Shares are counted in units (``settle.share_unit``: 4 for two players), weights are the
ranges' weights times each board's orbit size (``evaluator.isomorphism``); with whole weights
every sum is an integer and float64 holds it exactly (below 2**53). Boards are cut into blocks
of fixed size and the blocks' sums added in order, so the result is the same for any number
of threads.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from math import comb

import numpy as np

from evaluator.games import Game
from evaluator.isomorphism import card_masks, completions, folded_boards, symmetries
from evaluator.settle import share_unit
from evaluator.tables import low_table

# The columns of every sum: pot share, its high part, its low part (in units); whole pots won
# alone, pots shared, scoops (both halves of a pot with a low); the weight of the deals.
COLUMNS = ("share", "high", "low", "win", "tie", "scoop", "weight")
BLOCK_EVALUATIONS = 1 << 20  # hands evaluated per block of boards: a few MB of strengths


@dataclasses.dataclass(frozen=True)
class Showdown:
    """Sums over every board and every card-disjoint deal of the ranges' hands, weighted.

    Parameters:
        unit: pot shares are counted in units of ``1 / unit`` of the pot.
        boards: the board completions enumerated (before folding by suit symmetry).
        evaluated: the boards evaluated (one per orbit).
        totals: ``float64[players, 7]`` in ``COLUMNS`` order, each hand's weight included.
        per_hand: heads-up only, per player ``float64[hands, 7]``: the same sums for each hand
            of its range, its own weight not included (``None`` for three or more players, and
            when boards were folded: a hand's own sums then belong to its whole orbit).
    """

    unit: int
    boards: int
    evaluated: int
    totals: np.ndarray
    per_hand: tuple[np.ndarray, ...] | None


@dataclasses.dataclass(frozen=True)
class Spot:
    """What one enumeration covers: the ranges as arrays and the boards to complete.

    Parameters:
        hands: per player ``uint8[n, hole cards]``, each hand's cards.
        weights: per player ``float64[n]``.
        board: the known board cards; ``dead`` the cards out of play.
        deck: the cards a completion is drawn from (no known, dead or always-held card).
        missing: how many board cards each completion adds.
    """

    hands: tuple[np.ndarray, ...]
    weights: tuple[np.ndarray, ...]
    board: tuple[int, ...]
    dead: tuple[int, ...]
    deck: np.ndarray
    missing: int

    @property
    def completions(self) -> int:
        return comb(len(self.deck), self.missing)

    @functools.cached_property
    def symmetries(self) -> np.ndarray:
        """The card maps of the suit permutations that keep the spot (``isomorphism.symmetries``)."""
        return symmetries(list(self.board), list(self.dead), list(self.hands), list(self.weights))


def spot(g: Game, hands: list[np.ndarray], weights: list[np.ndarray], board: list[int], dead: list[int]) -> Spot:
    """The ``Spot`` of these ranges on ``board``; hands that meet the board or the dead cards
    are dropped. A card every hand of some range holds is never on the board, so it leaves the
    deck (a single hand's cards, for example)."""
    blocked = np.int64(sum(1 << c for c in board + dead))
    kept_hands, kept_weights = [], []
    for h, w in zip(hands, weights):
        h = np.asarray(h, np.uint8).reshape(len(h), g.hole_cards)
        keep = ((card_masks(h) & blocked) == 0) & (np.asarray(w) > 0)
        kept_hands.append(np.ascontiguousarray(h[keep]))
        kept_weights.append(np.asarray(w, np.float64)[keep])
    always = 0
    for h in kept_hands:
        if len(h):
            always |= int(np.bitwise_and.reduce(card_masks(h)))
    deck = np.array([c for c in range(52) if not (int(blocked) >> c & 1 or always >> c & 1)], np.uint8)
    return Spot(tuple(kept_hands), tuple(kept_weights), tuple(board), tuple(dead), deck, g.board_cards - len(board))


def evaluations(s: Spot, folded: bool = True) -> float:
    """The work an exact answer takes, in hand evaluations: boards (folded by about the spot's
    symmetry, unless ``folded`` is False: quicker to tell) times hands, where heads-up each
    hand's sweep counts as one per card subset and with three or more players each tuple as
    one per player."""
    players = len(s.hands)
    boards = float(s.completions)
    if folded:
        boards /= len(s.symmetries)
    per_board = float(sum(len(h) for h in s.hands))
    if players == 2:
        per_board *= 1 << s.hands[0].shape[1]
    else:
        per_board += players * float(np.prod([len(h) for h in s.hands], dtype=np.float64))
    return boards * per_board


def showdown(g: Game, s: Spot, threads: int | None = None, fold: bool = True) -> Showdown:
    """Every board of ``s`` and every card-disjoint deal of its hands, summed (``Showdown``).

    ``threads`` blocks of boards at a time (default: every core); the sums do not depend on it.
    ``fold=False`` evaluates every board, not one per orbit: slower, but heads-up each hand's
    own sums come back (``per_hand``) whatever the spot's symmetries.
    """
    from evaluator.fast import fast_evaluator  # numba's kernels: loaded only when enumerating

    fast = fast_evaluator(g)
    players = len(s.hands)
    maps = s.symmetries if fold else np.arange(52, dtype=np.int64)[None, :]
    rows, orbit = folded_boards(completions(s.deck, s.missing), maps)
    full = np.empty((len(rows), g.board_cards), np.uint8)
    full[:, : len(s.board)] = s.board
    full[:, len(s.board) :] = rows
    weights = orbit.astype(np.float64)
    classes = _low_classes(g)
    plan: _HeadsUp | _Multiway = _HeadsUp(s.hands, s.weights) if players == 2 else _Multiway(s.hands, s.weights)
    every = np.concatenate(s.hands) if players else np.zeros((0, g.hole_cards), np.uint8)
    per_block = max(1, BLOCK_EVALUATIONS // max(1, len(every)))
    starts = range(0, len(full), per_block)

    def block(start: int):
        boards = full[start : start + per_block]
        high, low = evaluate_hands(fast, every, boards)
        return plan.run(
            boards,
            weights[start : start + per_block],
            high,
            np.searchsorted(classes, low),
            share_unit(players),
            len(classes),
        )

    workers = threads or os.cpu_count() or 1
    if workers == 1 or len(starts) == 1:
        parts = [block(start) for start in starts]
    else:
        with ThreadPoolExecutor(workers) as pool:
            parts = list(pool.map(block, starts))
    totals, per_hand = plan.finish(parts)
    return Showdown(share_unit(players), s.completions, len(full), totals, per_hand if len(maps) == 1 else None)


def _low_classes(g: Game) -> np.ndarray:
    """Every low strength of the game, ascending after 0 (no low): a low's class is its place."""
    if g.low is None:
        return np.zeros(1, np.uint32)
    return np.unique(np.concatenate([[0], low_table(g.low)])).astype(np.uint32)


def evaluate_hands(fast, hands: np.ndarray, boards: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(high, low)``, ``uint32[boards, hands]``. A hand that meets a board is evaluated as
    some hand that does not (the kernels expect distinct cards) and counts for nothing."""
    n, size = hands.shape
    hole = np.empty((len(boards), n, size), np.uint8)
    hole[:] = hands
    meets = (card_masks(hands)[None, :] & card_masks(boards)[:, None]) != 0
    if meets.any():
        on_board = np.zeros((len(boards), 52), np.bool_)
        on_board[np.arange(len(boards))[:, None], boards] = True
        free = np.argsort(on_board, axis=1, kind="stable")  # each board's free cards first
        board_of = np.nonzero(meets)[0]
        hole[meets] = free[board_of, :size]
    return fast.high_low(hole, np.ascontiguousarray(boards))


class _HeadsUp:
    """The sweep's tables for two ranges: each hand's card subsets, and where they sit in the
    other range's tallies."""

    def __init__(self, hands: tuple[np.ndarray, ...], weights: tuple[np.ndarray, ...]):
        self.hands, self.weights = hands, weights
        self._local = threading.local()
        size = hands[0].shape[1]
        proper = [s for k in range(size) for s in itertools.combinations(range(size), k)]
        self.signs = np.array([(-1.0) ** len(s) for s in proper])
        self.full_sign = (-1.0) ** size
        self.masks = [card_masks(h) for h in hands]
        subset_masks = [_subset_masks(h, proper) for h in hands]
        # Per direction (hero, villain): the villain's subset ids, the hero's subsets in them.
        self.directions = []
        for hero, villain in ((0, 1), (1, 0)):
            ids, villain_subsets = np.unique(subset_masks[villain], return_inverse=True)
            villain_subsets = villain_subsets.reshape(subset_masks[villain].shape).astype(np.int64)
            at = np.minimum(np.searchsorted(ids, subset_masks[hero]), len(ids) - 1)
            hero_subsets = np.where(ids[at] == subset_masks[hero], at, -1).astype(np.int64)
            order = np.argsort(self.masks[villain])
            place = np.minimum(np.searchsorted(self.masks[villain][order], self.masks[hero]), len(order) - 1)
            match = np.where(self.masks[villain][order][place] == self.masks[hero], order[place], -1).astype(np.int64)
            self.directions.append((hero, villain, len(ids), villain_subsets, hero_subsets, match))

    def run(self, boards, board_weights, high, low_class, unit, lows):
        from evaluator.range_showdown_kernels import heads_up

        n0 = len(self.hands[0])
        columns = (slice(0, n0), slice(n0, None))
        board_masks = card_masks(boards)
        parts = []
        for hero, villain, ids, villain_subsets, hero_subsets, match in self.directions:
            acc = np.zeros((len(self.hands[hero]), len(COLUMNS)))
            heads_up(
                board_masks,
                board_weights,
                np.ascontiguousarray(high[:, columns[hero]]),
                np.ascontiguousarray(low_class[:, columns[hero]]),
                np.ascontiguousarray(high[:, columns[villain]]),
                np.ascontiguousarray(low_class[:, columns[villain]]),
                self.masks[hero],
                self.masks[villain],
                self.weights[villain],
                hero_subsets,
                villain_subsets,
                self.signs,
                self.full_sign,
                match,
                *self._tallies(ids, lows),
                _OUTCOMES,
                acc,
            )
            parts.append(acc)
        return parts

    def _tallies(self, ids: int, lows: int) -> tuple[np.ndarray, np.ndarray]:
        """This thread's zeroed tallies by villain card subset and low class (``hist``) and by
        subset alone (``total``), made once per thread and direction: the kernel leaves them
        zeroed after every board, and for large ranges of four cards they run to many MB."""
        tallies = getattr(self._local, "tallies", None)
        if tallies is None:
            tallies = self._local.tallies = {}
        if (ids, lows) not in tallies:
            tallies[ids, lows] = (np.zeros((ids, lows + 1)), np.zeros(ids))  # a Fenwick tree over the lows
        return tallies[ids, lows]

    def finish(self, parts):
        per_hand = tuple(sum(p[k] for p in parts) for k in range(2))
        totals = np.stack([self.weights[k] @ per_hand[k] for k in range(2)])
        return totals, per_hand


def _subset_masks(hands: np.ndarray, proper: list[tuple[int, ...]]) -> np.ndarray:
    """``int64[n, subsets]``: the card mask of each proper subset of each hand (0 for the empty one)."""
    cards = np.int64(1) << hands.astype(np.int64)
    out = np.zeros((len(hands), len(proper)), np.int64)
    for k, s in enumerate(proper):
        for position in s:
            out[:, k] |= cards[:, position]
    return out


def _outcomes() -> np.ndarray:
    """``OUTCOMES[hero has a low, high cell, low cell]``: the hero's sums (``COLUMNS`` but the
    weight) for one deal of two players, in units of a quarter pot. High cells: the hero wins,
    ties, loses the high; low cells: the hero's low is better, equal, worse (no low is the worst)."""
    out = np.zeros((2, 3, 3, 6))
    for has_low, high_cell, low_cell in itertools.product(range(2), range(3), range(3)):
        if not has_low and low_cell == 0:
            continue  # no low is never better than the villain's
        some_low = has_low or low_cell == 2
        high = (2, 1, 0)[high_cell] * (1 if some_low else 2)
        low = (2, 1, 0)[low_cell] if has_low else 0
        share = high + low
        out[has_low, high_cell, low_cell] = (share, high, low, share == 4, 0 < share < 4, share == 4 and some_low)
    return out


_OUTCOMES = _outcomes()


def deals(hands: tuple[np.ndarray, ...], weights: tuple[np.ndarray, ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every card-disjoint tuple of one hand per player: ``(int64[tuples, players])`` indices
    into the players' hands concatenated, the tuples' card masks and their weights (products)."""
    offsets = np.cumsum([0] + [len(h) for h in hands])
    tuples = np.zeros((1, 0), np.int64)
    tuple_masks = np.zeros(1, np.int64)
    tuple_weights = np.ones(1)
    for p, (h, w) in enumerate(zip(hands, weights)):
        m = card_masks(h)
        row, hand = np.nonzero((tuple_masks[:, None] & m[None, :]) == 0)
        tuples = np.column_stack([tuples[row], hand + offsets[p]])
        tuple_masks = tuple_masks[row] | m[hand]
        tuple_weights = tuple_weights[row] * w[hand]
    return tuples, tuple_masks, tuple_weights


class _Multiway:
    """Every card-disjoint tuple of the ranges' hands, with its weight."""

    def __init__(self, hands: tuple[np.ndarray, ...], weights: tuple[np.ndarray, ...]):
        self.players = len(hands)
        self.tuples, self.tuple_masks, self.tuple_weights = deals(hands, weights)

    def run(self, boards, board_weights, high, low_class, unit, lows):
        from evaluator.range_showdown_kernels import multiway

        acc = np.zeros((self.players, len(COLUMNS)))
        multiway(
            card_masks(boards),
            board_weights,
            high,
            low_class,
            self.tuples,
            self.tuple_masks,
            self.tuple_weights,
            unit,
            acc,
        )
        return acc

    def finish(self, parts):
        return sum(parts), None
