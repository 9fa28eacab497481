"""The numba kernels of the solver: one pass over a tree for one player (the traverser).

A pass walks the levels of a ``solver.tree.Tree`` down, carrying the opponent's reach (per hand
of the opponent's range) from each node to its children, then back up, computing the
traverser's counterfactual values (per hand of its range). Per mode:

- ``CFR``: the opponent plays its current strategy (regret matching on its regrets) and its
  average strategy takes this iteration's share; at the traverser's nodes the regrets take
  the iteration's, discounted as DCFR does (Brown and Sandholm 2019).
- ``BEST``: the opponent plays its average strategy; the traverser's value is the best action's.
- ``AVERAGE``: both play their average strategies.

Terminal values are sums over the opponent's hands that share no card with the traverser's
hand: tallies by card subset and inclusion-exclusion, as in ``evaluator.range_showdown``. At a
showdown both ranges are swept in order of strength; a hi-lo pot's expected share splits into
a high part and a low part that are swept apart (the high counted twice: against every hand,
and against the hands with a low, whose half the high does not get).

The nodes of one level are independent: each writes only its own rows, so the result does not
depend on the number of threads.
"""

import numpy as np
from numba import prange

from evaluator.jit import njit

CFR, BEST, AVERAGE = 0, 1, 2
DECISION, CHANCE, FOLD, SHOWDOWN = 0, 1, 2, 3


@njit(inline="always")
def _strategies(rows, slot, count, n, out):
    """``out[a, h]``: regret matching on ``rows[slot + a, h]`` (or the average strategy, from its
    sums) of every hand ``h < n``; actions outer, hands inner, so the loops run along rows."""
    total = np.zeros(n)
    for a in range(count):
        for h in range(n):
            r = rows[slot + a, h]
            if r > 0.0:
                total[h] += r
    uniform = 1.0 / count
    for a in range(count):
        for h in range(n):
            r = rows[slot + a, h]
            out[a, h] = (r / total[h] if r > 0.0 else 0.0) if total[h] > 0.0 else uniform


@njit(inline="always")
def _add(v, weights, villain_subsets, tallies):
    w = weights[v]
    for s in range(villain_subsets.shape[1]):
        t = tallies[villain_subsets[v, s]]
        for c in range(w.shape[0]):
            t[c] += w[c]


@njit(inline="always")
def _disjoint(h, hero_subsets, signs, full_sign, match, weights, tallies, offset, width, out):
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
def _sweep(order_t, m_t, strength_t, order_o, m_o, strength_o, weights, hero_subsets, villain_subsets, signs,
           full_sign, match, tallies, offsets, width, below, upto, every):
    """For each live traverser hand: the other range's disjoint weight strictly weaker
    (``below``) and weaker or as strong (``upto``), in the ``width`` channels (columns of
    ``weights``, one per terminal) from the hand's ``offsets`` entry (-1: the hand is skipped),
    and in all (``every``, from channel 0; when ``every`` has columns). Leaves ``tallies`` zeroed."""
    i = 0
    j = 0
    while i < m_t:
        s = strength_t[order_t[i]]
        while j < m_o and strength_o[order_o[j]] < s:
            _add(order_o[j], weights, villain_subsets, tallies)
            j += 1
        end = i
        while end < m_t and strength_t[order_t[end]] == s:
            h = order_t[end]
            if offsets[h] >= 0:
                _disjoint(h, hero_subsets, signs, full_sign, -1, weights, tallies, offsets[h], width, below)
            end += 1
        tied = j
        while j < m_o and strength_o[order_o[j]] == s:
            _add(order_o[j], weights, villain_subsets, tallies)
            j += 1
        for q in range(i, end):  # the hand with the same cards, if any, is as strong: tallied now
            h = order_t[q]
            if offsets[h] < 0:
                continue
            if j == tied:  # nothing as strong: no tie
                for c in range(width):
                    upto[h, c] = below[h, c]
            else:
                _disjoint(h, hero_subsets, signs, full_sign, match[h], weights, tallies, offsets[h], width, upto)
        i = end
    if every.shape[1]:
        while j < m_o:
            _add(order_o[j], weights, villain_subsets, tallies)
            j += 1
        for q in range(m_t):
            h = order_t[q]
            _disjoint(h, hero_subsets, signs, full_sign, match[h], weights, tallies, 0, width, every)
    for q in range(j):
        v = order_o[q]
        for s in range(villain_subsets.shape[1]):
            tallies[villain_subsets[v, s]] = 0.0


