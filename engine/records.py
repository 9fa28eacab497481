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
