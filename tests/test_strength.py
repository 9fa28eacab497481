"""Hand strength as policies see it: a fair sample of the exact equity against random hands."""

import itertools

import numpy as np
import pytest

from engine.strength import strength
from evaluator.cards import parse_cards
from evaluator.fast import fast_evaluator
from evaluator.games import game
from evaluator.settle import pot_shares, share_unit


def exact_equity(g, hole, board) -> float:
    """The hand's mean pot share against every possible opponent hand on a full board."""
    deck = [c for c in range(52) if c not in set(hole) | set(board)]
    others = np.array(list(itertools.combinations(deck, g.hole_cards)), np.uint8)
    holes = np.empty((len(others), 2, g.hole_cards), np.uint8)
    holes[:, 0] = hole
    holes[:, 1] = others
    boards = np.tile(np.array(board, np.uint8), (len(others), 1))
    high, low = fast_evaluator(g).high_low(holes, boards)
    unit = share_unit(2)
    hp, lp = np.empty(high.shape, np.int64), np.empty(high.shape, np.int64)
    pot_shares(high, low, unit, hp, lp)
    return float((hp[:, 0] + lp[:, 0]).mean() / unit)


@pytest.mark.parametrize("name, hole, board", [
    ("holdem", "As Kd", "Ah 7c 2s Kh 9d"),
    ("pls7", "As 2c 5h", "3d 4s 9c Kh Qd"),
    ("plo8", "As 2s 3d Kd", "4c 5c Jh Qs 9d"),
])
def test_river_strength_is_a_fair_sample_of_the_exact_equity(name, hole, board):
    """On the river against one random hand, 20,000 samples land within 4 SE of the exact equity
    (every opponent hand enumerated), for ten different hand keys."""
    g = game(name)
    hole, board = parse_cards(hole), parse_cards(board)
    exact = exact_equity(g, hole, board)
    for key in range(10):
        value = strength(g, hole, board, opponents=1, samples=20_000, hand_key=key, seat=3)
        assert abs(value - exact) <= 4 * 0.5 / np.sqrt(20_000) + 1e-9, (key, value, exact)


def test_strength_never_deals_the_known_cards_and_depends_on_its_stream():
    """A board-less strength draws only unseen cards (a made straight flush on the flop wins every
    sample), and different seats or keys give different samples of the same question."""
    g = game("holdem")
    nuts = strength(g, parse_cards("9s 8s"), parse_cards("7s 6s 5s"), opponents=3, samples=500, hand_key=7, seat=0)
    assert nuts > 0.99
    values = {strength(g, parse_cards("Ts 9h"), [], opponents=2, samples=300, hand_key=k, seat=s) for k in range(3) for s in range(3)}
    assert len(values) == 9


def test_first_seat_totals_equal_pot_shares():
    """The first seat's summed shares equal ``evaluator.settle.pot_shares`` row by row, ties and lows included."""
    from engine.strength import _first_seat_totals

    rng = np.random.default_rng(4)
    for players in (2, 3, 6):
        high = rng.integers(1, 4, size=(4000, players)).astype(np.uint32)
        low = (rng.integers(0, 3, size=(4000, players)) * rng.integers(0, 2, size=(4000, 1))).astype(np.uint32)
        unit = share_unit(players)
        hp, lp = np.empty(high.shape, np.int64), np.empty(high.shape, np.int64)
        pot_shares(high, low, unit, hp, lp)
        totals = np.empty(40, np.int64)
        _first_seat_totals(high, low, unit, 100, totals)
        assert totals.tolist() == (hp[:, 0] + lp[:, 0]).reshape(40, 100).sum(axis=1).tolist()
