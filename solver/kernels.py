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
def _strategy(rows, slot, count, h, out):
    """Regret matching (or the average strategy, from its sums) of hand ``h`` into ``out``."""
    total = 0.0
    for a in range(count):
        r = rows[slot + a, h]
        if r > 0.0:
            out[a] = r
            total += r
        else:
            out[a] = 0.0
    if total > 0.0:
        for a in range(count):
            out[a] /= total
    else:
        for a in range(count):
            out[a] = 1.0 / count


@njit(inline="always")
def _disjoint(h, hero_subsets, signs, total):
    """The tallied weight of the other range's hands that share no card with hand ``h``, but the
    hand with all of ``h``'s cards (added by the caller)."""
    out = 0.0
    for s in range(signs.shape[0]):
        at = hero_subsets[h, s]
        if at >= 0:
            out += signs[s] * total[at]
    return out


@njit(inline="always")
def _add(v, weight, villain_subsets, total):
    for s in range(villain_subsets.shape[1]):
        total[villain_subsets[v, s]] += weight


@njit
def _sweep(order_t, m_t, strength_t, order_o, m_o, strength_o, w, hero_subsets, villain_subsets, signs, full_sign,
           match, total, below, upto, every):
    """For each live traverser hand: the other range's disjoint weight ``w`` strictly weaker
    (``below``), weaker or as strong (``upto``) and in all (``every``). Leaves ``total`` zeroed."""
    i = 0
    j = 0
    while i < m_t:
        s = strength_t[order_t[i]]
        while j < m_o and strength_o[order_o[j]] < s:
            v = order_o[j]
            _add(v, w[v], villain_subsets, total)
            j += 1
        end = i
        while end < m_t and strength_t[order_t[end]] == s:
            h = order_t[end]
            below[h] = _disjoint(h, hero_subsets, signs, total)
            end += 1
        while j < m_o and strength_o[order_o[j]] == s:
            v = order_o[j]
            _add(v, w[v], villain_subsets, total)
            j += 1
        for q in range(i, end):
            h = order_t[q]
            u = _disjoint(h, hero_subsets, signs, total)
            if match[h] >= 0:  # the same cards: as strong, tallied by now
                u += full_sign * w[match[h]]
            upto[h] = u
        i = end
    while j < m_o:
        v = order_o[j]
        _add(v, w[v], villain_subsets, total)
        j += 1
    for q in range(m_t):
        h = order_t[q]
        e = _disjoint(h, hero_subsets, signs, total)
        if match[h] >= 0:
            e += full_sign * w[match[h]]
        every[h] = e
    for q in range(m_o):
        v = order_o[q]
        for s in range(villain_subsets.shape[1]):
            total[villain_subsets[v, s]] = 0.0


@njit
def _fold_value(alive_t, m_t, alive_o, m_o, w, hero_subsets, villain_subsets, signs, full_sign, match, ids,
                payoff, out):
    total = np.zeros(ids)
    for q in range(m_o):
        v = alive_o[q]
        _add(v, w[v], villain_subsets, total)
    for q in range(m_t):
        h = alive_t[q]
        e = _disjoint(h, hero_subsets, signs, total)
        if match[h] >= 0:
            e += full_sign * w[match[h]]
        out[h] = payoff * e


