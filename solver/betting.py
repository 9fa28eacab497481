"""The betting tree of a heads-up postflop spot, built once from bet and raise sizes per street.

The player out of position (0) acts first on every street. Sizes are written as a pot fraction
(``75%``, ``pot``), a multiple of the bet faced (``2.5x``, raises only) or ``allin``; each is
clamped to the bounds ``engine.betting.raise_bounds`` gives (the pot-limit maximum, the minimum
raise, the stack) and rounded to whole chips, and sizes that land on the same amount are one
action. When a street's betting closes, a chance node deals the next card; after an all-in and a
call the cards are dealt to the river without betting. Turn and river cards that a suit
permutation fixing the board and both ranges maps onto each other share one subtree.

>>> sizes = parse_sizes("turn: 33%, 75%; river: 75%, allin")
>>> sizes["turn"], sizes["river"], sizes["flop"]
(('33%', '75%'), ('75%', 'allin'), ())
"""

from __future__ import annotations

import dataclasses
import re

import numpy as np

from engine.betting import Betting, raise_bounds
from evaluator.cards import format_card
from evaluator.errors import SampyongError
from evaluator.isomorphism import symmetries
from solver.tree import CHANCE, DECISION, FOLD, SHOWDOWN, Node, Tree

STREETS = ("flop", "turn", "river")
_SIZE = re.compile(r"^(?:(\d+(?:\.\d+)?)%|(\d+(?:\.\d+)?)x|allin|all-in|pot)$")


def parse_sizes(text: str | None, raises: bool = False) -> dict[str, tuple[str, ...]]:
    """Sizes per street from ``"turn: 33%, 75%; river: 75%, allin"`` (a part without a street
    applies to every street). ``SampyongError`` for a size that is none of ``N%``, ``pot``,
    ``Nx`` (raises only) and ``allin``."""
    out: dict[str, tuple[str, ...]] = {street: () for street in STREETS}
    if text is None:
        return out
    for part in text.split(";"):
        if not part.strip():
            continue
        street, _, listed = part.rpartition(":")
        street = street.strip().lower()
        if street and street not in STREETS:
            raise SampyongError(f"unknown street {street!r} in {text!r}: use flop, turn or river")
        sizes = tuple(s.strip().lower() for s in listed.split(",") if s.strip())
        for size in sizes:
            match = _SIZE.match(size)
            if not match or (match.group(2) and not raises):
                kinds = "N%, pot, Nx or allin" if raises else "N%, pot or allin"
                raise SampyongError(f"bad size {size!r} in {text!r}: write {kinds}")
        for s in [street] if street else STREETS:
            out[s] = sizes
    return out


@dataclasses.dataclass(frozen=True)
class Spot:
    """A heads-up spot: the board, the pot and the stack behind, the sizes, the betting structure.

    Parameters:
        board: the cards dealt (3, 4 or 5).
        pot: chips in the pot; stack: each player's chips behind (the effective stack).
        bets, raises: sizes per street (``parse_sizes``).
        max_raises: raises a street allows after its first bet.
        betting: the structure (``engine.betting``): pot-limit caps every bet and raise at the pot.
        min_bet: the smallest bet and raise, in chips.
    """

    board: tuple[int, ...]
    pot: int
    stack: int
    bets: dict[str, tuple[str, ...]]
    raises: dict[str, tuple[str, ...]]
    max_raises: int
    betting: Betting
    min_bet: int = 1


def build_tree(spot: Spot, hands, weights, fold_suits: bool = True) -> Tree:
    """The tree of ``spot``; ``hands`` and ``weights`` (per player) decide which deals share a
    subtree by suit symmetry (none when ``fold_suits`` is False)."""
    builder = _Builder(spot, [np.asarray(h) for h in hands], [np.asarray(w) for w in weights], fold_suits)
    root = builder.street(tuple(spot.board), (0, 0))
    return Tree.of(root, spot.pot, builder.boards)


