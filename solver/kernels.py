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
from evaluator.range_showdown_kernels import add_hand, disjoint_weight, sweep

CFR, BEST, AVERAGE = 0, 1, 2
DECISION, CHANCE, FOLD, SHOWDOWN = 0, 1, 2, 3


@njit(inline="always")
def _strategies(rows, slot, count, n, out):
    """``out[a, h]``: regret matching on ``rows[slot + a, h]`` (or the average strategy, from its
    sums) of every hand ``h < n``; actions outer, hands inner, so the loops run along rows, in the
    rows' type. A division, not a product by the inverse: one positive regret plays exactly 1."""
    zero = rows.dtype.type(0.0)
    total = np.zeros(n, rows.dtype)
    for a in range(count):
        row = rows[slot + a]
        for h in range(n):
            total[h] += max(row[h], zero)
    uniform = rows.dtype.type(1.0 / count)
    for a in range(count):
        row = rows[slot + a]
        o = out[a]
        for h in range(n):
            o[h] = max(row[h], zero) / total[h] if total[h] > zero else uniform


@njit
def _terminals(
    nodes,
    trav,
    pot,
    hilo,
    kind,
    player,
    board,
    contributed,
    n_t,
    n_o,
    alive,
    alive_count,
    sd_row,
    sd_high,
    sd_low,
    sd_order_high,
    sd_order_low,
    hero_subsets,
    villain_subsets,
    match,
    ids,
    signs,
    full_sign,
    reach,
    cfv,
):
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
            add_hand(live_o[q], weights, villain_subsets, tallies)
        for q in range(m_t):
            h = live_t[q]
            disjoint_weight(h, hero_subsets, signs, full_sign, match[h], weights, tallies, 0, count, every)
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
    sweep(
        order_t,
        m_t,
        sd_high[trav][row],
        order_o,
        m_o,
        sd_high[opp][row],
        weights,
        hero_subsets,
        villain_subsets,
        signs,
        full_sign,
        match,
        tallies,
        offsets,
        count,
        below,
        upto,
        every,
    )
    if hilo:
        order_low_t = sd_order_low[trav][row]
        for q in range(m_t):  # the low sweep counts for the hands with a low only
            h = order_low_t[q]
            offsets[h] = 0 if low_t[h] > 0 else -1
        below_l = np.empty((n_t, count), signs.dtype)
        upto_l = np.empty((n_t, count), signs.dtype)
        sweep(
            order_low_t,
            m_t,
            low_t,
            sd_order_low[opp][row],
            m_o,
            low_o,
            weights[:, :count],
            hero_subsets,
            villain_subsets,
            signs,
            full_sign,
            match,
            tallies,
            offsets,
            count,
            below_l,
            upto_l,
            np.zeros((0, 0), signs.dtype),
        )
    for q in range(m_t):
        h = live_t[q]
        if hilo and low_t[h] > 0:  # half the high's share and half the low's
            for c in range(count):
                value[c] = (
                    gain[c] * 0.25 * (below[h, c] + upto[h, c] + below_l[h, c] + upto_l[h, c]) - paid[c] * every[h, c]
                )
        else:
            for c in range(count):
                value[c] = gain[c] * 0.5 * (below[h, c] + upto[h, c]) - paid[c] * every[h, c]
        for c in range(count):
            cfv[nodes[c], h] = value[c]


@njit(parallel=True, cache=True)
def tree_pass(
    mode,
    trav,
    pot,
    hilo,
    kind,
    player,
    board,
    contributed,
    first_child,
    children,
    level_start,
    deals_start,
    deal_child,
    deal_map,
    chance_weight,
    slot,
    n_hands,
    weights,
    alive,
    alive_count,
    sd_row,
    sd_high,
    sd_low,
    sd_order_high,
    sd_order_low,
    hero_subsets,
    villain_subsets,
    match,
    ids,
    signs,
    full_sign,
    perms,
    group_start,
    group_nodes,
    regret,
    strat,
    alpha,
    beta,
    gamma,
    reach,
    cfv,
):
    """One pass of ``mode`` for player ``trav`` (see the module); fills ``reach`` (the opponent's,
    per node) and ``cfv`` (the traverser's counterfactual values, per node)."""
    # The regret discounts in the arrays' type (float32: a float64 factor widens the rows' math);
    # the average's discount stays float64, one rounding a step (8,000 iterations of float32 sums
    # stopped short of the LP's value).
    positive, negative = reach.dtype.type(alpha), reach.dtype.type(beta)
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
                    sigma = np.empty((count, n_o), reach.dtype)
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
        _terminals(
            group_nodes[group_start[g] : group_start[g + 1]],
            trav,
            pot,
            hilo,
            kind,
            player,
            board,
            contributed,
            n_t,
            n_o,
            alive,
            alive_count,
            sd_row,
            sd_high,
            sd_low,
            sd_order_high,
            sd_order_low,
            hero_subsets[trav],
            villain_subsets[trav],
            match[trav],
            ids[trav],
            signs,
            full_sign,
            reach,
            cfv,
        )
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
                sigma = np.empty((count, n_t), reach.dtype)
                _strategies(rows_t if mode == CFR else sums_t, s0, count, n_t, sigma)
                value = np.zeros(n_t, reach.dtype)
                for a in range(count):
                    for h in range(n_t):
                        value[h] += sigma[a, h] * cfv[c0 + a, h]
                for h in range(n_t):
                    cfv[k, h] = value[h]
                if mode == CFR:
                    for a in range(count):
                        for h in range(n_t):
                            r = rows_t[s0 + a, h]
                            r *= positive if r > 0.0 else negative
                            rows_t[s0 + a, h] = r + (cfv[c0 + a, h] - value[h])
