"""Heads-up hold'em before the flop, looked up: every pair of starting hands counted once.

Two hold'em hands all in before the flop see C(48, 5) = 1,712,304 boards. ``build`` counts,
for one pair in each class of pairs that are the same up to a permutation of the suits and an
exchange of the two hands (47,008 classes of the 812,175 pairs of card-disjoint hands), the
boards each hand wins and the boards they tie, with the deals kernel (``free_kernels``'
``fixed_tuples``: boards counted by the ranks of their new cards, flushes one by one), then
gives each class's counts to all its pairs: ``wins[i, j]``, the boards on which hand ``i``
beats hand ``j``, and ``ties[i, j]``, over the 1,326 hands in ``HANDS`` order. A minute on two
cores, once per machine (``sampyong precompute``); the table is cached beside the other
generated tables and never committed. ``load`` returns it when it is there, else None, and
``evaluator.equity`` then enumerates as for any other spot.

The calculator answers a hand or a range against a hand or a range, before the flop without
dead cards, by summing the table over the card-disjoint pairs of the two ranges, each pair
weighted by its hands' weights (``showdown_counts``): the same integers the enumeration counts.
"""

from __future__ import annotations

import itertools
import os
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from math import comb
from pathlib import Path

import numpy as np

from evaluator.games import Game
from evaluator.games import game as preset
from evaluator.isomorphism import PERMUTATION_CARDS
from evaluator.tables import TABLE_VERSION, cache_dir, cached_arrays

VERSION = 1
HANDS = np.array(list(itertools.combinations(range(52), 2)), np.uint8)  # every hold'em hand, cards ascending
BOARDS = comb(48, 5)  # the boards of two card-disjoint hands
_INDEX = np.full((52, 52), -1, np.int64)
_INDEX[HANDS[:, 0], HANDS[:, 1]] = _INDEX[HANDS[:, 1], HANDS[:, 0]] = np.arange(len(HANDS))


def hand_index(hands: np.ndarray) -> np.ndarray:
    """``int64[n]``: each two-card hand's place in ``HANDS``.

    >>> hand_index(np.array([[0, 1], [51, 50]])).tolist()
    [0, 1325]
    """
    hands = np.asarray(hands, np.int64)
    return _INDEX[hands[:, 0], hands[:, 1]]


def covers(g: Game, players: int, board: list[int], dead: list[int]) -> bool:
    """Whether the table answers: two players of hold'em itself (no variant), no board, no dead card."""
    return players == 2 and not board and not dead and g == preset("holdem")


def path() -> Path:
    return cache_dir() / FILE


FILE = f"holdem-preflop-v{VERSION}-t{TABLE_VERSION}.npz"


@lru_cache(maxsize=1)
def _loaded(file: str, stamp: float) -> tuple[np.ndarray, np.ndarray]:
    with np.load(file) as data:
        return data["wins"], data["ties"]


def load() -> tuple[np.ndarray, np.ndarray] | None:
    """``(wins, ties)``, ``uint32[1326, 1326]``, when ``build`` has cached them on this machine, else
    None. Read once a process (again if the file changes)."""
    file = os.path.join(cache_dir(), FILE)
    try:
        return _loaded(file, os.stat(file).st_mtime)
    except (OSError, ValueError, KeyError):
        return None


