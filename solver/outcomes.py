"""How a solved spot plays out when both players follow their average strategies.

Every node gets the probability that play reaches it: over every card-disjoint pair of hands
(weights included), the product of the two players' reaches, times the chance of the cards
dealt on the way (a deal that stands for several suit-equal deals counts once for each), over
the weight of all pairs. The probabilities of the terminals sum to 1. From them: how often
each street is dealt, opened with a bet, raised, called, folded and checked through; how often
the spot reaches a showdown, the pot and the stacks there, the pot entering the river; and the
high chop rate at showdown, exactly (pairs of equal high strength, by the solver's sweep), beside
the chop rate of the same ranges if every pair showed down (no folds).

>>> from solver.tree import Node, Tree
>>> from solver.dcfr import Problem, solve
>>> import numpy as np
>>> fold = Node(FOLD, player=1, contributed=(1, 0))
>>> root = Node(DECISION, player=0, children=[("check", Node(SHOWDOWN)), ("bet 1", Node(
...     DECISION, player=1, contributed=(1, 0), children=[("fold", fold), ("call", Node(SHOWDOWN, contributed=(1, 1)))]))])
>>> tree = Tree.of(root, pot=2, boards=[()])
>>> hands = [np.array([[0], [1], [2]]), np.array([[0], [1], [2]])]
>>> strengths = lambda boards: [(np.array([[0, 1, 1]]), None)] * 2  # cards 1 and 2 tie
>>> problem = Problem(tree, hands, [np.ones(3), np.ones(3)], strengths, deck=3)
>>> state, _ = solve(problem, iterations=200)
>>> play = outcomes(problem, state)
>>> round(play["showdown"] + play["fold"], 6)  # every line ends in a fold or a showdown
1.0
>>> play["hi_chop_no_folds"]  # of the 6 ordered pairs of distinct cards, 2 tie
0.3333333333333333
"""

from __future__ import annotations

import numpy as np
from numba import prange

from evaluator.jit import njit
from evaluator.range_showdown_kernels import add_hand, disjoint_weight, sweep
from solver.kernels import AVERAGE
from solver.tree import CHANCE, DECISION, FOLD, SHOWDOWN

STREETS = {3: "flop", 4: "turn", 5: "river"}
ACTIONS = ("bet", "raise", "call", "fold", "checked_through")
RESPONSES = ("call", "raise", "fold")
PLAYERS = ("oop", "ip")


@njit(parallel=True, cache=True)
def _pair_masses(r0, r1, n0, n1, hero_subsets, villain_subsets, signs, full_sign, match, ids, out):
    """``out[k]``: the sum of ``r0[k, i] * r1[k, j]`` over the pairs of hands sharing no card."""
    for k in prange(r0.shape[0]):
        tallies = np.zeros(
            (ids + 1, 1)
        )  # the last row: a subset the other range never holds (range_showdown_kernels.disjoint_weight)
        weights = r1[k : k + 1, :n1].T
        for v in range(n1):
            if weights[v, 0] != 0.0:
                add_hand(v, weights, villain_subsets, tallies)
        disjoint = np.zeros((n0, 1))
        total = 0.0
        for h in range(n0):
            if r0[k, h] != 0.0:
                disjoint_weight(h, hero_subsets, signs, full_sign, match[h], weights, tallies, 0, 1, disjoint)
                total += r0[k, h] * disjoint[h, 0]
        out[k] = total


def reaches(problem, state) -> tuple[np.ndarray, np.ndarray]:
    """Each player's own reach at every node (``float64[nodes, n]``): its weight times its
    average strategy's actions on the way, zero for a hand a dealt card meets."""
    own = []
    for p in range(2):
        state.run(AVERAGE, 1 - p)  # the pass carries the traverser's opponent's reach: p's
        own.append(state.reach[:, : problem.n_hands[p]].astype(np.float64))
    return own[0], own[1]


def pair_mass(problem, only=None) -> float:
    """The weight of the card-disjoint pairs of the two ranges (``problem.pairs``), or of those
    in which each player holds a hand ``only[p]`` keeps (``float[n]``, 1 kept, 0 not)."""
    if only is None:
        return problem.pairs
    w0, w1 = (problem.weights[p] * np.asarray(only[p], np.float64) for p in range(2))
    return float(w0 @ problem.opponent_reach_total(0, w1))


