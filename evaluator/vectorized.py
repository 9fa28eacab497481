"""Free-use evaluation in numpy alone: the tables of ``evaluator.tables`` read a column at a time.

For small batches of work in a process that has not loaded numba: importing numba and loading
the cached kernels costs about half a second, while numpy reads these tables for some 50
million hands a second. ``evaluator.equity`` takes it for small exact enumerations, so a
calculator answers at once; the numba kernels (``evaluator.fast``) do everything else. Same
tables, same answers (``tests/test_vectorized.py`` holds the two together).

>>> from evaluator.cards import parse_cards
>>> from evaluator.games import game
>>> from evaluator import reference
>>> g = game("pls7")
>>> hole, board = parse_cards("As 2c 3h"), parse_cards("Ad 7s 4h 8s Qc")
>>> high, low = VectorizedEvaluator(g).high_low(np.array([[hole]], np.uint8), np.array([board], np.uint8))
>>> int(high[0, 0]) == reference.best_high(g, hole, board).strength
True
>>> int(low[0, 0]) == reference.best_low(g, hole, board).strength
True
"""

from __future__ import annotations

from functools import cache

import numpy as np

from evaluator.games import Game
from evaluator.tables import (
    CARD_KEY,
    CARD_SUIT_BIT,
    CARD_SUIT_COUNT,
    HI_SHIFT,
    MAX_FREE_POOL,
    high_tables,
    low_table,
    multiset_index,
)

# Per card, as the kernels add them: the multiset key below bit 32, four 4-bit suit counters above.
CARD_WORD = CARD_KEY.astype(np.int64) | (CARD_SUIT_COUNT.astype(np.int64) << 32)
SUIT_BITS = CARD_SUIT_BIT.astype(np.int64)  # bit 16 * suit + rank
FLUSH_PROBE = 0x3333  # adding 3 to each 4-bit suit count sets bit 3 when the count is >= 5
FLUSH_BITS = 0x8888


def covers(game: Game) -> bool:
    """Whether ``game`` is free use (any 5 of the pool) on a pool the rank tables cover."""
    return game.free_use and game.hole_cards + game.board_cards <= MAX_FREE_POOL


class VectorizedEvaluator:
    """Batch high and low strengths of one free-use game, in numpy.

    Parameters:
        game: a free-use game whose pool (hole and board) is at most 9 cards (``covers``).
    """

    def __init__(self, game: Game):
        if not covers(game):
            raise ValueError(f"{game.name}: numpy evaluates free use of at most {MAX_FREE_POOL} cards")
        self.game = game
        pool = game.hole_cards + game.board_cards
        tables = high_tables(game.ranking)
        self.lo_index, start = multiset_index()
        self.start_row = np.maximum(start[pool], 0).astype(np.int64)  # unused entries are never read
        self.rank_value = tables.rank_value[pool]
        self.flush_value = tables.flush_value
        self.low_value = low_table(game.low) if game.low is not None else None

    def high_low(self, hole: np.ndarray, board: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(high, low)`` strengths, each ``uint32[n, players]``, of ``hole`` (``uint8[n, players,
        hole_cards]``) with ``board`` (``uint8[n, board_cards]``); a low of 0 is no low."""
        n, players, hole_cards = hole.shape
        if board.shape != (n, self.game.board_cards) or hole_cards != self.game.hole_cards:
            raise ValueError(
                f"{self.game.name} deals {self.game.hole_cards} hole and {self.game.board_cards} board cards"
            )
        board_word = _added(CARD_WORD, board)
        board_ranks = _ored(SUIT_BITS, board) if self.low_value is not None else None
        high = np.empty((n, players), np.uint32)
        low = np.zeros((n, players), np.uint32)
        for p in range(players):
            word = board_word + _added(CARD_WORD, hole[:, p])
            key = word & 0xFFFFFFFF
            entry = self.start_row.take(key >> HI_SHIFT) + self.lo_index.take(key & ((1 << HI_SHIFT) - 1))
            value = self.rank_value.take(entry)
            probe = ((word >> 32) + FLUSH_PROBE) & FLUSH_BITS
            flushed = np.flatnonzero(probe)  # a few % of pools: at most one suit of 9 cards holds five
            if len(flushed):  # their suit's ranks from their own cards, as the kernels do
                bits = _ored(SUIT_BITS, board[flushed]) | _ored(SUIT_BITS, hole[flushed, p])
                suit_ranks = (bits >> (16 * _probe_suit(probe[flushed]))) & 0x1FFF
                value[flushed] = np.maximum(value[flushed], self.flush_value.take(suit_ranks))
            high[:, p] = value
            if board_ranks is not None and self.low_value is not None:
                bits = board_ranks | _ored(SUIT_BITS, hole[:, p])
                ranks = (bits | bits >> 16 | bits >> 32 | bits >> 48) & 0x1FFF
                low[:, p] = self.low_value.take(((ranks & 0x7F) << 1) | (ranks >> 12))  # bit 0 the ace, 1..7 the 2..8
        return high, low


# Card by card (column by column): numpy reduces a short axis slowly, and ``take`` is twice as
# fast as ``[]`` with these small indices.
def _added(per_card: np.ndarray, cards: np.ndarray) -> np.ndarray:
    """The sum over each row of ``cards`` of ``per_card[card]``."""
    total = per_card.take(cards[:, 0])
    for j in range(1, cards.shape[1]):
        total = total + per_card.take(cards[:, j])
    return total


def _ored(per_card: np.ndarray, cards: np.ndarray) -> np.ndarray:
    """The OR over each row of ``cards`` of ``per_card[card]``."""
    total = per_card.take(cards[:, 0])
    for j in range(1, cards.shape[1]):
        total = total | per_card.take(cards[:, j])
    return total


def _probe_suit(probe: np.ndarray) -> np.ndarray:
    """The suit whose bit (3, 7, 11 or 15) is set in each flush probe."""
    return ((probe >> 7) & 1) | ((probe >> 10) & 2) | (((probe >> 15) & 1) * 3)


@cache
def vectorized_evaluator(game: Game) -> VectorizedEvaluator:
    return VectorizedEvaluator(game)
