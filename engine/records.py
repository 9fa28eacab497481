"""What a finished hand shows, read from its actions: the figures ``run play`` counts, for a hand
of any origin (played by a policy, or a record replayed by ``engine.phh``).

The definitions are the fast engine's (``engine.fast.Played``), so a record of a simulated hand
gives the very figures the simulation counted: the players in the hand when each street's
betting begins (folds before it), the last street reached (4: a showdown, two or more players
left after the last betting round), the seats still in at the end, the seats that put chips in
preflop by choice, the pot and each seat's result.

>>> from evaluator.games import game
>>> from engine.betting import NO_LIMIT
>>> from engine.hand import Hand
>>> hand = Hand(game("holdem"), NO_LIMIT, [200, 200, 200], [1, 2, 0])
>>> for seat, cards in enumerate(["As Ah", "Kd Kc", "7h 2d"]):
...     hand.deal_hole(seat, cards)
>>> hand.raise_to(6); hand.fold(); hand.check_call()  # p3 raises, p1 folds, p2 calls
>>> hand.deal_board("Qs Js 2h"); hand.check_call(); hand.check_call()
>>> hand.deal_board("3c"); hand.raise_to(10); hand.fold()  # p2 bets the turn, p3 folds
>>> shown = figures(hand)
>>> shown.reached, shown.players_at, shown.live, shown.voluntary, shown.pot, shown.net
(2, (3, 2, 2, 0, 0), (False, True, False), (False, True, True), 13, (-1, 7, -6))
"""

from __future__ import annotations

import dataclasses

import numpy as np

from engine.chance import CHECK_CALL, FOLD, RAISE
from engine.hand import Hand
from evaluator.jit import njit

SHOWDOWN = 4  # ``reached`` of a hand that ends in a showdown


@dataclasses.dataclass(frozen=True)
class HandFigures:
    """One finished hand as the play tables count it.

    Parameters:
        reached: the last street reached, 0 preflop .. 3 river, 4 showdown.
        players_at: players in the hand when each street's betting began, then at showdown
            (0 for streets not reached).
        live: per seat, still in at the end (at showdown, or the one who won the pot).
        voluntary: per seat, put chips in preflop by choice (a call or a raise).
        pot: the chips in the pot at the end.
        net: per seat, chips won (positive) or lost.
    """

    reached: int
    players_at: tuple[int, ...]
    live: tuple[bool, ...]
    voluntary: tuple[bool, ...]
    pot: int
    net: tuple[int, ...]


def figures(hand: Hand) -> HandFigures:
    """The figures of a finished ``hand`` (``ValueError`` if it is not over)."""
    if not hand.done:
        raise ValueError("figures of a hand that is not over")
    count, at = hand.seats, [hand.seats]
    for action in hand.actions:
        words = action.split()
        if words[:2] == ["d", "db"]:
            at.append(count)
        elif len(words) > 1 and words[1] == "f":
            count -= 1
    in_hand = [not folded for folded in hand.folded]  # a muck at showdown still reached it
    showdown = sum(in_hand) > 1
    reached = SHOWDOWN if showdown else len(at) - 1
    shown = (at + [sum(in_hand)] if showdown else at[: reached + 1]) + [0] * 5
    return HandFigures(
        reached=reached,
        players_at=tuple(shown[:5]),
        live=tuple(in_hand),
        voluntary=tuple(seat in hand.voluntary for seat in range(hand.seats)),
        pot=hand.pot,
        net=tuple(f - s for f, s in zip(hand.finishing_stacks, hand.starting_stacks)),
    )


# The players' statistics of hand-history tools, each a count per seat and hand (``seat_stats``).
STATS = (
    "vpip",  # put chips in preflop by choice
    "pfr",  # raised preflop
    "three_bet",  # made the second raise preflop...
    "three_bet_chance",  # ...of the hands where it acted facing exactly one raise
    "flop",  # still in when the flop was dealt
    "showdown",  # reached showdown (went to showdown: of the flops seen)
    "won_showdown",  # won chips at showdown (of the showdowns reached)
    "aggressive",  # postflop bets and raises...
    "calls",  # ...and postflop calls (the aggression factor is their ratio)
    "cbet",  # the preflop raiser bet the flop...
    "cbet_chance",  # ...of the flops it saw where it could bet first
    "aggressive_flop",  # bets and raises, and calls, street by street (the aggression per street)
    "calls_flop",
    "aggressive_turn",
    "calls_turn",
    "aggressive_river",
    "calls_river",
)
(
    VPIP,
    PFR,
    THREE_BET,
    THREE_BET_CHANCE,
    FLOP,
    AT_SHOWDOWN,
    WON_SHOWDOWN,
    AGGRESSIVE,
    CALLS,
    CBET,
    CBET_CHANCE,
    AGGRESSIVE_FLOP,
) = range(12)  # columns of a ``[seat, STATS]`` array (``calls_flop`` follows ``aggressive_flop``)

# The reader's state while it walks a hand (``new_reading``): the street, the preflop raises so
# far, whether this street has a bet, the last preflop raiser (-1: none) and whether the flop has a bet.
STREET, RAISES, BET_HERE, AGGRESSOR, FLOP_BET = range(5)