def node_probabilities(problem, state, only=None) -> tuple[np.ndarray, tuple[np.ndarray, np.ndarray], np.ndarray]:
    """The probability of reaching each node, the two reaches (``reaches``) and each node's
    chance factor (the probability, for a pair no dealt card meets, of the cards dealt on the
    way to it, counting suit-equal deals). With ``only`` (``pair_mass``): given that each
    player holds one of the hands kept, the reaches of the others zero."""
    tree = problem.tree
    r0, r1 = reaches(problem, state)
    if only is not None:
        r0, r1 = r0 * np.asarray(only[0], np.float64), r1 * np.asarray(only[1], np.float64)
    deals = (
        np.bincount(tree.deal_child, minlength=tree.nodes) if len(tree.deal_child) else np.zeros(tree.nodes, np.int64)
    )
    factor = np.ones(tree.nodes)
    for k in range(tree.nodes):  # breadth first: a parent's factor is known before its children's
        first, count = int(tree.first_child[k]), int(tree.children[k])
        step = problem.chance_weight[k] * deals[first : first + count] if tree.kind[k] == CHANCE else 1.0
        factor[first : first + count] = factor[k] * step
    masses = np.zeros(tree.nodes)
    _pair_masses(
        r0,
        r1,
        problem.n_hands[0],
        problem.n_hands[1],
        problem.hero_subsets[0],
        problem.villain_subsets[0],
        problem.signs,
        problem.full_sign,
        problem.match[0],
        int(problem.ids[0]),
        masses,
    )
    return masses * factor / pair_mass(problem, only), (r0, r1), factor


def tie_mass(problem, board: int, r0: np.ndarray, r1: np.ndarray) -> float:
    """The sum of ``r0[i] * r1[j]`` over the card-disjoint pairs alive on ``board`` whose high
    strengths are equal (the solver's sweep, one channel)."""
    row = int(problem.sd_row[board])
    m0, m1 = int(problem.alive_count[0, board]), int(problem.alive_count[1, board])
    n0 = int(problem.n_hands[0])
    weights = np.ascontiguousarray(r1, np.float64).reshape(-1, 1)
    below, upto = np.zeros((n0, 1)), np.zeros((n0, 1))
    offsets = np.full(n0, -1, np.int64)
    offsets[problem.alive[0][board, :m0]] = 0
    tallies = np.zeros((int(problem.ids[0]) + 1, 1))  # the last row stays 0 (range_showdown_kernels.disjoint_weight)
    sweep(
        problem.sd_order_high[0][row],
        m0,
        problem.sd_high[0][row],
        problem.sd_order_high[1][row],
        m1,
        problem.sd_high[1][row],
        weights,
        problem.hero_subsets[0],
        problem.villain_subsets[0],
        problem.signs,
        problem.full_sign,
        problem.match[0],
        tallies,
        offsets,
        1,
        below,
        upto,
        np.zeros((n0, 0)),
    )
    return float(r0 @ (upto[:, 0] - below[:, 0]))


