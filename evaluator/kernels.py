"""The hot loops: numba kernels over batches of deals, reading the tables of ``evaluator.tables``.

Shapes: ``hole`` is ``uint8[n, players, hole_cards]``, ``board`` is ``uint8[n, board_cards]``;
outputs are ``[n, players]``. Strengths are the reference's integers (larger is better; a low
of 0 means no qualifying low). All arithmetic is int64 so numba never mixes signed and
unsigned integers (which it would promote to float).

Free use (any 5 of the pool): per pool one packed key + suit-count word, one 64-bit
suit/rank bit word and one low mask, then at most three table reads. The board's part is
summed once per deal and shared by all players; random hands of 8-9 cards prefetch their
rank entries (``evaluator.prefetch``). Restricted hole use (``split_kernel``): one
split-table read per hole subset (the best over the board's parts, see ``evaluator.tables``),
one low-table read per hand, and the rare suited case out of line. ``subset_high_low`` reads
every allowed (hole subset, board subset) pair: the plain path for what the split tables do
not cover (more than three hole cards used, boards other than five cards), and the baseline
the benchmark compares with. ``rerank_high`` turns highs into another ranking's.
"""

from __future__ import annotations

import warnings
from functools import lru_cache
from typing import Callable, NamedTuple

import numpy as np
from numba.core.errors import NumbaWarning

from evaluator.jit import njit
from evaluator.tables import (
    CARD_KEY as _CARD_KEY,
    CARD_LOW_BIT as _CARD_LOW_BIT,
    CARD_SUIT_BIT as _CARD_SUIT_BIT,
    CARD_SUIT_COUNT as _CARD_SUIT_COUNT,
    PAIRED_CATEGORIES,
    N_PAIRS,
    POPCOUNT8 as _POPCOUNT8,
    five_card_order,
    high_tables,
    low_rank_masks,
    low_table,
    multiset_index,
    rank_multisets,
    rank_ordinals,
)
from evaluator.games import Ranking
from evaluator.prefetch import prefetch

