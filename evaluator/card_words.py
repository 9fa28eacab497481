"""The card words every kernel sums, and the bit tricks that read them (numba, inline).

A pool of cards is summed into one packed word per hand: the rank multiset's key (``CARD_KEY``,
below bit 32) and four 4-bit suit counters above it (``CARD_WORD``), with a 64-bit suit/rank
bit word (``CARD_SUIT_BIT``) and a low mask (``CARD_LOW_BIT``); the tables of
``evaluator.tables`` are then read with at most three lookups. All arithmetic is int64, so numba
never mixes signed and unsigned integers (which it would promote to float). The kernels that
use them: ``evaluator.free_kernels`` (any five cards of the pool), ``evaluator.split_kernels``
(restricted hole use) and ``evaluator.pool_kernels`` (every pool of a deal count).
"""

from __future__ import annotations

import numpy as np

from evaluator.jit import njit
from evaluator.tables import (
    CARD_KEY as _CARD_KEY,
)
from evaluator.tables import (
    CARD_LOW_BIT as _CARD_LOW_BIT,
)
from evaluator.tables import (
    CARD_SUIT_BIT as _CARD_SUIT_BIT,
)
from evaluator.tables import (
    CARD_SUIT_COUNT as _CARD_SUIT_COUNT,
)
from evaluator.tables import (
    POPCOUNT8 as _POPCOUNT8,
)

# Module-level copies as int64: numba freezes globals into the compiled code (fast to read).
CARD_KEY = _CARD_KEY.astype(np.int64)
CARD_SUIT_BIT = _CARD_SUIT_BIT.astype(np.int64)  # bit 16*suit + rank, at most bit 60
CARD_SUIT_COUNT = _CARD_SUIT_COUNT.astype(np.int64)
CARD_LOW_BIT = _CARD_LOW_BIT.astype(np.int64)
CARD_WORD = CARD_KEY | (CARD_SUIT_COUNT << 32)  # key below bit 31, suit counters at bits 32..47
POPCOUNT8 = _POPCOUNT8.astype(np.int64)

LO_MASK = (1 << 17) - 1
KEY_MASK = (1 << 32) - 1
HI_SHIFT = 17
FLUSH_PROBE = 0x3333  # adding 3 to each 4-bit suit count sets bit 3 when the count is >= 5
FLUSH_BITS = 0x8888
LOW_SHIFT = 24  # a rank entry's top byte: strengths stay below 1 << 24 (12 categories << 20)
STRENGTH_MASK = (1 << LOW_SHIFT) - 1
PREFETCH_TABLE_BYTES = 256 * 1024  # rank tables above this (8 and 9 cards) miss L2 often enough to prefetch
PREFETCH_AHEAD = 16  # hands between summing a hand (and prefetching its entry) and finishing it
RING = 32  # slots for the hands in between: a power of two above PREFETCH_AHEAD


@njit(inline="always")
def _suit_bit(c):
    """Bit ``16 * suit + rank``: four 13-bit rank masks, one per suit, in one word."""
    return np.int64(1) << ((c & 3) * 16 + (c >> 2))


@njit(inline="always")
def _suit_count(c):
    """4-bit counter of the card's suit."""
    return np.int64(1) << ((c & 3) * 4)


@njit(inline="always")
def _rank_mask(bits):
    """13-bit mask of the ranks present in a suit-bit word."""
    return (bits | (bits >> 16) | (bits >> 32) | (bits >> 48)) & 0x1FFF


@njit(inline="always")
def _low_mask(ranks):
    """Low-rank mask from a rank mask: bit 0 the ace, bits 1..7 the ranks 2..8."""
    return ((ranks & 0x7F) << 1) | (ranks >> 12)


@njit(inline="always")
def _flush_suit(suit_counts):
    """The suit holding five or more cards, or -1."""
    probe = (suit_counts + FLUSH_PROBE) & FLUSH_BITS
    if probe == 0:
        return -1
    for suit in range(4):
        if (probe >> (4 * suit + 3)) & 1:
            return suit
    return -1


@njit(inline="always")
def _probe_suit(probe):
    """The suit whose bit is set in a flush probe (bits 3/7/11/15), or 0 when none is.

    Branch-free: at most one suit of a pool of 9 or fewer cards holds five.
    """
    return ((probe >> 7) & 1) | ((probe >> 10) & 2) | (((probe >> 15) & 1) * 3)


@njit(inline="always")
def _pool_word(cards, start, n_pool):
    """The pool of ``n_pool`` cards from ``cards[start]`` as a summed ``CARD_WORD``: its
    multiset key and suit counters."""
    word = np.int64(0)
    for j in range(n_pool):
        word += CARD_WORD[cards[start + j]]
    return word


@njit(inline="always")
def _with_flush(value, word, cards, start, n_pool, flush_value):
    """``value`` or, when the pool of ``word`` holds a flush suit, the better of it and the
    flush read from that suit's ranks among the pool's cards (``n_pool`` from ``cards[start]``):
    a pool with a flush suit goes back to its cards rather than every pool OR-ing suit bits."""
    probe = ((word >> 32) + FLUSH_PROBE) & FLUSH_BITS
    if probe != 0:
        suit = _probe_suit(probe)
        ranks = np.int64(0)
        for j in range(n_pool):
            c = np.int64(cards[start + j])
            ranks |= np.int64((c & 3) == suit) << (c >> 2)
        return max(value, np.int64(flush_value[ranks]))
    return value


@njit(inline="always")
def _pool_high_low(word, bits, start_row, lo_index, rank_value, flush_value, low_value):
    """A free-use pool's best high and low from its summed ``CARD_WORD`` and OR-ed
    ``CARD_SUIT_BIT``. Inlined into the kernels, where the tables are closure constants."""
    key = word & KEY_MASK
    value = np.int64(rank_value[start_row[key >> HI_SHIFT] + lo_index[key & LO_MASK]])
    probe = ((word >> 32) + FLUSH_PROBE) & FLUSH_BITS
    if probe != 0:
        suit_mask = (bits >> (16 * _probe_suit(probe))) & 0x1FFF
        value = max(value, np.int64(flush_value[suit_mask]))
    return value, low_value[_low_mask(_rank_mask(bits))]
