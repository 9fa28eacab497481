"""A game tree as flat arrays: what the DCFR kernels walk.

A tree is built once, as nested ``Node`` objects (by ``solver.betting`` for a poker spot, or by
hand for a small game such as Kuhn poker), then numbered breadth first by ``Tree.of``: every
level of the tree is one contiguous run of node ids and a node's children follow one another,
so the kernels walk the levels down (reach) and back up (values), the nodes of one level in
parallel.

Payoffs are chips won from the pot minus chips put in during the spot, so the two players'
payoffs at every terminal sum to the starting pot (``Tree.pot``).

>>> fold = Node(FOLD, player=1, contributed=(1, 0))
>>> call = Node(SHOWDOWN, contributed=(1, 1))
>>> root = Node(DECISION, player=0, children=[("check", Node(SHOWDOWN)),
...                                            ("bet 1", Node(DECISION, player=1, contributed=(1, 0),
...                                                               children=[("fold", fold), ("call", call)]))])
>>> tree = Tree.of(root, pot=2, boards=[()])
>>> tree.nodes, tree.kind.tolist(), tree.level_start.tolist()
(5, [0, 3, 0, 2, 3], [0, 1, 3, 5])
>>> tree.path(4), tree.find("bet 1, call")
('bet 1, call', 4)
"""

from __future__ import annotations

import dataclasses
from collections import deque

import numpy as np

from evaluator.errors import SampyongError

DECISION, CHANCE, FOLD, SHOWDOWN = range(4)
KIND_NAMES = ("decision", "chance", "fold", "showdown")


@dataclasses.dataclass
class Node:
    """One node while a tree is built.

    Parameters:
        kind: ``DECISION``, ``CHANCE``, ``FOLD`` or ``SHOWDOWN``.
        player: who acts (decision) or who folded (fold); -1 otherwise.
        board: the index of the node's board in the tree's ``boards``.
        contributed: the chips each player has put in during the spot.
        children: ``(label, child)`` in action order; a chance node's labels are the cards dealt.
        symmetric: chance only, per child, the other deals the child stands for: ``(label,
            suit map)`` pairs, each map an ``int64[52]`` card map under which the child's deal
            becomes that one (``evaluator.isomorphism``).
    """

    kind: int
    player: int = -1
    board: int = 0
    contributed: tuple[int, int] = (0, 0)
    children: list[tuple[str, Node]] = dataclasses.field(default_factory=list)
    symmetric: list[list[tuple[str, np.ndarray]]] | None = None


