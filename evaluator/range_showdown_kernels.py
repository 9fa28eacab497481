"""The numba kernels of ``evaluator.range_showdown`` and ``evaluator.isomorphism``: the heads-up sweep,
every tuple of three or more players, and boards folded by suit symmetry.

``sweep`` (with ``add_hand`` and ``disjoint_weight``) is the two-range sweep over sorted
strengths with card removal by inclusion-exclusion, weighted, a channel per set of weights: the
solver's terminal values (``solver.kernels``) and the exact grid (``jobs.grid``) read it;
``heads_up`` is the same sweep with a Fenwick tree over the lows, for the calculator's hi-lo
wins, ties and scoops, which need the high and the low of each pair together.

Apart from those modules so that the calculator's small answers, which never run them, import
no numba (``evaluator.jit``).
"""

import numpy as np

from evaluator.jit import njit


@njit(cache=True, nogil=True)
def fold(completions, maps):
    m, k = completions.shape
    keep = np.zeros(m, np.bool_)
    size = np.zeros(m, np.int64)
    for i in range(m):
        mask = np.int64(0)
        for j in range(k):
            mask |= np.int64(1) << completions[i, j]
        fixed = 0
        smallest = True
        for g in range(maps.shape[0]):
            image = np.int64(0)
            for j in range(k):
                image |= np.int64(1) << maps[g, completions[i, j]]
            if image < mask:
                smallest = False
                break
            if image == mask:
                fixed += 1
        if smallest:
            keep[i] = True
            size[i] = maps.shape[0] // fixed
    return keep, size


@njit(inline="always")
def _count(hand, low, lows_tallied, hist, total, hero_subsets, signs):
    """The villain's tallied weight against ``hand`` without the hands sharing a card with it,
    as (worse low, equal low, all): inclusion-exclusion over the hand's proper subsets. The tree
    is read only when both have a low (``lows_tallied``: some villain hand on this board has
    one): a hero without one is worse than nothing and equal to the villains without one; a hero
    with one against villains without is better than all."""
    worse = 0.0
    equal = 0.0
    every = 0.0
    for s in range(signs.shape[0]):
        at = hero_subsets[hand, s]
        if at < 0:
            continue
        sign = signs[s]
        every += sign * total[at]
        if low == 0:
            equal += sign * hist[at, 0]
        elif not lows_tallied:
            worse += sign * hist[at, 0]
        else:
            below = _below(hist, at, low)
            worse += sign * below
            equal += sign * (_below(hist, at, low + 1) - below)
    return worse, equal, every


@njit(inline="always")
def _below(hist, at, low):
    """The tallied weight of subset ``at`` with a low class below ``low``: ``hist[at]`` is a
    Fenwick tree over the classes with a low (class c at position c + 1; position 1, class 0,
    is never used: the hands without a low are tallied apart in ``hist[at, 0]``), so a hand's
    count against lower lows is a few reads, not one per class (PLO8: 56 lows)."""
    out = hist[at, 0] if low > 0 else 0.0
    i = low
    while i > 1:
        out += hist[at, i]
        i -= i & -i
    return out


@njit(inline="always")
def _tally(hist, total, at, low, weight):
    """Add ``weight`` at subset ``at`` and low class ``low``."""
    total[at] += weight
    if low == 0:
        hist[at, 0] += weight
    else:
        i = low + 1
        while i < hist.shape[1]:
            hist[at, i] += weight
            i += i & -i


@njit(inline="always")
def _clear(hist, total, at, low):
    """Set back to zero what ``_tally`` added (the tallies start every board empty)."""
    total[at] = 0.0
    if low == 0:
        hist[at, 0] = 0.0
    else:
        i = low + 1
        while i < hist.shape[1]:
            hist[at, i] = 0.0
            i += i & -i


