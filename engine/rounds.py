"""The betting round's rules, written once: who acts next, who still needs to act, when a round
is over, the chips a bet or a call puts in, an uncalled bet returned, and the bounds of a raise.

Plain functions over a hand's state as arrays indexed by seat (seats clockwise, the button
last): ``stacks`` (chips behind), ``contributed`` (every chip a seat put in this hand), ``bets``
(this street's), ``acted_at`` (the bet level each seat last acted at this street, -1: not yet)
and ``out`` (folded or mucked: no longer in the hand). The reference hand (``engine.hand``)
calls them in Python over lists; the fast engine (``engine.fast``) and the replay kernel
(``engine.fast_replay``) call the same functions as ``engine.rounds_kernels`` compiles them,
over numpy arrays. This module imports no numba itself; what it computes with a structure's
encoding is ``engine.betting``'s.

>>> stacks, contributed, bets = [200, 200, 200], [0, 0, 0], [0, 0, 0]
>>> put(0, 1, stacks, contributed, bets); put(1, 2, stacks, contributed, bets)
>>> out, acted_at = [False] * 3, [-1] * 3
>>> preflop_opener(bets), next_actor(preflop_opener(bets), out, stacks, bets, acted_at)
(2, 2)
>>> to_call(2, stacks, bets), may_fold(2, bets)
(2, True)
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence

import numpy as np

from engine.betting import min_raise_size, raise_bounds

Chips = MutableSequence[int] | np.ndarray
"""Chips by seat: a list in the reference hand, ``int64[seats]`` in the kernels."""
Flags = Sequence[bool] | np.ndarray
"""A mask by seat: a list in the reference hand, ``bool[seats]`` in the kernels."""


def pay(seat: int, amount: int, stacks: Chips, contributed: Chips) -> int:
    """Chips ``seat`` puts in the pot: ``amount``, or its whole stack when short (all-in for
    less); returns the chips paid. An ante is paid this way; a bet is also ``put``."""
    amount = min(amount, stacks[seat])
    stacks[seat] -= amount
    contributed[seat] += amount
    return amount


def put(seat: int, amount: int, stacks: Chips, contributed: Chips, bets: Chips) -> None:
    """A blind, call, bet or raise: chips paid (``pay``) that count toward ``seat``'s bet this street."""
    bets[seat] += pay(seat, amount, stacks, contributed)


def top_bet(bets: Chips) -> int:
    """The bet every seat in the round must match: the largest this street."""
    top = bets[0]
    for bet in bets:
        top = max(top, bet)
    return top


def live_count(out: Flags) -> int:
    """Seats still in the hand (neither folded nor mucked); one left wins the pot."""
    count = 0
    for gone in out:
        count += not gone
    return count


def preflop_opener(bets: Chips) -> int:
    """The seat that acts first preflop: left of the largest blind or straddle, the later seat
    on a tie (RULES 2.2: left of the big blind; heads-up the button, which posts the small blind)."""
    largest = 0
    for s in range(len(bets)):
        if bets[s] >= bets[largest]:
            largest = s
    return (largest + 1) % len(bets)


def to_call(seat: int, stacks: Chips, bets: Chips) -> int:
    """Chips ``seat`` adds to check (0) or call: the gap to the top bet, all-in when it is short."""
    return min(top_bet(bets) - bets[seat], stacks[seat])


def may_fold(seat: int, bets: Chips) -> bool:
    """Whether ``seat`` may fold: only facing a bet (a seat that may check does not fold)."""
    return top_bet(bets) > bets[seat]