@njit
def _terminals(nodes, trav, pot, hilo, kind, player, board, contributed, n_t, n_o, alive, alive_count, sd_row,
               sd_high, sd_low, sd_order_high, sd_order_low, hero_subsets, villain_subsets, match, ids, signs,
               full_sign, reach, cfv):
    """The traverser's values at terminals of one kind on one board, each terminal a channel:
    folds pay the disjoint weight times the winner's chips; showdowns the expected pot share
    (high sweep; in hi-lo also the high against the hands with a low, and the low sweep)."""
    opp = 1 - trav
    k0 = nodes[0]
    b = board[k0]
    m_t, m_o = alive_count[trav, b], alive_count[opp, b]
    live_t, live_o = alive[trav][b], alive[opp][b]
    count = nodes.shape[0]
    hilo = hilo and kind[k0] == SHOWDOWN
    # Channels: the reach of each terminal (0 .. count); at a hi-lo showdown also the reach with
    # the hands holding a low halved (count .. 2 count), which is what the high earns a hand
    # without a low. Rows of hands, channels along them: the sweeps read and write whole rows.
    channels = 2 * count if hilo else count
    weights = np.empty((n_o, channels), signs.dtype)
    for q in range(m_o):
        v = live_o[q]
        for c in range(count):
            weights[v, c] = reach[nodes[c], v]
    tallies = np.zeros((ids + 1, channels), signs.dtype)
    every = np.empty((n_t, count), signs.dtype)
    # What each terminal pays: a fold, the winner's chips (``gain``) times the disjoint weight;
    # a showdown, the pot at the end times the pot share, less the traverser's chips in it.
    gain = np.empty(count, signs.dtype)
    paid = np.empty(count, signs.dtype)
    for c in range(count):
        k = nodes[c]
        gain[c] = pot + contributed[k, 0] + contributed[k, 1]
        paid[c] = contributed[k, trav]
        for h in range(n_t):
            cfv[k, h] = 0.0
        if kind[k0] == FOLD:
            gain[c] = pot + contributed[k, opp] if player[k] == opp else -1.0 * contributed[k, trav]
    value = np.empty(count, signs.dtype)
    if kind[k0] == FOLD:
        for q in range(m_o):
            _add(live_o[q], weights, villain_subsets, tallies)
        for q in range(m_t):
            h = live_t[q]
            _disjoint(h, hero_subsets, signs, full_sign, match[h], weights, tallies, 0, count, every)
            for c in range(count):
                cfv[nodes[c], h] = gain[c] * every[h, c]
        return
    row = sd_row[b]
    order_t, order_o = sd_order_high[trav][row], sd_order_high[opp][row]
    low_t, low_o = sd_low[trav][row], sd_low[opp][row]
    offsets = np.zeros(n_t, np.int64)
    if hilo:
        for q in range(m_o):
            v = live_o[q]
            half = 0.5 if low_o[v] > 0 else 1.0
            for c in range(count):
                weights[v, count + c] = half * weights[v, c]
        for q in range(m_t):
            h = live_t[q]
            offsets[h] = 0 if low_t[h] > 0 else count
    below = np.empty((n_t, count), signs.dtype)
    upto = np.empty((n_t, count), signs.dtype)
    _sweep(order_t, m_t, sd_high[trav][row], order_o, m_o, sd_high[opp][row], weights, hero_subsets,
           villain_subsets, signs, full_sign, match, tallies, offsets, count, below, upto, every)
    if hilo:
        order_low_t = sd_order_low[trav][row]
        for q in range(m_t):  # the low sweep counts for the hands with a low only
            h = order_low_t[q]
            offsets[h] = 0 if low_t[h] > 0 else -1
        below_l = np.empty((n_t, count), signs.dtype)
        upto_l = np.empty((n_t, count), signs.dtype)
        _sweep(order_low_t, m_t, low_t, sd_order_low[opp][row], m_o, low_o, weights[:, :count], hero_subsets, villain_subsets,
               signs, full_sign, match, tallies, offsets, count, below_l, upto_l, np.zeros((0, 0), signs.dtype))
    for q in range(m_t):
        h = live_t[q]
        if hilo and low_t[h] > 0:  # half the high's share and half the low's
            for c in range(count):
                value[c] = gain[c] * 0.25 * (below[h, c] + upto[h, c] + below_l[h, c] + upto_l[h, c]) - paid[c] * every[h, c]
        else:
            for c in range(count):
                value[c] = gain[c] * 0.5 * (below[h, c] + upto[h, c]) - paid[c] * every[h, c]
        for c in range(count):
            cfv[nodes[c], h] = value[c]


