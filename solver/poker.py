"""A poker spot as a solver ``Problem``: ranges parsed on the board, the betting tree, and the
showdown strengths of every hand on every river the tree deals (``FastEvaluator``)."""

from __future__ import annotations

import dataclasses

import numpy as np

from evaluator.cards import check_distinct
from evaluator.errors import SampyongError
from evaluator.games import Game
from evaluator.isomorphism import card_masks
from evaluator.ranges import Range
from solver.betting import Spot, build_tree
from solver.dcfr import Problem

MEMORY_LIMIT = 6 << 30  # bytes of solver arrays refused up front (this laptop class has 8 GB)


def range_hands(g: Game, r: Range, board: tuple[int, ...], who: str) -> tuple[np.ndarray, np.ndarray]:
    """The range's hands that do not meet the board, and their weights."""
    hands = np.array(r.combos, np.int64).reshape(len(r.combos), g.hole_cards)
    weights = np.array(r.weights, np.float64)
    keep = (card_masks(hands) & sum(1 << c for c in board)) == 0
    if not keep.any():
        raise SampyongError(f"the {who} range {r.text!r} has no hand left on this board")
    return hands[keep], weights[keep]


def poker_problem(g: Game, spot: Spot, ranges: tuple[Range, Range], fold_suits: bool = True) -> Problem:
    """The ``Problem`` of ``spot`` with the two ranges (out of position first); ``fold_suits``:
    deals equal up to suits share a subtree (``solver.betting``)."""
    if len(spot.board) not in (3, 4, 5):
        raise SampyongError(f"a board of 3, 4 or 5 cards, not {len(spot.board)}")
    check_distinct(list(spot.board))
    if spot.pot < 1:
        raise SampyongError(f"the pot must be at least 1 chip, not {spot.pot}")
    if spot.stack < spot.min_bet:
        raise SampyongError(f"the stack must be at least the minimum bet ({spot.min_bet} chip), not {spot.stack}")
    hands, weights = zip(*(range_hands(g, r, spot.board, who) for r, who in zip(ranges, ("oop", "ip"))))
    tree = build_tree(spot, hands, weights, fold_suits)
    problem = Problem(tree, hands, weights, _strengths(g, hands))
    if problem.pairs == 0:
        raise SampyongError("no hand of the oop range can face a hand of the ip range: every pair shares a card")
    if problem.memory() > MEMORY_LIMIT:
        raise SampyongError(
            f"this spot needs {problem.memory() / 2**30:.1f} GB of solver arrays "
            f"({tree.nodes:,} nodes), above the {MEMORY_LIMIT >> 30} GB limit: "
            "narrow the ranges or the bet sizes, or solve a later street"
        )
    return problem


RULE_PREFIXES = ("made:", "draw:")
DRAWING = ("high_card", "one_pair", "two_pair")  # what a drawing hand holds now


def is_board_rule(text: str) -> bool:
    """Whether a range is a rule read on the board (``made:three_of_a_kind``, ``draw:straight``)."""
    return text.strip().lower().startswith(RULE_PREFIXES)


def rule_category(text: str):
    """The rule (``made``/``draw``) and the ``Category`` of a range rule; a bad one is a ``SampyongError``."""
    from evaluator.games import Category

    rule, _, name = text.strip().lower().partition(":")
    try:
        return rule, Category[name.strip()]
    except KeyError:
        names = ", ".join(c.name for c in Category)
        raise SampyongError(f"bad range rule {text!r}: {rule}: takes a category ({names})") from None


