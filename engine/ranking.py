"""Starting hands in order of strength, as data: preflop percentiles and top-N % ranges.

A ``HandRanking`` is built from one strength per starting-hand class (``evaluator.cards.
hand_classes``): in this project each class's heads-up equity against one random hand, which
a study computes (``jobs.hand_ranking``: the exact grid for 2 and 3 hole cards, sampled for 4).
It holds no files and runs nothing: the driver builds it once and hands it to every shard.

A hand's **percentile** is the share of all starting hands in stronger classes (0 for the
best class; classes of equal strength keep their class order).

>>> ranking = HandRanking.from_strengths(2, [0.5] * 168 + [0.85])  # AA, the last class, the best
>>> float(ranking.percentile[168]), round(float(ranking.percentile[0]), 4)
(0.0, 0.0045)
>>> from evaluator.cards import parse_cards
>>> ranking(parse_cards("Ad Ac")), sorted(ranking.top(0.1)) == sorted(ranking.top(0.45))
(0.0, True)
"""

from __future__ import annotations

import dataclasses
import functools

import numpy as np

from evaluator.cards import hand_classes, hand_code, iso_classes
from evaluator.errors import SampyongError


@dataclasses.dataclass(frozen=True, eq=False)
class HandRanking:
    """Each starting-hand class's percentile among all starting hands.

    Parameters:
        hole_cards: the cards of a starting hand (2, 3 or 4).
        percentile: ``float64[classes]``, by class id: the share of all hands stronger (0 best).
        order: class ids, strongest first.
    """

    hole_cards: int
    percentile: np.ndarray
    order: np.ndarray

    @classmethod
    def from_strengths(cls, hole_cards: int, strengths) -> HandRanking:
        """The ranking of classes by ``strengths`` (one per class id, larger is stronger)."""
        strengths = np.asarray(strengths, np.float64)
        sizes = hand_classes(hole_cards)[1]
        if len(strengths) != len(sizes):
            raise SampyongError(f"{len(strengths)} strengths for {len(sizes)} classes of {hole_cards} cards")
        order = np.argsort(-strengths, kind="stable")  # strongest first; ties keep the class order
        above = np.cumsum(sizes[order]) - sizes[order]
        percentile = np.empty(len(sizes), np.float64)
        percentile[order] = above / sizes.sum()
        return cls(hole_cards, percentile, order)

    def classes(self, hole) -> np.ndarray:
        """The class id of each hand of ``hole[..., cards]`` (cards in any order)."""
        return hand_classes(self.hole_cards)[0][hand_code(hole)]

    def ranks(self, hole) -> np.ndarray:
        """The percentile of each hand of ``hole[..., cards]``."""
        return self.percentile[self.classes(hole)]

    @functools.cached_property
    def hands_in_order(self) -> tuple[np.ndarray, np.ndarray]:
        """``(hands, percentiles)``: every starting hand (``uint8[hands, hole_cards]``, cards
        ascending), the strongest first, and each one's percentile, ascending, so that the hands
        under a percentile cap are the first ``searchsorted(percentiles, cap)`` (``engine.strength``)."""
        hands, class_of, _ = iso_classes(self.hole_cards)
        percentiles = self.percentile[class_of]
        order = np.argsort(percentiles, kind="stable")
        return np.ascontiguousarray(hands[order], np.uint8), np.ascontiguousarray(percentiles[order])

    def __call__(self, hole) -> float:
        """One hand's percentile (a sequence of cards), as the reference engine asks."""
        return float(self.ranks(np.asarray(hole)))

    def top(self, percent: float) -> set[tuple[int, ...]]:
        """The hands (sorted card tuples) of the best classes whose combined share first reaches
        ``percent`` % of all hands (the class that crosses it included): ranges' ``N%``."""
        hands, class_of, sizes = iso_classes(self.hole_cards)
        target = sizes.sum() * percent / 100
        chosen, held = [], 0
        for k in self.order:
            if held >= target:
                break
            chosen.append(k)
            held += sizes[k]
        picked = np.isin(class_of, chosen)
        return {tuple(hand) for hand in hands[picked].tolist()}