# The reading of ``STATS`` from a hand's actions, in three steps every reader calls: the reference
# (``seat_stats``, through ``.py_func``), the fast engine as it plays (``engine.fast``) and the
# replay kernel (``engine.fast_replay``). Nothing else spells what a statistic counts.
@njit(inline="always")
def new_reading(stat, reading):
    """Start a hand: every count 0, preflop, no raise."""
    stat[:, :] = 0
    reading[STREET], reading[RAISES], reading[BET_HERE], reading[AGGRESSOR], reading[FLOP_BET] = 0, 0, 0, -1, 0


@njit(inline="always")
def read_board(stat, reading, folded):
    """A board deal: the next street; at the flop, each seat not ``folded`` saw it."""
    reading[STREET] += 1
    reading[BET_HERE] = 0
    if reading[STREET] == 1:
        for seat in range(stat.shape[0]):
            stat[seat, FLOP] = not folded[seat]


@njit(inline="always")
def read_action(stat, reading, seat, verb):
    """``seat`` folds, checks or calls, or bets or raises (``verb``: ``engine.chance``'s ``FOLD``,
    ``CHECK_CALL``, ``RAISE``)."""
    street = reading[STREET]
    if street == 0:
        if reading[RAISES] == 1:
            stat[seat, THREE_BET_CHANCE] = 1
        if verb == RAISE:
            stat[seat, PFR] = 1
            if reading[RAISES] == 1:
                stat[seat, THREE_BET] = 1
            reading[RAISES] += 1
            reading[AGGRESSOR] = seat
        return
    if street == 1 and seat == reading[AGGRESSOR] and reading[FLOP_BET] == 0:
        stat[seat, CBET_CHANCE] = 1
        stat[seat, CBET] = verb == RAISE
    per_street = AGGRESSIVE_FLOP + 2 * (min(street, 3) - 1)
    if verb == RAISE:
        stat[seat, AGGRESSIVE] += 1
        stat[seat, per_street] += 1
        reading[BET_HERE] = 1
        if street == 1:
            reading[FLOP_BET] = 1
    elif verb == CHECK_CALL and reading[BET_HERE] == 1:
        stat[seat, CALLS] += 1
        stat[seat, per_street + 1] += 1


@njit(inline="always")
def read_end(stat, voluntary, folded, won):
    """The hand is over: who played preflop by choice (``voluntary``), who reached a showdown (two
    or more seats not ``folded``) and who won chips there (``won``: chips won from the pots)."""
    seats = stat.shape[0]
    left = 0
    for seat in range(seats):
        left += not folded[seat]
    for seat in range(seats):
        stat[seat, VPIP] = voluntary[seat]
        stat[seat, AT_SHOWDOWN] = left > 1 and not folded[seat]
        stat[seat, WON_SHOWDOWN] = left > 1 and not folded[seat] and won[seat] > 0


def seat_stats(hand: Hand) -> list[dict[str, int]]:
    """Per seat, the counts of ``STATS`` in one finished hand, read from its actions.

    >>> from evaluator.games import game
    >>> from engine.betting import NO_LIMIT
    >>> hand = Hand(game("holdem"), NO_LIMIT, [200, 200, 200], [1, 2, 0])
    >>> for seat, cards in enumerate(["As Ah", "Kd Kc", "7h 2d"]):
    ...     hand.deal_hole(seat, cards)
    >>> hand.raise_to(6); hand.raise_to(18); hand.fold(); hand.check_call()  # p3 opens, p1 3-bets, p2 (facing two raises) folds
    >>> hand.deal_board("Qs Js 2h"); hand.raise_to(20); hand.check_call()     # p1 c-bets, p3 calls
    >>> hand.deal_board("3c"); hand.check_call(); hand.check_call()
    >>> hand.deal_board("4d"); hand.check_call(); hand.check_call()
    >>> [{k: v for k, v in s.items() if v} for s in seat_stats(hand)]  # doctest: +NORMALIZE_WHITESPACE
    [{'vpip': 1, 'pfr': 1, 'three_bet': 1, 'three_bet_chance': 1, 'flop': 1, 'showdown': 1, 'won_showdown': 1,
      'aggressive': 1, 'cbet': 1, 'cbet_chance': 1, 'aggressive_flop': 1},
     {},
     {'vpip': 1, 'pfr': 1, 'flop': 1, 'showdown': 1, 'calls': 1, 'calls_flop': 1}]
    """
    if not hand.done:
        raise ValueError("statistics of a hand that is not over")
    stat = np.zeros((hand.seats, len(STATS)), np.int64)
    reading = np.zeros(5, np.int64)
    folded = np.zeros(hand.seats, np.bool_)
    new_reading.py_func(stat, reading)
    for action in hand.actions:
        words = action.split()
        if words[:2] == ["d", "db"]:
            read_board.py_func(stat, reading, folded)
        elif words[0] != "d" and words[1] in VERBS:
            seat = int(words[0][1:]) - 1
            read_action.py_func(stat, reading, seat, VERBS[words[1]])
            folded[seat] |= words[1] == "f"
    read_end.py_func(stat, [seat in hand.voluntary for seat in range(hand.seats)], hand.folded, hand.winnings)
    return [dict(zip(STATS, map(int, row))) for row in stat]


VERBS = {"f": FOLD, "cc": CHECK_CALL, "cbr": RAISE}  # PHH's verbs of a player's action (shows and mucks aside)
