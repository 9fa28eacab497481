"""Random deals from a numpy ``Generator``, fast and exactly uniform.

The generator's raw 64-bit words are drawn in bulk (``bit_generator.random_raw``), split into
16-bit quarters (numpy's raw words cost about 4 ns each here, most of a deal's time with
32-bit draws), and turned into bounded integers by Lemire's multiply-and-reject method
inside a numba partial Fisher-Yates shuffle: exact for any draw width, so every ordered deal
of ``k`` cards is equally likely. The same generator state always gives the same deals.
"""

from __future__ import annotations

import numpy as np
from numba import njit

_BITS = 16
_LOW = (1 << _BITS) - 1
_MARGIN = 64  # spare draws a deal may need for rejections (each has odds below 52 / 2**16)


@njit(cache=True)
def _deal_block(stream, deck, out, first):
    """Fill ``out[first:]`` with deals while the stream lasts; return the next unfilled row."""
    n, k = out.shape
    deck_size = deck.shape[0]
    pos = 0
    size = stream.shape[0]
    for row in range(first, n):
        if size - pos < k + _MARGIN:
            return row
        for i in range(k):
            bound = np.int64(deck_size - i)
            m = np.int64(stream[pos]) * bound
            pos += 1
            low = m & _LOW
            if low < bound:
                threshold = ((1 << _BITS) - bound) % bound
                while low < threshold:
                    m = np.int64(stream[pos]) * bound
                    pos += 1
                    low = m & _LOW
            j = i + (m >> _BITS)
            card = deck[j]
            deck[j] = deck[i]
            deck[i] = card
            out[row, i] = card
    return n


def deal_cards(rng: np.random.Generator, deals: int, cards: int, deck=None) -> np.ndarray:
    """``uint8[deals, cards]``: each row ``cards`` distinct cards of ``deck`` (default all 52) in random order."""
    out = np.empty((deals, cards), dtype=np.uint8)
    deck = np.arange(52, dtype=np.uint8) if deck is None else np.array(deck, dtype=np.uint8)
    row = 0
    while row < deals:
        words = ((deals - row) * cards + 3) // 4 + _MARGIN
        stream = rng.bit_generator.random_raw(words).view(np.uint16)
        row = _deal_block(stream, deck, out, row)
    return out


def split_deal(cards: np.ndarray, players: int, hole_cards: int) -> tuple[np.ndarray, np.ndarray]:
    """``(hole[n, players, hole_cards], board[n, rest])`` views of dealt rows (no copy: the
    kernels read strided arrays as fast as contiguous ones)."""
    n = cards.shape[0]
    hole = cards[:, : players * hole_cards].reshape(n, players, hole_cards)
    return hole, cards[:, players * hole_cards :]
