"""What a key is shown of a hand: actions with the hidden cards hidden, a finished hand's summary.

>>> hidden("d dh p2 AsKd7h", own=None), hidden("d dh p2 AsKd7h", own=1), hidden("p2 cbr 6", own=None)
('d dh p2 ??????', 'd dh p2 AsKd7h', 'p2 cbr 6')
"""

from __future__ import annotations

import numpy as np

from engine.hand import Hand
from evaluator import reference
from evaluator.cards import format_cards
from evaluator.settle import divide_pot


def hidden(action: str, own: int | None) -> str:
    """A ``d dh`` action as a viewer may see it: its cards hidden unless they are ``own``'s."""
    if not action.startswith("d dh p"):
        return action
    _, _, player, cards = action.split(" ")
    return action if own is not None and player == f"p{own + 1}" else f"d dh {player} {'?' * len(cards)}"


def category_name(category) -> str:
    """The rule book's name of a high-hand category (``skip_straight`` -> ``skip straight``)."""
    return category.name.replace("_", " ")


def summary(number: int, hand: Hand, order: list[int], names: list[str]) -> dict:
    """A finished hand as everyone may see it: the board, the cards shown, each seat's chips won
    and net, and for each pot who won which half with what hand, and who got the odd chip."""
    seats = len(names)
    won, net, holes = [0] * seats, [0] * seats, [None] * seats
    for p, seat in enumerate(order):
        won[seat] = hand.winnings[p]
        net[seat] = hand.finishing_stacks[p] - hand.starting_stacks[p]
        if hand.showed[p]:
            holes[seat] = format_cards(hand.hole[p]).split()
    pots = []
    live = hand.live
    if len(live) == 1:
        pots.append(
            {
                "amount": hand.pot,
                "seats": [order[live[0]]],
                "won": {str(order[live[0]]): hand.pot},
                "reason": f"{names[order[live[0]]]} wins uncontested: every other player folded or mucked",
            }
        )
    else:
        shown = {p: reference.showdown(hand.game, hand.hole[p], hand.board) for p in live}
        highs = [shown[p].high.strength if p in shown else 0 for p in range(hand.seats)]
        lows = [shown[p].low.strength if p in shown and shown[p].low else 0 for p in range(hand.seats)]
        for chips, eligible in hand.pots():
            split, odd, odd_seat = divide_pot(
                chips,
                np.array(highs, np.int64),
                np.array(lows, np.int64),
                np.isin(np.arange(hand.seats), eligible),
                hand.button,
            )
            best = max(highs[p] for p in eligible)
            high_winners = [p for p in eligible if highs[p] == best]
            best_low = max(lows[p] for p in eligible)
            low_winners = [p for p in eligible if best_low and lows[p] == best_low]
            high = shown[high_winners[0]].high
            pots.append(
                {
                    "amount": chips,
                    "seats": [order[p] for p in eligible],
                    "won": {str(order[p]): int(split[p]) for p in eligible if split[p]},
                    "high": {
                        "seats": [order[p] for p in high_winners],
                        "hand": category_name(high.category),
                        "cards": high.text.split(),
                    },
                    "low": {"seats": [order[p] for p in low_winners], "cards": shown[low_winners[0]].low.text.split()}
                    if low_winners
                    else None,
                    "odd_chips": int(odd),
                    "odd_chip_seat": order[odd_seat] if odd else None,
                }
            )
    return {
        "hand": number,
        "board": format_cards(hand.board).split(),
        "holes": holes,
        "won": won,
        "net": net,
        "pots": pots,
        "actions": [hidden(a, None) for a in hand.actions],
    }
