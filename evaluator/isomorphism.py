"""Suit symmetry of a spot: the suit permutations that change nothing, and boards folded by them.

A permutation of the four suits that maps the known board, the dead cards and every range
(each hand to a hand of the same weight) onto themselves changes no total of an enumeration:
a board and its image give the same sums over the ranges. So only one board per orbit is
evaluated, weighted by the orbit's size. A single hand like ``As Ah`` leaves the swap of
spades and hearts and the swap of diamonds and clubs (4 permutations); ``AA`` against ``KK``
all 24; any known board card of a suit breaks the symmetries that move it.

>>> from evaluator.cards import parse_cards
>>> hands = [np.array([parse_cards("As Ah")], np.uint8)]
>>> len(symmetries([], [], hands, [np.ones(1)]))
4
"""

from __future__ import annotations

import itertools

import numpy as np

# PERMUTATION_CARDS[k][card]: the card with its suit relabelled by the k-th permutation.
PERMUTATIONS = tuple(itertools.permutations(range(4)))
PERMUTATION_CARDS = np.array([[(c >> 2) * 4 + p[c & 3] for c in range(52)] for p in PERMUTATIONS], np.int64)
_PERMUTATION_LISTS = PERMUTATION_CARDS.tolist()


def card_masks(hands: np.ndarray) -> np.ndarray:
    """``int64[n]``: bit ``card`` set for each card of each hand (``hands[n, cards]``)."""
    hands = np.asarray(hands, np.int64)
    return np.bitwise_or.reduce(np.int64(1) << hands, axis=1) if hands.shape[1] else np.zeros(len(hands), np.int64)


def symmetries(board: list[int], dead: list[int], hands: list[np.ndarray], weights: list[np.ndarray]) -> np.ndarray:
    """``int64[k, 52]``: the card maps of the suit permutations (the identity first) that fix
    ``board`` and ``dead`` as sets and map each player's ``hands`` (``uint8[n, cards]``) onto
    themselves with equal ``weights``."""
    known = [set(board), set(dead)]
    ranges = []
    for h, w in zip(hands, weights):
        h, w = np.asarray(h, np.int64), np.asarray(w)
        masks = card_masks(h)
        order = np.argsort(masks)
        ranges.append((h, w, masks[order], w[order]))
    keep = []
    for cards, as_list in zip(PERMUTATION_CARDS, _PERMUTATION_LISTS):
        if any(as_list[c] not in cards_of for cards_of in known for c in cards_of):
            continue  # a known card's image is not known: plain Python, quicker than numpy for a few cards
        if all(_maps_onto_itself(cards, *r) for r in ranges):
            keep.append(cards)
    return np.array(keep, np.int64)


def _maps_onto_itself(cards, hands, weights, sorted_masks, sorted_weights) -> bool:
    """Whether ``cards`` maps the hands onto themselves, each image of the same weight as the
    hand it is (compared sorted by card mask)."""
    moved = card_masks(cards[hands])
    if len(moved) == 1:
        return bool(moved[0] == sorted_masks[0])
    order = np.argsort(moved)
    return bool(np.array_equal(moved[order], sorted_masks) and np.array_equal(weights[order], sorted_weights))


def folded_boards(completions: np.ndarray, maps: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """One completion per orbit under ``maps`` (``symmetries``), and its orbit's size.

    ``completions`` (``uint8[m, cards]``) must hold every image of each of its rows (all the
    subsets of a deck the maps fix). The kept row of an orbit is its smallest card mask.

    >>> boards = np.array([[0], [1], [2], [3]], np.uint8)  # 2c, 2d, 2h, 2s
    >>> rows, sizes = folded_boards(boards, PERMUTATION_CARDS)
    >>> rows.tolist(), sizes.tolist()
    ([[0]], [4])
    """
    if len(maps) == 1:
        return completions, np.ones(len(completions), np.int64)
    from evaluator.range_showdown_kernels import fold

    keep, size = fold(completions, maps)
    return completions[keep], size[keep]


def completions(remaining: np.ndarray, missing: int) -> np.ndarray:
    """Every ``missing``-card subset of ``remaining`` as rows, in lexicographic order.

    Built a column at a time: each row so far is repeated once per position that may follow
    its last one.

    >>> completions(np.array([3, 5, 7, 9], np.uint8), 2).tolist()
    [[3, 5], [3, 7], [3, 9], [5, 7], [5, 9], [7, 9]]
    """
    m = len(remaining)
    index = np.zeros((1, 0), np.uint8)  # positions in ``remaining``, one row per subset so far
    for column in range(missing):
        first = index[:, -1].astype(np.int64) + 1 if column else np.zeros(1, np.int64)
        counts = np.maximum(m - missing + column - first + 1, 0)  # positions this column may take
        ends = np.cumsum(counts)
        following = np.arange(ends[-1] if len(ends) else 0) - np.repeat(ends - counts - first, counts)
        index = np.column_stack([np.repeat(index, counts, axis=0), following.astype(np.uint8)])
    return remaining[index]
