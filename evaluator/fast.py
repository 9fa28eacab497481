"""A game's fast evaluator: binds the game's tables to the right kernel.

>>> import numpy as np
>>> from evaluator.cards import parse_cards
>>> from evaluator.games import game
>>> from evaluator import reference
>>> g = game("pls7")
>>> hole, board = parse_cards("As 2c Kh"), parse_cards("Ad 7s 4h 8s Qc")
>>> high, low = FastEvaluator(g).high_low(np.array([[hole]], np.uint8), np.array([board], np.uint8))
>>> int(high[0, 0]) == reference.best_high(g, hole, board).strength
True
"""

from __future__ import annotations

import itertools
from functools import cache, cached_property

import numpy as np

from evaluator import free_kernels, pool_kernels, split_kernels
from evaluator.games import Category, Game
from evaluator.tables import (
    MAX_FREE_POOL,
    MAX_SPLIT_HOLE,
    MAX_TABLE_HOLE,
    PART_MAJOR_SPLIT,
    distinct_present,
    five_card_order,
    high_tables,
    hole_rank_index,
    hole_table,
    low_table,
    multiset_index,
    split_low_table,
    split_tables,
)


def _subsets(size: int, choose: tuple[int, ...]) -> list[tuple[int, ...]]:
    return [c for k in choose for c in itertools.combinations(range(size), k)]


def _padded(sets: list[tuple[int, ...]]) -> np.ndarray:
    width = max(1, max(len(s) for s in sets))
    out = np.full((len(sets), width), -1, dtype=np.int64)
    for i, s in enumerate(sets):
        out[i, : len(s)] = s
    return out


