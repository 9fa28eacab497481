"""Every pool of a deal count, and highs moved to another ranking: numba kernels.

``enumerate_pools`` counts every pool of ``hole + board`` cards by category (the exact
distributions); ``rerank_high`` turns one ranking's highs into another's where only the order of
the same categories differs.
"""

from __future__ import annotations

import numpy as np

from evaluator.card_words import (
    CARD_SUIT_BIT,
    CARD_WORD,
    FLUSH_BITS,
    FLUSH_PROBE,
    HI_SHIFT,
    KEY_MASK,
    LO_MASK,
    _low_mask,
    _probe_suit,
    _rank_mask,
)
from evaluator.jit import njit


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
    deck,
    first,
    size,
    lo_index,
    start_row,
    rank_value,
    rank_present,
    flush_value,
    flush_present,
    offsuit_present,
    paired_bits,
    best_positions,
    present_patterns,
    low_patterns,
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