def pair_classes() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The ordered pairs of card-disjoint hands and their classes: ``(first, second, class)``,
    ``int64`` per pair, with ``class`` the smallest key ``1326 * i + j`` of a pair ``(i, j)``
    the pair maps to under a suit permutation, either way round, and negated when the pair maps
    onto that key only with its hands exchanged (the pair's first hand plays the key's second).

    >>> first, second, key = pair_classes()
    >>> len(first), len(np.unique(np.abs(key)))
    (1624350, 47008)
    """
    masks = (np.int64(1) << HANDS[:, 0].astype(np.int64)) | (np.int64(1) << HANDS[:, 1].astype(np.int64))
    first, second = np.nonzero((masks[:, None] & masks[None, :]) == 0)
    size = len(HANDS)
    straight = np.full(len(first), size * size, np.int64)
    crossed = straight.copy()
    for cards in PERMUTATION_CARDS:
        image = hand_index(np.sort(cards[HANDS.astype(np.int64)], axis=1))
        straight = np.minimum(straight, image[first] * size + image[second])
        crossed = np.minimum(crossed, image[second] * size + image[first])
    key = np.where(straight <= crossed, straight, -crossed)
    return first, second, key


def build(threads: int | None = None, progress=None, among: np.ndarray | None = None) -> dict[str, np.ndarray]:
    """Count every class's boards once and give the counts to its pairs: ``{"wins", "ties"}``.
    ``progress(done, total)`` is called as classes finish. ``among`` (hand indices) counts only
    the classes of the pairs of those hands, the others left at 0 (a small table for tests)."""
    from evaluator.fast import fast_evaluator

    kernel = fast_evaluator(preset("holdem"))._free_kernels.fixed_tuples
    first, second, key = pair_classes()
    if among is None:
        classes = np.unique(np.abs(key))
    else:
        inside = np.isin(first, among) & np.isin(second, among)
        classes = np.unique(np.abs(key[inside]))
        keep = np.isin(np.abs(key), classes)
        first, second, key = first[keep], second[keep], key[keep]
    size = len(HANDS)
    deals = np.stack([HANDS[classes // size], HANDS[classes % size]], axis=1)
    counts = np.zeros((len(classes), 3), np.int64)  # the first hand wins, the second wins, a tie
    one, board = np.ones(1), np.zeros(0, np.uint8)
    chunks = np.array_split(np.arange(len(classes)), max(1, len(classes) // 500))  # a few ms of work each
    done = 0

    def count(chunk):
        codes = np.zeros(16)
        for c in chunk:
            codes[:] = 0
            kernel(deals[c : c + 1], one, one, board, np.int64(0), 5, codes)
            counts[c] = codes[1], codes[2], codes[3]  # bit 0: the first hand's high is best; bit 1: the second's
        return len(chunk)

    with ThreadPoolExecutor(threads or os.cpu_count() or 1) as pool:
        for finished in pool.map(count, chunks):
            done += finished
            if progress:
                progress(done, len(classes))
    if not (counts.sum(axis=1) == BOARDS).all():  # every board is won by one hand or tied
        raise AssertionError("a pair's boards do not add up to C(48, 5)")
    at = np.searchsorted(classes, np.abs(key))
    crossed = key < 0
    wins = np.zeros((size, size), np.uint32)
    ties = np.zeros((size, size), np.uint32)
    wins[first, second] = np.where(crossed, counts[at, 1], counts[at, 0])
    ties[first, second] = counts[at, 2]
    return {"wins": wins, "ties": ties}


def precompute(threads: int | None = None, progress=None) -> Path:
    """Build the table unless it is cached; its file."""
    cached_arrays(path(), lambda: build(threads, progress))
    return path()


def showdown_counts(table, hands: list[np.ndarray], weights: list[np.ndarray]) -> np.ndarray:
    """``float64[16]``, as ``fixed_tuples`` counts showdowns (code 1: the first player's high is
    best, 2: the second's, 3: both): the weighted sums of the boards over every card-disjoint
    pair of the two players' hands."""
    wins, ties = table
    index = [hand_index(h) for h in hands]
    masks = [(np.int64(1) << h[:, 0].astype(np.int64)) | (np.int64(1) << h[:, 1].astype(np.int64)) for h in hands]
    weight = np.outer(weights[0], weights[1]) * ((masks[0][:, None] & masks[1][None, :]) == 0)
    rows, columns = np.ix_(index[0], index[1])
    counts = np.zeros(16)
    counts[1] = (weight * wins[rows, columns]).sum()
    counts[2] = (weight * wins.T[rows, columns]).sum()
    counts[3] = (weight * ties[rows, columns]).sum()
    return counts