def outcomes(problem, state, only=None) -> dict[str, float]:
    """The spot's play under the average strategies, each a probability of the whole spot
    unless named otherwise: per street of the tree (``turn_bet``, ``turn_raise``, ``turn_call``,
    ``turn_fold``, ``turn_checked_through``; ``river_dealt`` for a street after the first;
    ``turn_ip_call_vs_bet``, ``turn_ip_raise_vs_bet``, ``turn_ip_fold_vs_bet`` and the same for
    ``oop``: how the player answers the street's first bet, given it faces one, NaN if never),
    ``showdown``, ``pot_showdown`` and ``paid_showdown`` (chips, given a showdown: the pot, and
    what each player put in during the spot), ``pot_river`` (chips as
    the river is dealt, given it is; spots before the river), ``hi_chop`` (given a showdown)
    and ``hi_chop_no_folds`` (every pair of the two ranges showing down on the board, or on
    the turn on every river; NaN on the flop); ``fold`` (someone folds). With ``only``
    (``pair_mass``), the same figures given that each player holds one of the hands kept (the
    strategies still those of the whole ranges); every figure NaN when no such pair exists."""
    tree = problem.tree
    pairs = pair_mass(problem, only)
    if pairs <= 0:
        return {key: float("nan") for key in outcomes(problem, state)}
    prob, (r0, r1), factor = node_probabilities(problem, state, only)
    size = np.array([len(b) for b in tree.boards])[tree.board]
    pots = tree.pot + tree.contributed.sum(axis=1)
    first_street = int(size[0])
    out: dict[str, float] = {}
    for length in range(first_street, 6) if first_street in STREETS else [first_street]:
        name = _street(length)
        if length > first_street:
            out[f"{name}_dealt"] = float(prob[(tree.kind == CHANCE) & (size == length - 1)].sum())
        for action in ACTIONS:
            out[f"{name}_{action}"] = 0.0
    facing: dict[str, float] = {}
    for k in np.nonzero(tree.kind == DECISION)[0]:
        p = int(tree.player[k])
        unopened = tree.contributed[k, 1 - p] == tree.contributed[k, p]
        name = _street(int(size[k]))
        parent = int(tree.parent[k])
        first_bet = (
            parent >= 0
            and tree.kind[parent] == DECISION
            and size[parent] == size[k]
            and tree.contributed[parent, 0] == tree.contributed[parent, 1]
            and tree.labels[k].split()[0] in ("bet", "allin")
        )
        who = f"{name}_{PLAYERS[p]}"
        if first_bet:
            facing[who] = facing.get(who, 0.0) + prob[k]
        first = int(tree.first_child[k])
        for a, label in enumerate(tree.actions(k)):
            child = first + a
            verb = label.split()[0]
            if verb == "check":
                if tree.kind[child] in (CHANCE, SHOWDOWN):
                    out[f"{name}_checked_through"] += prob[child]
                continue
            if verb == "allin":
                verb = "bet" if unopened else "raise"
            out[f"{name}_{verb}"] += prob[child]
            if first_bet:
                out[f"{who}_{verb}_vs_bet"] = out.get(f"{who}_{verb}_vs_bet", 0.0) + prob[child]
    for length in range(first_street, 6) if first_street in STREETS else [first_street]:
        for player in PLAYERS:
            who = f"{_street(length)}_{player}"
            for verb in RESPONSES:
                key = f"{who}_{verb}_vs_bet"
                out[key] = out.get(key, 0.0) / facing[who] if facing.get(who) else float("nan")
    showdowns = np.nonzero(tree.kind == SHOWDOWN)[0]
    reach_showdown = float(prob[showdowns].sum())
    out["showdown"] = reach_showdown
    out["fold"] = float(prob[tree.kind == FOLD].sum())
    out["pot_showdown"] = float(prob[showdowns] @ pots[showdowns]) / reach_showdown if reach_showdown else float("nan")
    out["paid_showdown"] = (
        float(prob[showdowns] @ (tree.contributed[showdowns, 0])) / reach_showdown if reach_showdown else float("nan")
    )
    if first_street < 5:
        rivers = np.nonzero((tree.kind == CHANCE) & (size == 4))[0]
        dealt = float(prob[rivers].sum())
        out["pot_river"] = float(prob[rivers] @ pots[rivers]) / dealt if dealt else float("nan")
    ties = sum(tie_mass(problem, int(tree.board[k]), r0[k], r1[k]) * factor[k] for k in showdowns) / pairs
    out["hi_chop"] = ties / reach_showdown if reach_showdown else float("nan")
    out["hi_chop_no_folds"] = _chop_no_folds(problem, only)
    return out


def _street(length: int) -> str:
    """A board's street by its cards (a board that is no poker board, as in a toy game: river)."""
    return STREETS.get(length, "river")


def _chop_no_folds(problem, only=None) -> float:
    """The high chop rate of the two ranges if every pair showed down, on the spot's board or,
    on the turn, averaged over the rivers as often as each is dealt (NaN on the flop)."""
    tree = problem.tree
    boards = sorted(set(tree.board[tree.kind == SHOWDOWN].tolist()))
    if not boards or len(tree.boards[boards[0]]) > len(tree.boards[0]) + 1:
        return float("nan")
    if len(tree.boards[boards[0]]) == len(tree.boards[0]):
        weights = {boards[0]: 1.0}
    else:  # the first chance node's deals: every river once, suit-equal ones through their canonical board
        k = int(np.nonzero(tree.kind == CHANCE)[0][0])
        weights = {}
        for d in range(tree.deals_start[k], tree.deals_start[k + 1]):
            b = int(tree.board[tree.deal_child[d]])
            weights[b] = weights.get(b, 0.0) + problem.chance_weight[k]
    ties = 0.0
    for b, weight in weights.items():
        alive = [np.zeros(problem.n_hands[p]) for p in range(2)]
        for p in range(2):
            live = problem.alive[p][b, : problem.alive_count[p, b]]
            alive[p][live] = problem.weights[p][live] * (1.0 if only is None else np.asarray(only[p])[live])
        ties += weight * tie_mass(problem, b, alive[0], alive[1])
    return ties / pair_mass(problem, only)
