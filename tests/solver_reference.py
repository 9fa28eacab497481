"""A slow, obviously correct evaluation of a solver tree: every pair of hands, every card dealt,
each showdown refereed by ``evaluator.reference`` (its best high and best low of the allowed
5-card hands) and the pot shared as RULES section 6 says, without odd chips.

``expected(...)`` is a player's expected payoff under given strategies; ``best_response(...)``
its best response's, found hand by hand against the other's strategy. The solver's kernels
(sorted sweeps, card removal by inclusion-exclusion, suit folding) are checked against them.
"""

from __future__ import annotations

import functools

import numpy as np

from evaluator.reference import showdown
from solver.tree import CHANCE, DECISION, FOLD


def shares(game, hole_a, hole_b, board) -> float:
    """Player a's share of the pot against b on a complete board."""
    a, b = showdown(game, hole_a, board), showdown(game, hole_b, board)
    high = 1.0 if a.high.strength > b.high.strength else 0.5 if a.high.strength == b.high.strength else 0.0
    if a.low is None and b.low is None:
        return high
    if a.low is None or b.low is None:
        low = 0.0 if a.low is None else 1.0
    else:
        low = 1.0 if a.low.ranks < b.low.ranks else 0.5 if a.low.ranks == b.low.ranks else 0.0
    return 0.5 * high + 0.5 * low


class Reference:
    """Walks ``tree`` for the hands of ``problem`` with strategies ``strategies[p][rows, n]``
    (rows by ``problem.slot``); chance nodes deal every unseen card, each found among the
    tree's deals by its label (only unfolded trees: one deal per card)."""

    def __init__(self, game, problem, strategies):
        self.game, self.problem, self.tree, self.strategies = game, problem, problem.tree, strategies
        self.hands = [tuple(map(tuple, h.tolist())) for h in problem.hands]
        self.share = functools.lru_cache(maxsize=None)(lambda a, b, board: shares(game, a, b, board))

    def child_for(self, node: int, card: int) -> int:
        from evaluator.cards import format_card

        t = self.tree
        for d in range(t.deals_start[node], t.deals_start[node + 1]):
            if t.deal_labels[d] == format_card(card):
                assert t.deal_map[d] == 0, "the reference walks unfolded trees only"
                return int(t.deal_child[d])
        raise AssertionError(f"no deal of card {card} at node {node}")

    def payoff(self, node: int, i: int, j: int, player: int) -> float:
        t = self.tree
        c = t.contributed[node]
        if t.kind[node] == FOLD:
            folder = t.player[node]
            return t.pot + c[folder] if folder != player else -float(c[player])
        board = t.boards[t.board[node]]
        a, b = (self.hands[0][i], self.hands[1][j])
        share0 = self.share(a, b, board)
        share = share0 if player == 0 else 1.0 - share0
        return share * (t.pot + c[0] + c[1]) - c[player]

    def unseen(self, node: int, i: int, j: int) -> list[int]:
        used = set(self.tree.boards[self.tree.board[node]]) | set(self.hands[0][i]) | set(self.hands[1][j])
        return [c for c in range(52) if c not in used]

    def value(self, node: int, i: int, j: int, player: int) -> float:
        t = self.tree
        kind = t.kind[node]
        if kind == DECISION:
            p = t.player[node]
            hand = i if p == 0 else j
            first, s0 = int(t.first_child[node]), int(self.problem.slot[node])
            return sum(
                self.strategies[p][s0 + a, hand] * self.value(first + a, i, j, player)
                for a in range(int(t.children[node]))
            )
        if kind == CHANCE:
            cards = self.unseen(node, i, j)
            return sum(self.value(self.child_for(node, c), i, j, player) for c in cards) / len(cards)
        return self.payoff(node, i, j, player)

    def pairs(self):
        w = self.problem.weights
        for i, a in enumerate(self.hands[0]):
            for j, b in enumerate(self.hands[1]):
                if not set(a) & set(b):
                    yield i, j, w[0][i] * w[1][j]

    def expected(self, player: int) -> float:
        total = norm = 0.0
        for i, j, weight in self.pairs():
            total += weight * self.value(0, i, j, player)
            norm += weight
        return total / norm

    def best_response(self, player: int) -> float:
        """The best response's expected payoff: per hand of ``player``, the best action at each
        of its decisions given the other's strategy and the cards."""
        other = 1 - player
        total = norm = 0.0
        for h in range(len(self.hands[player])):
            against = {}
            for i, j, weight in self.pairs():
                if (i if player == 0 else j) == h:
                    against[j if player == 0 else i] = weight
            if against:
                total += self._best(0, h, against, player, other)
                norm += sum(against.values())
        return total / norm

    def _best(self, node: int, h: int, against: dict[int, float], player: int, other: int) -> float:
        """Sum over the other's hands of reach times payoff, the player choosing per node."""
        t = self.tree
        kind = t.kind[node]
        pair = (lambda o: (h, o)) if player == 0 else (lambda o: (o, h))
        if kind == DECISION:
            first, s0, count = int(t.first_child[node]), int(self.problem.slot[node]), int(t.children[node])
            if t.player[node] == player:
                return max(self._best(first + a, h, against, player, other) for a in range(count))
            return sum(
                self._best(
                    first + a, h, {o: r * self.strategies[other][s0 + a, o] for o, r in against.items()}, player, other
                )
                for a in range(count)
            )
        if kind == CHANCE:
            out = 0.0
            # Deal card by card: the other's hands holding the card drop out of that deal.
            board = set(t.boards[t.board[node]])
            mine = set(self.hands[player][h])
            count = 52 - len(board) - len(mine) - len(next(iter(self.hands[other])))
            for c in range(52):
                if c in board or c in mine:
                    continue
                kept = {o: r for o, r in against.items() if c not in self.hands[other][o]}
                if kept:
                    out += self._best(self.child_for(node, c), h, kept, player, other) / count
            return out
        return sum(r * self.payoff(node, *pair(o), player) for o, r in against.items())

    def high_tie(self, node: int, i: int, j: int) -> bool:
        board = self.tree.boards[self.tree.board[node]]
        a, b = showdown(self.game, self.hands[0][i], board), showdown(self.game, self.hands[1][j], board)
        return a.high.strength == b.high.strength

    def probabilities(self) -> tuple[np.ndarray, np.ndarray]:
        """Per node, the probability that play reaches it (pair by pair, card by card) and, at
        showdowns, the probability of reaching it with the highs tied."""
        reached, tied = np.zeros(self.tree.nodes), np.zeros(self.tree.nodes)
        pairs = list(self.pairs())
        norm = sum(weight for _, _, weight in pairs)
        for i, j, weight in pairs:
            self._walk(0, i, j, weight / norm, reached, tied)
        return reached, tied

    def _walk(self, node: int, i: int, j: int, p: float, reached: np.ndarray, tied: np.ndarray) -> None:
        t = self.tree
        reached[node] += p
        if t.kind[node] == DECISION:
            player, first, s0 = t.player[node], int(t.first_child[node]), int(self.problem.slot[node])
            for a in range(int(t.children[node])):
                self._walk(first + a, i, j, p * self.strategies[player][s0 + a, i if player == 0 else j], reached, tied)
        elif t.kind[node] == CHANCE:
            cards = self.unseen(node, i, j)
            for c in cards:
                self._walk(self.child_for(node, c), i, j, p / len(cards), reached, tied)
        elif t.kind[node] != FOLD and self.high_tie(node, i, j):
            tied[node] += p


