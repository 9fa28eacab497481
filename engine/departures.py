"""Where a record's writer played by other rules than the rule book, and how to replay it as written.

The engine plays by the rule book (RULES.md) and WSOP's betting rules. Records written by
other software follow that software's rules, and pokerkit, the reference PHH writer (the PHH
dataset's 21 million hands were converted with it), departs from them in a few known ways.
Reading a record, ``engine.phh.replay`` accepts these departures, and only these, and names
each one on the hand; a hand that none of them explains stays ``illegal`` or ``differ``.

``NO_CHOICE_CHECK``
    pokerkit asks a player whose every opponent is all-in, and who has nothing to call, to
    check; the engine skips that player (there is no decision). The check is a no-op.
``SHORT_WAGER``
    pokerkit lets a player who already acted raise after an all-in wager short of a full
    raise when that wager was the round's first bet or raise (pokerkit issue #45: it measures
    the raise against the round's largest earlier raise, which starts at 0). WSOP Rule 96
    (and the engine) does not reopen the betting there. The raise is accepted.
``MERGED_POTS``
    pokerkit kills the hands that win nothing before it forms the pots, so side pots left
    with the same contenders merge and are split once, with one odd chip; the rule book
    (section 6.4) splits each layer as formed, each with its own odd chip.
``LOW_ODD_CHIP``
    pokerkit gives the odd chip of a low half shared by tied lows to the first of them
    clockwise from the button; the rule book (6.3) gives every odd chip to the high winner.
``SHARED_LOW_HALF``
    pokerkit halves a pot whenever any player still in the hand has a qualifying low, even
    when none of that pot's contenders has one, and then shares the low half among all of
    them; the rule book (6.2) halves a pot only for a qualifying low among its contenders.
    This one is a pokerkit bug rather than a rule: it pays low halves to hands without a low.

Seats are the engine's (PHH order: seat 0 first left of the button, the button last), which is
also pokerkit's player order.
"""

from __future__ import annotations

from engine.hand import Hand
from evaluator import reference
from evaluator.settle import side_pots

NO_CHOICE_CHECK = "no-choice check"
SHORT_WAGER = "raise after a short wager"
MERGED_POTS = "merged side pots"
LOW_ODD_CHIP = "low odd chip"
SHARED_LOW_HALF = "shared low half"
KINDS = (NO_CHOICE_CHECK, SHORT_WAGER, MERGED_POTS, LOW_ODD_CHIP, SHARED_LOW_HALF)
RULES = {
    NO_CHOICE_CHECK: "pokerkit asks for a check when every opponent is all-in; the engine skips the player",
    SHORT_WAGER: "pokerkit #45: a short first wager reopens the betting; WSOP Rule 96 does not",
    MERGED_POTS: "pokerkit merges side pots once the losers' hands are killed, one odd chip each; RULES 6.4 splits each pot as formed",
    LOW_ODD_CHIP: "pokerkit gives a tied low half's odd chip to the first low winner; RULES 6.3 gives it to the high winner",
    SHARED_LOW_HALF: "pokerkit halves a side pot none of whose contenders has a low and shares the low half among them; RULES 6.2 does not halve it",
}


def is_no_choice_check(hand: Hand, seat: int) -> bool:
    """Whether ``seat`` checking now is pokerkit's no-choice check: nobody is to act, the seat
    is in the hand with chips and nothing to call, and every other player in the hand is all-in.

    >>> from evaluator.games import game
    >>> from engine.betting import NO_LIMIT
    >>> hand = Hand(game("holdem"), NO_LIMIT, stacks=[1, 20, 20], blinds=[1, 2, 0])
    >>> hand.fold()  # the button folds; the small blind is all-in for 1, the big blind is skipped
    >>> hand.actor is None, is_no_choice_check(hand, 1), is_no_choice_check(hand, 0)
    (True, True, False)
    """
    if hand.actor is not None or hand.done or not 0 <= seat < hand.seats:
        return False
    others = [s for s in hand.live if s != seat]
    return (
        seat in hand.live
        and hand.stacks[seat] > 0
        and hand.bets[seat] == hand.max_bet
        and bool(others)
        and all(hand.stacks[s] == 0 for s in others)
    )