def needs_to_act(seat: int, out: Flags, stacks: Chips, bets: Chips, acted_at: Chips, max_bet: int) -> bool:
    """Whether ``seat`` must still act this round: in the hand with chips, another seat in the
    hand, and either short of the top bet ``max_bet`` or not yet acted while someone else has
    chips to bet against."""
    if out[seat] or stacks[seat] == 0:
        return False
    others = False
    others_all_in = True
    for s in range(len(out)):
        if s != seat and not out[s]:
            others = True
            if stacks[s] != 0:
                others_all_in = False
    if not others:
        return False
    if bets[seat] < max_bet:
        return True
    if others_all_in:
        return False
    return acted_at[seat] < 0


def next_actor(start: int, out: Flags, stacks: Chips, bets: Chips, acted_at: Chips) -> int:
    """The first seat from ``start`` clockwise that ``needs_to_act``; -1 when none does: the
    betting round is over."""
    seats = len(out)
    max_bet = top_bet(bets)
    for step in range(seats):
        seat = (start + step) % seats
        if needs_to_act(seat, out, stacks, bets, acted_at, max_bet):
            return seat
    return -1


def return_uncalled(stacks: Chips, contributed: Chips, bets: Chips) -> None:
    """At the end of a round: the part of a bet nobody matched goes back to the one who bet it."""
    top = top_bet(bets)
    at_top = 0
    second = -1
    owner = -1
    for s in range(len(bets)):
        if bets[s] == top:
            at_top += 1
            owner = s
        else:
            second = max(second, bets[s])
    if at_top == 1 and len(bets) > 1 and top > second:
        excess = top - max(second, 0)
        bets[owner] -= excess
        contributed[owner] -= excess
        stacks[owner] += excess


def check_call(seat: int, stacks: Chips, contributed: Chips, bets: Chips, acted_at: Chips) -> int:
    """``seat`` checks or calls (``to_call``, all-in when short); returns the chips it put in."""
    chips = to_call(seat, stacks, bets)
    put(seat, chips, stacks, contributed, bets)
    acted_at[seat] = top_bet(bets)
    return chips


def raise_to(
    seat: int,
    amount: int,
    structure: np.ndarray,
    street: int,
    last_raise: int,
    stacks: Chips,
    contributed: Chips,
    bets: Chips,
    acted_at: Chips,
) -> int:
    """``seat`` bets or raises to ``amount`` (this street's total, within ``seat_raise_bounds``);
    returns the street's last full raise after it: a raise by at least the minimum sets the next
    minimum and reopens the betting, a short all-in does neither."""
    increment = amount - top_bet(bets)
    if increment >= min_raise_size(structure, street, last_raise):
        last_raise = increment
    put(seat, amount - bets[seat], stacks, contributed, bets)
    acted_at[seat] = amount
    return last_raise


def seat_raise_bounds(
    seat: int,
    structure: np.ndarray,
    street: int,
    last_raise: int,
    raises: int,
    out: Flags,
    stacks: Chips,
    bets: Chips,
    acted_at: Chips,
    contributed: Chips,
) -> tuple[int, int]:
    """``(lowest, highest)`` street total ``seat`` may bet or raise to in this state, or
    ``(-1, -1)``: ``engine.betting.raise_bounds`` (RULES 2.4 for pot limit) of the seat's stack,
    the bet to match, the pot and the players in."""
    live = 0
    opponents_with_chips = 0
    pot = 0
    for s in range(len(out)):
        pot += contributed[s]
        if not out[s]:
            live += 1
            if s != seat and stacks[s] != 0:
                opponents_with_chips += 1
    max_bet = top_bet(bets)
    return raise_bounds(
        structure,
        street,
        last_raise,
        raises,
        live,
        opponents_with_chips,
        stacks[seat] + bets[seat],
        max_bet,
        max_bet - bets[seat],
        acted_at[seat],
        pot,
    )


def betting_may_go_on(out: Flags, stacks: Chips) -> bool:
    """Whether two or more seats in the hand still have chips: the next street's betting may
    follow; otherwise the board runs out to the showdown."""
    with_chips = 0
    for s in range(len(out)):
        with_chips += not out[s] and stacks[s] > 0
    return with_chips > 1
