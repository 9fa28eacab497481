"""The numba engine plays every hand exactly as the reference engine does: same actions, same
finishing stacks, same streets and pots, hand by hand."""

import numpy as np
import pytest

from engine.betting import FIXED_LIMIT, NO_LIMIT, POT_LIMIT
from engine.fast import CHECK_CALL, DEAL, FOLD, RAISE, play_batch
from engine.player import deal_hands, play_hand
from engine.policy import builtin
from evaluator.games import game

MIXED = ["station", "loose", "regular", "tight", "pro-like", "regular"]


def crude_percentile(hole) -> float:
    """A stand-in for the exact grid: higher ranks are stronger (0 best, 1 worst)."""
    return 1 - sum(c >> 2 for c in hole) / (12 * len(hole))


def reference_log(hand) -> list[tuple[int, int, int]]:
    """The reference hand's actions as the fast engine logs them (hole-card deals left out)."""
    out = []
    for action in hand.actions:
        words = action.split()
        if words[:2] == ["d", "db"]:
            out.append((-1, DEAL, len(words[2]) // 2))
        elif words[0] != "d":
            seat = int(words[0][1:]) - 1
            kind = {"f": FOLD, "cc": CHECK_CALL, "cbr": RAISE}[words[1]]
            out.append((seat, kind, int(words[2]) if kind == RAISE else 0))
    return out


def reached(hand) -> int:
    return 4 if len(hand.live) > 1 else {0: 0, 3: 1, 4: 2, 5: 3}[len(hand.board)]


def compare(name, betting, seats, hands, seed, policies=None, stacks=None):
    """Play ``hands`` hands of ``name`` in both engines and assert they agree on everything."""
    g = game(name)
    rng = np.random.default_rng(seed)
    policies = [builtin(p) for p in (policies or MIXED[:seats])]
    stacks = stacks or [200] * seats
    blinds = [1, 2] + [0] * (seats - 2)
    cards, keys = deal_hands(rng, hands, seats, g)
    hole = cards[:, : seats * g.hole_cards].reshape(hands, seats, g.hole_cards)
    ranks = np.array([[crude_percentile(sorted(h.tolist())) for h in row] for row in hole])
    fast = play_batch(g, betting, policies, stacks, blinds, cards, keys, ranks, keep_actions=True)
    for i in range(hands):
        ref = play_hand(g, betting, policies, list(stacks), blinds, cards[i], keys[i], crude_percentile)
        where = f"{name} hand {i}"
        assert [tuple(int(x) for x in row) for row in fast.actions[i, : fast.action_count[i]]] == reference_log(ref), where
        assert fast.finishing[i].tolist() == ref.finishing_stacks, where
        assert fast.voluntary[i].tolist() == [s in ref.voluntary for s in range(seats)], where
        assert fast.reached[i] == reached(ref) and fast.pot[i] == ref.pot, where
        assert fast.live[i].tolist() == [s in ref.live for s in range(seats)], where
    return fast


@pytest.mark.parametrize("name, betting, seats, hands", [
    ("pls7", POT_LIMIT, 6, 1000), ("holdem", NO_LIMIT, 6, 1000), ("plo8", POT_LIMIT, 6, 1000), ("plo", POT_LIMIT, 6, 1000),
    ("holdem", FIXED_LIMIT, 4, 300), ("plo8", POT_LIMIT, 5, 300), ("plo", POT_LIMIT, 2, 300), ("pls7", NO_LIMIT, 3, 300),
])
def test_fast_engine_equals_the_reference_hand_by_hand(name, betting, seats, hands):
    """Mixed policies, 1,000 six-handed hands per game (and 300 of other tables and structures):
    every action and every finishing stack agree."""
    fast = compare(name, betting, seats, hands, seed=seats)
    assert fast.reached.max() == 4 and fast.reached.min() == 0  # some hands end preflop, some at showdown


def test_short_and_uneven_stacks_side_pots_agree():
    """Stacks from 3 to 300 chips: all-ins for less, side pots and odd chips agree with the reference."""
    rng = np.random.default_rng(3)
    for k in range(6):
        stacks = [int(x) for x in rng.integers(3, 300, size=6)]
        compare("pls7", POT_LIMIT if k % 2 else NO_LIMIT, 6, 60, seed=100 + k, stacks=stacks,
                policies=["loose", "station", "loose", "pro-like", "loose", "regular"])


@pytest.mark.slow
@pytest.mark.parametrize("name, betting", [("pls7", POT_LIMIT), ("holdem", NO_LIMIT), ("plo8", POT_LIMIT), ("plo", POT_LIMIT)])
def test_fast_engine_equals_the_reference_on_100k_hands(name, betting):
    """100,000 six-handed hands per game with mixed policies: the engines agree hand by hand."""
    compare(name, betting, 6, 100_000, seed=2026)