@dataclasses.dataclass(frozen=True)
class Tree:
    """A tree numbered breadth first (parents before children, each level contiguous).

    Parameters:
        pot: the starting pot, in chips.
        boards: the cards of each board a node can have (index 0: the spot's board).
        kind, player, board, parent: per node.
        contributed: ``int64[nodes, 2]``, chips put in during the spot.
        first_child, children: per node, its children are ids ``first_child .. first_child + children``.
        labels: per node, the action (or card) that leads to it; ``""`` at the root.
        level_start: the first id of each level, and the node count last.
        deals_start, deal_child, deal_map: chance nodes only: the deals a chance node averages,
            ``deals_start[n] .. deals_start[n + 1]``, each a child and the index of the suit map
            (into ``maps``, 0 the identity) that turns the child's deal into this one.
        deal_labels: the card text of each deal.
        maps: ``int64[k, 52]``: the suit maps deals use.
    """

    pot: int
    boards: tuple[tuple[int, ...], ...]
    kind: np.ndarray
    player: np.ndarray
    board: np.ndarray
    parent: np.ndarray
    contributed: np.ndarray
    first_child: np.ndarray
    children: np.ndarray
    labels: tuple[str, ...]
    level_start: np.ndarray
    deals_start: np.ndarray
    deal_child: np.ndarray
    deal_map: np.ndarray
    deal_labels: tuple[str, ...]
    maps: np.ndarray

    @classmethod
    def of(cls, root: Node, pot: int, boards: list[tuple[int, ...]]) -> Tree:
        """Number ``root``'s tree breadth first."""
        order: list[Node] = []
        labels: list[str] = []
        parents: list[int] = []
        depth: list[int] = []
        queue = deque([(root, "", -1, 0)])
        while queue:
            node, label, parent, level = queue.popleft()
            order.append(node)
            labels.append(label)
            parents.append(parent)
            depth.append(level)
            for child_label, child in node.children:
                queue.append((child, child_label, len(order) - 1, level + 1))
        count = len(order)
        first = np.zeros(count, np.int64)
        next_id = 1
        for i, node in enumerate(order):
            first[i] = next_id
            next_id += len(node.children)
        maps = [np.arange(52, dtype=np.int64)]
        map_ids = {maps[0].tobytes(): 0}
        deals_start = np.zeros(count + 1, np.int64)
        deal_child: list[int] = []
        deal_map: list[int] = []
        deal_labels: list[str] = []
        for i, node in enumerate(order):
            deals_start[i] = len(deal_child)
            if node.kind != CHANCE:
                continue
            for k, (label, _) in enumerate(node.children):
                deal_child.append(first[i] + k)
                deal_map.append(0)
                deal_labels.append(label)
                for other_label, card_map in node.symmetric[k] if node.symmetric else []:
                    key = np.asarray(card_map, np.int64).tobytes()
                    if key not in map_ids:
                        map_ids[key] = len(maps)
                        maps.append(np.asarray(card_map, np.int64))
                    deal_child.append(first[i] + k)
                    deal_map.append(map_ids[key])
                    deal_labels.append(other_label)
        deals_start[count] = len(deal_child)
        level_start = np.searchsorted(np.array(depth), np.arange(max(depth) + 2)).astype(np.int64)
        return cls(
            pot=int(pot),
            boards=tuple(tuple(b) for b in boards),
            kind=np.array([n.kind for n in order], np.int64),
            player=np.array([n.player for n in order], np.int64),
            board=np.array([n.board for n in order], np.int64),
            parent=np.array(parents, np.int64),
            contributed=np.array([n.contributed for n in order], np.int64).reshape(count, 2),
            first_child=first,
            children=np.array([len(n.children) for n in order], np.int64),
            labels=tuple(labels),
            level_start=level_start,
            deals_start=deals_start,
            deal_child=np.array(deal_child, np.int64),
            deal_map=np.array(deal_map, np.int64),
            deal_labels=tuple(deal_labels),
            maps=np.array(maps, np.int64),
        )

    @property
    def nodes(self) -> int:
        return len(self.kind)

    def decisions(self, player: int) -> np.ndarray:
        """The ids of ``player``'s decision nodes, in id order."""
        return np.nonzero((self.kind == DECISION) & (self.player == player))[0]

    def path(self, node: int) -> str:
        """The actions (and cards) from the root to ``node``, comma separated."""
        steps = []
        while node > 0:
            steps.append(self.labels[node])
            node = int(self.parent[node])
        return ", ".join(reversed(steps))

    def find(self, path: str | list[str]) -> int:
        """The node ``path`` leads to (``path`` as ``Tree.path`` writes it, or a list of labels).

        A card a chance node folded into another by suit symmetry is not found: ask for the
        card it stands for (the error names it).
        """
        steps = [s.strip() for s in (path.split(",") if isinstance(path, str) else path) if s.strip()]
        node = 0
        for step in steps:
            start = int(self.first_child[node])
            labels = self.labels[start : start + int(self.children[node])]
            if step in labels:
                node = start + labels.index(step)
                continue
            if self.kind[node] == CHANCE:
                for d in range(self.deals_start[node], self.deals_start[node + 1]):
                    if self.deal_labels[d].lower() == step.lower():
                        node = int(self.deal_child[d])
                        if self.deal_map[d]:
                            raise SampyongError(
                                f"{step} is the same deal as {self.labels[node]} up to suits here: "
                                f"ask for {self.labels[node]}"
                            )
                        break
                else:
                    raise SampyongError(f"no card {step!r} at {self.path(node) or 'the root'}")
                continue
            choices = ", ".join(labels) or "nothing (a terminal)"
            raise SampyongError(f"no action {step!r} at {self.path(node) or 'the root'}: the choices are {choices}")
        return node

    def actions(self, node: int) -> tuple[str, ...]:
        start = int(self.first_child[node])
        return self.labels[start : start + int(self.children[node])]
