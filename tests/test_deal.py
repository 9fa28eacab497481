"""Dealing: distinct cards, reproducible, and every ordered deal equally likely."""

import itertools
from collections.abc import Iterator

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


def xoshiro_stream(state: list[int]) -> Iterator[int]:
    """xoshiro256** as published (Blackman and Vigna), in plain Python integers: its words from ``state``."""
    mask = (1 << 64) - 1
    s = list(state)
    rotl = lambda x, k: ((x << k) | (x >> (64 - k))) & mask  # noqa: E731 - tiny local helper
    while True:
        yield rotl(s[1] * 5 & mask, 7) * 9 & mask
        t = s[1] << 17 & mask
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = rotl(s[3], 45)


def _xoshiro_reference(state: list[int], count: int) -> list[int]:
    """The first ``count`` words of ``xoshiro_stream(state)``."""
    return list(itertools.islice(xoshiro_stream(state), count))


def test_inline_generator_is_xoshiro256starstar():
    """The numba generator gives the published xoshiro256** sequence (11520, 0, ... from state 1, 2, 3, 4)."""
    from numba import njit

    from evaluator.deal import _next_word

    @njit
    def words(state, count):
        s = state.copy()
        out = np.empty(count, np.uint64)
        for i in range(count):
            out[i] = _next_word(s)
        return out

    assert _xoshiro_reference([1, 2, 3, 4], 2) == [11520, 0]
    rng = np.random.default_rng(12)
    for _ in range(5):
        state = rng.integers(0, 2**63, 4, dtype=np.uint64) * np.uint64(2) + np.uint64(1)
        assert words(state, 1000).tolist() == _xoshiro_reference([int(x) for x in state], 1000)