def board_range(g: Game, text: str, board: tuple[int, ...]) -> Range:
    """Every hand of ``g`` that the rule ``text`` picks on ``board`` (weight 1):

    - ``made:CATEGORY``: the hand's high category on the board is CATEGORY (``Category`` names:
      ``three_of_a_kind``, ``flush``, ...);
    - ``draw:CATEGORY``: the hand holds high card, one pair or two pair now and makes CATEGORY
      with at least one of the cards still to come (turn or flop boards).

    >>> from evaluator.cards import parse_cards
    >>> from evaluator.games import game
    >>> len(board_range(game("holdem"), "made:three_of_a_kind", tuple(parse_cards("Ks 7d 2c 9h"))).combos)  # 4 sets x 3
    12
    """
    import itertools

    from evaluator.games import Category

    rule, category = rule_category(text)
    used = set(board)
    hands = np.array([h for h in itertools.combinations(range(52), g.hole_cards) if not used & set(h)], np.int64)
    high, _ = categories(g, hands, board)
    if rule == "made":
        keep = high == int(category)
    else:
        if len(board) == 5:
            raise SampyongError(f"bad range rule {text!r}: no card comes after the river")
        keep = np.zeros(len(hands), bool)
        for card in sorted(set(range(52)) - used):
            # Only the hands without the card see it dealt: a pool holding a card twice is no
            # hand, and the kernels' tables have no row for it (they would read past them).
            fresh = ~np.isin(hands, card).any(axis=1)
            then, _ = categories(g, hands[fresh], (*board, card))
            keep[fresh] |= then == int(category)
        keep &= np.isin(high, [int(Category[c]) for c in DRAWING])
    if not keep.any():
        raise SampyongError(f"the range rule {text!r} picks no hand on this board")
    combos = tuple(tuple(int(c) for c in h) for h in hands[keep])
    return Range(text, combos, (1.0,) * len(combos))


def settings_problem(g: Game, settings, top=None, range_game: Game | None = None) -> Problem:
    """The ``Problem`` of a ``solver.solution.Settings`` in game ``g`` (a preset or a variant of
    one): the spot, its sizes checked, the ranges parsed (``top``: the top-N % provider of
    ``evaluator.ranges.parse_range``) or read on the board (``board_range``) in ``range_game``
    (default ``g``: a sweep over variants reads them in the base game, so every variant plays
    the same hands)."""
    from engine.betting import default_betting, parse_betting
    from evaluator.cards import parse_cards
    from evaluator.ranges import parse_range
    from solver.betting import parse_sizes

    structure = parse_betting(settings.betting) if settings.betting else default_betting(g)
    if structure.kind == "fixed-limit":
        raise SampyongError("the solver plays no-limit and pot-limit spots, not fixed-limit")
    board = tuple(parse_cards(settings.board))
    bets = parse_sizes(settings.bets)
    street = ("flop", "turn", "river")[min(max(len(board), 3), 5) - 3]
    if settings.bets.strip() and not any(bets.values()):
        raise SampyongError(f"bets {settings.bets!r} give no bet size")
    if not any(bets[s] for s in ("flop", "turn", "river")[("flop", "turn", "river").index(street) :]):
        raise SampyongError(f"bets {settings.bets!r} give no bet size from the {street} on")
    if settings.max_raises < 0:
        raise SampyongError(f"max raises must be 0 or more, not {settings.max_raises}")
    spot = Spot(
        board=board,
        pot=settings.pot,
        stack=settings.stack,
        bets=bets,
        raises=parse_sizes(settings.raises, raises=True),
        max_raises=settings.max_raises,
        betting=structure,
    )
    range_game = range_game or g
    oop, ip = (
        board_range(range_game, text, board) if is_board_rule(text) else parse_range(text, range_game, top)
        for text in (settings.oop, settings.ip)
    )
    return poker_problem(g, spot, (oop, ip))


def _strengths(g: Game, hands):
    def strengths(boards):
        from evaluator.fast import fast_evaluator
        from evaluator.range_showdown import evaluate_hands

        fast = fast_evaluator(g)
        rows = np.array(boards, np.uint8)
        out = []
        for h in hands:
            high, low = evaluate_hands(fast, np.asarray(h, np.uint8), rows)
            out.append((high.astype(np.int64), low.astype(np.int64) if g.low is not None else None))
        return out

    return strengths


def categories(g: Game, hands: np.ndarray, board: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Each hand's high category (``Category`` values) on ``board`` and whether it holds a
    qualifying low there (a board of 3 or 4 cards: the best hand of the cards so far)."""
    from evaluator.fast import fast_evaluator

    partial = dataclasses.replace(g, board_cards=len(board))
    fast = fast_evaluator(partial)
    hole = np.asarray(hands, np.uint8)[None, :, :]
    high, low = fast.high_low(np.ascontiguousarray(hole), np.array([board], np.uint8))
    return fast.category(high)[0], (low[0] > 0) if g.low is not None else np.zeros(len(hands), bool)
