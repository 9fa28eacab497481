"""The order check of ``bench/evaluator.py --peers``: a peer's strengths agree with ours exactly
when one scale maps to the other by a strictly monotone function, and every hand of a pair
ordered otherwise is counted."""

import importlib.util
from pathlib import Path

import numpy as np

SPEC = importlib.util.spec_from_file_location("bench_evaluator", Path(__file__).parent.parent / "bench" / "evaluator.py")
bench = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(bench)


def test_scales_in_the_same_order_agree_whatever_their_values_or_direction():
    """A strictly increasing map (or, for a smaller-is-better peer, a decreasing one) is 0 disagreements."""
    ours = np.random.default_rng(1).integers(0, 500, size=5000)
    assert bench.disagreements(ours, 3 * ours + 7, bigger_is_better=True) == 0
    assert bench.disagreements(ours, 10_000 - ours, bigger_is_better=False) == 0


def test_every_hand_of_a_pair_ordered_otherwise_is_counted():
    """Two strengths swapped, two of ours merged into one of theirs, or one of ours split into two
    of theirs: the hands holding those strengths are the disagreements."""
    ours = np.array([1, 2, 3, 4, 4, 5])
    assert bench.disagreements(ours, np.array([10, 30, 20, 40, 40, 50]), True) == 2  # 2 and 3 swapped
    assert bench.disagreements(ours, np.array([10, 20, 20, 40, 40, 50]), True) == 2  # 2 and 3 tied by the peer
    assert bench.disagreements(ours, np.array([10, 20, 30, 40, 41, 50]), True) == 2  # the two 4s told apart
    assert bench.disagreements(ours, np.array([10, 20, 30, 40, 40, 50]), False) == 6  # the wrong direction