@njit(parallel=True, cache=True)
def tree_pass(mode, trav, pot, hilo, kind, player, board, contributed, first_child, children, level_start,
              deals_start, deal_child, deal_map, chance_weight, slot, n_hands, weights, alive, alive_count, sd_row,
              sd_high, sd_low, sd_order_high, sd_order_low, hero_subsets, villain_subsets, match, ids, signs,
              full_sign, perms, group_start, group_nodes, regret, strat, alpha, beta, gamma, reach, cfv):
    """One pass of ``mode`` for player ``trav`` (see the module); fills ``reach`` (the opponent's,
    per node) and ``cfv`` (the traverser's counterfactual values, per node)."""
    opp = 1 - trav
    n_t = n_hands[trav]
    n_o = n_hands[opp]
    w_o = weights[opp]
    for h in range(n_o):
        reach[0, h] = w_o[h]
    levels = level_start.shape[0] - 1
    rows_o = regret[opp] if mode == CFR else strat[opp]
    sums_o = strat[opp]
    for level in range(levels):
        for k in prange(level_start[level], level_start[level + 1]):
            kk = kind[k]
            if kk == DECISION:
                count = children[k]
                c0 = first_child[k]
                if player[k] == opp:
                    sigma = np.empty((count, n_o))
                    s0 = slot[k]
                    _strategies(rows_o, s0, count, n_o, sigma)
                    for a in range(count):
                        for h in range(n_o):
                            r = reach[k, h] * sigma[a, h]
                            reach[c0 + a, h] = r
                            if mode == CFR:
                                sums_o[s0 + a, h] = sums_o[s0 + a, h] * gamma + r
                else:
                    for a in range(count):
                        for h in range(n_o):
                            reach[c0 + a, h] = reach[k, h]
            elif kk == CHANCE:
                c0 = first_child[k]
                for a in range(children[k]):
                    child = c0 + a
                    b = board[child]
                    for h in range(n_o):
                        reach[child, h] = 0.0
                    for q in range(alive_count[opp, b]):
                        h = alive[opp][b, q]
                        reach[child, h] = reach[k, h]
    for g in prange(group_start.shape[0] - 1):
        _terminals(group_nodes[group_start[g] : group_start[g + 1]], trav, pot, hilo, kind, player, board, contributed,
                   n_t, n_o, alive, alive_count, sd_row, sd_high, sd_low, sd_order_high, sd_order_low,
                   hero_subsets[trav], villain_subsets[trav], match[trav], ids[trav], signs, full_sign, reach, cfv)
    rows_t = regret[trav]
    sums_t = strat[trav]
    for level in range(levels - 1, -1, -1):
        for k in prange(level_start[level], level_start[level + 1]):
            kk = kind[k]
            if kk == FOLD or kk == SHOWDOWN:
                continue
            for h in range(n_t):
                cfv[k, h] = 0.0
            if kk == CHANCE:
                weight = chance_weight[k]
                for d in range(deals_start[k], deals_start[k + 1]):
                    child = deal_child[d]
                    perm = perms[trav][deal_map[d]]
                    for h in range(n_t):
                        cfv[k, perm[h]] += weight * cfv[child, h]
            elif player[k] == opp:
                c0 = first_child[k]
                for a in range(children[k]):
                    for h in range(n_t):
                        cfv[k, h] += cfv[c0 + a, h]
            else:
                count = children[k]
                c0 = first_child[k]
                s0 = slot[k]
                if mode == BEST:
                    for h in range(n_t):
                        cfv[k, h] = cfv[c0, h]
                    for a in range(1, count):
                        for h in range(n_t):
                            cfv[k, h] = max(cfv[k, h], cfv[c0 + a, h])
                    continue
                sigma = np.empty((count, n_t))
                _strategies(rows_t if mode == CFR else sums_t, s0, count, n_t, sigma)
                value = np.zeros(n_t)
                for a in range(count):
                    for h in range(n_t):
                        value[h] += sigma[a, h] * cfv[c0 + a, h]
                for h in range(n_t):
                    cfv[k, h] = value[h]
                if mode == CFR:
                    for a in range(count):
                        for h in range(n_t):
                            r = rows_t[s0 + a, h]
                            r *= alpha if r > 0.0 else beta
                            rows_t[s0 + a, h] = r + (cfv[c0 + a, h] - value[h])