class _Builder:
    def __init__(self, spot: Spot, hands, weights, fold_suits: bool):
        self.spot, self.hands, self.weights, self.fold_suits = spot, hands, weights, fold_suits
        self.structure = spot.betting.encode(spot.min_bet)
        self.boards: list[tuple[int, ...]] = []
        self.board_ids: dict[tuple[int, ...], int] = {}

    def board(self, cards: tuple[int, ...]) -> int:
        if cards not in self.board_ids:
            self.board_ids[cards] = len(self.boards)
            self.boards.append(cards)
        return self.board_ids[cards]

    def street(self, board: tuple[int, ...], paid: tuple[int, int]) -> Node:
        """The first decision of a street (player 0 to act, nothing bet yet)."""
        return self.decide(board, paid, paid, 0, 0, 0, (-1, -1))

    def decide(self, board, paid, base, actor, raises, last_raise, acted_at) -> Node:
        """``actor`` to act; ``paid`` what each put in during the spot, ``base`` at the street's start."""
        spot, other = self.spot, 1 - actor
        node = Node(DECISION, player=actor, board=self.board(board), contributed=paid)
        street_bet = (paid[0] - base[0], paid[1] - base[1])
        max_bet = street_bet[other]
        call = max_bet - street_bet[actor]
        pot = spot.pot + paid[0] + paid[1]
        most = spot.stack - paid[actor] + street_bet[actor]
        if call == 0:
            if actor == 0:
                node.children.append(("check", self.decide(board, paid, base, 1, raises, last_raise, (max_bet, -1))))
            else:
                node.children.append(("check", self.close(board, paid)))
        else:
            node.children.append(("fold", Node(FOLD, player=actor, board=node.board, contributed=paid)))
            called = _put(paid, actor, paid[other])
            node.children.append(("call", self.close(board, called)))
        street = STREETS[len(board) - 3]
        sizes = spot.bets[street] if max_bet == 0 else (spot.raises[street] if raises <= spot.max_raises else ())
        opponent_can_call = spot.stack - paid[other] > 0
        low, high = raise_bounds(
            self.structure,
            len(board) - 2,
            last_raise,
            raises,
            2,
            int(opponent_can_call),
            most,
            max_bet,
            call,
            acted_at[actor],
            pot,
        )
        if low < 0 or not sizes:
            return node
        seen = set()
        for size in sizes:
            target = _target(size, max_bet, call, pot, most)
            target = int(min(max(round(target), low), high))
            if target in seen:
                continue
            seen.add(target)
            verb = "allin" if target == most else ("bet" if max_bet == 0 else "raise")
            moved = _put(paid, actor, base[actor] + target)
            reached = list(acted_at)
            reached[actor] = max_bet
            node.children.append(
                (
                    f"{verb} {target}",
                    self.decide(
                        board, moved, base, other, raises + 1, max(last_raise, target - max_bet), tuple(reached)
                    ),
                )
            )
        return node

    def close(self, board: tuple[int, ...], paid: tuple[int, int]) -> Node:
        """The street's betting is over: a showdown, or the next card."""
        if len(board) == 5:
            return Node(SHOWDOWN, board=self.board(board), contributed=paid)
        all_in = paid[0] >= self.spot.stack or paid[1] >= self.spot.stack
        symmetric: list[list[tuple[str, np.ndarray]]] = []
        node = Node(CHANCE, board=self.board(board), contributed=paid, symmetric=symmetric)
        maps = symmetries(list(board), [], self.hands, self.weights) if self.fold_suits else np.arange(52)[None, :]
        free = [c for c in range(52) if c not in board]
        for card in free:
            images = {int(m[card]) for m in maps}
            if min(images) != card:
                continue  # dealt as the smallest card of its orbit
            dealt = board + (card,)
            child = self.close(dealt, paid) if all_in else self.street(dealt, paid)
            others = []
            for image in sorted(images - {card}):
                card_map = next(m for m in maps if m[card] == image)
                others.append((format_card(image), card_map))
            node.children.append((format_card(card), child))
            symmetric.append(others)
        return node


def _put(paid: tuple[int, int], player: int, total: int) -> tuple[int, int]:
    out = list(paid)
    out[player] = total
    return (out[0], out[1])


def _target(size: str, max_bet: int, call: int, pot: int, most: int) -> float:
    """The street total ``size`` bets or raises to, before the bounds."""
    if size in ("allin", "all-in"):
        return most
    if size == "pot":
        return max_bet + (pot + call)
    if size.endswith("x"):
        return float(size[:-1]) * max_bet
    return max_bet + float(size[:-1]) / 100.0 * (pot + call)
