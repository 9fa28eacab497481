"""Reads of opponents' preflop actions (``engine.reads``): each action's read, the cap a policy
gives a set of reads, and the reads of a reference-engine hand, which the numba engine must note
the same way as it plays (``tests/test_fast_engine.py``, ranges policies)."""

import dataclasses

import pytest

from engine.betting import NO_LIMIT
from engine.hand import Hand
from engine.policy import Policy, Preflop, builtin
from engine.reads import (
    CALLED,
    CALLED_RAISES,
    CHECKED,
    LIMPED,
    MIN_CAP,
    OPENED,
    OVERCALLED,
    RERAISED,
    caps,
    preflop_read,
    preflop_reads,
    range_cap,
)
from evaluator.games import game

HOLDEM = game("holdem")
MODEL = Policy(
    "model",
    preflop=Preflop(
        open_early=0.10, open_late=0.30, call=0.20, overcall=0.15, reraise=0.04, call_reraised=0.06, limp=False
    ),
)


@pytest.mark.parametrize(
    "raised, raises, callers, can_fold, read",
    [
        (True, 0, 0, True, OPENED),
        (True, 0, 3, True, OPENED),
        (True, 0, 0, False, OPENED),  # the big blind raising limpers
        (True, 1, 0, True, RERAISED),
        (True, 3, 1, True, RERAISED),
        (False, 0, 0, True, LIMPED),
        (False, 0, 2, True, LIMPED),
        (False, 0, 2, False, CHECKED),
        (False, 1, 0, True, CALLED),
        (False, 1, 1, True, OVERCALLED),
        (False, 1, 4, True, OVERCALLED),
        (False, 2, 0, True, CALLED_RAISES),
        (False, 4, 2, True, CALLED_RAISES),
    ],
)
def test_each_preflop_action_reads_as_the_table_says(raised, raises, callers, can_fold, read):
    """A first raise is an open, a later one a re-raise; a call is a limp, a check, a call, an
    overcall or a call of raises by the raises and callers it faced."""
    assert preflop_read(raised, raises, callers, can_fold) == read


@pytest.mark.parametrize(
    "reads, position, cap",
    [
        (0, 0.5, 1.0),
        (CHECKED, 0.0, 1.0),
        (OPENED, 0.0, 0.10),
        (OPENED, 1.0, 0.30),
        (OPENED, 0.5, 0.20),
        (RERAISED, 0.5, 0.04),
        (CALLED, 0.5, 0.20),
        (OVERCALLED, 0.5, 0.15),
        (CALLED_RAISES, 0.5, 0.06),
        (LIMPED, 0.25, 0.15),  # a model that never limps reads a limp as its open share
        (OPENED | CALLED_RAISES, 1.0, 0.06),
        (LIMPED | CALLED, 0.0, 0.10),
        (CHECKED | RERAISED, 0.0, 0.04),
    ],
)
def test_the_cap_is_the_tightest_of_the_reads_under_the_readers_thresholds(reads, position, cap):
    """The cap of a set of reads is the smallest of their thresholds, the open share at the
    opponent's position; no read (or only a check) leaves every hand."""
    assert range_cap(MODEL.encode(), reads, position) == pytest.approx(cap)


def test_a_limping_model_reads_a_limp_as_its_limping_range_and_no_cap_is_below_the_floor():
    """With ``limp`` a limp caps at 1.5 times the larger of the call and open shares (at most
    every hand); a re-raise from a model that re-raises nothing caps at ``MIN_CAP``."""
    limper = dataclasses.replace(MODEL, preflop=dataclasses.replace(MODEL.preflop, limp=True, call=0.5))
    assert range_cap(limper.encode(), LIMPED, 0.0) == pytest.approx(0.75)
    wide = dataclasses.replace(limper, preflop=dataclasses.replace(limper.preflop, call=0.9))
    assert range_cap(wide.encode(), LIMPED, 0.0) == 1.0
    never = dataclasses.replace(MODEL, preflop=dataclasses.replace(MODEL.preflop, reraise=0.0))
    assert range_cap(never.encode(), RERAISED, 0.0) == MIN_CAP


def play(hand, actions):
    for action in actions:
        seat, verb, *amount = action.split()
        assert hand.actor == int(seat[1:]) - 1, (action, hand.actor)
        {"f": hand.fold, "cc": hand.check_call}.get(verb, lambda amount=amount: hand.raise_to(int(amount[0])))()
    return hand


def test_the_reads_of_a_hand_follow_its_preflop_actions():
    """Six-handed: a limp, an iso-raise (an open), a call, an overcall, a fold, a re-raise from
    the small blind and two calls of it; the flop's actions add nothing."""
    hand = play(
        Hand(HOLDEM, NO_LIMIT, [200] * 6, [1, 2, 0, 0, 0, 0]),
        ["p3 cc", "p4 cbr 8", "p5 cc", "p6 cc", "p1 cbr 30", "p2 f", "p3 cc", "p4 cc", "p5 f", "p6 f"],
    )
    hand.deal_board([0, 5, 10])
    play(hand, ["p1 cbr 20", "p3 cc"])
    assert preflop_reads(hand) == [RERAISED, 0, LIMPED | CALLED_RAISES, OPENED | CALLED_RAISES, CALLED, OVERCALLED]


def test_the_big_blinds_check_reads_nothing_and_heads_up_the_button_limps():
    """Blinds as posted decide whether a call of them could have been a fold: the big blind's
    check is no read; heads-up the button posts the small blind, so its call is a limp."""
    six = play(
        Hand(HOLDEM, NO_LIMIT, [200] * 6, [1, 2, 0, 0, 0, 0]), ["p3 f", "p4 f", "p5 f", "p6 f", "p1 cc", "p2 cc"]
    )
    assert preflop_reads(six) == [LIMPED, CHECKED, 0, 0, 0, 0]
    heads_up = play(Hand(HOLDEM, NO_LIMIT, [200] * 2, [1, 2]), ["p2 cc", "p1 cc"])
    assert preflop_reads(heads_up) == [CHECKED, LIMPED]
    straddled = play(Hand(HOLDEM, NO_LIMIT, [200] * 4, [1, 2, 4, 0]), ["p4 cc", "p1 cc", "p2 cc", "p3 cc"])
    assert preflop_reads(straddled) == [LIMPED, LIMPED, CHECKED, LIMPED]


def test_caps_are_each_live_opponents_in_seat_order():
    """``caps`` gives the seat's opponents still in, in seat order, each capped by the reader's policy."""
    hand = play(Hand(HOLDEM, NO_LIMIT, [200] * 4, [1, 2, 0, 0]), ["p3 cbr 6", "p4 cc", "p1 f", "p2 cc"])
    hand.deal_board([0, 5, 10])
    order = {0: 1 / 3, 1: 2 / 3, 2: 0.0, 3: 1.0}
    regular = builtin("regular").preflop
    assert caps(hand, 1, builtin("regular").encode(), order) == pytest.approx([regular.open_early, regular.call])
    assert caps(hand, 2, MODEL.encode(), order) == pytest.approx([0.15, 0.20])  # p2 overcalled, p4 called
