"""The solver's game values against an independent oracle: a sequence-form linear program.

The LP is built from its own model of the game. Of ``solution.tree`` it reads the betting
structure only (who acts, the actions, the chips put in, folds, showdowns, chance nodes); it
deals every unseen card itself (each equally likely given both hands, no suit folding), and
referees every showdown itself: pokerkit's ``StandardHighHand`` in hold'em, the rule book's
``evaluator.reference.showdown`` in PLS7, the pot split high/low by hand here. Information
sets are (node, board, hand); oop maximises ``x^T A y`` over realization plans ``E x = e``
against ``F y = f``, the inner minimum taken by its dual, and HiGHS solves the result.

Checked, on a hold'em river, two hold'em turns (a board that no suit permutation fixes, and
suit-symmetric ranges whose deals the solver folds) and a PLS7 river (hi-lo, split pots):

- the LP's payoff matrix prices the solver's own average strategies at ``solution.ev("oop")``
  within 1e-6 of the pot, after one iteration and after the solve (a folded deal's hands read
  through its suit map): the matrix and the solver's evaluation agree, whatever the convergence;
- after a solve to an exploitability below 3e-4 % of the pot, the LP value lies between
  ``pot - BR_ip`` and ``BR_oop`` and equals ``ev("oop")`` within 1e-4 of the pot;
- after one iteration, the LP value still lies between those bounds, which are far apart there.
"""

from __future__ import annotations

import functools
import itertools
from collections import defaultdict

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.optimize import linprog

from evaluator.cards import format_card, format_cards, parse_cards
from evaluator.games import game
from evaluator.reference import showdown
from sampyong.solutions import solve
from solver.kernels import BEST
from solver.tree import CHANCE, DECISION, FOLD, SHOWDOWN

SPOTS = {  # name: solve arguments, iterations of the converged solve
    "holdem river": (
        dict(
            game="holdem",
            board="Qs Jh 2h 8d 3c",
            oop="AA,QQ,72o,Td9c,Th9s",
            ip="KK,JJ,T9s,AKs@50",
            bets="75%",
            raises="100%",
        ),
        8000,
    ),
    "holdem turn": (
        dict(
            game="holdem",
            board="Qs Jh 2h 8d",
            oop="AA,QQ,7h2s,6h5h",
            ip="KK,JJ,8c8s,Tc9d,4h3h@50",
            bets="75%",
            raises="100%",
        ),
        8000,
    ),
    "holdem turn folded": (
        dict(
            game="holdem",
            board="Qs Js 8s 2h",
            oop="AA,QQ,Td9d,Tc9c,5h4h",
            ip="KK,JJ,AsKs,7h6h",
            bets="75%",
            raises="100%",
        ),
        8000,
    ),
    "pls7 river": (
        dict(
            game="pls7",
            board="Ks 7d 2c 9h 4s",
            oop="AsKhQd,KhKd2h,7c7h8s,As2h3h,A3h6",
            ip="Ad2d3s,9c9s6d,QsJsTs,Kc8h8d,A3c6",
            bets="75%",
            raises="pot",
        ),
        3000,
    ),
}
COMMON = dict(pot=100, stack=100, max_raises=1, target=None)


@functools.cache
def high_hand(hole: tuple[int, ...], board: tuple[int, ...]):
    from pokerkit import StandardHighHand

    return StandardHighHand.from_game(format_cards(hole).replace(" ", ""), format_cards(board).replace(" ", ""))


def holdem_share(hole0, hole1, board) -> float:
    a, b = high_hand(hole0, board), high_hand(hole1, board)
    return 1.0 if a > b else 0.5 if a == b else 0.0


@functools.cache
def pls7_hand(hole, board):
    return showdown(game("pls7"), hole, board)


def pls7_share(hole0, hole1, board) -> float:
    """Oop's share: half to the best high, half to the best qualifying low (the high takes all
    when neither has a low), ties split."""
    a, b = pls7_hand(hole0, board), pls7_hand(hole1, board)
    high = 1.0 if a.high.strength > b.high.strength else 0.5 if a.high.strength == b.high.strength else 0.0
    if a.low is None and b.low is None:
        return high
    low = (
        1.0
        if b.low is None
        else 0.0
        if a.low is None
        else (1.0 if a.low.ranks < b.low.ranks else 0.5 if a.low.ranks == b.low.ranks else 0.0)
    )
    return 0.5 * high + 0.5 * low


