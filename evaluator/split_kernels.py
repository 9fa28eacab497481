"""Restricted hole use (a hand must use some number of hole cards): the numba kernels.

``split_kernel`` reads one split-table entry per hole subset (the best over the board's parts,
see ``evaluator.tables``), one low-table entry per hand, and takes the rare suited case out of
line; ``hole_table_kernel`` reads the per-hole tables built from them. ``subset_high_low``
reads every allowed (hole subset, board subset) pair: the plain path for what the split tables
do not cover (more than three hole cards used, boards other than five cards), and the baseline
the benchmark compares with. Shapes as in ``evaluator.free_kernels``.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from evaluator.card_words import (
    CARD_KEY,
    CARD_LOW_BIT,
    CARD_SUIT_BIT,
    CARD_SUIT_COUNT,
    FLUSH_BITS,
    FLUSH_PROBE,
    HI_SHIFT,
    LO_MASK,
    POPCOUNT8,
    PREFETCH_AHEAD,
    RING,
    _flush_suit,
    _low_mask,
    _probe_suit,
    _rank_mask,
    _suit_bit,
    _suit_count,
)
from evaluator.jit import njit
from evaluator.prefetch import prefetch
from evaluator.tables import N_PAIRS, PAIRED_CATEGORIES, rank_multisets


@njit(cache=True, nogil=True)
def subset_high_low(
    hole,
    board,
    hole_sets,
    board_sets,
    pairs,
    lo_index,
    start5,
    rank_value5,
    rank_present5,
    flush_value,
    flush_present,
    low_value,
    high,
    low,
    present,
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
    hole,
    i,
    p,
    hole_sets,
    hole_set_size,
    b_counts,
    board_set_size,
    t_ranks,
    t_suit,
    distinct_present,
    flush_present,
    flush_ordinal,
    split_present,
    row0,
    row1,
    row2,
    row3,
    hole_rank_index,
    board_pair,
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


@cache
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
        hole,
        board,
        hole_sets,
        hole_set_size,
        board_sets,
        board_set_size,
        lo_index,
        start,
        hole_rank_index,
        split_value,
        split_present,
        split_offset,
        split_stride,
        distinct_present,
        flush_ordinal,
        flush_present,
        split_low,
        low_mask,
        want_present,
        strength_of,
        high,
        low,
        present,
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
                            hole,
                            i,
                            p,
                            hole_sets,
                            hole_set_size,
                            b_counts,
                            board_set_size,
                            t_ranks,
                            t_suit,
                            distinct_present,
                            flush_present,
                            flush_ordinal,
                            split_present,
                            row0,
                            row1,
                            row2,
                            row3,
                            hole_rank_index,
                            board_pair,
                        )
                    else:
                        flush = _suited_best(hole, i, p, b_bits, b_counts, use0, use1, use2, use3, flush_ordinal)
                    best_high = max(best_high, flush)
                high[i, p] = strength_of[best_high]
                low[i, p] = split_low[low_row | (hole_low & low_mask)]
                present[i, p] = found

    return split_high_low_present


@cache
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
    def hole_table_high_low(
        hole, board, lo_index, start, table, strength_of, flush_ordinal, split_low, low_mask, high, low
    ):
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
