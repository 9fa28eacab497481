"""Discounted CFR over a tree and two ranges, with exact best responses.

``Problem`` holds what the kernels read: the tree's arrays, each player's hands and weights, the
hands alive on each board, and on each board with a showdown every hand's high and low strength
in order. ``solve`` runs DCFR with alternating updates (regrets: positive ones discounted by
t^1.5 / (t^1.5 + 1), negative ones by 1/2; the average strategy by (t / (t + 1))^2) until an
iteration count or a target exploitability. The core knows nothing of poker beyond cards: a
small game such as Kuhn poker is a tree, hands of one card and a strength per card.

Values are chips: each terminal pays each player its share of the pot minus what it put in
during the spot, so the payoffs of a terminal sum to the starting pot ``P`` and
exploitability = (BR_0 + BR_1 - P) / 2, a best response's value being its expected payoff
over every card-disjoint deal of the two ranges (weights included).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import numpy as np

from evaluator.isomorphism import card_masks
from solver.tree import CHANCE, DECISION, FOLD, SHOWDOWN, Tree

# strengths(boards) -> per player (high int64[boards, n], low int64[boards, n] or None): bigger
# is stronger; a low of 0 is no low.
Strengths = Callable[[list[tuple[int, ...]]], list[tuple[np.ndarray, np.ndarray | None]]]
CHECK_EVERY = 10  # iterations between exploitability checks when a target is set
SMALL_TREE = 1_000  # nodes below which one thread beats the hand-offs at every level (a river spot)
CHANNELS = 64  # terminals of one kind on one board swept together, at most


@dataclasses.dataclass
class Progress:
    """What ``solve`` reports after each check: the iteration and the exploitability (% of the pot)."""

    iteration: int
    exploitability: float


class Problem:
    """A tree, two ranges and the showdown strengths on every board the tree can reach.

    The solve computes in ``floats`` (regrets, strategies, reaches, values and the terminals'
    sweeps; the kernels take the type of the arrays they are handed): float32 runs twice the
    numbers a vector instruction does and rounds a value by about 1e-7 of itself.

    Parameters:
        tree: the ``Tree``.
        hands: per player ``int[n, cards]``; every hand of a player has the same card count.
        weights: per player ``float[n]``.
        strengths: the ``Strengths`` of the game.
        deck: the deck's size (52 for poker): a chance node deals each card still unseen with
            probability 1 / (deck - board - hole cards of both).
    """

    floats = np.dtype(np.float32)

    def __init__(self, tree: Tree, hands, weights, strengths: Strengths, deck: int = 52):
        from evaluator.range_showdown import _HeadsUp

        self.tree = tree
        self.hands = tuple(np.ascontiguousarray(np.asarray(h, np.int64).reshape(len(h), -1)) for h in hands)
        self.weights = tuple(np.asarray(w, np.float64) for w in weights)
        self.n_hands = np.array([len(h) for h in self.hands], np.int64)
        masks = [card_masks(h) for h in self.hands]
        board_masks = np.array([sum(1 << c for c in b) for b in tree.boards], np.int64)
        alive_lists, counts = [], np.zeros((2, len(tree.boards)), np.int64)
        for p in range(2):
            alive = (masks[p][None, :] & board_masks[:, None]) == 0
            counts[p] = alive.sum(axis=1)
            lists = np.zeros((len(tree.boards), len(masks[p])), np.int64)
            for b in range(len(tree.boards)):
                live = np.nonzero(alive[b])[0]
                lists[b, : len(live)] = live
            alive_lists.append(lists)
        self.alive, self.alive_count = tuple(alive_lists), counts
        showdown_boards = sorted(set(tree.board[tree.kind == SHOWDOWN].tolist()))
        self.sd_row = np.full(len(tree.boards), -1, np.int64)
        self.sd_row[showdown_boards] = np.arange(len(showdown_boards))
        evaluated = strengths([tree.boards[b] for b in showdown_boards]) if showdown_boards else []
        self.hilo = bool(evaluated and evaluated[0][1] is not None)
        highs, lows, order_highs, order_lows = [], [], [], []
        for p in range(2):
            rows = max(1, len(showdown_boards))
            high = np.zeros((rows, self.n_hands[p]), np.int64)
            low = np.zeros((rows, self.n_hands[p]), np.int64)
            order_high = np.zeros((rows, self.n_hands[p]), np.int64)
            order_low = np.zeros((rows, self.n_hands[p]), np.int64)
            for r, b in enumerate(showdown_boards):
                hand_highs, hand_lows = evaluated[p]
                high[r] = hand_highs[r]
                if hand_lows is not None:  # ``self.hilo``: one game, both players' lows or neither's
                    low[r] = hand_lows[r]
                live = self.alive[p][b, : counts[p, b]]
                order_high[r, : len(live)] = live[np.argsort(high[r, live], kind="stable")]
                order_low[r, : len(live)] = live[np.argsort(low[r, live], kind="stable")]
            highs.append(high)
            lows.append(low)
            order_highs.append(order_high)
            order_lows.append(order_low)
        self.sd_high, self.sd_low = tuple(highs), tuple(lows)
        self.sd_order_high, self.sd_order_low = tuple(order_highs), tuple(order_lows)
        sweep = _HeadsUp(self.hands, self.weights)
        # The kernels read a hand's subsets three at a time (``range_showdown_kernels.disjoint_weight``): padded to a
        # multiple of three with subset -1 (nothing) and sign 0.
        pad = -len(sweep.signs) % 3
        self.signs, self.full_sign = np.concatenate([sweep.signs, np.zeros(pad)]), float(sweep.full_sign)
        self.sweep_signs = self.signs.astype(self.floats)
        self.sweep_full_sign = self.floats.type(self.full_sign)
        directions = {
            hero: (ids, villain_subsets, hero_subsets, match)
            for hero, _, ids, villain_subsets, hero_subsets, match in sweep.directions
        }
        self.ids = np.array([directions[p][0] for p in range(2)], np.int64)
        self.villain_subsets = tuple(np.ascontiguousarray(directions[p][1]) for p in range(2))
        self.hero_subsets = tuple(
            np.ascontiguousarray(np.pad(directions[p][2], ((0, 0), (0, pad)), constant_values=-1)) for p in range(2)
        )
        self.match = tuple(np.ascontiguousarray(directions[p][3]) for p in range(2))
        self.perms = tuple(self._permutations(p, masks[p]) for p in range(2))
        holes = sum(h.shape[1] for h in self.hands)
        self.chance_weight = np.zeros(tree.nodes)
        for k in np.nonzero(tree.kind == CHANCE)[0]:
            self.chance_weight[k] = 1.0 / (deck - len(tree.boards[tree.board[k]]) - holes)
        self.slot = np.zeros(tree.nodes, np.int64)
        self.rows = np.zeros(2, np.int64)
        for k in np.nonzero(tree.kind == DECISION)[0]:
            p = tree.player[k]
            self.slot[k] = self.rows[p]
            self.rows[p] += tree.children[k]
        self.group_start, self.group_nodes = _terminal_groups(tree)
        self.pairs = float(self.weights[0] @ self._disjoint_totals(0, self.weights[1]))

    def _permutations(self, p: int, masks: np.ndarray) -> np.ndarray:
        """``int64[maps, n]``: the index of each hand's image under each of the tree's suit maps."""
        order = np.argsort(masks)
        out = np.zeros((len(self.tree.maps), len(masks)), np.int64)
        for m, card_map in enumerate(self.tree.maps):
            image = card_masks(card_map[self.hands[p]])
            at = np.searchsorted(masks[order], image)
            if not np.array_equal(masks[order][np.minimum(at, len(order) - 1)], image):
                raise ValueError("a suit map of the tree does not map the range onto itself")
            out[m] = order[at]
        return out

    def _disjoint_totals(self, p: int, w_other: np.ndarray) -> np.ndarray:
        """Per hand of ``p``: the other's weight over its hands sharing no card with it."""
        tally = np.bincount(
            self.villain_subsets[p].ravel(),
            weights=np.repeat(w_other, self.villain_subsets[p].shape[1]),
            minlength=int(self.ids[p]),
        )
        subsets = self.hero_subsets[p]
        out = (self.signs[None, :] * np.where(subsets >= 0, tally[np.maximum(subsets, 0)], 0.0)).sum(axis=1)
        matched = self.match[p] >= 0
        out[matched] += self.full_sign * w_other[self.match[p][matched]]
        return out

    def memory(self) -> int:
        """Bytes the solve's arrays take: regrets and average strategies, reach and values."""
        width = int(self.n_hands.max())
        return int(self.floats.itemsize * (2 * (self.rows * self.n_hands).sum() + 2 * self.tree.nodes * width))

    def opponent_reach_total(self, player: int, reach: np.ndarray) -> np.ndarray:
        """Per hand of ``player``: the other's ``reach`` (per its hands) over the hands sharing no card."""
        return self._disjoint_totals(player, np.asarray(reach, np.float64))