SHARES = {"holdem": holdem_share, "pls7": pls7_share}


class SequenceForm:
    """The sequence form of ``solution``'s spot: realization-plan constraints per player and
    oop's payoff matrix (chips, normalised by the weight of every card-disjoint pair)."""

    def __init__(self, solution, share):
        t, problem = solution.tree, solution.problem
        self.tree, self.problem = t, problem
        self.kind, self.player = t.kind.tolist(), t.player.tolist()
        self.first, self.count, self.contributed = t.first_child.tolist(), t.children.tolist(), t.contributed.tolist()
        self.hands = [[tuple(h) for h in problem.hands[p].tolist()] for p in range(2)]
        self.share, self.pot = share, t.pot
        self.sequences = [1, 1]  # sequence 0 of each player: the empty one
        self.infosets = [{}, {}]  # (node, board, hand) -> (parent sequence, first action's sequence, node, map)
        self.payoff = defaultdict(float)
        board = tuple(parse_cards(solution.settings.board))
        assert set(board) == set(t.boards[0])
        w0, w1 = problem.weights
        pairs = 0.0
        for i, j in itertools.product(range(len(self.hands[0])), range(len(self.hands[1]))):
            if set(self.hands[0][i]) & set(self.hands[1][j]):
                continue
            pairs += w0[i] * w1[j]
            self.walk(0, board, (i, j), (0, 0), w0[i] * w1[j], 0)
        rows, cols = zip(*self.payoff)
        self.A = sp.csr_matrix(
            (np.array(list(self.payoff.values())) / pairs, (rows, cols)), shape=tuple(self.sequences)
        )
        self.E, self.F = (self.constraints(p) for p in range(2))

    def child(self, k: int, card: int) -> tuple[int, int]:
        """The child of chance node ``k`` whose betting follows ``card``: its own child when the
        tree deals it alone, else the child of the deal it was folded into (the same betting);
        and the suit map of that deal (kept only to read the solver's strategies in ``plan``)."""
        t, label = self.tree, format_card(card)
        own = [c for c in range(self.first[k], self.first[k] + self.count[k]) if t.labels[c] == label]
        if own:
            return own[0], 0
        (d,) = [d for d in range(t.deals_start[k], t.deals_start[k + 1]) if t.deal_labels[d] == label]
        return int(t.deal_child[d]), int(t.deal_map[d])

    def walk(self, k, board, hands, seq, prob, folded):
        kind = self.kind[k]
        if kind == DECISION:
            p = self.player[k]
            key = (k, board, hands[p])
            if key not in self.infosets[p]:
                self.infosets[p][key] = (seq[p], self.sequences[p], k, folded)
                self.sequences[p] += self.count[k]
            parent, start, _, _ = self.infosets[p][key]
            assert parent == seq[p]  # perfect recall
            for a in range(self.count[k]):
                self.walk(
                    self.first[k] + a,
                    board,
                    hands,
                    (start + a, seq[1]) if p == 0 else (seq[0], start + a),
                    prob,
                    folded,
                )
        elif kind == CHANCE:
            dead = set(board) | set(self.hands[0][hands[0]]) | set(self.hands[1][hands[1]])
            unseen = [c for c in range(52) if c not in dead]
            for card in unseen:
                child, suits = self.child(k, card)
                assert self.contributed[child] == self.contributed[k] and not (folded and suits)
                self.walk(child, board + (card,), hands, seq, prob / len(unseen), suits or folded)
        else:
            c0, c1 = self.contributed[k]
            if kind == FOLD:
                share = 1.0 if self.player[k] == 1 else 0.0
            else:
                assert kind == SHOWDOWN and len(board) == 5
                share = self.share(self.hands[0][hands[0]], self.hands[1][hands[1]], board)
            self.payoff[seq] += prob * (share * (self.pot + c0 + c1) - c0)

    def constraints(self, p: int):
        """``E x = e``: the empty sequence is 1, each infoset's actions sum to its parent sequence."""
        rows, cols, vals = [0], [0], [1.0]
        for r, (parent, start, k, _) in enumerate(self.infosets[p].values(), start=1):
            rows += [r] * (self.count[k] + 1)
            cols += list(range(start, start + self.count[k])) + [parent]
            vals += [1.0] * self.count[k] + [-1.0]
        return sp.csr_matrix((vals, (rows, cols)), shape=(len(self.infosets[p]) + 1, self.sequences[p]))

    def value(self) -> float:
        """max_x min_y x^T A y: max f^T q over x >= 0 with E x = e and F^T q <= A^T x."""
        n_x, n_q = self.E.shape[1], self.F.shape[0]
        cost = np.zeros(n_x + n_q)
        cost[n_x] = -1.0  # f = (1, 0, ...): maximise q_0
        result = linprog(
            cost,
            A_ub=sp.hstack([-self.A.T, self.F.T]).tocsr(),
            b_ub=np.zeros(self.F.shape[1]),
            A_eq=sp.hstack([self.E, sp.csr_matrix((self.E.shape[0], n_q))]).tocsr(),
            b_eq=np.eye(1, self.E.shape[0]).ravel(),
            bounds=[(0, None)] * n_x + [(None, None)] * n_q,
            method="highs",
        )
        assert result.status == 0, result.message
        return -result.fun

    def plan(self, p: int, strategy: np.ndarray) -> np.ndarray:
        """The realization plan of the solver's ``strategy`` (``State.average_strategy``, rows by
        slot): under a folded deal, hand h plays what the hand mapping onto it plays in the tree."""
        inverse = [np.argsort(perm) for perm in self.problem.perms[p]]
        x = np.zeros(self.sequences[p])
        x[0] = 1.0
        for (k, _, h), (parent, start, _, suits) in self.infosets[p].items():  # parents come first
            slot = self.problem.slot[k]
            x[start : start + self.count[k]] = x[parent] * strategy[slot : slot + self.count[k], inverse[suits][h]]
        return x


