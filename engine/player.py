"""Hands played by policies through the reference engine: the oracle of the fast engine to come.

``play_hand`` deals one hand from a seeded generator and lets each seat's ``Policy`` decide
every action; the same seed and policies give the same hand, action for action.

Preflop a ``thresholds`` policy compares the hand's **percentile** (the share of starting hands
stronger than it in the game's exact heads-up grid, 0 for the best; the caller supplies the
function, e.g. from ``jobs.hand_ranking``) with its thresholds, by position and by the raises
it faces. After the flop it compares its **strength**, its average pot share against the
opponents still in over ``samples`` random opponent hands and board runouts, with ``bet`` and
with the pot odds times ``call_factor``. Bets and raises are fractions of the pot, kept within
the betting structure's bounds.

>>> import numpy as np
>>> from evaluator.games import game
>>> from engine.betting import POT_LIMIT
>>> from engine.policy import builtin
>>> hand = play_hand(game("pls7"), POT_LIMIT, [builtin("showdown")] * 3, [200] * 3, [1, 2, 0],
...                  np.random.default_rng(7), percentile=lambda hole: 0.5)
>>> hand.done, len(hand.board), sum(hand.finishing_stacks)
(True, 5, 600)
>>> [a for a in hand.actions if not a.startswith("d")][:3]
['p3 cc', 'p1 cc', 'p2 cc']
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from evaluator.fast import fast_evaluator
from evaluator.games import Game
from evaluator.settle import pot_shares, share_unit

from engine.betting import Betting
from engine.hand import Hand
from engine.policy import Policy

Percentile = Callable[[tuple[int, ...]], float]


def play_hand(
    game: Game,
    betting: Betting,
    policies: list[Policy],
    stacks: list[int],
    blinds: list[int],
    rng: np.random.Generator,
    percentile: Percentile,
) -> Hand:
    """Deal one hand from ``rng`` (hole cards seat by seat, then the five board cards) and play
    it to the end, each seat acting by its policy; return the finished ``Hand``, which also
    carries ``runout`` (the five board cards the deal fixed, dealt or not) and ``voluntary``
    (the seats that put chips in preflop by choice: a call or a raise, not a free check)."""
    seats = len(stacks)
    cards = rng.permutation(52)[: seats * game.hole_cards + game.board_cards].tolist()
    hand = Hand(game, betting, stacks, blinds)
    for seat in range(seats):
        hand.deal_hole(seat, cards[seat * game.hole_cards : (seat + 1) * game.hole_cards])
    runout = cards[seats * game.hole_cards :]
    hand.runout = runout
    hand.voluntary = set()
    decision_rng = np.random.default_rng(rng.integers(2**63))
    order = _preflop_order(hand)
    while not hand.done:
        if hand.actor is not None:
            seat = hand.actor
            _act(hand, seat, policies[seat], order, percentile, decision_rng)
        elif hand.board_due:
            hand.deal_board(runout[len(hand.board) : len(hand.board) + hand.board_due])
        else:
            hand.finish_showdown()
    return hand


def _preflop_order(hand: Hand) -> dict[int, float]:
    """Each seat's position from 0 (first to act preflop) to 1 (the button)."""
    first = hand.actor if hand.actor is not None else 0
    n = hand.seats
    order = [(first + k) % n for k in range(n)]
    if hand.button in order:  # the button is the latest position, whatever the blinds
        order.remove(hand.button)
        order.append(hand.button)
    return {seat: (i / (n - 1) if n > 1 else 1.0) for i, seat in enumerate(order)}


def _act(hand: Hand, seat: int, policy: Policy, order, percentile: Percentile, rng) -> None:
    legal = hand.legal()
    chips = hand.contributed[seat]
    try:
        _decide(hand, seat, policy, order, percentile, rng, legal)
    finally:
        if hand.street == 0 and hand.contributed[seat] > chips or (hand.street == 0 and seat in hand.voluntary):
            hand.voluntary.add(seat)


def _decide(hand: Hand, seat: int, policy: Policy, order, percentile: Percentile, rng, legal) -> None:
    if policy.style == "check-call":
        hand.check_call()
        return
    if hand.street == 0:
        _preflop(hand, seat, policy, order[seat], percentile(tuple(sorted(hand.hole[seat]))), legal)
    else:
        _postflop(hand, seat, policy, _strength(hand, seat, policy.postflop.samples, rng), legal)


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


def _postflop(hand: Hand, seat: int, policy: Policy, strength: float, legal) -> None:
    post = policy.postflop
    if strength > post.bet and legal.min_raise_to is not None:
        hand.raise_to(_raise_to(hand, legal, post.bet_size))
    elif not legal.fold:
        hand.check_call()
    else:
        odds = legal.call / (hand.pot + legal.call)
        if strength >= odds * post.call_factor:
            hand.check_call()
        else:
            hand.fold()


def _strength(hand: Hand, seat: int, samples: int, rng) -> float:
    """The seat's average pot share against random hands for each opponent still in, over
    ``samples`` random opponent hands and board runouts (its own cards and the board excluded)."""
    game = hand.game
    opponents = [s for s in hand.live if s != seat]
    known = list(hand.hole[seat]) + list(hand.board)
    deck = np.array([c for c in range(52) if c not in set(known)], np.uint8)
    need = len(opponents) * game.hole_cards + game.board_cards - len(hand.board)
    keys = rng.random((samples, len(deck)))
    drawn = deck[np.argsort(keys, axis=1)[:, :need]]
    players = 1 + len(opponents)
    hole = np.empty((samples, players, game.hole_cards), np.uint8)
    hole[:, 0] = np.array(hand.hole[seat], np.uint8)
    for k in range(len(opponents)):
        hole[:, 1 + k] = drawn[:, k * game.hole_cards : (k + 1) * game.hole_cards]
    board = np.concatenate([np.tile(np.array(hand.board, np.uint8), (samples, 1)), drawn[:, len(opponents) * game.hole_cards :]], axis=1)
    high, low = fast_evaluator(game).high_low(np.ascontiguousarray(hole), np.ascontiguousarray(board))
    unit = share_unit(players)
    high_part = np.empty((samples, players), np.int64)
    low_part = np.empty((samples, players), np.int64)
    pot_shares(high, low, unit, high_part, low_part)
    return float((high_part[:, 0] + low_part[:, 0]).mean() / unit)