@njit(cache=True, nogil=True)
def heads_up(
    board_masks,
    board_weights,
    high_h,
    low_h,
    high_v,
    low_v,
    mask_h,
    mask_v,
    weight_v,
    hero_subsets,
    villain_subsets,
    signs,
    full_sign,
    match,
    hist,
    total,
    outcomes,
    acc,
):
    n_h, n_v, subsets = mask_h.shape[0], mask_v.shape[0], villain_subsets.shape[1]
    valid_h = np.empty(n_h, np.int64)
    valid_v = np.empty(n_v, np.int64)
    below = np.empty((n_h, 3))
    upto = np.empty((n_h, 3))
    for t in range(board_masks.shape[0]):
        board, board_weight = board_masks[t], board_weights[t]
        m_h = 0
        for i in range(n_h):
            if mask_h[i] & board == 0:
                valid_h[m_h] = i
                m_h += 1
        m_v = 0
        lows_v = False
        for j in range(n_v):
            if mask_v[j] & board == 0:
                valid_v[m_v] = j
                m_v += 1
                lows_v |= low_v[t, j] > 0
        if m_h == 0 or m_v == 0:
            continue
        order_h = valid_h[:m_h][np.argsort(high_h[t, valid_h[:m_h]])]
        order_v = valid_v[:m_v][np.argsort(high_v[t, valid_v[:m_v]])]
        j = 0
        i = 0
        while i < m_h:
            strength = high_h[t, order_h[i]]
            while j < m_v and high_v[t, order_v[j]] < strength:
                v = order_v[j]
                for s in range(subsets):
                    _tally(hist, total, villain_subsets[v, s], low_v[t, v], weight_v[v])
                j += 1
            end = i
            while end < m_h and high_h[t, order_h[end]] == strength:
                h = order_h[end]
                below[end, 0], below[end, 1], below[end, 2] = _count(
                    h, low_h[t, h], lows_v, hist, total, hero_subsets, signs
                )
                end += 1
            while j < m_v and high_v[t, order_v[j]] == strength:
                v = order_v[j]
                for s in range(subsets):
                    _tally(hist, total, villain_subsets[v, s], low_v[t, v], weight_v[v])
                j += 1
            for q in range(i, end):
                h = order_h[q]
                worse, equal, every = _count(h, low_h[t, h], lows_v, hist, total, hero_subsets, signs)
                if match[h] >= 0:  # the hand itself: as strong, the same low
                    equal += full_sign * weight_v[match[h]]
                    every += full_sign * weight_v[match[h]]
                upto[q, 0], upto[q, 1], upto[q, 2] = worse, equal, every
            i = end
        while j < m_v:
            v = order_v[j]
            for s in range(subsets):
                _tally(hist, total, villain_subsets[v, s], low_v[t, v], weight_v[v])
            j += 1
        for q in range(m_h):
            h = order_h[q]
            low = low_h[t, h]
            worse, equal, every = _count(h, low, lows_v, hist, total, hero_subsets, signs)
            if match[h] >= 0:
                equal += full_sign * weight_v[match[h]]
                every += full_sign * weight_v[match[h]]
            has_low = 1 if low > 0 else 0
            for cell in range(3):
                if cell == 0:
                    c_worse, c_equal, c_every = below[q, 0], below[q, 1], below[q, 2]
                elif cell == 1:
                    c_worse, c_equal, c_every = (
                        upto[q, 0] - below[q, 0],
                        upto[q, 1] - below[q, 1],
                        upto[q, 2] - below[q, 2],
                    )
                else:
                    c_worse, c_equal, c_every = worse - upto[q, 0], equal - upto[q, 1], every - upto[q, 2]
                c_better = c_every - c_worse - c_equal
                for k in range(6):
                    acc[h, k] += board_weight * (
                        c_worse * outcomes[has_low, cell, 0, k]
                        + c_equal * outcomes[has_low, cell, 1, k]
                        + c_better * outcomes[has_low, cell, 2, k]
                    )
            acc[h, 6] += board_weight * every
        for q in range(m_v):  # empty the tallies for the next board
            v = order_v[q]
            for s in range(subsets):
                _clear(hist, total, villain_subsets[v, s], low_v[t, v])