@functools.cache
def oracle(name: str) -> tuple[SequenceForm, float]:
    kwargs, _ = SPOTS[name]
    form = SequenceForm(solve(**kwargs, **COMMON, iterations=1), SHARES[kwargs["game"]])
    return form, form.value()


def bounds(solution) -> tuple[float, float]:
    """(pot - BR_ip, BR_oop): every strategy pair's best responses bracket the game value."""
    return solution.tree.pot - solution.state.value(BEST, 1), solution.state.value(BEST, 0)


def check_prices(form: SequenceForm, solution) -> None:
    """The LP's payoff matrix prices the solver's average strategies at ``ev("oop")``."""
    assert form.tree.labels == solution.tree.labels and (form.tree.children == solution.tree.children).all()
    x, y = (form.plan(p, solution.state.average_strategy(p)) for p in range(2))
    assert x @ form.A @ y == pytest.approx(solution.ev("oop"), abs=1e-6 * solution.tree.pot)


@pytest.mark.untraced
@pytest.mark.parametrize("name", SPOTS)
def test_lp_value_equals_the_solved_value(name):
    kwargs, iterations = SPOTS[name]
    solution = solve(**kwargs, **COMMON, iterations=iterations)
    form, value = oracle(name)
    tree, pot = solution.tree, solution.tree.pot
    deals = tree.children[tree.kind == CHANCE]
    if name.endswith("folded"):  # suit-symmetric ranges: the solver deals one card per orbit
        assert len(tree.maps) > 1 and (deals < 52 - 4).all()
    else:  # every card its own deal
        assert len(tree.maps) == 1 and (deals == 52 - 4).all()
    check_prices(form, solution)
    assert solution.exploitability < 3e-4
    low, high = bounds(solution)
    assert low - 1e-6 * pot <= value <= high + 1e-6 * pot
    assert abs(value - solution.ev("oop")) < 1e-4 * pot


@pytest.mark.untraced
@pytest.mark.parametrize("name", SPOTS)
def test_lp_value_lies_between_unsolved_best_responses(name):
    kwargs, _ = SPOTS[name]
    solution = solve(**kwargs, **COMMON, iterations=1)
    form, value = oracle(name)
    check_prices(form, solution)
    low, high = bounds(solution)
    assert high - low > 0.01 * solution.tree.pot
    assert low < value < high