def short_wager_reopens(hand: Hand, amount: int) -> bool:
    """Whether the player to act, whom the rules forbid to raise, may raise to ``amount`` by
    pokerkit #45: the seat already acted this round and would be allowed had it not.

    >>> from evaluator.games import game
    >>> from engine.betting import NO_LIMIT
    >>> hand = Hand(game("holdem"), NO_LIMIT, stacks=[100, 3, 100], blinds=[1, 2, 0])
    >>> hand.check_call(); hand.check_call()  # the button limps, the small blind completes
    >>> hand.raise_to(3)  # the big blind is all-in for 3: one more, short of a full raise
    >>> hand.legal().min_raise_to, short_wager_reopens(hand, 5), short_wager_reopens(hand, 4)
    (None, True, False)
    """
    seat = hand.actor
    if seat is None or hand.acted_at[seat] < 0 or hand.legal().min_raise_to is not None:
        return False
    reopened = hand.legal(reopened=True)
    return reopened.min_raise_to is not None and reopened.min_raise_to <= amount <= reopened.max_raise_to


SETTLING = (MERGED_POTS, LOW_ODD_CHIP, SHARED_LOW_HALF)  # the departures in how pokerkit pays the pots


def pokerkit_finishing_stacks(hand: Hand) -> tuple[list[int], tuple[str, ...]]:
    """The finishing stacks of a hand settled at showdown the way pokerkit 0.7.7 pays it, and the
    departures from the rule book that changed them (each one, taken away alone, changes them)."""
    paid = settle(hand, SETTLING)
    return paid, tuple(kind for kind in SETTLING if settle(hand, tuple(k for k in SETTLING if k != kind)) != paid)


def settle(hand: Hand, rules=SETTLING) -> list[int]:
    """The finishing stacks of a hand over at showdown, its pots paid by the rule book but for the
    departures named in ``rules`` (a subset of ``SETTLING``): with none, exactly the rule book.

    The bets form the pots by layers, adjacent layers with the same contenders merge; the antes
    are dead money in a pot of their own that every contender contests, merged with the first
    layer when that has the same contenders. With ``MERGED_POTS`` every shown hand that cannot win a part
    of a pot it contends is killed first, and the pots are formed among the rest. A pot is halved
    when a contender holds a qualifying low (``SHARED_LOW_HALF``: when any hand left does, the low
    half then going to all the pot's contenders if none of them has one); the high half takes the
    odd chip; each half goes to its best hands among the pot's contenders, every odd chip to the
    first high winner clockwise from the button (``LOW_ODD_CHIP``: a low half's to the first low
    winner).
    """
    live = hand.live
    highs: dict[int, int | None] = {}
    lows: dict[int, int | None] = {}
    for seat in live:
        shown = reference.showdown(hand.game, hand.hole[seat], hand.board)
        highs[seat] = shown.high.strength
        lows[seat] = shown.low.strength if shown.low is not None else None
    kinds = (highs, lows) if hand.game.low is not None else (highs,)
    bets = [c - a for c, a in zip(hand.contributed, hand.antes_paid)]
    dead = sum(hand.antes_paid)

    def pots(contenders):
        return side_pots(bets, [s not in contenders for s in range(hand.seats)], dead)

    def best(kind, seats) -> list[int]:
        held = [kind[s] for s in seats if kind[s] is not None]
        return [s for s in seats if held and kind[s] == max(held)]

    contenders = live
    if MERGED_POTS in rules:
        contenders = [
            s
            for s in live
            if any(s in best(kind, eligible) for _, eligible in pots(live) if s in eligible for kind in kinds)
        ]
    won = [0] * hand.seats
    for chips, eligible in pots(contenders):
        high = best(highs, eligible)
        if SHARED_LOW_HALF in rules and len(kinds) == 2 and any(lows[s] is not None for s in contenders):
            low = best(lows, eligible) or list(eligible)
        else:
            low = best(lows, eligible) if len(kinds) == 2 else []
        halves = [(chips - chips // 2, high), (chips // 2, low)] if low else [(chips, high)]
        for index, (part, winners) in enumerate(halves):
            each, odd = divmod(part, len(winners))
            for s in winners:
                won[s] += each
            won[winners[0] if index == 0 or LOW_ODD_CHIP in rules else high[0]] += odd
    return [s + w for s, w in zip(hand.stacks, won)]
