"""The numpy evaluator (``evaluator.vectorized``) gives the numba kernels' strengths, hand by hand."""

import dataclasses

import numpy as np
import pytest

from evaluator.fast import fast_evaluator
from evaluator.games import PRESETS, Category, game
from evaluator.vectorized import VectorizedEvaluator, covers

FREE_USE = [g for g in PRESETS.values() if covers(g)] + [
    game("holdem").variant(low=8),  # a low beside hold'em's deal
    game("pls7").variant(ranking="skip_over_flush", low=8),
    dataclasses.replace(
        game("pls7"), name="pls7-4", hole_cards=4, hole_use=(0, 4)
    ),  # a 9-card pool, the most tables cover
]


def _deals(rng, g, n, players, suits=4):
    """``n`` deals of ``players`` hands from a deck of ``suits`` suits (fewer suits: more flushes)."""
    deck = np.array([c for c in range(52) if c % 4 < suits], np.uint8)
    dealt = np.array([rng.choice(deck, players * g.hole_cards + g.board_cards, replace=False) for _ in range(n)])
    hole = dealt[:, : players * g.hole_cards].reshape(n, players, g.hole_cards)
    return hole, np.ascontiguousarray(dealt[:, players * g.hole_cards :])


@pytest.mark.parametrize("g", FREE_USE, ids=lambda g: g.name)
@pytest.mark.parametrize("players, suits", [(1, 4), (3, 4), (2, 2)])
def test_same_strengths_as_the_numba_kernels(g, players, suits):
    """High and low of every hand equal ``FastEvaluator.high_low``'s, flush-heavy decks included."""
    rng = np.random.default_rng([players, suits, g.hole_cards])
    players = min(players, (13 * suits - g.board_cards) // g.hole_cards)
    hole, board = _deals(rng, g, 3000, players, suits)
    high, low = VectorizedEvaluator(g).high_low(hole, board)
    want_high, want_low = fast_evaluator(g).high_low(np.ascontiguousarray(hole), board)
    assert (high == want_high).all() and (low == want_low).all()
    if suits == 2:
        flush_types = [Category.flush, Category.straight_flush, Category.skip_straight_flush, Category.royal_flush]
        assert np.isin(fast_evaluator(g).category(high), flush_types).any(), (
            "no flush: the flush path was not exercised"
        )
    if g.low is not None:
        assert (low > 0).any() and (low == 0).any()


def test_restricted_use_is_refused():
    """Omaha's two-and-three rule is the numba kernels' alone: building it for PLO is a ValueError."""
    with pytest.raises(ValueError, match="free use"):
        VectorizedEvaluator(game("plo"))


def test_wrong_shapes_are_refused():
    """A board of the wrong size is a ValueError, not a wrong answer."""
    g = game("holdem")
    with pytest.raises(ValueError, match="deals 2 hole and 5 board"):
        VectorizedEvaluator(g).high_low(np.zeros((1, 2, 2), np.uint8), np.zeros((1, 4), np.uint8))