@njit
def _showdown_value(row, trav, hilo, n_t, alive_count_t, alive_count_o, sd_high, sd_low, sd_order_high,
                    sd_order_low, w, hero_subsets, villain_subsets, signs, full_sign, match, ids, pot_end, paid, out):
    """``out[h]`` = the traverser's payoff summed over the opponent's weights: ``pot_end`` times
    its expected pot share, minus ``paid``, against each disjoint hand."""
    opp = 1 - trav
    total = np.zeros(ids)
    below = np.zeros(n_t)
    upto = np.zeros(n_t)
    every = np.zeros(n_t)
    order_t = sd_order_high[trav][row]
    order_o = sd_order_high[opp][row]
    high_t = sd_high[trav][row]
    high_o = sd_high[opp][row]
    _sweep(order_t, alive_count_t, high_t, order_o, alive_count_o, high_o, w, hero_subsets, villain_subsets,
           signs, full_sign, match, total, below, upto, every)
    if not hilo:
        for q in range(alive_count_t):
            h = order_t[q]
            out[h] = pot_end * 0.5 * (below[h] + upto[h]) - paid * every[h]
        return
    low_t = sd_low[trav][row]
    low_o = sd_low[opp][row]
    w_low = np.zeros(w.shape[0])
    for q in range(alive_count_o):
        v = order_o[q]
        if low_o[v] > 0:
            w_low[v] = w[v]
    below_l = np.zeros(n_t)
    upto_l = np.zeros(n_t)
    every_l = np.zeros(n_t)
    # The high against the hands with a low (a hand without a low wins half its high there).
    _sweep(order_t, alive_count_t, high_t, order_o, alive_count_o, high_o, w_low, hero_subsets, villain_subsets,
           signs, full_sign, match, total, below_l, upto_l, every_l)
    high_vs_low = np.zeros(n_t)
    for q in range(alive_count_t):
        h = order_t[q]
        high_vs_low[h] = 0.5 * (below_l[h] + upto_l[h])
    # The low against every hand (no low counts as the worst).
    _sweep(sd_order_low[trav][row], alive_count_t, low_t, sd_order_low[opp][row], alive_count_o, low_o, w,
           hero_subsets, villain_subsets, signs, full_sign, match, total, below_l, upto_l, every_l)
    for q in range(alive_count_t):
        h = order_t[q]
        high = 0.5 * (below[h] + upto[h])
        if low_t[h] > 0:
            share = 0.5 * high + 0.25 * (below_l[h] + upto_l[h])
        else:
            share = high - 0.5 * high_vs_low[h]
        out[h] = pot_end * share - paid * every[h]


@njit(parallel=True, cache=True)
def tree_pass(mode, trav, pot, hilo, kind, player, board, contributed, first_child, children, level_start,
              deals_start, deal_child, deal_map, chance_weight, slot, n_hands, weights, alive, alive_count, sd_row,
              sd_high, sd_low, sd_order_high, sd_order_low, hero_subsets, villain_subsets, match, ids, signs,
              full_sign, perms, regret, strat, alpha, beta, gamma, reach, cfv):
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
                    sigma = np.empty(count)
                    s0 = slot[k]
                    for h in range(n_o):
                        _strategy(rows_o, s0, count, h, sigma)
                        r = reach[k, h]
                        for a in range(count):
                            reach[c0 + a, h] = r * sigma[a]
                            if mode == CFR:
                                sums_o[s0 + a, h] = sums_o[s0 + a, h] * gamma + r * sigma[a]
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
    rows_t = regret[trav]
    sums_t = strat[trav]
    for level in range(levels - 1, -1, -1):
        for k in prange(level_start[level], level_start[level + 1]):
            kk = kind[k]
            for h in range(n_t):
                cfv[k, h] = 0.0
            if kk == FOLD or kk == SHOWDOWN:
                b = board[k]
                w = reach[k, :n_o].astype(np.float64)
                out = np.zeros(n_t)
                if kk == FOLD:
                    payoff = pot + contributed[k, opp] if player[k] == opp else -1.0 * contributed[k, trav]
                    _fold_value(alive[trav][b], alive_count[trav, b], alive[opp][b], alive_count[opp, b], w,
                                hero_subsets[trav], villain_subsets[trav], signs, full_sign, match[trav], ids[trav],
                                payoff, out)
                else:
                    pot_end = pot + contributed[k, 0] + contributed[k, 1]
                    _showdown_value(sd_row[b], trav, hilo, n_t, alive_count[trav, b], alive_count[opp, b], sd_high,
                                    sd_low, sd_order_high, sd_order_low, w, hero_subsets[trav], villain_subsets[trav],
                                    signs, full_sign, match[trav], ids[trav], pot_end, 1.0 * contributed[k, trav], out)
                for h in range(n_t):
                    cfv[k, h] = out[h]
            elif kk == CHANCE:
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
                sigma = np.empty(count)
                for h in range(n_t):
                    if mode == BEST:
                        best = cfv[c0, h]
                        for a in range(1, count):
                            best = max(best, cfv[c0 + a, h])
                        cfv[k, h] = best
                        continue
                    if mode == CFR:
                        _strategy(rows_t, s0, count, h, sigma)
                    else:
                        _strategy(sums_t, s0, count, h, sigma)
                    value = 0.0
                    for a in range(count):
                        value += sigma[a] * cfv[c0 + a, h]
                    cfv[k, h] = value
                    if mode == CFR:
                        for a in range(count):
                            r = rows_t[s0 + a, h]
                            r *= alpha if r > 0.0 else beta
                            rows_t[s0 + a, h] = r + (cfv[c0 + a, h] - value)
