"""The betting round's rules (``engine.rounds``) on small states worked out by hand, and their
compiled selves (``engine.rounds_kernels``) giving the same answers and the same state changes
on random states, over numpy arrays; the plain functions over lists as over arrays."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import rounds, rounds_kernels
from engine.betting import NO_LIMIT, POT_LIMIT, fixed_limit
from engine.hand import Hand
from evaluator.games import game


def heads_up_preflop():
    """Stacks of 100, blinds 1 and 2: the button (seat 1) posts the small blind."""
    stacks, contributed, bets = [100, 100], [0, 0], [0, 0]
    rounds.put(0, 2, stacks, contributed, bets)
    rounds.put(1, 1, stacks, contributed, bets)
    return stacks, contributed, bets, [False, False], [-1, -1]


def test_heads_up_the_button_acts_first_preflop_and_the_big_blind_closes():
    stacks, contributed, bets, out, acted_at = heads_up_preflop()
    assert (stacks, contributed, bets) == ([98, 99], [2, 1], [2, 1])
    opener = rounds.preflop_opener(bets)
    assert opener == 1 and rounds.next_actor(opener, out, stacks, bets, acted_at) == 1
    assert rounds.to_call(1, stacks, bets) == 1 and rounds.may_fold(1, bets)
    structure = NO_LIMIT.encode(min_bet=2)
    assert rounds.seat_raise_bounds(1, structure, 0, 0, 0, out, stacks, bets, acted_at, contributed) == (4, 100)
    # pot limit: call 1, then raise by the pot after the call (4): to 6
    pot_limit = POT_LIMIT.encode(min_bet=2)
    assert rounds.seat_raise_bounds(1, pot_limit, 0, 0, 0, out, stacks, bets, acted_at, contributed) == (4, 6)
    assert rounds.check_call(1, stacks, contributed, bets, acted_at) == 1
    assert rounds.next_actor(0, out, stacks, bets, acted_at) == 0  # the big blind has its option
    assert not rounds.may_fold(0, bets) and rounds.to_call(0, stacks, bets) == 0
    assert rounds.check_call(0, stacks, contributed, bets, acted_at) == 0
    assert rounds.next_actor(1, out, stacks, bets, acted_at) == -1  # the round is over


def test_live_count_counts_the_seats_still_in_the_hand():
    """The fast engine settles a hand when one seat is left; folded and mucked seats are out."""
    assert rounds.live_count([False, True, False]) == 2
    assert rounds.live_count([True, True, False]) == 1
    assert rounds_kernels.live_count(np.array([False, False, False, True])) == 3


def test_the_largest_blind_or_straddle_acts_last_preflop():
    assert rounds.preflop_opener([1, 2, 0, 0]) == 2
    assert rounds.preflop_opener([1, 2, 4, 0]) == 3  # a straddle
    assert rounds.preflop_opener([2, 2, 0]) == 2  # a tie: the later seat


def test_an_all_in_call_ends_the_action():
    stacks, contributed, bets, out, acted_at = heads_up_preflop()
    structure = NO_LIMIT.encode(min_bet=2)
    assert rounds.raise_to(1, 100, structure, 0, 0, stacks, contributed, bets, acted_at) == 98
    assert stacks == [98, 0] and bets == [2, 100] and acted_at == [-1, 100]
    assert rounds.next_actor(0, out, stacks, bets, acted_at) == 0
    assert rounds.seat_raise_bounds(0, structure, 0, 98, 1, out, stacks, bets, acted_at, contributed) == (-1, -1)
    assert rounds.check_call(0, stacks, contributed, bets, acted_at) == 98
    assert rounds.next_actor(1, out, stacks, bets, acted_at) == -1
    assert not rounds.betting_may_go_on(out, stacks)


def test_nobody_acts_when_everyone_else_is_all_in():
    stacks, bets, out = [50, 0, 0], [0, 0, 0], [False, False, False]
    assert not rounds.needs_to_act(0, out, stacks, bets, [-1, -1, -1], 0)
    assert rounds.next_actor(0, out, stacks, bets, [-1, -1, -1]) == -1
    # ... but facing a bet it does: a call
    assert rounds.needs_to_act(0, out, stacks, [0, 10, 0], [-1, 10, -1], 10)
    # a folded seat, or the only seat left, never acts
    assert not rounds.needs_to_act(0, [True, False, False], [50, 50, 50], bets, [-1] * 3, 0)
    assert not rounds.needs_to_act(0, [False, True, True], [50, 50, 50], bets, [-1] * 3, 0)


def test_no_raise_when_nobody_left_could_call_it():
    structure = NO_LIMIT.encode(min_bet=2)
    stacks, contributed, bets = [180, 100, 0], [20, 0, 20], [20, 0, 20]  # seat 2 all-in for 20
    acted_at = [-1, -1, 20]  # seat 0 has not acted: a raise would be open to it but for seat 2's all-in
    out = [False, True, False]  # seat 1 folded: only the all-in seat is left against seat 0
    assert rounds.seat_raise_bounds(0, structure, 0, 2, 1, out, stacks, bets, acted_at, contributed) == (-1, -1)
    out = [False, False, False]  # seat 1, with chips, still in: seat 0 may raise
    assert rounds.seat_raise_bounds(0, structure, 0, 2, 1, out, stacks, bets, acted_at, contributed) == (22, 200)


def test_an_uncalled_bet_goes_back():
    stacks, contributed, bets = [0, 60, 100], [10, 40, 0], [10, 40, 0]
    rounds.return_uncalled(stacks, contributed, bets)  # seat 0 called all-in for 10; seat 2 folded
    assert (stacks, contributed, bets) == ([0, 90, 100], [10, 10, 0], [10, 10, 0])
    stacks, contributed, bets = [94, 94, 100], [6, 6, 0], [0, 6, 0]
    rounds.return_uncalled(stacks, contributed, bets)  # a bet everyone folded to
    assert (stacks, contributed, bets) == ([94, 100, 100], [6, 0, 0], [0, 0, 0])
    stacks, contributed, bets = [90, 90], [10, 10], [10, 10]
    rounds.return_uncalled(stacks, contributed, bets)  # called: nothing goes back
    assert (stacks, contributed, bets) == ([90, 90], [10, 10], [10, 10])


def test_a_short_all_in_does_not_reopen_the_betting():
    structure = NO_LIMIT.encode(min_bet=2)
    stacks, contributed, bets = [90, 15, 100], [0, 0, 0], [0, 0, 0]
    out, acted_at = [False] * 3, [-1] * 3
    last = rounds.raise_to(0, 10, structure, 1, 0, stacks, contributed, bets, acted_at)
    assert last == 10
    last = rounds.raise_to(1, 15, structure, 1, last, stacks, contributed, bets, acted_at)
    assert last == 10  # 5 more: short of a full raise
    rounds.check_call(2, stacks, contributed, bets, acted_at)
    assert rounds.next_actor(0, out, stacks, bets, acted_at) == 0  # it must call the 5 more
    assert rounds.seat_raise_bounds(0, structure, 1, last, 2, out, stacks, bets, acted_at, contributed) == (-1, -1)
    assert rounds.to_call(0, stacks, bets) == 5


def test_the_pot_limit_maximum_counts_every_chip_in_the_middle():
    structure = POT_LIMIT.encode(min_bet=2)
    stacks, contributed, bets = [500, 500, 500], [30, 30, 30], [0, 0, 0]  # 90 from earlier streets
    out, acted_at = [False] * 3, [-1] * 3
    rounds.raise_to(0, 20, structure, 1, 0, stacks, contributed, bets, acted_at)
    # seat 1: call 20, then raise by the pot after the call, 90 + 20 + 20: to 150
    assert rounds.seat_raise_bounds(1, structure, 1, 20, 1, out, stacks, bets, acted_at, contributed) == (40, 150)


def test_a_mucked_seat_is_out_of_the_hand():
    """A seat that mucked while the board is still to come is never asked to act again (the
    reference asked it before ``engine.rounds``: its own rule counted only a fold)."""
    hand = Hand(game("holdem"), NO_LIMIT, stacks=[200] * 3, blinds=[1, 2, 0], auto_showdown=False)
    for seat, cards in enumerate(["As Ah", "Kd Kc", "7h 2c"]):
        hand.deal_hole(seat, cards)
    for _ in range(3):
        hand.check_call()
    hand.deal_board("Ad 7s 4h")
    for _ in range(3):
        hand.check_call()
    hand.show(2, None)
    hand.deal_board("5c")
    hand.check_call()
    hand.check_call()
    assert hand.actor is None and hand.board_due == 1


# --- the compiled rules against the plain ones, on random states -------------------------------

STRUCTURES = [NO_LIMIT.encode(2), POT_LIMIT.encode(2), fixed_limit(max_bets=3).encode(2), NO_LIMIT.encode(1)]


@st.composite
def states(draw):
    """A betting state: stacks, contributions at least this street's bets, acted-at levels at
    most the top bet, some seats out."""
    n = draw(st.integers(2, 9))
    stacks = np.array(draw(st.lists(st.integers(0, 60), min_size=n, max_size=n)), np.int64)
    bets = np.array(draw(st.lists(st.integers(0, 40), min_size=n, max_size=n)), np.int64)
    earlier = np.array(draw(st.lists(st.integers(0, 30), min_size=n, max_size=n)), np.int64)
    out = np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)), np.bool_)
    top = int(bets.max())
    acted_at = np.array(draw(st.lists(st.integers(-1, top), min_size=n, max_size=n)), np.int64)
    return stacks, bets + earlier, bets, out, acted_at


def copies(*arrays):
    """The state twice over numpy arrays (one for each version) and once as lists."""
    return [a.copy() for a in arrays], [a.copy() for a in arrays], [a.tolist() for a in arrays]


def same(compiled, plain_arrays, plain_lists):
    for a, b, c in zip(compiled, plain_arrays, plain_lists):
        assert a.tolist() == b.tolist() == c


@pytest.mark.untraced
@settings(max_examples=300, deadline=None)
@given(states(), st.data())
def test_compiled_rules_give_the_plain_rules_answers(state, data):
    stacks, contributed, bets, out, acted_at = state
    n = len(stacks)
    seat = data.draw(st.integers(0, n - 1))
    max_bet = int(bets.max())
    for name, args in [
        ("top_bet", (bets,)),
        ("live_count", (out,)),
        ("preflop_opener", (bets,)),
        ("to_call", (seat, stacks, bets)),
        ("may_fold", (seat, bets)),
        ("needs_to_act", (seat, out, stacks, bets, acted_at, max_bet)),
        ("next_actor", (seat, out, stacks, bets, acted_at)),
        ("betting_may_go_on", (out, stacks)),
    ]:
        answer = getattr(rounds_kernels, name)(*args)
        lists = [a.tolist() if isinstance(a, np.ndarray) else a for a in args]
        assert answer == getattr(rounds, name)(*args) == getattr(rounds, name)(*lists), name
    structure = STRUCTURES[data.draw(st.integers(0, len(STRUCTURES) - 1))]
    street, last_raise, raises = (
        data.draw(st.integers(0, 3)),
        data.draw(st.integers(0, 12)),
        data.draw(st.integers(0, 4)),
    )
    bounds = (seat, structure, street, last_raise, raises)
    state_args = (out, stacks, bets, acted_at, contributed)
    answer = rounds_kernels.seat_raise_bounds(*bounds, *state_args)
    lists = [a.tolist() for a in state_args]
    assert answer == rounds.seat_raise_bounds(*bounds, *state_args) == rounds.seat_raise_bounds(*bounds, *lists)


@settings(max_examples=300, deadline=None)
@given(states(), st.data())
def test_compiled_rules_change_the_state_as_the_plain_rules_do(state, data):
    stacks, contributed, bets, out, acted_at = state
    seat = data.draw(st.integers(0, len(stacks) - 1))
    amount = data.draw(st.integers(0, 80))
    structure = STRUCTURES[data.draw(st.integers(0, len(STRUCTURES) - 1))]
    street, last_raise = data.draw(st.integers(0, 3)), data.draw(st.integers(0, 12))
    target = int(bets.max()) + amount  # a raise to: at least the top bet (bounds are checked apart)
    for name, head, arrays in [
        ("pay", (seat, amount), (stacks, contributed)),
        ("put", (seat, amount), (stacks, contributed, bets)),
        ("return_uncalled", (), (stacks, contributed, bets)),
        ("check_call", (seat,), (stacks, contributed, bets, acted_at)),
        ("raise_to", (seat, target, structure, street, last_raise), (stacks, contributed, bets, acted_at)),
    ]:
        compiled, plain, lists = copies(*arrays)
        answer = getattr(rounds_kernels, name)(*head, *compiled)
        assert answer == getattr(rounds, name)(*head, *plain) == getattr(rounds, name)(*head, *lists), name
        same(compiled, plain, lists)
