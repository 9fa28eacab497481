"""Hands played by policies through the reference engine: the oracle of ``engine.fast``.

``deal_hands`` deals hands from a seeded generator; ``play_hand`` plays one of them, each
seat's ``Policy`` deciding every action; the same deal and policies give the same hand,
action for action, here and in the numba engine.

Preflop a ``thresholds`` policy compares the hand's **percentile** (the share of starting hands
stronger than it in the game's exact heads-up grid, 0 for the best; the caller supplies the
function, e.g. from ``jobs.hand_ranking``) with its thresholds, by position and by the raises
it faces. After the flop it compares its **strength**, its average pot share against the
opponents still in over ``samples`` opponent hands (random, or with ``ranges`` from what their
preflop actions allow: ``engine.reads``, ``percentile`` then being the game's ``HandRanking``) and
board runouts (``engine.strength``), with ``bet`` and with the pot odds times ``call_factor``.
Bets and raises are fractions of the pot, kept within the betting structure's bounds.

>>> import numpy as np
>>> from evaluator.games import game
>>> from engine.betting import POT_LIMIT
>>> from engine.policy import builtin
>>> cards, keys = deal_hands(np.random.default_rng(7), 1, 3, game("pls7"))
>>> hand = play_hand(game("pls7"), POT_LIMIT, [builtin("showdown")] * 3, [200] * 3, [1, 2, 0],
...                  cards[0], keys[0], percentile=lambda hole: 0.5)
>>> hand.done, len(hand.board), sum(hand.finishing_stacks)
(True, 5, 600)
>>> [a for a in hand.actions if not a.startswith("d")][:3]
['p3 cc', 'p1 cc', 'p2 cc']
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from engine.betting import Betting
from engine.chance import FOLD, RAISE, random_action
from engine.hand import Hand
from engine.policy import Policy, Postflop
from engine.reads import caps
from engine.strength import strength
from evaluator.deal import deal_cards
from evaluator.games import Game

Percentile = Callable[[tuple[int, ...]], float]


def deal_hands(rng: np.random.Generator, hands: int, seats: int, game: Game) -> tuple[np.ndarray, np.ndarray]:
    """``(cards uint8[hands, seats * hole + board], keys uint64[hands])``: each hand's deal (the
    seats' hole cards in turn, then the five board cards) and the key of its strength samples
    (``engine.strength``). Both engines play from these, so a seed gives the same hands in either."""
    cards = deal_cards(rng, hands, seats * game.hole_cards + game.board_cards)
    keys = rng.integers(0, 2**63, size=hands, dtype=np.uint64)
    return cards, keys


def play_hand(
    game: Game,
    betting: Betting,
    policies: list[Policy],
    stacks: list[int],
    blinds: list[int],
    cards,
    key: int,
    percentile: Percentile,
) -> Hand:
    """Play one dealt hand to the end (``cards``: the seats' hole cards in turn, then the five
    board cards; ``key``: its strength samples' key, both from ``deal_hands``), each seat
    acting by its policy; return the finished ``Hand``, which also carries ``runout`` (the five
    board cards the deal fixed, dealt or not)."""
    seats = len(stacks)
    cards = [int(c) for c in cards]
    hand = Hand(game, betting, stacks, blinds)
    for seat in range(seats):
        hand.deal_hole(seat, cards[seat * game.hole_cards : (seat + 1) * game.hole_cards])
    runout = cards[seats * game.hole_cards :]
    hand.runout = runout
    hand.key = int(key)
    order = positions(hand)
    while not hand.done:
        if hand.actor is not None:
            act(hand, policies[hand.actor], order, percentile)
        elif hand.board_due:
            hand.deal_board(runout[len(hand.board) : len(hand.board) + hand.board_due])
        else:
            hand.finish_showdown()
    return hand


def positions(hand: Hand) -> dict[int, float]:
    """Each seat's position from 0 (first to act preflop) to 1 (the button)."""
    first = hand.actor if hand.actor is not None else 0
    n = hand.seats
    order = [(first + k) % n for k in range(n)]
    if hand.button in order:  # the button is the latest position, whatever the blinds
        order.remove(hand.button)
        order.append(hand.button)
    return {seat: (i / (n - 1) if n > 1 else 1.0) for i, seat in enumerate(order)}


def act(hand: Hand, policy: Policy, order: dict[int, float], percentile: Percentile) -> None:
    """The player to act acts by ``policy`` (``order``: the seats' ``positions``, taken when the
    hand began; the hand's strength samples come from ``hand.key``)."""
    _decide(hand, hand.actor, policy, order, percentile, hand.legal())


def _decide(hand: Hand, seat: int, policy: Policy, order, percentile: Percentile, legal) -> None:
    if policy.style == "check-call":
        hand.check_call()
        return
    if policy.style == "random-legal":
        _random_legal(hand, policy, legal)
        return
    if hand.street == 0:
        _preflop(hand, seat, policy, order[seat], percentile(tuple(sorted(hand.hole[seat]))), legal)
    else:
        post = policy.postflop
        ranges = caps(hand, seat, policy.encode(), order) if post.ranges else None
        value = strength(
            hand.game,
            hand.hole[seat],
            hand.board,
            len(hand.live) - 1,
            post.samples,
            hand.key,
            seat,
            ranges,
            percentile if post.ranges else None,
        )
        _postflop(hand, seat, policy, value, legal)


def _random_legal(hand: Hand, policy: Policy, legal) -> None:
    """Every legal action with the policy's weights (``engine.chance``, shared with the fast engine)."""
    step = sum(not action.startswith("d dh") for action in hand.actions)
    low = -1 if legal.min_raise_to is None else legal.min_raise_to
    high = -1 if legal.max_raise_to is None else legal.max_raise_to
    kind, amount = random_action(policy.encode(), hand.key, step, legal.fold, low, high)
    if kind == FOLD:
        hand.fold()
    elif kind == RAISE:
        hand.raise_to(int(amount))
    else:
        hand.check_call()


def _raise_to(hand: Hand, legal, fraction: float) -> int:
    """A raise of ``fraction`` of the pot after the call, within the structure's bounds."""
    call = legal.call
    target = hand.max_bet + round(fraction * (hand.pot + call))
    return min(max(target, legal.min_raise_to), legal.max_raise_to)


def _fold_or_check(hand: Hand, legal) -> None:
    if legal.fold:
        hand.fold()
    else:
        hand.check_call()


def _preflop(hand: Hand, seat: int, policy: Policy, position: float, rank: float, legal) -> None:
    pre = policy.preflop
    can_raise = legal.min_raise_to is not None
    raises = hand.raises
    if raises == 0:
        open_share = pre.open_early + (pre.open_late - pre.open_early) * position
        if rank < open_share and can_raise:
            hand.raise_to(_raise_to(hand, legal, pre.open_size))
        elif rank < open_share or (pre.limp and rank < max(pre.call, open_share) * 1.5) or not legal.fold:
            hand.check_call()
        else:
            hand.fold()
    elif raises == 1:
        called = _callers_since_raise(hand)
        if rank < pre.reraise and can_raise:
            hand.raise_to(_raise_to(hand, legal, pre.open_size))
        elif rank < (pre.overcall if called else pre.call) or not legal.fold:
            hand.check_call()
        else:
            hand.fold()
    elif rank < pre.call_reraised or not legal.fold:
        hand.check_call()
    else:
        hand.fold()


def _callers_since_raise(hand: Hand) -> int:
    """Players who called the last raise of this street so far."""
    count = 0
    for action in reversed(hand.actions):
        if " cbr " in action or action.startswith("d "):
            break
        count += action.endswith(" cc")
    return count


BET_RAISE, CHECK_CALL, FOLD_HAND = 0, 1, 2  # what postflop_choice picks


def postflop_choice(post: Postflop, strength, facing, call, pot, can_raise, street: int = 1):
    """What a ``thresholds`` policy does on ``street`` (1 the flop .. 3 the river): ``BET_RAISE``
    when it may bet or raise, with a strength above the street's ``bet``, or facing no bet with a
    strength below its ``bluff`` (a bluff); else ``CHECK_CALL`` when it faces no bet or the
    strength is at least the pot odds (``call / (pot + call)``, ``pot`` every chip in the middle)
    times its ``call_factor``; else ``FOLD_HAND`` (``Postflop.at``: a policy's thresholds may
    differ by street). Elementwise over numpy arrays, which is how ``solver.policies`` reads a
    policy's play of a whole range at once.

    >>> post = Postflop(bet=0.7, call_factor=1.0, bluff=0.1)
    >>> int(postflop_choice(post, 0.3, True, 50, 150, True)), int(postflop_choice(post, 0.2, True, 50, 150, True))
    (1, 2)
    >>> int(postflop_choice(post, 0.05, False, 0, 150, True)), int(postflop_choice(post, 0.05, True, 50, 150, True))
    (0, 2)
    """
    bet, bluff, call_factor = post.at(street)
    calls = np.logical_or(np.logical_not(facing), strength >= call / (pot + call) * call_factor)
    bets = np.logical_or(strength > bet, np.logical_and(np.logical_not(facing), strength < bluff))
    return np.where(np.logical_and(bets, can_raise), BET_RAISE, np.where(calls, CHECK_CALL, FOLD_HAND))


def _postflop(hand: Hand, seat: int, policy: Policy, strength: float, legal) -> None:
    post = policy.postflop
    choice = postflop_choice(
        post, strength, legal.fold, legal.call, hand.pot, legal.min_raise_to is not None, hand.street
    )
    if choice == BET_RAISE:
        hand.raise_to(_raise_to(hand, legal, post.bet_size))
    elif choice == CHECK_CALL:
        hand.check_call()
    else:
        hand.fold()
