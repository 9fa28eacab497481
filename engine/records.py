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

from engine.hand import Hand

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
    "vpip",               # put chips in preflop by choice
    "pfr",                # raised preflop
    "three_bet",          # made the second raise preflop...
    "three_bet_chance",   # ...of the hands where it acted facing exactly one raise
    "flop",               # still in when the flop was dealt
    "showdown",           # reached showdown (went to showdown: of the flops seen)
    "won_showdown",       # won chips at showdown (of the showdowns reached)
    "aggressive",         # postflop bets and raises...
    "calls",              # ...and postflop calls (the aggression factor is their ratio)
    "cbet",               # the preflop raiser bet the flop...
    "cbet_chance",        # ...of the flops it saw where it could bet first
)


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
      'aggressive': 1, 'cbet': 1, 'cbet_chance': 1},
     {},
     {'vpip': 1, 'pfr': 1, 'flop': 1, 'showdown': 1, 'calls': 1}]
    """
    if not hand.done:
        raise ValueError("statistics of a hand that is not over")
    stats = [dict.fromkeys(STATS, 0) for _ in range(hand.seats)]
    street, raises, raised_here, aggressor, flop_bet = 0, 0, False, None, False
    folded_preflop = set()
    for action in hand.actions:
        words = action.split()
        if words[:2] == ["d", "db"]:
            street, raised_here = street + 1, False
            if street == 1:
                for seat in range(hand.seats):
                    stats[seat]["flop"] = int(seat not in folded_preflop)
            continue
        if words[0] == "d" or words[1] not in ("f", "cc", "cbr"):
            continue  # hole cards dealt, shows and mucks
        seat, verb = int(words[0][1:]) - 1, words[1]
        if street == 0:
            if verb == "f":
                folded_preflop.add(seat)
            if raises == 1:
                stats[seat]["three_bet_chance"] = 1
            if verb == "cbr":
                stats[seat]["pfr"] = 1
                stats[seat]["three_bet"] |= int(raises == 1)
                raises, aggressor = raises + 1, seat
            continue
        if street == 1 and seat == aggressor and not flop_bet:
            stats[seat]["cbet_chance"] = 1
            stats[seat]["cbet"] = int(verb == "cbr")
        if verb == "cbr":
            stats[seat]["aggressive"] += 1
            raised_here = True
            flop_bet |= street == 1
        elif verb == "cc" and raised_here:
            stats[seat]["calls"] += 1
    at_showdown = sum(not f for f in hand.folded) > 1
    for seat in range(hand.seats):
        stats[seat]["vpip"] = int(seat in hand.voluntary)
        stats[seat]["showdown"] = int(at_showdown and not hand.folded[seat])
        stats[seat]["won_showdown"] = int(stats[seat]["showdown"] and hand.winnings[seat] > 0)
    return stats

