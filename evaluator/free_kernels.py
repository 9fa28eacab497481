"""Free use (any 5 of the pool): the numba kernels of one game, its tables frozen in as constants.

Shapes: ``hole`` is ``uint8[n, players, hole_cards]``, ``board`` is ``uint8[n, board_cards]``;
outputs are ``[n, players]``. Strengths are the reference's integers (larger is better; a low
of 0 means no qualifying low). Per pool one packed key + suit-count word, one 64-bit suit/rank
bit word and one low mask (``evaluator.card_words``), then at most three table reads. The
board's part is summed once per deal and shared by all players; random hands of 8-9 cards
prefetch their rank entries (``evaluator.prefetch``). ``fixed_tuples`` counts the completions
of a board for fixed deals by the ranks of their new cards (the exact calculator's deals), and
``spot_sums`` a whole small spot of ranges with it.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from functools import cache
from typing import NamedTuple

import numpy as np
from numba.core.errors import NumbaWarning

from evaluator.card_words import (
    CARD_KEY,
    CARD_SUIT_BIT,
    CARD_WORD,
    FLUSH_BITS,
    FLUSH_PROBE,
    HI_SHIFT,
    KEY_MASK,
    LO_MASK,
    LOW_SHIFT,
    PREFETCH_AHEAD,
    PREFETCH_TABLE_BYTES,
    RING,
    STRENGTH_MASK,
    _low_mask,
    _pool_high_low,
    _pool_word,
    _probe_suit,
    _rank_mask,
    _with_flush,
)
from evaluator.games import Ranking
from evaluator.jit import njit
from evaluator.prefetch import prefetch
from evaluator.range_showdown_kernels import disjoint_tuples
from evaluator.tables import (
    PAIRED_CATEGORIES,
    five_card_order,
    high_tables,
    low_rank_masks,
    low_table,
    multiset_index,
    rank_ordinals,
)

# Numba freezes a closure's table into the code only up to 1 MB; the 9-card rank table (free
# use of 4 hole cards, 1.08 MB) stays a pointer, so those kernels compile once per process
# (about 2 s) instead of loading from the disk cache. Numba's warning about it says no more.
warnings.filterwarnings(
    "ignore",
    message=r'Cannot cache compiled function "(one_per_board|shared_board|high_low_present|low_only)"',
    category=NumbaWarning,
)


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
    spot_sums: Callable


@cache
def free_kernels(
    hole_cards: int, board_cards: int, ranking: Ranking, low_qualifier: int | None, ordinals: bool = False
):
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
    rank_entry = (
        rank_value.astype(np.uint32) | (low_rank_masks(hole_cards + board_cards) << LOW_SHIFT)
        if prefetching
        else rank_value
    )
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
                value, low_strength = _pool_high_low(
                    word, bits, start_row, lo_index, rank_value, flush_value, low_value
                )
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
                    plain, _ = _codes(
                        key + keys[i],
                        ranks | masks[i],
                        hand_key,
                        hand_ranks,
                        no_flush,
                        start_row,
                        lo_index,
                        rank_value,
                        low_value,
                    )
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
                                    plain, true = _codes(
                                        suited_key + keys[i],
                                        suited_ranks | masks[i],
                                        hand_key,
                                        hand_ranks,
                                        flush_of,
                                        start_row,
                                        lo_index,
                                        rank_value,
                                        low_value,
                                    )
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
                                                flush_of[p] = max(
                                                    flush_of[p],
                                                    np.int64(flush_value[new_suit_ranks[u] | hand_suit_ranks[p, u]]),
                                                )
                                    plain, true = _codes(
                                        other_key,
                                        other_ranks,
                                        hand_key,
                                        hand_ranks,
                                        flush_of,
                                        start_row,
                                        lo_index,
                                        rank_value,
                                        low_value,
                                    )
                                    if plain != true:
                                        counts[plain] -= weight
                                        counts[true] += weight
                                if not _next_subset(other_pick[:rest], n_others):
                                    break
                        if not _next_subset(pick[:k], n_suited):
                            break

    @njit(cache=True, nogil=True)
    def spot_sums(hands, offsets, weights, board, blocked, missing, code_sums):
        """A small spot in one call (the calculator's turns and rivers): every card-disjoint
        tuple of the players' hands (``range_showdown_kernels.disjoint_tuples``, its arguments),
        each tuple's completions of ``board`` counted by ``fixed_tuples``, and the counts summed
        through ``code_sums`` (``float64[codes, columns]``, a row per showdown code):
        ``(sums float64[columns], total weight, kept, always)`` (the last two as
        ``disjoint_tuples`` gives them)."""
        holes, tuple_weights, kept, always = disjoint_tuples(hands, offsets, weights, blocked)
        counts = np.zeros(code_sums.shape[0])
        fixed_tuples(holes, tuple_weights, tuple_weights, board, blocked, missing, counts)
        sums = np.zeros(code_sums.shape[1])
        total = 0.0
        for code in range(counts.shape[0]):
            if counts[code]:
                total += counts[code]
                for j in range(sums.shape[0]):
                    sums[j] += counts[code] * code_sums[code, j]
        return sums, total, kept, always

    return FreeKernels(one_per_board, shared_board, high_low_present, low_only, fixed_tuples, spot_sums)
