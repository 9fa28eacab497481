"""The equity calculator's reference: every combination of the ranges' hands, every board.

Slow on purpose and obviously right: each combination of one hand per range that shares no
card is dealt every completion of the board, evaluated hand by hand on the batch evaluator and
split as ``evaluator.settle.pot_shares`` says, weighted by the product of the hands' weights.
The showdown kernel (``evaluator.range_showdown``) must give the same sums.
"""

from __future__ import annotations

import itertools

import numpy as np

from evaluator.cards import parse_cards
from evaluator.equity import _boards, _entry, _Tally
from evaluator.fast import fast_evaluator
from evaluator.games import Game
from evaluator.games import game as preset
from evaluator.ranges import Range
from evaluator.settle import share_unit


def brute_force_equity(game: Game | str, texts: list[str], board: str = "", dead: str = "", top=None) -> list[dict]:
    """Per hand: ``equity``, ``high``, ``low`` (pot shares), ``win``, ``tie``, ``scoop``; ``random``
    is every hand."""
    g = preset(game) if isinstance(game, str) else game
    entries = [_entry(g, t, top) for t in texts]
    board_cards = parse_cards(board) if board.strip() else []
    blocked = set(board_cards) | set(parse_cards(dead) if dead.strip() else [])
    choices = []
    for entry in entries:
        if entry is None:
            combos = list(itertools.combinations(range(52), g.hole_cards))
            weights = [1.0] * len(combos)
        elif isinstance(entry, Range):
            combos, weights = list(entry.combos), list(entry.weights)
        else:
            combos, weights = [tuple(sorted(entry))], [1.0]
        choices.append([(c, w) for c, w in zip(combos, weights) if not blocked.intersection(c)])
    players = len(entries)
    unit = share_unit(players)
    missing = g.board_cards - len(board_cards)
    fast = fast_evaluator(g)
    tally = _Tally(players, np.float64)
    weight_sum = 0.0
    for pick in itertools.product(*choices):
        held = [c for hand, _ in pick for c in hand]
        if len(set(held)) != len(held):
            continue
        weight = float(np.prod([w for _, w in pick]))
        remaining = np.array(sorted(set(range(52)) - blocked - set(held)), np.uint8)
        holes = np.array([hand for hand, _ in pick], np.uint8)
        for full in _boards(np.array(board_cards, np.uint8), remaining, missing):
            hole = np.ascontiguousarray(np.broadcast_to(holes, (len(full), players, g.hole_cards)))
            high, low = fast.high_low(hole, full)
            tally.add(high, low, unit, weight)
            weight_sum += weight * len(full)
    totals = tally.totals
    return [
        {
            "equity": totals[p, 0] / unit / weight_sum,
            "high": totals[p, 2] / unit / weight_sum,
            "low": totals[p, 3] / unit / weight_sum,
            "win": tally.wins[p] / weight_sum,
            "tie": tally.ties[p] / weight_sum,
            "scoop": tally.scoops[p] / weight_sum,
        }
        for p in range(players)
    ]
