"""The engine's policies in a solved spot: the strategy each plays there, and how exploitable it is.

A ``thresholds`` policy decides after the flop on its hand's **strength**, the pot share it
expects against one hand drawn from every hand the cards left allow and the rest of the board
(``engine.strength``), by the rule ``engine.player.postflop_choice``: bet or raise above
``bet``, else check, or call at the pot odds times ``call_factor``, else fold; its bets and
raises are ``bet_size`` of the pot. Here, on every decision of a solved spot's tree and for every
hand, the strength is exact (every opponent hand, every card to come: ``range_showdown``
against the range of all hands) where the engine samples it (64 samples by default), and the
size is the tree's size nearest the policy's (the smaller on a tie), or a call where the tree
allows no bet: the policy as it would play with an exact strength, on the spot's sizes.
``check-call`` checks and calls everything. Position plays no part after the flop, and the
policies that read ranges from preflop actions (``ranges = true``) have no preflop here: they
play against any hand, like the others. ``random-legal`` is the tests' driver, not a player.

The **exploitability** of a policy is the solver's measure for the strategy pair in which the
policy plays both seats: (BR_0 + BR_1 - P) / 2 in % of the starting pot ``P``, where BR_p is what
the best response of player p earns against the policy in the other seat. The solver's own
strategies reach a fraction of a percent; a policy's figure is how far its play is from
equilibrium in the spot's chips.

>>> from engine.betting import POT_LIMIT
>>> from engine.policy import builtin
>>> from evaluator.cards import parse_cards
>>> from evaluator.games import game
>>> from evaluator.ranges import parse_range
>>> from solver.betting import Spot, build_tree, parse_sizes
>>> from solver.poker import poker_problem
>>> g = game("pls7")
>>> spot = Spot(tuple(parse_cards("Ks 7d 2c 9h 4s")), 100, 100, parse_sizes("pot"), parse_sizes(""), 0, POT_LIMIT)
>>> problem = poker_problem(g, spot, (parse_range("AsKhKd,7c7h2h", g), parse_range("QsJsTs,9c9s4c", g)))
>>> figures = exploitabilities(g, problem, [builtin("showdown"), builtin("tight")])
>>> sorted(figures) == ["showdown", "tight"] and all(value > 0 for value in figures.values())
True
"""

from __future__ import annotations

import itertools

import numpy as np

from engine.player import BET_RAISE, CHECK_CALL, postflop_choice
from engine.policy import Policy
from evaluator.errors import SampyongError
from evaluator.games import Game
from evaluator.isomorphism import card_masks
from solver.dcfr import Problem, State
from solver.tree import CHANCE, Tree


def any_hand_strengths(g: Game, hands: np.ndarray, board: tuple[int, ...]) -> np.ndarray:
    """``float64[n]``: each hand's expected pot share (hi-lo halves, ties shared) against one
    hand drawn uniformly from every hand sharing no card with it or the board, the rest of the
    board dealt from the cards left, exactly; NaN for a hand that meets the board."""
    from evaluator import range_showdown

    hands = np.asarray(hands, np.uint8).reshape(len(hands), g.hole_cards)
    out = np.full(len(hands), np.nan)
    alive = (card_masks(hands) & sum(1 << c for c in board)) == 0
    if not alive.any():
        return out
    deck = [c for c in range(52) if c not in board]
    every = np.array(list(itertools.combinations(deck, g.hole_cards)), np.uint8)
    spot = range_showdown.spot(
        g, [hands[alive], every], [np.ones(int(alive.sum())), np.ones(len(every))], list(board), []
    )
    result = range_showdown.showdown(g, spot, threads=1, fold=False)
    assert result.per_hand is not None  # heads-up, every board evaluated: each hand's own sums
    sums = result.per_hand[0]
    share, weight = range_showdown.COLUMNS.index("share"), range_showdown.COLUMNS.index("weight")
    out[alive] = sums[:, share] / (sums[:, weight] * result.unit)
    return out


def strengths(g: Game, problem: Problem) -> dict[int, tuple[np.ndarray, np.ndarray]]:
    """Per board of the tree with a decision on it: each player's ``any_hand_strengths``."""
    tree = problem.tree
    union = np.concatenate(problem.hands)
    masks = card_masks(union)
    _, first, inverse = np.unique(masks, return_index=True, return_inverse=True)
    at = np.split(inverse, [len(problem.hands[0])])
    out = {}
    for b in sorted(set(tree.board[tree.kind == 0].tolist())):
        values = any_hand_strengths(g, union[first], tree.boards[b])
        out[b] = (values[at[0]], values[at[1]])
    return out


def street_bases(tree: Tree) -> np.ndarray:
    """``int64[nodes, 2]``: what each player had put in when the node's street began."""
    base = tree.contributed.copy()
    for k in range(1, tree.nodes):  # parents come first
        parent = tree.parent[k]
        if tree.kind[parent] != CHANCE:
            base[k] = base[parent]
    return base


def policy_strategies(problem: Problem, policy: Policy, by_board: dict) -> tuple[np.ndarray, np.ndarray]:
    """Per player ``float32[rows, n]`` (rows by ``problem.slot``, as the solver's strategies):
    the action ``policy`` takes with each hand at each of the player's decisions, one-hot;
    ``by_board``: ``strengths(g, problem)``."""
    if policy.style == "random-legal":
        raise SampyongError(f"policy {policy.name} is random-legal, the tests' driver: it has no play to measure")
    tree = problem.tree
    base = street_bases(tree)
    oop, ip = (np.zeros((max(1, problem.rows[p]), problem.n_hands[p]), np.float32) for p in range(2))
    out = (oop, ip)
    post = policy.postflop
    for k in np.nonzero(tree.kind == 0)[0].tolist():
        p = int(tree.player[k])
        paid = tree.contributed[k]
        call = int(paid[1 - p] - paid[p])
        pot = tree.pot + int(paid.sum())
        labels = tree.actions(k)
        sizes = [
            (a, int(label.split()[1]))
            for a, label in enumerate(labels)
            if label.split()[0] in ("bet", "raise", "allin")
        ]
        passive = labels.index("call" if call else "check")
        if policy.style == "check-call":
            chosen = np.full(problem.n_hands[p], passive)
        else:
            choice = postflop_choice(post, by_board[int(tree.board[k])][p], call > 0, call, pot, bool(sizes))
            chosen = np.where(choice == CHECK_CALL, passive, labels.index("fold") if call else passive)
            if sizes:
                target = int(paid[1 - p] - base[k][1 - p]) + round(post.bet_size * (pot + call))
                nearest = min(sizes, key=lambda size: (abs(size[1] - target), size[1]))[0]
                chosen = np.where(choice == BET_RAISE, nearest, chosen)
        out[p][problem.slot[k] + chosen, np.arange(problem.n_hands[p])] = 1.0
    return out


def exploitability(problem: Problem, strategies) -> float:
    """(BR_0 + BR_1 - P) / 2 in % of the starting pot, for per-player strategies (``float[rows,
    n]``, each decision's rows summing to 1 for every hand)."""
    state = State(problem)
    for p in range(2):
        state.strat[p][...] = strategies[p]
    return state.exploitability()


def exploitabilities(g: Game, problem: Problem, policies: list[Policy]) -> dict[str, float]:
    """Each policy's ``exploitability`` when it plays both seats of ``problem`` in ``g``, by name."""
    by_board = strengths(g, problem)
    return {policy.name: exploitability(problem, policy_strategies(problem, policy, by_board)) for policy in policies}