@njit(cache=True, nogil=True)
def multiway(board_masks, board_weights, high, low, tuples, tuple_masks, tuple_weights, unit, acc):
    players = tuples.shape[1]
    for t in range(board_masks.shape[0]):
        board = board_masks[t]
        for u in range(tuples.shape[0]):
            if tuple_masks[u] & board:
                continue
            weight = board_weights[t] * tuple_weights[u]
            top_high = high[t, tuples[u, 0]]
            top_low = low[t, tuples[u, 0]]
            for p in range(1, players):
                top_high = max(top_high, high[t, tuples[u, p]])
                top_low = max(top_low, low[t, tuples[u, p]])
            high_winners = 0
            low_winners = 0
            for p in range(players):
                high_winners += high[t, tuples[u, p]] == top_high
                low_winners += top_low > 0 and low[t, tuples[u, p]] == top_low
            high_share = (unit // 2 if top_low > 0 else unit) // high_winners
            low_share = unit // 2 // max(low_winners, 1)
            for p in range(players):
                c = tuples[u, p]
                h = high_share if high[t, c] == top_high else 0
                lo = low_share if top_low > 0 and low[t, c] == top_low else 0
                share = h + lo
                acc[p, 0] += weight * share
                acc[p, 1] += weight * h
                acc[p, 2] += weight * lo
                acc[p, 3] += weight * (share == unit)
                acc[p, 4] += weight * (0 < share < unit)
                acc[p, 5] += weight * (share == unit and top_low > 0)
                acc[p, 6] += weight


@njit(cache=True, nogil=True)
def disjoint_tuples(hands, offsets, weights, blocked):
    """Every tuple of one hand per player (player p's hands are ``hands[offsets[p]:offsets[p + 1]]``)
    with no card in common and none in ``blocked``, hands of weight 0 left out: ``(holes
    uint8[tuples, players, cards], tuple weights float64[tuples] (products), kept int64[players]
    (each player's hands clear of ``blocked`` with a weight), always int64 (the cards every kept
    hand of some player holds))``. Depth first, in order of the players' hands."""
    players = offsets.shape[0] - 1
    n, size = hands.shape
    masks = np.zeros(n, np.int64)
    for i in range(n):
        for j in range(size):
            masks[i] |= np.int64(1) << hands[i, j]
    kept = np.zeros(players, np.int64)
    always = np.int64(0)
    for p in range(players):
        common = np.int64(-1)
        for i in range(offsets[p], offsets[p + 1]):
            if masks[i] & blocked == 0 and weights[i] > 0:
                kept[p] += 1
                common &= masks[i]
        if kept[p]:
            always |= common
    at = np.zeros(players, np.int64)
    used = np.zeros(players + 1, np.int64)
    product = np.ones(players + 1)
    used[0] = blocked
    count = 0
    holes = np.zeros((0, players, size), np.uint8)
    tuple_weights = np.zeros(0)
    for fill in range(2):  # count, then fill
        if fill:
            holes = np.empty((count, players, size), np.uint8)
            tuple_weights = np.empty(count)
            count = 0
        p = 0
        at[0] = offsets[0] - 1
        while p >= 0:
            at[p] += 1
            if at[p] >= offsets[p + 1]:
                p -= 1
                continue
            i = at[p]
            if masks[i] & used[p] or weights[i] <= 0:
                continue
            used[p + 1] = used[p] | masks[i]
            product[p + 1] = product[p] * weights[i]
            if p < players - 1:
                p += 1
                at[p] = offsets[p] - 1
                continue
            if fill:
                for q in range(players):
                    for j in range(size):
                        holes[count, q, j] = hands[at[q], j]
                tuple_weights[count] = product[players]
            count += 1
    return holes, tuple_weights, kept, always


@njit(inline="always")
def add_hand(v, weights, villain_subsets, tallies):
    """Tally villain hand ``v``'s weights (a row of channels) under each of its card subsets."""
    w = weights[v]
    for s in range(villain_subsets.shape[1]):
        t = tallies[villain_subsets[v, s]]
        for c in range(w.shape[0]):
            t[c] += w[c]


@njit(inline="always")
def disjoint_weight(h, hero_subsets, signs, full_sign, match, weights, tallies, offset, width, out):
    """``out[h, :width]``: per channel from ``offset``, the tallied weight of the other range's
    hands that share no card with hand ``h`` (the hand with all of ``h``'s cards, ``match``,
    is tallied by now when it is given).

    Three subsets at a time, each a row of ``tallies``, so that the channels run in vector
    registers: ``hero_subsets`` and ``signs`` come padded to a multiple of three (``Problem``:
    subset -1, sign 0), and a subset the other range never holds (-1) reads the last row of
    ``tallies``, which nothing adds to. A loop with a branch per subset measured twice as slow."""
    o = out[h]
    zero = tallies.shape[0] - 1
    for k in range(0, signs.shape[0], 3):
        a0, a1, a2 = hero_subsets[h, k], hero_subsets[h, k + 1], hero_subsets[h, k + 2]
        t0 = tallies[a0 if a0 >= 0 else zero]
        t1 = tallies[a1 if a1 >= 0 else zero]
        t2 = tallies[a2 if a2 >= 0 else zero]
        s0, s1, s2 = signs[k], signs[k + 1], signs[k + 2]
        if k == 0:
            for c in range(width):
                o[c] = s0 * t0[offset + c] + s1 * t1[offset + c] + s2 * t2[offset + c]
        else:
            for c in range(width):
                o[c] += s0 * t0[offset + c] + s1 * t1[offset + c] + s2 * t2[offset + c]
    if match >= 0:
        w = weights[match]
        sign = full_sign
        for c in range(width):
            o[c] += sign * w[offset + c]


@njit
def sweep(
    order_t,
    m_t,
    strength_t,
    order_o,
    m_o,
    strength_o,
    weights,
    hero_subsets,
    villain_subsets,
    signs,
    full_sign,
    match,
    tallies,
    offsets,
    width,
    below,
    upto,
    every,
):
    """For each live traverser hand: the other range's disjoint weight strictly weaker
    (``below``) and weaker or as strong (``upto``), in the ``width`` channels (columns of
    ``weights``, one per terminal) from the hand's ``offsets`` entry (-1: the hand is skipped),
    and in all (``every``, from channel 0; when ``every`` has columns). Leaves ``tallies`` zeroed."""
    i = 0
    j = 0
    while i < m_t:
        s = strength_t[order_t[i]]
        while j < m_o and strength_o[order_o[j]] < s:
            add_hand(order_o[j], weights, villain_subsets, tallies)
            j += 1
        end = i
        while end < m_t and strength_t[order_t[end]] == s:
            h = order_t[end]
            if offsets[h] >= 0:
                disjoint_weight(h, hero_subsets, signs, full_sign, -1, weights, tallies, offsets[h], width, below)
            end += 1
        tied = j
        while j < m_o and strength_o[order_o[j]] == s:
            add_hand(order_o[j], weights, villain_subsets, tallies)
            j += 1
        for q in range(i, end):  # the hand with the same cards, if any, is as strong: tallied now
            h = order_t[q]
            if offsets[h] < 0:
                continue
            if j == tied:  # nothing as strong: no tie
                for c in range(width):
                    upto[h, c] = below[h, c]
            else:
                disjoint_weight(h, hero_subsets, signs, full_sign, match[h], weights, tallies, offsets[h], width, upto)
        i = end
    if every.shape[1]:
        while j < m_o:
            add_hand(order_o[j], weights, villain_subsets, tallies)
            j += 1
        for q in range(m_t):
            h = order_t[q]
            disjoint_weight(h, hero_subsets, signs, full_sign, match[h], weights, tallies, 0, width, every)
    for q in range(j):
        v = order_o[q]
        for s in range(villain_subsets.shape[1]):
            tallies[villain_subsets[v, s]] = 0.0