def _terminal_groups(tree: Tree) -> tuple[np.ndarray, np.ndarray]:
    """The terminals cut into groups of one kind on one board, at most ``CHANNELS`` each: the
    kernels sweep a group's terminals together, one channel each (``group_start`` indexes
    ``group_nodes``)."""
    terminal = np.nonzero(tree.kind >= FOLD)[0]
    by_key: dict[tuple[int, int], list[int]] = {}
    for k in terminal.tolist():
        by_key.setdefault((int(tree.board[k]), int(tree.kind[k])), []).append(k)
    nodes, starts = [], [0]
    for key in sorted(by_key):
        members = by_key[key]
        for i in range(0, len(members), CHANNELS):
            nodes.extend(members[i : i + CHANNELS])
            starts.append(len(nodes))
    return np.array(starts, np.int64), np.array(nodes, np.int64)


class State:
    """The solve's arrays: regrets and average-strategy sums per player (``float32[rows, n]``)."""

    def __init__(self, problem: Problem):
        self.problem = problem
        self.regret = tuple(np.zeros((max(1, problem.rows[p]), problem.n_hands[p]), problem.floats) for p in range(2))
        self.strat = tuple(np.zeros((max(1, problem.rows[p]), problem.n_hands[p]), problem.floats) for p in range(2))
        width = int(problem.n_hands.max())
        self.reach = np.zeros((problem.tree.nodes, width), problem.floats)
        self.cfv = np.zeros((problem.tree.nodes, width), problem.floats)
        self.iterations = 0

    def run(self, mode: int, trav: int, alpha: float = 0.0, beta: float = 0.0, gamma: float = 0.0) -> None:
        from solver.kernels import tree_pass

        p, t = self.problem, self.problem.tree
        tree_pass(
            mode,
            trav,
            float(t.pot),
            p.hilo,
            t.kind,
            t.player,
            t.board,
            t.contributed,
            t.first_child,
            t.children,
            t.level_start,
            t.deals_start,
            t.deal_child,
            t.deal_map,
            p.chance_weight,
            p.slot,
            p.n_hands,
            p.weights,
            p.alive,
            p.alive_count,
            p.sd_row,
            p.sd_high,
            p.sd_low,
            p.sd_order_high,
            p.sd_order_low,
            p.hero_subsets,
            p.villain_subsets,
            p.match,
            p.ids,
            p.sweep_signs,
            p.sweep_full_sign,
            p.perms,
            p.group_start,
            p.group_nodes,
            self.regret,
            self.strat,
            alpha,
            beta,
            gamma,
            self.reach,
            self.cfv,
        )

    def iterate(self) -> None:
        """One DCFR iteration: player 0's update, then player 1's."""
        from solver.kernels import CFR

        t = self.iterations + 1
        previous = (t - 1) ** 1.5
        alpha = previous / (previous + 1.0)
        gamma = ((t - 1) / t) ** 2
        for trav in (0, 1):
            self.run(CFR, trav, alpha, 0.5, gamma)
        self.iterations = t

    def value(self, mode: int, player: int) -> float:
        """``player``'s expected payoff (chips) under ``mode`` (``BEST`` or ``AVERAGE``)."""
        self.run(mode, player)
        p = self.problem
        return float(p.weights[player] @ self.cfv[0, : p.n_hands[player]].astype(np.float64)) / p.pairs

    def exploitability(self) -> float:
        """(BR_0 + BR_1 - P) / 2 against the average strategies, in % of the starting pot."""
        from solver.kernels import BEST

        pot = self.problem.tree.pot
        return 100.0 * (self.value(BEST, 0) + self.value(BEST, 1) - pot) / 2.0 / pot

    def node_strategy(self, node: int) -> np.ndarray:
        """``float64[actions, n]``: the average strategy of the decision ``node`` for each hand of
        the player to act (uniform where its sums are 0)."""
        p, t = self.problem, self.problem.tree
        player, s0, count = int(t.player[node]), int(p.slot[node]), int(t.children[node])
        block = self.strat[player][s0 : s0 + count].astype(np.float64)
        total = block.sum(axis=0)
        return np.where(total > 0, block / np.where(total > 0, total, 1.0), 1.0 / count)

    def average_strategy(self, player: int) -> np.ndarray:
        """``float64[rows, n]``: every decision's ``node_strategy`` of ``player``, rows by slot."""
        p, t = self.problem, self.problem.tree
        out = np.empty(self.strat[player].shape)
        for k in t.decisions(player):
            out[p.slot[k] : p.slot[k] + t.children[k]] = self.node_strategy(k)
        return out


def solve(
    problem: Problem,
    iterations: int = 1000,
    target: float | None = None,
    threads: int | None = None,
    progress: Callable[[Progress], Any] | None = None,
    check_every: int = CHECK_EVERY,
) -> tuple[State, list[Progress]]:
    """DCFR on ``problem`` for ``iterations``, or until the exploitability is at most ``target``
    (% of the pot), checked every ``check_every`` iterations and at the end. Returns the state
    and the checks made. ``threads``: numba's (default: every core, one for a tree of a few levels' nodes); the
    result does not depend on them."""
    import numba

    state = State(problem)
    history: list[Progress] = []
    previous_threads = numba.get_num_threads()
    if threads is None and problem.tree.nodes < SMALL_TREE:
        threads = 1
    if threads:
        # numba.core.config sets its settings through globals() while reading the environment: mypy cannot see them.
        numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))  # type: ignore[attr-defined]
    try:
        while state.iterations < iterations:
            state.iterate()
            if state.iterations % check_every == 0 or state.iterations == iterations:
                history.append(Progress(state.iterations, state.exploitability()))
                if progress:
                    progress(history[-1])
                if target is not None and history[-1].exploitability <= target:
                    break
    finally:
        numba.set_num_threads(previous_threads)
    return state, history
