"""Hands played by policies through the reference engine."""

import numpy as np
import pytest

from engine.betting import NO_LIMIT, POT_LIMIT
from engine.phh import dumps, loads, replay
from engine.player import deal_hands, play_hand
from engine.policy import builtin
from evaluator import reference
from evaluator.games import game
from evaluator.settle import split_pot

PLS7, HOLDEM = game("pls7"), game("holdem")


def crude_percentile(hole) -> float:
    """A stand-in for the exact grid: higher ranks are stronger (0 best, 1 worst)."""
    return 1 - sum(c >> 2 for c in hole) / (12 * len(hole))


def test_showdown_policy_is_everyone_showing_down():
    """With `showdown` everyone checks and calls to the river, and the blinds' pot is split by
    the rule book's hi-lo split of the five hands on that board."""
    cards, keys = deal_hands(np.random.default_rng(11), 40, 5, PLS7)
    for i in range(40):
        hand = play_hand(
            PLS7, POT_LIMIT, [builtin("showdown")] * 5, [100] * 5, [1, 2, 0, 0, 0], cards[i], keys[i], crude_percentile
        )
        assert all(a.endswith(" cc") for a in hand.actions if not a.startswith("d") and " sm " not in a)
        assert len(hand.board) == 5 and not any(hand.folded)
        shown = [reference.showdown(PLS7, hand.hole[s], hand.board) for s in range(5)]
        highs = [s.high.strength for s in shown]
        lows = [s.low.strength if s.low else 0 for s in shown]
        assert hand.winnings == split_pot(10, highs, lows, list(range(5)), button=4)


def test_same_seed_same_hand():
    """The same seed and policies give the same hand, action for action."""
    policies = [builtin(name) for name in ("tight", "regular", "loose", "station", "regular", "tight")]

    def hands(seed):
        cards, keys = deal_hands(np.random.default_rng(seed), 20, 6, HOLDEM)
        return [
            play_hand(
                HOLDEM, NO_LIMIT, policies, [200] * 6, [1, 2, 0, 0, 0, 0], cards[i], keys[i], crude_percentile
            ).actions
            for i in range(20)
        ]

    first, again = hands(5), hands(5)
    assert first == again


@pytest.mark.parametrize("game_, betting", [(PLS7, POT_LIMIT), (HOLDEM, NO_LIMIT)])
def test_played_hands_conserve_chips_and_replay_as_records(game_, betting):
    """Mixed policies with short stacks: chips are conserved, stations never bet after the flop,
    and every hand written as PHH replays to the same finishing stacks."""
    rng = np.random.default_rng(3)
    policies = [builtin(name) for name in ("station", "loose", "regular", "tight")]
    cards, keys = deal_hands(rng, 60, 4, game_)
    for i in range(60):
        stacks = [int(x) for x in rng.integers(10, 300, size=4)]
        hand = play_hand(game_, betting, policies, stacks, [1, 2, 0, 0], cards[i], keys[i], crude_percentile)
        assert sum(hand.finishing_stacks) == sum(stacks)
        flop_at = next((i for i, a in enumerate(hand.actions) if a.startswith("d db")), len(hand.actions))
        assert not any(a.startswith("p1 cbr") for a in hand.actions[flop_at:])  # seat 1 is the station
        record = replay(loads(dumps(hand))[0])
        assert record.status == "match" and [int(s) for s in record.finishing_stacks] == hand.finishing_stacks