class FastEvaluator:
    """Batch high/low/present evaluation for one game; construct once, call many times."""

    def __init__(self, game: Game):
        self.game = game
        self.tables = high_tables(game.ranking)
        self.lo_index, self.start = multiset_index()
        self.low_value = low_table(game.low) if game.low is not None else np.zeros(256, np.uint32)
        self.pool_size = game.hole_cards + game.board_cards
        self.uses_tables = game.free_use and self.pool_size <= MAX_FREE_POOL
        self.uses_split = not self.uses_tables and max(game.hand_splits) <= MAX_SPLIT_HOLE and game.board_cards == 5
        self.low_mask = (1 << game.low) - 1 if game.low is not None else 0

    def uses_hole_table(self, players: int) -> bool:
        """Whether ``high_low`` reads ``tables.hole_table`` (one prefetched read per hand) rather
        than the split tables: for one hand per board, and for hands that may use three hole
        cards (ten split reads each). With 8 hands per board and at most two hole cards used,
        the split tables' board row stays cached and they were as fast or up to 1.15x faster, side
        by side."""
        g = self.game
        return self.uses_split and g.hole_cards <= MAX_TABLE_HOLE and (players == 1 or 3 in g.hand_splits)

    @property
    def path(self) -> str:
        """Which kernel serves this game: ``tables`` (free use), ``split`` or ``subsets``."""
        return "tables" if self.uses_tables else "split" if self.uses_split else "subsets"

    @cached_property
    def _free_kernels(self):
        g = self.game
        return free_kernels.free_kernels(g.hole_cards, g.board_cards, g.ranking, g.low)

    @cached_property
    def _ordinal_kernels(self):
        """The free-use kernels over ordinal tables, high only."""
        g = self.game
        return free_kernels.free_kernels(g.hole_cards, g.board_cards, g.ranking, None, ordinals=True)

    @cached_property
    def _subset_plan(self):
        g = self.game
        hole_sets = _subsets(g.hole_cards, g.hand_splits)
        board_sets = _subsets(g.board_cards, tuple(5 - h for h in g.hand_splits))
        pairs = [(a, b) for a, hs in enumerate(hole_sets) for b, bs in enumerate(board_sets) if len(hs) + len(bs) == 5]
        return _padded(hole_sets), _padded(board_sets), np.array(pairs, dtype=np.int64)

    @cached_property
    def _split_plan(self):
        g = self.game
        board_sets = _subsets(g.board_cards, tuple(sorted({5 - h for h in g.hand_splits})))
        offsets = np.zeros(MAX_SPLIT_HOLE + 1, dtype=np.int64)
        strides = np.zeros(MAX_SPLIT_HOLE + 1, dtype=np.int64)
        parts = []
        total = 0
        for used in g.hand_splits:
            value, present = split_tables(g.ranking, used)
            offsets[used] = total
            if used != PART_MAJOR_SPLIT:
                strides[used] = len(value) // len(self.tables.rank_value[5])
            total += len(value)
            parts.append((value, present))
        hole_sets = _subsets(g.hole_cards, g.hand_splits)
        return (
            split_kernels.split_kernel(g.hole_cards, g.hand_splits),
            _padded(hole_sets),
            np.array([len(s) for s in hole_sets], np.int64),
            _padded(board_sets),
            np.array([len(s) for s in board_sets], np.int64),
            np.concatenate([v for v, _ in parts]),
            np.concatenate([p for _, p in parts]),
            offsets,
            strides,
        )

    @cached_property
    def _split_orders(self):
        """The split kernel's order tables, looked up once (not per call: small batches)."""
        return (hole_rank_index(), distinct_present(self.game.ranking), *five_card_order(self.game.ranking))

    @cached_property
    def _split_low(self) -> np.ndarray:
        if self.game.low is None:
            return np.zeros(1 << 16, np.uint32)
        return split_low_table(self.game.low, self.game.hand_splits)

    @cached_property
    def _hole_table_plan(self):
        """The hole-table kernel and its tables, looked up once (not per call: small batches)."""
        g = self.game
        strength_of, flush_ordinal = five_card_order(g.ranking)
        return (
            split_kernels.hole_table_kernel(g.hole_cards, g.hand_splits),
            hole_table(g.ranking, g.hole_cards, g.hand_splits),
            strength_of,
            flush_ordinal,
        )

    def _run_hole_table(self, hole, board):
        """High and low of a split game of three or four hole cards: one prefetched read per hand."""
        n, players = hole.shape[:2]
        high = np.empty((n, players), np.uint32)
        low = np.empty((n, players), np.uint32)
        kernel, table, strength_of, flush_ordinal = self._hole_table_plan
        kernel(
            hole,
            board,
            self.lo_index,
            self.start,
            table,
            strength_of,
            flush_ordinal,
            self._split_low,
            self.low_mask,
            high,
            low,
        )
        return high, low

    def _run_split(self, hole, board, want_present: bool):
        n, players = hole.shape[:2]
        high = np.empty((n, players), np.uint32)
        low = np.empty((n, players), np.uint32)
        present = np.zeros((n, players), np.uint16)
        kernel, hole_sets, hole_sizes, board_sets, board_sizes, value, present_bits, offsets, strides = self._split_plan
        rank_index, distinct, strength_of, flush_ordinal = self._split_orders
        kernel(
            hole,
            board,
            hole_sets,
            hole_sizes,
            board_sets,
            board_sizes,
            self.lo_index,
            self.start,
            rank_index,
            value,
            present_bits,
            offsets,
            strides,
            distinct,
            flush_ordinal,
            self.tables.flush_present,
            self._split_low,
            self.low_mask,
            want_present,
            strength_of,
            high,
            low,
            present,
        )
        return high, low, present

    def _check(self, hole: np.ndarray, board: np.ndarray) -> tuple[int, int]:
        """``(n, players)`` of a well-shaped batch (``ValueError`` otherwise). Each shape read once:
        a call's overhead counts for small batches."""
        hole_shape, board_shape = hole.shape, board.shape
        if len(hole_shape) != 3 or len(board_shape) != 2 or hole_shape[0] != board_shape[0]:
            raise ValueError("hole must be [n, players, hole_cards] and board [n, board_cards]")
        if hole_shape[2] != self.game.hole_cards or board_shape[1] != self.game.board_cards:
            raise ValueError(
                f"{self.game.name} deals {self.game.hole_cards} hole and {self.game.board_cards} board cards"
            )
        return hole_shape[0], hole_shape[1]

    def _run_subsets(self, hole, board):
        n, players = hole.shape[:2]
        high = np.empty((n, players), np.uint32)
        low = np.empty((n, players), np.uint32)
        present = np.empty((n, players), np.uint16)
        hole_sets, board_sets, pairs = self._subset_plan
        t = self.tables
        split_kernels.subset_high_low(
            hole,
            board,
            hole_sets,
            board_sets,
            pairs,
            self.lo_index,
            self.start[5],
            t.rank_value[5],
            t.rank_present[5],
            t.flush_value,
            t.flush_present,
            self.low_value,
            high,
            low,
            present,
        )
        return high, low, present

    def high_low(self, hole: np.ndarray, board: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(high, low)`` strengths, each ``uint32[n, players]``; a low of 0 is no low."""
        n, players = self._check(hole, board)
        if not self.uses_tables:
            if self.uses_hole_table(players):
                return self._run_hole_table(hole, board)
            high, low, _ = (
                self._run_split(hole, board, want_present=False) if self.uses_split else self._run_subsets(hole, board)
            )
            return high, low
        high = np.empty((n, players), np.uint32)
        # Without a low the kernels write none: the zeros are the answer.
        low = np.zeros((n, players), np.uint32) if self.game.low is None else np.empty((n, players), np.uint32)
        self._run_free(self._free_kernels, hole, board, high, low)
        return high, low

    def high(self, hole: np.ndarray, board: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
        """Just the high strengths, ``uint32[n, players]``: for a free-use game without a low,
        no low array is made at all (a fresh array of zeros costs its pages, 0.15x the
        evaluation of hold'em).

        ``out``, a C-contiguous ``uint32[n, players]`` array, receives them and is returned: a
        caller evaluating batch after batch keeps one array's pages (at 20M hands of hold'em a
        fresh array's first writes made the call 1.1x slower, side by side).
        """
        n, players = self._check(hole, board)
        _check_out(out, (n, players), np.uint32)
        if not self.uses_tables or self.game.low is not None:
            high = self.high_low(hole, board)[0]
            if out is None:
                return high
            out[...] = high
            return out
        high = np.empty((n, players), np.uint32) if out is None else out
        self._run_free(self._free_kernels, hole, board, high, _NO_LOW)
        return high

    @property
    def strength_of(self) -> np.ndarray:
        """``uint32``: every distinct 5-card high strength of the game, ascending, after a 0 (7,462
        strengths in every ranking); an ordinal (``high_ordinals``) is an index into it."""
        return five_card_order(self.game.ranking)[0]

    def high_ordinals(self, hole: np.ndarray, board: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
        """The high hands as ordinals, ``uint16[n, players]``: each strength's place in
        ``strength_of``, so they compare as the strengths do in half the bytes (what OMPEval and
        PokerHandEvaluator give). A free-use game reads ordinal tables, half the size, and makes
        no low; the others find their strengths' places. ``out`` as in ``high``, ``uint16``.

        >>> from evaluator.cards import parse_cards
        >>> from evaluator.games import game
        >>> fast = FastEvaluator(game("holdem"))
        >>> hole = np.array([[parse_cards("As Ks")], [parse_cards("7c 2d")]], np.uint8)
        >>> board = np.array([parse_cards("Qs Js Ts 3h 3d")] * 2, np.uint8)
        >>> ordinals = fast.high_ordinals(hole, board)
        >>> ordinals[:, 0].tolist(), len(fast.strength_of) - 1
        ([7462, 1617], 7462)
        >>> bool((fast.strength_of[ordinals] == fast.high(hole, board)).all())
        True
        """
        n, players = self._check(hole, board)
        _check_out(out, (n, players), np.uint16)
        ordinals = np.empty((n, players), np.uint16) if out is None else out
        if self.uses_tables:
            self._run_free(self._ordinal_kernels, hole, board, ordinals, _NO_LOW)
        else:
            ordinals[...] = np.searchsorted(self.strength_of, self.high_low(hole, board)[0])
        return ordinals

    def _run_free(self, free, hole, board, high, low) -> None:
        """The free-use kernels ``free``: one player per deal from the deal's rows when ``hole``
        and ``board`` are views of them, every player of a shared board otherwise."""
        rows = _deal_rows(hole, board) if hole.shape[1] == 1 and len(hole) >= ROWS_FROM else None
        if rows is None:
            free.shared_board(hole, board, high, low)
        else:
            free.one_per_board(rows.reshape(-1), high.reshape(-1), low.reshape(-1))

    def high_low_present(self, hole: np.ndarray, board: np.ndarray):
        """``(high, low, present)``; ``present`` is ``uint16[n, players]`` with bit ``c`` set when
        an allowed 5-card hand is exactly category ``c``."""
        self._check(hole, board)
        if self.uses_split:
            return self._run_split(hole, board, want_present=True)
        if not self.uses_tables:
            return self._run_subsets(hole, board)
        n, players = hole.shape[:2]
        high = np.empty((n, players), np.uint32)
        low = np.empty((n, players), np.uint32)
        present = np.empty((n, players), np.uint16)
        self._free_kernels.high_low_present(hole, board, high, low, present)
        return high, low, present

    def low(self, hole: np.ndarray, board: np.ndarray) -> np.ndarray | None:
        """Just the low strengths (``uint32[n, players]``) where that is cheaper than ``high_low``
        (free use: rank masks only); None otherwise."""
        self._check(hole, board)
        if not self.uses_tables:
            return None
        low = np.empty(hole.shape[:2], np.uint32)
        self._free_kernels.low_only(hole, board, low)
        return low

    def rerank(self, high: np.ndarray, present: np.ndarray, source: FastEvaluator, hole, board) -> np.ndarray | None:
        """This game's high strengths from ``source``'s ``high`` and ``present`` on the same hands;
        None unless the two games differ only in the order of the same categories (then
        ``present`` is the same for both). Hands whose best category changes (under 1 % for the
        PLS rankings) are evaluated again; the others only move position.

        >>> from evaluator.games import game
        >>> from evaluator.cards import parse_cards
        >>> base, swapped = FastEvaluator(game("pls7")), FastEvaluator(game("pls7").variant(ranking="both"))
        >>> hole = np.array([[parse_cards("9s 8d 8c")]], np.uint8)
        >>> board = np.array([parse_cards("8h 7c 6d 5s Kd")], np.uint8)
        >>> high, low, present = base.high_low_present(hole, board)
        >>> reranked = swapped.rerank(high, present, base, hole, board)
        >>> [Category(base.category(high)[0, 0]).name, Category(swapped.category(reranked)[0, 0]).name]
        ['straight', 'three_of_a_kind']
        """
        a, b = source.game, self.game
        deal_and_use = (a.hole_cards, a.board_cards, a.hole_use) == (b.hole_cards, b.board_cards, b.hole_use)
        if not deal_and_use or set(a.ranking.order) != set(b.ranking.order):
            return None
        position, top_position = _positions(b.ranking)
        out = np.empty(high.shape, np.uint32)
        redo = np.empty(high.size, np.int64)
        count = pool_kernels.rerank_high(
            high, present, source.tables.category_of_position, position, top_position, out, redo
        )
        if count:
            deal, seat = np.divmod(redo[:count], high.shape[1])
            again = self.high(np.ascontiguousarray(hole[deal, seat][:, None, :]), np.ascontiguousarray(board[deal]))
            out[deal, seat] = again[:, 0]
        return out

    def category(self, high: np.ndarray) -> np.ndarray:
        """The Category value (int8) of each high strength."""
        return self.tables.category_of_position[np.asarray(high) >> 20]


def _check_out(out: np.ndarray | None, shape: tuple[int, int], dtype) -> None:
    """Refuse an ``out`` array the kernels cannot write into, before any work."""
    if out is not None and (out.shape != shape or out.dtype != dtype or not out.flags.c_contiguous):
        raise ValueError(f"out must be a C-contiguous {np.dtype(dtype).name} array of shape {shape}")


# Hands from which one player's views are looked for rows: the looking costs 1.3 µs, the rows
# kernel saves some 0.8 ns a hand of hold'em.
ROWS_FROM = 2048
_NO_LOW = np.empty((0, 1), np.uint32)  # what the free-use kernels of a game without a low never write


def _deal_rows(hole: np.ndarray, board: np.ndarray) -> np.ndarray | None:
    """The rows of a deal array whose columns one player's ``hole`` and ``board`` are, when
    they are ``split_deal``'s views of those rows (its first columns, then the rest); else None.

    The one-player kernel reads those rows, flattened: one pointer for the two views, and a
    row's length a constant of its code (hold'em 1.25x, side by side). Checked by base, shape
    and strides, then where the views start in their base (a kernel reads the addresses:
    0.3 µs, a tenth of numpy's).
    """
    rows = hole.base
    n, _, hole_cards = hole.shape
    pool = hole_cards + board.shape[1]
    if rows is None or rows is not board.base or rows.ndim != 2 or rows.shape[1] != pool:
        return None
    if rows.dtype != np.uint8 or not rows.flags.c_contiguous or hole.strides[0] != pool or board.strides[0] != pool:
        return None
    if hole.strides[2] != 1 or board.strides[1] != 1:
        return None
    hole_start, board_start = free_kernels.byte_offsets(hole, board, rows)
    if hole_start % pool or board_start != hole_start + hole_cards:
        return None
    return rows[hole_start // pool : hole_start // pool + n]


@cache
def _positions(ranking) -> tuple[np.ndarray, np.ndarray]:
    """``position[category]`` in the ranking, and ``top_position[bits]``: the highest position
    among the categories whose bits are set (-1 for none)."""
    position = np.full(len(Category), -1, np.int64)
    for p, c in enumerate(ranking.order):
        position[int(c)] = p
    top_position = np.full(1 << len(Category), -1, np.int64)
    for bits in range(1, 1 << len(Category)):
        top_position[bits] = max(position[c] for c in range(len(Category)) if bits >> c & 1)
    return position, top_position


@cache
def fast_evaluator(game: Game) -> FastEvaluator:
    return FastEvaluator(game)