# Numba freezes a closure's table into the code only up to 1 MB; the 9-card rank table (free
# use of 4 hole cards, 1.08 MB) stays a pointer, so those kernels compile once per process
# (about 2 s) instead of loading from the disk cache. Numba's warning about it says no more.
warnings.filterwarnings(
    "ignore",
    message=r'Cannot cache compiled function "(one_per_board|shared_board|high_low_present|low_only)"',
    category=NumbaWarning,
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


@njit(cache=True, nogil=True)
def byte_offsets(hole, board, rows):
    """Where ``hole`` and ``board`` start, in bytes from the start of ``rows``."""
    return hole.ctypes.data - rows.ctypes.data, board.ctypes.data - rows.ctypes.data


@njit(cache=True, nogil=True)
def new_card_ranks(most):
    """Every multiset of 0 to ``most`` ranks (at most four copies of a rank), by size: entries
    ``start[count]`` to ``start[count + 1]``, each with its summed ``CARD_KEY``, its rank mask,
    and its distinct ranks and their copies (``ranks[i, :distinct[i]]``, ``copies[i, ...]``)."""
    size = 1
    total = 1
    for j in range(most):
        size = size * (13 + j) // (j + 1)  # C(13 + count - 1, count) multisets of ``count`` ranks at most
        total += size
    keys = np.zeros(total, np.int64)
    masks = np.zeros(total, np.int64)
    ranks = np.zeros((total, 5), np.int64)
    copies = np.zeros((total, 5), np.int64)
    distinct = np.zeros(total, np.int64)
    start = np.zeros(most + 2, np.int64)
    n = 1  # the empty multiset first
    rank_at = np.zeros(5, np.int64)
    for count in range(1, most + 1):
        start[count] = n
        level = 0
        rank_at[0] = 0
        while True:
            r = rank_at[level]
            if r > 12:
                if level == 0:
                    break
                level -= 1
                rank_at[level] += 1
                continue
            same = 1  # copies of rank r so far, this one included
            while same <= level and rank_at[level - same] == r:
                same += 1
            if same > 4:
                rank_at[level] += 1
                continue
            if level + 1 < count:
                rank_at[level + 1] = r
                level += 1
                continue
            for j in range(count):
                keys[n] += CARD_KEY[4 * rank_at[j]]
                masks[n] |= np.int64(1) << rank_at[j]
                if j == 0 or rank_at[j] != rank_at[j - 1]:
                    ranks[n, distinct[n]] = rank_at[j]
                    distinct[n] += 1
                copies[n, distinct[n] - 1] += 1
            n += 1
            rank_at[level] += 1
    start[most + 1] = n
    return keys[:n], masks[:n], ranks[:n], copies[:n], distinct[:n], start


@njit(inline="always")
def _ways(i, ranks, copies, distinct, available):
    """How many sets of cards multiset ``i`` of ``new_card_ranks`` stands for, ``available[r]``
    cards of each rank r: the product of C(available[r], copies)."""
    w = np.int64(1)
    for d in range(distinct[i]):
        a = available[ranks[i, d]]
        for k in range(copies[i, d]):
            w = w * (a - k) // (k + 1)
    return w


@njit(inline="always")
def _codes(key, ranks, hand_key, hand_ranks, flush_of, start_row, lo_index, rank_value, low_value):
    """The showdown code (bit p: player p holds the best high; bit players + p: the best low)
    of a board of summed ``CARD_KEY`` ``key`` and rank mask ``ranks``, as ``(plain, true)``:
    highs from the rank multisets alone, and the same with each player's flush
    (``flush_of[p]``, 0 for none) where it is better. Lows come from the rank masks. The tables
    are arguments, not a closure's: a kernel holding another jitted closure misses numba's disk
    cache in every new process (7 s of compiling a call)."""
    players = hand_key.shape[0]
    top_plain = np.int64(-1)
    top_true = np.int64(-1)
    top_low = np.int64(0)
    plain_code = 0
    true_code = 0
    low_code = 0
    for p in range(players):
        pool = key + hand_key[p]
        plain = np.int64(rank_value[start_row[pool >> HI_SHIFT] + lo_index[pool & LO_MASK]])
        true = max(plain, flush_of[p])
        low = np.int64(low_value[_low_mask(ranks | hand_ranks[p])])
        if plain > top_plain:
            top_plain, plain_code = plain, 1 << p
        elif plain == top_plain:
            plain_code |= 1 << p
        if true > top_true:
            top_true, true_code = true, 1 << p
        elif true == top_true:
            true_code |= 1 << p
        if low > top_low:
            top_low, low_code = low, 1 << p
        elif low == top_low and low > 0:
            low_code |= 1 << p
    return plain_code | (low_code << players), true_code | (low_code << players)


@njit(inline="always")
def _next_subset(index, n):
    """Advance ``index`` (ascending positions of a subset of ``range(n)``) to the next subset in
    lexicographic order; False after the last (an empty subset has only itself)."""
    k = index.shape[0]
    i = k - 1
    while i >= 0 and index[i] == n - k + i:
        i -= 1
    if i < 0:
        return False
    index[i] += 1
    for j in range(i + 1, k):
        index[j] = index[j - 1] + 1
    return True


class FreeKernels(NamedTuple):
    """The free-use kernels of one game: ``(pools, high, low)`` for the first, ``(hole, board,
    high, low)`` for the second."""

    one_per_board: Callable
    shared_board: Callable
    high_low_present: Callable
    low_only: Callable
    fixed_tuples: Callable


@lru_cache(maxsize=None)
def free_kernels(hole_cards: int, board_cards: int, ranking: Ranking, low_qualifier: int | None, ordinals: bool = False):
    """``FreeKernels`` for free use: these card counts, this ranking's tables and this low
    qualifier's table, all closure constants. With ``ordinals`` the high tables, and so the
    highs written, are ``five_card_order``'s uint16 ordinals rather than strengths.

    Constants, not arguments, because numba then unrolls the card loops (about 1.5x) and
    freezes the tables into the code, which frees the registers the array arguments held
    (1.1-1.4x); numba caches each closure by its constants. Per pool: one add of ``CARD_WORD``
    (the multiset key in the low 32 bits, four 4-bit suit counters above) and one OR of
    ``CARD_SUIT_BIT`` per card, then the rank table, and the flush-suit mask only when a suit
    holds five cards: a branch the predictor gets right on the 94-97 % of pools without one,
    measured 1.2-1.8x faster than reading the flush table on every pool.
    """
    n_hole, n_board = hole_cards, board_cards
    lo_index, start = multiset_index()
    # Unsigned (its unused entries 0, never read): numba then skips the negative-index wrap (1.03x).
    start_row = np.maximum(start[hole_cards + board_cards], 0).astype(np.uint32)
    tables = high_tables(ranking)
    rank_value = tables.rank_value[hole_cards + board_cards]
    prefetching = rank_value.nbytes > PREFETCH_TABLE_BYTES
    flush_value, flush_present, offsuit_present = tables.flush_value, tables.flush_present, tables.offsuit_present
    if ordinals:
        rank_value, flush_value = rank_ordinals(ranking, hole_cards + board_cards), five_card_order(ranking)[1]
    # The pipelined loop's entries: strength (or ordinal) and low-rank mask (only that loop reads them).
    rank_entry = (rank_value.astype(np.uint32) | (low_rank_masks(hole_cards + board_cards) << LOW_SHIFT)
                  if prefetching else rank_value)
    rank_present = tables.rank_present[hole_cards + board_cards]
    low_value = low_table(low_qualifier) if low_qualifier is not None else np.zeros(256, np.uint32)
    has_low = low_qualifier is not None  # without, one_per_board and shared_board never write ``low``

    @njit(cache=True, nogil=True)
    def one_per_board(cards, high, low):
        """``shared_board`` for a batch with one player per board (random hands), read from the
        deal's rows: ``cards`` is those rows flattened, ``uint8[n * (hole_cards + board_cards)]``
        (each row a player's hole cards and board: ``FastEvaluator`` hands over ``split_deal``'s
        array), ``high`` and ``low`` are ``uint32[n]`` (``high`` uint16 with ordinals).

        Its own function, which callers pick by the batch's shape: without the players loop
        and the board's partial sums it is 1.1-1.3x faster, and outside the function holding
        the other loops it spills fewer registers (with the unsigned start row: hold'em
        1.18-1.21x, PLS7 and PLS 1.08-1.16x over one function, side by side). One flat array
        rather than the hole and board views of it, so a row's length is a constant of the
        code: one pointer and no strides to hold (hold'em 1.2x over the two views, then
        1.04-1.06x over a 2-D array of rows, side by side; PLS7 and PLS 1.02x). With 8 or 9
        cards the loop is software-pipelined, since their rank table (480 KB and 1 MB) misses
        L2: a hand's rank entry is prefetched PREFETCH_AHEAD hands before it is read, and the
        entry's top byte is the pool's low-rank mask, so the loop sums just ``CARD_WORD`` and
        only pools with a flush suit go back to their cards for its ranks. Side by side with the
        plain loop: 1.24-1.5x on PLS7 (1.1-1.2x from the prefetch alone).

        The plain loops leave at a pool whose word is 0, which no pool of real cards has: LLVM's
        loop vectorizer does not take a loop with a second exit, and vectorized (AVX-512 gathers
        of the card words, once the flat arrays' strides are known) hold'em ran 2x slower here.
        Numba has no switch for one function's vectorizer (numba issue #9396).
        """
        n_pool = n_hole + n_board
        n = len(cards) // n_pool
        if prefetching:
            # Iteration i sums hand i and prefetches its entry, and finishes hand i - AHEAD.
            ring_word = np.empty(RING, np.int64)
            ring_index = np.empty(RING, np.int64)
            for i in range(n + PREFETCH_AHEAD):
                if i < n:
                    word = _pool_word(cards, i * n_pool, n_pool)
                    key = word & KEY_MASK
                    index = start_row[key >> HI_SHIFT] + lo_index[key & LO_MASK]
                    prefetch(rank_entry, index)
                    ring_word[i & (RING - 1)] = word
                    ring_index[i & (RING - 1)] = index
                done = i - PREFETCH_AHEAD
                if done >= 0:
                    word = ring_word[done & (RING - 1)]
                    entry = np.int64(rank_entry[ring_index[done & (RING - 1)]])
                    high[done] = _with_flush(entry & STRENGTH_MASK, word, cards, done * n_pool, n_pool, flush_value)
                    if has_low:
                        low[done] = low_value[entry >> LOW_SHIFT]
            return
        if not has_low:  # no suit bits to OR, no low to write: a pool with a flush suit goes back to its cards
            for i in range(n):
                word = _pool_word(cards, i * n_pool, n_pool)
                key = word & KEY_MASK
                value = np.int64(rank_value[start_row[key >> HI_SHIFT] + lo_index[key & LO_MASK]])
                high[i] = _with_flush(value, word, cards, i * n_pool, n_pool, flush_value)
                if word == 0:
                    return
            return
        for i in range(n):
            word = np.int64(0)
            bits = np.int64(0)
            for j in range(n_pool):
                c = cards[i * n_pool + j]
                word += CARD_WORD[c]
                bits |= CARD_SUIT_BIT[c]
            high[i], low[i] = _pool_high_low(word, bits, start_row, lo_index, rank_value, flush_value, low_value)
            if word == 0:
                return

    @njit(cache=True, nogil=True)
    def shared_board(hole, board, high, low):
        """Best high and low of every player when any 5 of hole + board may play: the board's
        part of each pool is summed once per deal and shared by its players."""
        n, players, _ = hole.shape
        for i in range(n):
            b_word = np.int64(0)
            b_bits = np.int64(0)
            for j in range(n_board):
                c = board[i, j]
                b_word += CARD_WORD[c]
                b_bits |= CARD_SUIT_BIT[c]
            for p in range(players):
                word = b_word
                bits = b_bits
                for j in range(n_hole):
                    c = hole[i, p, j]
                    word += CARD_WORD[c]
                    bits |= CARD_SUIT_BIT[c]
                value, low_strength = _pool_high_low(word, bits, start_row, lo_index, rank_value, flush_value, low_value)
                high[i, p] = value
                if has_low:
                    low[i, p] = low_strength

    @njit(cache=True, nogil=True)
    def high_low_present(hole, board, high, low, present):
        """``shared_board`` plus the category bits some 5 of hole + board make exactly.

        Without a flush suit no 5 cards are suited and the multiset's bits are exact. With one,
        paired categories come from the multiset, flush types from the suit's mask, and the
        five-distinct-rank categories from each off-suit card with the pool's other ranks.
        """
        n, players, _ = hole.shape
        for i in range(n):
            b_word = np.int64(0)
            b_bits = np.int64(0)
            for j in range(n_board):
                c = board[i, j]
                b_word += CARD_WORD[c]
                b_bits |= CARD_SUIT_BIT[c]
            for p in range(players):
                word = b_word
                bits = b_bits
                for j in range(n_hole):
                    c = hole[i, p, j]
                    word += CARD_WORD[c]
                    bits |= CARD_SUIT_BIT[c]
                key = word & KEY_MASK
                index = start_row[key >> HI_SHIFT] + lo_index[key & LO_MASK]
                value = np.int64(rank_value[index])
                found = np.int64(rank_present[index])
                probe = ((word >> 32) + FLUSH_PROBE) & FLUSH_BITS
                if probe != 0:
                    suit = _probe_suit(probe)
                    suit_mask = (bits >> (16 * suit)) & 0x1FFF
                    value = max(value, np.int64(flush_value[suit_mask]))
                    all_ranks = _rank_mask(bits)
                    found = (found & PAIRED_CATEGORIES) | flush_present[suit_mask]
                    for j in range(n_hole + n_board):
                        c = hole[i, p, j] if j < n_hole else board[i, j - n_hole]
                        if (c & 3) != suit:
                            r = c >> 2
                            found |= offsuit_present[r, all_ranks & ~(1 << r)]
                high[i, p] = value
                low[i, p] = low_value[_low_mask(_rank_mask(bits))]
                present[i, p] = found

    @njit(cache=True, nogil=True)
    def low_only(hole, board, low):
        """Just the low (another qualifier on hands whose high is already known)."""
        n, players, _ = hole.shape
        for i in range(n):
            b_bits = np.int64(0)
            for j in range(n_board):
                b_bits |= CARD_SUIT_BIT[board[i, j]]
            for p in range(players):
                bits = b_bits
                for j in range(n_hole):
                    bits |= CARD_SUIT_BIT[hole[i, p, j]]
                low[i, p] = low_value[_low_mask(_rank_mask(bits))]

    @njit(cache=True, nogil=True)
    def fixed_tuples(holes, weights, rank_weights, board, blocked, missing, counts):
        """Every completion of ``board`` (``uint8[known]``) by ``missing`` cards neither in the
        ``blocked`` mask nor held, for each deal ``holes[t]`` (``uint8[players, hole_cards]``) of
        weight ``weights[t]``: each completion's showdown code (bit p: player p holds the best
        high; bit players + p: the best low, when one qualifies) counted in ``counts`` (float64:
        the weights' sums, exact integers for whole weights).

        The rank-only counts of a deal depend on its hands' ranks alone, so deals sorted by
        their ranks share them: ``rank_weights[t]`` is the summed weight of the deals from ``t``
        with the same ranks where ``t`` is the first of them, 0 for the others.

        Boards are counted by the rank multiset of their new cards, not one by one: without a
        flush a pool's high and low depend on its ranks alone, and the boards with given new
        ranks number a product of binomials of the deck's cards of each rank. Then the boards
        on which a pool may hold five cards of suit ``s`` (at least ``need[s]`` new cards of it:
        five less the board's and the most any hand holds) move from their rank-only code to
        their true one: the new cards of suit ``s`` dealt one subset at a time (each pool's
        flush is then known), the others again by ranks where they cannot reach another suit's
        need, else one by one. A board reaching two suits' need is moved under the first.
        """
        players = holes.shape[1]
        keys, masks, ranks_of, copies_of, distinct, start = new_card_ranks(missing)
        key = np.int64(0)
        ranks = np.int64(0)
        on_board = np.zeros(4, np.int64)
        board_suit_ranks = np.zeros(4, np.int64)
        for j in range(board.shape[0]):
            c = np.int64(board[j])
            key += CARD_KEY[c]
            ranks |= np.int64(1) << (c >> 2)
            on_board[c & 3] += 1
            board_suit_ranks[c & 3] |= np.int64(1) << (c >> 2)
        hand_key = np.zeros(players, np.int64)
        hand_ranks = np.zeros(players, np.int64)
        held = np.zeros((players, 4), np.int64)
        hand_suit_ranks = np.zeros((players, 4), np.int64)
        need = np.zeros(4, np.int64)
        no_flush = np.zeros(players, np.int64)
        flush_of = np.zeros(players, np.int64)
        available = np.zeros(13, np.int64)
        others_available = np.zeros(13, np.int64)
        new_cards = np.zeros(4, np.int64)
        new_suit_ranks = np.zeros(4, np.int64)
        suited = np.zeros(52, np.int64)
        others = np.zeros(52, np.int64)
        pick = np.zeros(5, np.int64)
        other_pick = np.zeros(5, np.int64)
        for t in range(holes.shape[0]):
            weight = weights[t]
            taken = blocked
            hand_key[:] = 0
            hand_ranks[:] = 0
            held[:] = 0
            hand_suit_ranks[:] = 0
            for p in range(players):
                for j in range(n_hole):
                    c = np.int64(holes[t, p, j])
                    taken |= np.int64(1) << c
                    hand_key[p] += CARD_KEY[c]
                    hand_ranks[p] |= np.int64(1) << (c >> 2)
                    held[p, c & 3] += 1
                    hand_suit_ranks[p, c & 3] |= np.int64(1) << (c >> 2)
            available[:] = 0
            for c in range(52):
                if not (taken >> c) & 1:
                    available[c >> 2] += 1
            for s in range(4):
                most = 0
                for p in range(players):
                    most = max(most, held[p, s])
                need[s] = max(5 - most - on_board[s], 0)
            # 1. Every board by the ranks of its new cards, as if no pool held a flush.
            for i in range(start[missing], start[missing + 1]):
                if rank_weights[t] == 0:
                    break
                ways = _ways(i, ranks_of, copies_of, distinct, available)
                if ways:
                    plain, _ = _codes(key + keys[i], ranks | masks[i], hand_key, hand_ranks, no_flush, start_row, lo_index,
                                      rank_value, low_value)
                    counts[plain] += ways * rank_weights[t]
            # 2. The boards on which a flush may play.
            for s in range(4):
                if need[s] > missing:
                    continue
                n_suited = 0
                n_others = 0
                others_available[:] = available
                for c in range(52):
                    if not (taken >> c) & 1:
                        if c & 3 == s:
                            suited[n_suited] = c
                            n_suited += 1
                            others_available[c >> 2] -= 1
                        else:
                            others[n_others] = c
                            n_others += 1
                for k in range(need[s], min(missing, n_suited) + 1):
                    rest = missing - k
                    if rest > n_others:
                        continue
                    alone = True  # the other new cards cannot reach another suit's need
                    for u in range(4):
                        if u != s and need[u] <= rest:
                            alone = False
                    for j in range(k):
                        pick[j] = j
                    while True:
                        suited_key = key
                        suited_ranks = ranks
                        suited_mask = board_suit_ranks[s]
                        for j in range(k):
                            c = suited[pick[j]]
                            suited_key += CARD_KEY[c]
                            suited_ranks |= np.int64(1) << (c >> 2)
                            suited_mask |= np.int64(1) << (c >> 2)
                        for p in range(players):
                            flush_of[p] = 0
                            if held[p, s] + on_board[s] + k >= 5:
                                flush_of[p] = np.int64(flush_value[suited_mask | hand_suit_ranks[p, s]])
                        if alone:
                            for i in range(start[rest], start[rest + 1]):
                                ways = _ways(i, ranks_of, copies_of, distinct, others_available)
                                if ways:
                                    plain, true = _codes(suited_key + keys[i], suited_ranks | masks[i], hand_key,
                                                         hand_ranks, flush_of, start_row, lo_index, rank_value, low_value)
                                    if plain != true:
                                        counts[plain] -= ways * weight
                                        counts[true] += ways * weight
                        else:
                            for j in range(rest):
                                other_pick[j] = j
                            while True:
                                earlier = False  # the board reaches an earlier suit's need: moved there
                                for u in range(s):
                                    if need[u] <= rest:
                                        n_u = 0
                                        for j in range(rest):
                                            n_u += (others[other_pick[j]] & 3) == u
                                        earlier |= n_u >= need[u]
                                if not earlier:
                                    other_key = suited_key
                                    other_ranks = suited_ranks
                                    for u in range(4):
                                        new_cards[u] = k if u == s else 0
                                        new_suit_ranks[u] = suited_mask if u == s else board_suit_ranks[u]
                                    for j in range(rest):
                                        c = others[other_pick[j]]
                                        other_key += CARD_KEY[c]
                                        other_ranks |= np.int64(1) << (c >> 2)
                                        new_cards[c & 3] += 1
                                        new_suit_ranks[c & 3] |= np.int64(1) << (c >> 2)
                                    for p in range(players):  # a flush in any suit: another may play too
                                        flush_of[p] = 0
                                        for u in range(4):
                                            if held[p, u] + on_board[u] + new_cards[u] >= 5:
                                                flush_of[p] = max(flush_of[p], np.int64(
                                                    flush_value[new_suit_ranks[u] | hand_suit_ranks[p, u]]))
                                    plain, true = _codes(other_key, other_ranks, hand_key, hand_ranks, flush_of, start_row,
                                                         lo_index, rank_value, low_value)
                                    if plain != true:
                                        counts[plain] -= weight
                                        counts[true] += weight
                                if not _next_subset(other_pick[:rest], n_others):
                                    break
                        if not _next_subset(pick[:k], n_suited):
                            break

    return FreeKernels(one_per_board, shared_board, high_low_present, low_only, fixed_tuples)


@njit(cache=True, nogil=True)
def subset_high_low(
    hole, board, hole_sets, board_sets, pairs,
    lo_index, start5, rank_value5, rank_present5, flush_value, flush_present, low_value,
    high, low, present,
):
    """Best high, best low and category bits over the allowed (hole subset, board subset) pairs.

    ``hole_sets``/``board_sets`` list card positions padded with -1; ``pairs`` joins them into
    the allowed 5-card hands. The partial sums of every subset are computed once per player.
    """
    n, players, _ = hole.shape
    n_hole_sets = hole_sets.shape[0]
    n_board_sets = board_sets.shape[0]
    hk = np.zeros(n_hole_sets, dtype=np.int64)
    hb = np.zeros(n_hole_sets, dtype=np.int64)
    hc = np.zeros(n_hole_sets, dtype=np.int64)
    hl = np.zeros(n_hole_sets, dtype=np.int64)
    hn = np.zeros(n_hole_sets, dtype=np.int64)
    bk = np.zeros(n_board_sets, dtype=np.int64)
    bb = np.zeros(n_board_sets, dtype=np.int64)
    bc = np.zeros(n_board_sets, dtype=np.int64)
    bl = np.zeros(n_board_sets, dtype=np.int64)
    bn = np.zeros(n_board_sets, dtype=np.int64)
    for i in range(n):
        for s in range(n_board_sets):
            bk[s] = 0
            bb[s] = 0
            bc[s] = 0
            bl[s] = 0
            bn[s] = 0
            for j in range(board_sets.shape[1]):
                pos = board_sets[s, j]
                if pos >= 0:
                    c = board[i, pos]
                    bk[s] += CARD_KEY[c]
                    bb[s] |= CARD_SUIT_BIT[c]
                    bc[s] += CARD_SUIT_COUNT[c]
                    bl[s] |= CARD_LOW_BIT[c]
                    bn[s] += CARD_LOW_BIT[c] != 0
        for p in range(players):
            for s in range(n_hole_sets):
                hk[s] = 0
                hb[s] = 0
                hc[s] = 0
                hl[s] = 0
                hn[s] = 0
                for j in range(hole_sets.shape[1]):
                    pos = hole_sets[s, j]
                    if pos >= 0:
                        c = hole[i, p, pos]
                        hk[s] += CARD_KEY[c]
                        hb[s] |= CARD_SUIT_BIT[c]
                        hc[s] += CARD_SUIT_COUNT[c]
                        hl[s] |= CARD_LOW_BIT[c]
                        hn[s] += CARD_LOW_BIT[c] != 0
            best_high = 0
            best_low = 0
            found = 0
            for k in range(pairs.shape[0]):
                a = pairs[k, 0]
                b = pairs[k, 1]
                if _flush_suit(hc[a] + bc[b]) >= 0:
                    bits = hb[a] | bb[b]
                    folded = (bits | (bits >> 16) | (bits >> 32) | (bits >> 48)) & 0x1FFF
                    value = np.int64(flush_value[folded])
                    found |= flush_present[folded]
                else:
                    key = hk[a] + bk[b]
                    index = start5[key >> HI_SHIFT] + lo_index[key & LO_MASK]
                    value = np.int64(rank_value5[index])
                    found |= rank_present5[index]
                if value > best_high:
                    best_high = value
                lows = hl[a] | bl[b]
                if hn[a] + bn[b] == 5 and POPCOUNT8[lows] == 5:
                    low_strength = np.int64(low_value[lows])
                    if low_strength > best_low:
                        best_low = low_strength
            high[i, p] = best_high
            low[i, p] = best_low
            present[i, p] = found


@njit(inline="always")
def _suit_room(b_counts, used):
    """The suits with at least ``5 - used`` board cards: bit 3 of each 4-bit suit count."""
    return (b_counts + (used + 3) * 0x1111) & FLUSH_BITS


@njit(inline="always")
def _suited(h_counts, room, used):
    """The suits of ``room`` (``_suit_room``) also holding ``used`` hole cards or more: a hand
    whose best may be a flush type when exactly ``used`` hole cards play."""
    return room & (h_counts + (8 - used) * 0x1111) if used else room


@njit(inline="always")
def _bit_count(mask):
    """Set bits of a 13-bit rank mask."""
    return POPCOUNT8[mask & 0xFF] + POPCOUNT8[mask >> 8]


@njit(inline="always")
def _best_flush_using(hole_mask, used, board_mask, need, flush_ordinal):
    """Best flush-type ordinal of exactly ``used`` ranks of ``hole_mask`` with ``need`` ranks of
    ``board_mask`` (cards of one suit): every pair of sub-masks of those sizes, each mask's
    sub-masks visited as ``sub = (sub - 1) & mask`` down to 0."""
    best = np.int64(0)
    hole_part = hole_mask
    while True:
        if _bit_count(hole_part) == used:
            board_part = board_mask
            while True:
                if _bit_count(board_part) == need:
                    best = max(best, np.int64(flush_ordinal[hole_part | board_part]))
                if board_part == 0:
                    break
                board_part = (board_part - 1) & board_mask
        if hole_part == 0:
            break
        hole_part = (hole_part - 1) & hole_mask
    return best


@njit
def _suited_best(hole, i, p, b_bits, b_counts, use0, use1, use2, use3, flush_ordinal):
    """The best flush-type ordinal of a hand some suit of which holds h hole cards and 5 - h
    board cards (h allowed): per suit, straight from the rank masks of its cards. Kept out of
    line: inlined, the rare suited case slowed the common path 3x."""
    h_bits = np.int64(0)
    h_counts = np.int64(0)
    for j in range(hole.shape[2]):
        c = np.int64(hole[i, p, j])
        h_bits |= _suit_bit(c)
        h_counts += _suit_count(c)
    best = np.int64(0)
    for suit in range(4):
        hole_mask = (h_bits >> (16 * suit)) & 0x1FFF
        board_mask = (b_bits >> (16 * suit)) & 0x1FFF
        in_hole = (h_counts >> (4 * suit)) & 0xF
        on_board = (b_counts >> (4 * suit)) & 0xF
        if use0 and on_board >= 5:
            best = max(best, _best_flush_using(hole_mask, 0, board_mask, 5, flush_ordinal))
        if use1 and in_hole >= 1 and on_board >= 4:
            best = max(best, _best_flush_using(hole_mask, 1, board_mask, 4, flush_ordinal))
        if use2 and in_hole >= 2 and on_board >= 3:
            best = max(best, _best_flush_using(hole_mask, 2, board_mask, 3, flush_ordinal))
        if use3 and in_hole >= 3 and on_board >= 2:
            best = max(best, _best_flush_using(hole_mask, 3, board_mask, 2, flush_ordinal))
    return best


@njit
def _suited_present(
    hole, i, p, hole_sets, hole_set_size, b_counts, board_set_size, t_ranks, t_suit,
    distinct_present, flush_present, flush_ordinal,
    split_present, row0, row1, row2, row3, hole_rank_index, board_pair,
):
    """``(category bits, best flush-type ordinal)`` of a hand with a suited case (see
    ``_suited_best``). A hole subset that can never be all of one suit with enough of it on the
    board reads its split-table entries as the main loop does. For the others, the paired
    categories still come from the split table (a paired hand is never suited); each board
    part of the right size then adds its flush type when it is of the subset's suit, or its
    five-distinct-rank category (``distinct_present`` by rank mask) when it is not: small
    tables instead of each part's 5-card multiset entry, and the best flush out of the same
    walk (the whole +present kernel 1.1-1.5x faster on PLS7-2, PLO and PLO8, side by side)."""
    found = np.int64(0)
    best = np.int64(0)
    for s in range(hole_sets.shape[0]):
        used = hole_set_size[s]
        need = 5 - used
        h_ranks = np.int64(0)
        h_counts = np.int64(0)
        code = np.int64(0)  # the subset's ranks as base-13 digits, as the split rows read them
        for j in range(used):
            c = np.int64(hole[i, p, hole_sets[s, j]])
            h_ranks |= np.int64(1) << (c >> 2)
            h_counts += _suit_count(c)
            code = code * 13 + (c >> 2)
        # The subset's split-table entries: exact but for suits.
        if used == 0:
            split = np.int64(split_present[row0 + hole_rank_index[0, 0]])
        elif used == 1:
            split = np.int64(split_present[row1 + hole_rank_index[1, code]])
        elif used == 2:
            split = np.int64(split_present[row2 + hole_rank_index[2, code]])
        else:
            split = np.int64(0)
            row = row3 + np.int64(hole_rank_index[3, code]) * N_PAIRS
            for t in range(10):
                split |= split_present[row + board_pair[t]]
        # The subset's suit: the one holding all of its cards (any suit when it is empty).
        probe = (h_counts + (8 - used) * 0x1111) & FLUSH_BITS if used else (b_counts + FLUSH_PROBE) & FLUSH_BITS
        suit = _probe_suit(probe) if probe else -1
        if suit < 0 or ((b_counts >> (4 * suit)) & 0xF) < need:
            found |= split
            continue
        found |= split & PAIRED_CATEGORIES
        for t in range(board_set_size.shape[0]):
            if board_set_size[t] != need:
                continue
            ranks = h_ranks | t_ranks[t]
            if t_suit[t] == suit:
                found |= flush_present[ranks]
                best = max(best, np.int64(flush_ordinal[ranks]))
            else:
                found |= distinct_present[ranks]  # 0 for fewer than five ranks
    return found, best


@lru_cache(maxsize=None)
def split_kernel(hole_cards: int, hand_splits: tuple[int, ...]):
    """Restricted hole use: each 5-card hand takes exactly h hole cards, h in ``hand_splits``
    (all at most 3), the rest from a 5-card board.

    The hole count and the allowed splits are closure constants, so each subset size is its
    own unrolled loop nest over the hole cards (numba caches each closure by its constants).
    Per hole subset of up to two cards: its ranks, read as base-13 digits, index the board's
    row of the split table (the best non-flush hand and its category bits); three hole cards
    take the best of their row over the board's ten pairs (see ``evaluator.tables``). Highs
    are compared as 16-bit ordinals and mapped to strengths (``strength_of``) once per hand.
    The low is one read of ``split_low`` by the board's and the hand's low-rank masks. Flush
    types are possible only when some suit holds h hole cards and 5 - h board cards; one
    packed test per hand finds the few hands (under 10 %) that go to ``_suited_best`` (and
    ``_suited_present``). Keeping the loop free of suit branches made it about 3x faster.
    """
    n_hole = hole_cards
    use0, use1, use2, use3 = (h in hand_splits for h in range(4))

    @njit(cache=True, nogil=True)
    def split_high_low_present(
        hole, board, hole_sets, hole_set_size, board_sets, board_set_size,
        lo_index, start, hole_rank_index, split_value, split_present, split_offset, split_stride,
        distinct_present, flush_ordinal, flush_present, split_low, low_mask, want_present,
        strength_of, high, low, present,
    ):
        n, players, _ = hole.shape
        n_parts = board_sets.shape[0]
        t_ranks = np.zeros(n_parts, dtype=np.int64)
        t_suit = np.zeros(n_parts, dtype=np.int64)
        board_pair = np.zeros(10, dtype=np.int64)  # multiset index of each board pair
        rank = np.zeros(n_hole, dtype=np.int64)
        r0 = hole_rank_index[0]
        r1 = hole_rank_index[1]
        r2 = hole_rank_index[2]
        r3 = hole_rank_index[3]
        for i in range(n):
            b_key = np.int64(0)
            b_bits = np.int64(0)
            b_counts = np.int64(0)
            for j in range(5):
                c = np.int64(board[i, j])
                b_key += CARD_KEY[c]
                b_bits |= _suit_bit(c)
                b_counts += _suit_count(c)
            board_index = np.int64(start[5, b_key >> HI_SHIFT] + lo_index[b_key & LO_MASK])
            row0 = split_offset[0] + board_index * split_stride[0]
            row1 = split_offset[1] + board_index * split_stride[1]
            row2 = split_offset[2] + board_index * split_stride[2]
            row3 = split_offset[3]  # hole-major: the board enters through its pairs
            if use3:
                t = 0
                for x in range(5):
                    for y in range(x + 1, 5):
                        board_pair[t] = r2[(np.int64(board[i, x]) >> 2) * 13 + (np.int64(board[i, y]) >> 2)]
                        t += 1
            low_row = (_low_mask(_rank_mask(b_bits)) & low_mask) << 8
            board_room0 = _suit_room(b_counts, 0)
            board_room1 = _suit_room(b_counts, 1)
            board_room2 = _suit_room(b_counts, 2)
            board_room3 = _suit_room(b_counts, 3)
            parts_ready = False
            for p in range(players):
                h_counts = np.int64(0)
                hole_low = np.int64(0)
                for j in range(n_hole):
                    c = np.int64(hole[i, p, j])
                    rank[j] = c >> 2
                    hole_low |= CARD_LOW_BIT[c]
                    h_counts += _suit_count(c)
                best_high = np.int64(0)
                found = np.int64(0)
                suited = np.int64(0)
                if use0:
                    index = row0 + r0[0]
                    best_high = max(best_high, np.int64(split_value[index]))
                    if want_present:
                        found |= split_present[index]
                    suited |= _suited(h_counts, board_room0, 0)
                if use1:
                    for a in range(n_hole):
                        index = row1 + r1[rank[a]]
                        best_high = max(best_high, np.int64(split_value[index]))
                        if want_present:
                            found |= split_present[index]
                    suited |= _suited(h_counts, board_room1, 1)
                if use2:
                    for a in range(n_hole):
                        for b in range(a + 1, n_hole):
                            index = row2 + r2[rank[a] * 13 + rank[b]]
                            best_high = max(best_high, np.int64(split_value[index]))
                            if want_present:
                                found |= split_present[index]
                    suited |= _suited(h_counts, board_room2, 2)
                if use3:
                    for a in range(n_hole):
                        for b in range(a + 1, n_hole):
                            for d in range(b + 1, n_hole):
                                row = row3 + np.int64(r3[(rank[a] * 13 + rank[b]) * 13 + rank[d]]) * N_PAIRS
                                for t in range(10):
                                    best_high = max(best_high, np.int64(split_value[row + board_pair[t]]))
                                    if want_present:
                                        found |= split_present[row + board_pair[t]]
                    suited |= _suited(h_counts, board_room3, 3)
                if suited & FLUSH_BITS:
                    if want_present:
                        if not parts_ready:
                            _board_parts(board, i, board_sets, board_set_size, t_ranks, t_suit)
                            parts_ready = True
                        found, flush = _suited_present(
                            hole, i, p, hole_sets, hole_set_size, b_counts, board_set_size, t_ranks, t_suit,
                            distinct_present, flush_present, flush_ordinal,
                            split_present, row0, row1, row2, row3, hole_rank_index, board_pair,
                        )
                    else:
                        flush = _suited_best(hole, i, p, b_bits, b_counts, use0, use1, use2, use3, flush_ordinal)
                    best_high = max(best_high, flush)
                high[i, p] = strength_of[best_high]
                low[i, p] = split_low[low_row | (hole_low & low_mask)]
                present[i, p] = found

    return split_high_low_present


@lru_cache(maxsize=None)
def hole_table_kernel(hole_cards: int, hand_splits: tuple[int, ...]):
    """Restricted hole use with three or four hole cards and a 5-card board, high and low only:
    one read per hand of ``tables.hole_table`` by (board multiset, hole multiset).

    The table is 5.6 or 22 MB, so the kernel is software-pipelined like the free-use one:
    iteration k sums hand k's cards, prefetches its entry and keeps its table index, low index
    and suited test in a ring; hand k - PREFETCH_AHEAD is then finished from the ring (hands
    counted deal by deal, player by player). Flush types, as in ``split_kernel``, go out of
    line to ``_suited_best`` for the few hands with some suit holding h hole and 5 - h board
    cards. Without the prefetch the one read is slower than the split tables' several.
    """
    n_hole = hole_cards
    n_holes = len(rank_multisets(hole_cards))
    use0, use1, use2, use3 = (h in hand_splits for h in range(4))

    @njit(cache=True, nogil=True)
    def hole_table_high_low(hole, board, lo_index, start, table, strength_of, flush_ordinal, split_low, low_mask, high, low):
        n, players, _ = hole.shape
        total = n * players
        ring_index = np.empty(RING, np.int64)
        ring_low = np.empty(RING, np.int64)
        ring_suited = np.empty(RING, np.int64)
        row = np.int64(0)
        low_row = np.int64(0)
        room0 = room1 = room2 = room3 = np.int64(0)
        deal_in, player_in, deal_out, player_out = 0, 0, 0, 0
        for k in range(total + PREFETCH_AHEAD):
            if k < total:
                i = deal_in
                if player_in == 0:
                    b_key = np.int64(0)
                    b_low = np.int64(0)
                    b_counts = np.int64(0)
                    for j in range(5):
                        c = np.int64(board[i, j])
                        b_key += CARD_KEY[c]
                        b_low |= CARD_LOW_BIT[c]
                        b_counts += _suit_count(c)
                    row = np.int64(start[5, b_key >> HI_SHIFT] + lo_index[b_key & LO_MASK]) * n_holes
                    low_row = (b_low & low_mask) << 8
                    room0 = _suit_room(b_counts, 0)
                    room1 = _suit_room(b_counts, 1)
                    room2 = _suit_room(b_counts, 2)
                    room3 = _suit_room(b_counts, 3)
                h_key = np.int64(0)
                h_low = np.int64(0)
                h_counts = np.int64(0)
                for j in range(n_hole):
                    c = np.int64(hole[i, player_in, j])
                    h_key += CARD_KEY[c]
                    h_low |= CARD_LOW_BIT[c]
                    h_counts += _suit_count(c)
                index = row + start[n_hole, h_key >> HI_SHIFT] + lo_index[h_key & LO_MASK]
                prefetch(table, index)
                suited = np.int64(0)
                if use0:
                    suited |= _suited(h_counts, room0, 0)
                if use1:
                    suited |= _suited(h_counts, room1, 1)
                if use2:
                    suited |= _suited(h_counts, room2, 2)
                if use3:
                    suited |= _suited(h_counts, room3, 3)
                slot = k & (RING - 1)
                ring_index[slot] = index
                ring_low[slot] = low_row | (h_low & low_mask)
                ring_suited[slot] = suited & FLUSH_BITS
                player_in += 1
                if player_in == players:
                    player_in = 0
                    deal_in += 1
            if k >= PREFETCH_AHEAD:
                slot = (k - PREFETCH_AHEAD) & (RING - 1)
                i, p = deal_out, player_out
                best = np.int64(table[ring_index[slot]])
                if ring_suited[slot]:
                    b_bits = np.int64(0)
                    b_counts = np.int64(0)
                    for j in range(5):
                        c = np.int64(board[i, j])
                        b_bits |= _suit_bit(c)
                        b_counts += _suit_count(c)
                    best = max(best, _suited_best(hole, i, p, b_bits, b_counts, use0, use1, use2, use3, flush_ordinal))
                high[i, p] = strength_of[best]
                low[i, p] = split_low[ring_low[slot]]
                player_out += 1
                if player_out == players:
                    player_out = 0
                    deal_out += 1

    return hole_table_high_low


@njit(inline="always")
def _board_parts(board, i, board_sets, board_set_size, t_ranks, t_suit):
    """Rank mask and common suit (or -1) of every board subset of deal ``i``."""
    for s in range(board_sets.shape[0]):
        ranks = np.int64(0)
        suits = np.int64(0)  # bit per suit present
        for j in range(board_set_size[s]):
            c = np.int64(board[i, board_sets[s, j]])
            ranks |= np.int64(1) << (c >> 2)
            suits |= np.int64(1) << (c & 3)
        t_ranks[s] = ranks
        # One suit bit (1, 2, 4 or 8) is suit (0, 1, 2, 3).
        t_suit[s] = (suits >> 1) - (suits >> 3) if suits & (suits - 1) == 0 else -1


@njit(inline="always")
def _with_flush_present(found, bits, suit, flush_present, offsuit_present, paired_bits):
    """A pool's category bits when ``suit`` holds five or more cards: paired categories from
    the multiset bits ``found``, flush types from the suit's mask, and the five-distinct-rank
    ones from each off-suit card with the pool's other ranks."""
    all_ranks = _rank_mask(bits)
    found = (found & paired_bits) | flush_present[(bits >> (16 * suit)) & 0x1FFF]
    for other in range(4):
        if other != suit:
            lane = (bits >> (16 * other)) & 0x1FFF
            while lane:
                r = 0
                while not (lane >> r) & 1:
                    r += 1
                lane &= lane - 1
                found |= offsuit_present[r, all_ranks & ~(1 << r)]
    return found


@njit(cache=True, nogil=True)
def enumerate_pools(
    deck, first, size, lo_index, start_row, rank_value, rank_present, flush_value, flush_present,
    offsuit_present, paired_bits, best_positions, present_patterns, low_patterns,
):
    """Every ``size``-card pool (``size >= 3``) of ``deck`` whose first card is ``deck[first]``, counted.

    ``best_positions[p]``: pools whose best hand is at ranking position ``p``;
    ``present_patterns[bits]``: pools whose set of makeable categories is ``bits``;
    ``low_patterns[mask]``: pools whose low ranks present are ``mask`` (bit 0 the ace).
    Histograms keep the per-pool work to a few increments; the caller folds them into
    per-category and per-qualifier counts. The first ``size - 1`` cards walk a stack of
    partial sums; the last card is a flat loop over the cards after them, one packed add each.
    """
    d_max = deck.shape[0]
    pos = np.zeros(size, dtype=np.int64)
    words = np.zeros(size, dtype=np.int64)  # packed key + suit counts of the first d cards
    bits = np.zeros(size, dtype=np.int64)
    c = deck[first]
    pos[0] = first
    words[1] = CARD_WORD[c]
    bits[1] = CARD_SUIT_BIT[c]
    depth = 1
    pos[1] = first
    while depth >= 1:
        pos[depth] += 1
        if pos[depth] > d_max - (size - depth):
            depth -= 1
            continue
        c = deck[pos[depth]]
        words[depth + 1] = words[depth] + CARD_WORD[c]
        bits[depth + 1] = bits[depth] | CARD_SUIT_BIT[c]
        if depth < size - 2:
            depth += 1
            pos[depth] = pos[depth - 1]
            continue
        base_word = words[size - 1]
        base_bits = bits[size - 1]
        for q in range(pos[depth] + 1, d_max):
            c = deck[q]
            word = base_word + CARD_WORD[c]
            b = base_bits | CARD_SUIT_BIT[c]
            key = word & KEY_MASK
            index = start_row[key >> HI_SHIFT] + lo_index[key & LO_MASK]
            value = np.int64(rank_value[index])
            found = np.int64(rank_present[index])
            probe = ((word >> 32) + FLUSH_PROBE) & FLUSH_BITS
            if probe != 0:
                suit = _probe_suit(probe)
                value = max(value, np.int64(flush_value[(b >> (16 * suit)) & 0x1FFF]))
                found = _with_flush_present(found, b, suit, flush_present, offsuit_present, paired_bits)
            best_positions[value >> 20] += 1
            present_patterns[found] += 1
            low_patterns[_low_mask(_rank_mask(b))] += 1


@njit(cache=True, nogil=True)
def rerank_high(high, present, source_category_of_position, position_of_category, top_position, out, redo):
    """High strengths under another order of the same categories, from ``high`` and ``present``.

    The best hand under the new order is the best hand of the highest category (in the new
    order) among those that can be made, ``top_position[present]``. When that is the category
    of ``high``, the hand is the same and only its position changes; otherwise the hand's flat
    index ``i * players + p`` goes into ``redo`` and the caller evaluates it again. Returns
    how many hands need it (``np.nonzero`` on a 2-D mask cost twice this whole kernel).
    """
    n, players = high.shape
    count = 0
    for i in range(n):
        for p in range(players):
            value = np.int64(high[i, p])
            top = np.int64(top_position[present[i, p]])
            if top == position_of_category[source_category_of_position[value >> 20]]:
                out[i, p] = (top << 20) | (value & 0xFFFFF)
            else:
                out[i, p] = 0
                redo[count] = i * players + p
                count += 1
    return count