def random_strategies(problem, seed: int) -> list[np.ndarray]:
    """Random average-strategy sums, each decision's actions drawn per hand."""
    rng = np.random.default_rng(seed)
    return [rng.random((max(1, problem.rows[p]), problem.n_hands[p])).astype(np.float32) for p in range(2)]


def unfolded_sums(folded, sums, full) -> list[np.ndarray]:
    """The strategy sums ``sums[p][rows, n]`` of the ``folded`` problem's tree, on the ``full``
    (unfolded) problem's tree of the same spot: a deal the folded tree plays through another
    (``deal_child``, under suit map ``deal_map``) plays that one's strategies, each hand taking
    its image's (``Problem.perms``)."""
    ft, ut = folded.tree, full.tree
    out = [np.zeros((max(1, full.rows[p]), full.n_hands[p]), sums[p].dtype) for p in range(2)]
    # Per player, the folded hand each unfolded hand plays as (the ranges are the same arrays).
    identity = [np.arange(full.n_hands[p]) for p in range(2)]
    stack = [(0, 0, identity)]
    while stack:
        u, f, hand_of = stack.pop()
        if ut.kind[u] == DECISION:
            p, count = int(ut.player[u]), int(ut.children[u])
            out[p][full.slot[u] : full.slot[u] + count] = sums[p][folded.slot[f] : folded.slot[f] + count][
                :, hand_of[p]
            ]
            stack.extend((int(ut.first_child[u]) + a, int(ft.first_child[f]) + a, hand_of) for a in range(count))
        elif ut.kind[u] == CHANCE:
            deals = {ft.deal_labels[d]: d for d in range(ft.deals_start[f], ft.deals_start[f + 1])}
            for a in range(int(ut.children[u])):
                d = deals[ut.labels[int(ut.first_child[u]) + a]]
                # The folded child's hand h stands for hand perms[p][map][h] of this deal.
                inverse = [np.argsort(folded.perms[p][ft.deal_map[d]]) for p in range(2)]
                stack.append(
                    (int(ut.first_child[u]) + a, int(ft.deal_child[d]), [inverse[p][hand_of[p]] for p in range(2)])
                )
    return out
