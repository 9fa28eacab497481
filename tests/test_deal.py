"""Dealing: distinct cards, reproducible, and every ordered deal equally likely."""

import numpy as np

from evaluator.deal import deal_cards, split_deal


def _chi_square(observed: np.ndarray) -> float:
    expected = observed.sum() / observed.size
    return float(((observed - expected) ** 2 / expected).sum())


def test_rows_are_distinct_cards_of_the_deck():
    """Each dealt row holds distinct cards, all from the given deck."""
    deck = [0, 5, 9, 13, 22, 30, 41, 51]
    cards = deal_cards(np.random.default_rng(3), 20_000, 6, deck=deck)
    assert set(np.unique(cards)) <= set(deck)
    assert all(len(set(row)) == 6 for row in cards.tolist())
    full = deal_cards(np.random.default_rng(3), 20_000, 29)
    assert (np.sort(full, axis=1)[:, 1:] != np.sort(full, axis=1)[:, :-1]).all()


def test_same_generator_state_same_deals():
    """The same seed deals the same cards."""
    a = deal_cards(np.random.default_rng(9), 5_000, 29)
    b = deal_cards(np.random.default_rng(9), 5_000, 29)
    assert np.array_equal(a, b)


def test_every_ordered_deal_equally_likely():
    """All 60 ordered deals of 3 cards from 5 come up equally often (chi-square, 59 dof)."""
    cards = deal_cards(np.random.default_rng(5), 600_000, 3, deck=range(5))
    codes = cards[:, 0].astype(np.int64) * 25 + cards[:, 1] * 5 + cards[:, 2]
    counts = np.bincount(codes, minlength=125)
    counts = counts[counts > 0]
    assert counts.size == 60
    assert _chi_square(counts) < 120  # p ~ 1e-6 under uniformity; a biased deal fails by far


def test_each_position_uniform_over_the_deck():
    """Every position of an 8-handed PLS7 deal sees each of the 52 cards equally often."""
    hole, board = split_deal(deal_cards(np.random.default_rng(8), 200_000, 29), 8, 3)
    for column in (*hole.reshape(len(hole), -1).T, *board.T):
        assert _chi_square(np.bincount(column, minlength=52)) < 110  # 51 dof, p ~ 1e-6
