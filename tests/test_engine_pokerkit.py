"""The reference hand engine checked against a peer, pokerkit 0.7.7, hand by hand.

Both engines get the same seats, stacks, blinds, antes and cards; random legal actions are
applied to both. At every decision the player to act, whether folding is allowed, the call
amount and the raise bounds must agree, and at the end the finishing stacks.

pokerkit is a test dependency only. Where it departs from the rules (WSOP 2024 Rules 96 and
96a, the project's RULES section 6) the decision or result is not compared but counted under
a named reason, each reason is checked on its own decision (the test's own bookkeeping must
show the rule that makes pokerkit differ) and shown on a hand-built example below:

* ``pokerkit #45``: pokerkit lets a player who already acted re-raise after a short wager.
  pokerkit 0.7.7 fixed the reproducer of its issue #45 but not this trigger: it measures a
  raise against the largest earlier raise of the round, which starts at 0 rather than at the
  big blind, so a short all-in that is the round's first bet or raise counts as full.
* ``uncallable raise``: pokerkit refuses a raise when no opponent could put in more than the
  current bet, though some still have chips; the rules forbid a raise only when every
  opponent is all-in. Such a raise can never be called: it plays out exactly as a call.
* ``short all-in closes``: after short all-ins that add up to a full raise (Rule 96a reopens
  the betting for a player who already acted), one more short all-in makes pokerkit refuse
  that player's raise, though what the player faces only grew. The rules (and the engine)
  still allow it.
* ``no-choice check``: pokerkit asks a player whose every opponent is all-in to check (the
  only thing it allows); the reference engine skips that player.
* ``merged side pots``: pokerkit lets the losers muck before it forms the pots, so side pots
  left with the same contenders merge and are split once; RULES 6.4 splits each pot as
  formed, each with its own odd chip. The totals agree and pokerkit's stacks must equal the
  rule book's split with the mucked seats out.

The decisions are the ``random-legal`` policy's (``engine.chance.random_action``: every legal
action with fixed weights, raises of every size from the minimum to the maximum), drawn from
each hand's own key. A hand without antes where pokerkit departed from no rule is therefore a
random-legal hand: the numba engine then plays it too, from the same cards and key, and must
take the same actions to the same finishing stacks (``fast_agrees``).
"""

from __future__ import annotations

import collections
import dataclasses
import random

import pytest

pokerkit = pytest.importorskip("pokerkit")

from pokerkit import Automation, Mode  # noqa: E402

from engine.betting import NO_LIMIT, POT_LIMIT, fixed_limit  # noqa: E402
from engine.chance import FOLD, RAISE, random_action  # noqa: E402
from engine.fast import play_batch  # noqa: E402
from engine.hand import Hand, IllegalAction, Legal  # noqa: E402
from engine.policy import Policy, Random  # noqa: E402
from evaluator import reference  # noqa: E402
from evaluator.cards import parse_cards  # noqa: E402
from evaluator.games import game  # noqa: E402
from evaluator.settle import side_pots, split_pot  # noqa: E402

# Everything but the decisions and the cards is left to pokerkit.
AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)
DECK = [rank + suit for rank in "23456789TJQKA" for suit in "shdc"]
BLINDS, MIN_BET = (1, 2), 2
RANDOM_LEGAL = Policy(
    "random-legal",
    style="random-legal",
    random=Random(fold=0.15, check_call=0.45, bet_raise=0.40, min_raise=0.3, max_raise=0.25),
)


@dataclasses.dataclass(frozen=True)
class Variant:
    peer: type
    game: str
    betting: object
    hole_cards: int


VARIANTS = {
    "NT": Variant(pokerkit.NoLimitTexasHoldem, "holdem", NO_LIMIT, 2),
    "PO": Variant(pokerkit.PotLimitOmahaHoldem, "plo", POT_LIMIT, 4),
}

ISSUE_45 = "pokerkit #45: a short wager reopens the betting to players who already acted"
UNCALLABLE = "uncallable raise: pokerkit refuses a raise no opponent could call"
NO_CHOICE = "no-choice check: pokerkit asks for a check when every opponent is all-in"
SHORT_CLOSES = "short all-in closes: pokerkit refuses a raise that cumulative short all-ins reopened once one more short all-in comes"
MERGED_POTS = "merged side pots: pokerkit splits pots merged after the losers muck (odd chips)"


@dataclasses.dataclass
class Tally:
    """What a run compared, and what it did not compare and why."""

    hands: int = 0
    decisions: int = 0  # decisions where both engines had a player to act
    compared: int = 0  # of those, compared in full (actor, fold, call, raise bounds)
    raises: int = 0
    ante_hands: int = 0
    all_in_hands: int = 0
    side_pot_hands: int = 0
    showdowns: int = 0
    fast_compared: int = 0  # random-legal hands (no antes, no departure) the numba engine also played
    skips: collections.Counter = dataclasses.field(default_factory=collections.Counter)
    examples: dict = dataclasses.field(default_factory=dict)

    def skip(self, reason: str, where: str) -> None:
        self.skips[reason] += 1
        self.examples.setdefault(reason, where)

    def report(self, code: str) -> str:
        lines = [
            f"{code}: {self.hands} hands, {self.decisions} decisions ({self.compared} compared in full, "
            f"{self.raises} raises), {self.ante_hands} hands with antes, {self.all_in_hands} with an all-in, "
            f"{self.side_pot_hands} with side pots, {self.showdowns} showdowns, "
            f"{self.fast_compared} also played by the numba engine"
        ]
        lines += [
            f"  skipped {n}: {reason} (first: {self.examples[reason]})" for reason, n in sorted(self.skips.items())
        ]
        return "\n".join(lines)


# --- one hand through both engines -----------------------------------------------------------


def new_pair(code: str, stacks, antes=None, blinds=BLINDS):
    """A pokerkit state and a reference ``Hand`` with the same seats, stacks, blinds and antes.

    pokerkit runs in tournament mode: it then refuses a fold when checking is free (cash-game
    mode only warns) and deals one board, never several runouts."""
    variant = VARIANTS[code]
    n = len(stacks)
    antes = list(antes) if antes is not None else [0] * n
    state = variant.peer.create_state(AUTOMATIONS, False, antes, blinds, MIN_BET, list(stacks), n, mode=Mode.TOURNAMENT)
    hand = Hand(game(variant.game), variant.betting, list(stacks), [*blinds, *[0] * (n - 2)], antes, min_bet=MIN_BET)
    return state, hand


def peer_options(state) -> tuple:
    """pokerkit's view of the decision: actor, may fold, call amount, min and max raise-to."""
    return (
        state.actor_index,
        state.can_fold(),
        state.checking_or_calling_amount,
        state.min_completion_betting_or_raising_to_amount,
        state.max_completion_betting_or_raising_to_amount,
    )


def our_options(hand: Hand) -> tuple:
    legal = hand.legal()
    return hand.actor, legal.fold, legal.call, legal.min_raise_to, legal.max_raise_to


class Street:
    """The test's own bookkeeping of one betting round (from pokerkit's chips, not the engine's):
    the bet each seat last acted at, and the size of a full raise (the largest full bet or raise
    so far, at least the minimum bet)."""

    def __init__(self):
        self.acted_at: dict[int, int] = {}
        self.full = MIN_BET
        self.shorts: list[int] = []  # per action so far: 1 for a raise short of a full raise
        self.last_action: dict[int, int] = {}

    def act(self, seat: int, level: int, before: int) -> None:
        self.shorts.append(int(before < level and level - before < self.full))
        if level - before >= self.full:
            self.full = level - before
        self.acted_at[seat] = level
        self.last_action[seat] = len(self.shorts)

    def short_all_ins_since(self, seat: int) -> int:
        """Raises short of a full raise since ``seat`` last acted."""
        return sum(self.shorts[self.last_action.get(seat, 0) :])

    def reopened(self, seat: int, top: int) -> bool:
        """Whether ``seat`` may raise by Rules 96/96a: it has not acted yet, or what it faces
        since it last acted adds up to a full raise."""
        return seat not in self.acted_at or top - self.acted_at[seat] >= self.full


def classify(state, street: Street, betting, peer: tuple, ours: tuple) -> str | None:
    """The known reason a decision differs, checked on this decision; None if none applies."""
    if peer[:3] != ours[:3]:
        return None
    seat, top = ours[0], max(state.bets)
    others = [i for i in range(len(state.stacks)) if i != seat and state.statuses[i]]
    if peer[3] is not None and ours[3] is None and not street.reopened(seat, top):
        return (
            ISSUE_45  # only the raise differs: pokerkit allows it, yet the seat acted and faces less than a full raise
        )
    if (
        peer[3] is None
        and ours[3] is not None
        and street.reopened(seat, top)
        and any(state.stacks[i] for i in others)
        and all(state.stacks[i] + state.bets[i] <= top for i in others)
    ):
        # pokerkit cannot vouch for the engine's bounds here: the test computes them itself.
        most = state.stacks[seat] + state.bets[seat]
        low = min(top + street.full, most)
        high = most if betting is NO_LIMIT else min(most, max(low, 2 * top - state.bets[seat] + state.total_pot_amount))
        if ours[3:] == (low, high):
            return UNCALLABLE
    if peer[3] is None and ours[3] is not None and street.reopened(seat, top) and any(state.stacks[i] for i in others):
        most = state.stacks[seat] + state.bets[seat]
        low = min(top + street.full, most)
        high = most if betting is NO_LIMIT else min(most, max(low, 2 * top - state.bets[seat] + state.total_pot_amount))
        if ours[3:] == (low, high) and street.short_all_ins_since(seat) >= 2:
            return SHORT_CLOSES
    return None


def rule_book_stacks(hand: Hand, out) -> list[int]:
    """Finishing stacks by RULES section 6 with the seats in ``out`` out of the pots: the bets
    form side pots by layers, the antes are dead money in the main pot, each pot split on its own."""
    highs = [0] * hand.seats
    contenders = [s for s in range(hand.seats) if not out[s]]
    for seat in contenders if len(contenders) > 1 else ():
        highs[seat] = reference.showdown(hand.game, hand.hole[seat], hand.board).high.strength
    bets = [c - a for c, a in zip(hand.contributed, hand.antes_paid)]
    pots = side_pots(bets, out) if any(bets) else []
    dead = sum(hand.antes_paid)
    if pots and set(pots[0][1]) == set(contenders):
        pots[0] = (pots[0][0] + dead, pots[0][1])
    elif dead:
        pots.insert(0, (dead, tuple(contenders)))
    won = [0] * hand.seats
    for chips, eligible in pots:
        for seat, amount in enumerate(split_pot(chips, highs, [0] * hand.seats, eligible, hand.button)):
            won[seat] += amount
    return [s + w for s, w in zip(hand.stacks, won)]


def play_one(code: str, seed, number: int, tally: Tally, record: list | None = None) -> None:
    """Deal one random hand to both engines and play random legal actions to the end, comparing
    every decision and the finishing stacks. ``record`` (a list) receives the hand's script:
    its setup, then every deal and action, for the benchmark."""
    rng = random.Random(f"{code}:{seed}:{number}")
    key = rng.getrandbits(63)  # the hand's random-legal draws
    row = RANDOM_LEGAL.encode()
    pure = True  # every decision the random-legal policy's own (no pokerkit departure narrowed it)
    variant = VARIANTS[code]
    n = rng.randint(2, 6)
    stacks = [rng.randint(1, 120) for _ in range(n)]  # up to 60 big blinds: all-ins and side pots
    kind = rng.random()  # antes: one chip each, a big blind ante of 2, or none
    antes = [1] * n if kind < 0.2 else [0, 2, *[0] * (n - 2)] if kind < 0.3 else [0] * n
    cards = rng.sample(DECK, n * variant.hole_cards + 5)
    state, hand = new_pair(code, stacks, antes)
    where = f"{code} seed {seed!r} hand {number} (random.Random({f'{code}:{seed}:{number}'!r}))"
    script = [("setup", n, stacks, antes)]
    for seat in range(n):
        hole = "".join(cards[seat * variant.hole_cards : (seat + 1) * variant.hole_cards])
        state.deal_hole(hole, seat)
        hand.deal_hole(seat, hole)
        script.append(("hole", seat, hole))
    board = cards[n * variant.hole_cards :]
    street = Street()

    def context() -> str:
        return f"{where}: stacks {stacks}, antes {antes}, actions {hand.actions[n:]}"

    while not hand.done:
        if hand.actor is None and state.actor_index is not None:
            # pokerkit asks for a decision the engine skips: it must be a check with no alternative.
            peer = peer_options(state)
            assert peer[1:] == (False, 0, None, None), f"{context()}: pokerkit {peer}, engine: nobody to act"
            assert all(not state.stacks[i] for i in range(n) if i != peer[0] and state.statuses[i]), context()
            tally.skip(NO_CHOICE, f"{where}, after {hand.actions[n:]}")
            state.check_or_call()
            script.append(("check", peer[0]))
            continue
        if hand.actor is None:
            due = hand.board_due
            assert due and state.can_burn_card(), f"{context()}: engine {due} board cards due, pokerkit cannot deal"
            state.burn_card("??")
            dealt, board = "".join(board[:due]), board[due:]
            state.deal_board(dealt)
            hand.deal_board(dealt)
            script.append(("board", dealt))
            street = Street()
            continue
        tally.decisions += 1
        peer, ours = peer_options(state), our_options(hand)
        raise_ok = peer[3] is not None
        if peer != ours:
            reason = classify(state, street, variant.betting, peer, ours)
            assert reason, f"{context()}: pokerkit (actor, fold, call, min, max) {peer}, engine {ours}"
            tally.skip(reason, f"{where}, after {hand.actions[n:]}")
            raise_ok = False  # play only what both allow
            pure = pure and ours[3] is None
        else:
            tally.compared += 1
        seat, top = ours[0], max(state.bets)
        step = len(hand.actions) - n  # actions and board deals so far, as both engines count them
        choice, amount = random_action(
            row, key, step, ours[1], ours[3] if raise_ok else -1, ours[4] if raise_ok else -1
        )
        if choice == FOLD:
            state.fold()
            hand.fold()
            script.append(("fold",))
        elif choice == RAISE:
            amount = int(amount)
            state.complete_bet_or_raise_to(amount)
            hand.raise_to(amount)
            street.act(seat, amount, top)
            tally.raises += 1
            script.append(("raise", amount))
        else:
            state.check_or_call()
            hand.check_call()
            street.act(seat, top, top)
            script.append(("call",))
    assert not state.status, f"{context()}: the engine settled, pokerkit has not"
    tally.hands += 1
    tally.ante_hands += any(antes)
    out = [hand.folded[s] or hand.mucked[s] for s in range(n)]
    bets = [c - a for c, a in zip(hand.contributed, hand.antes_paid)]
    if any(hand.stacks[s] == 0 for s in range(n)):
        tally.all_in_hands += 1
    if len(hand.live) > 1:
        tally.showdowns += 1
        if len(side_pots(bets, out)) > 1:
            tally.side_pot_hands += 1
    ours, theirs = hand.finishing_stacks, list(state.stacks)
    assert ours == rule_book_stacks(hand, out), f"{context()}: the engine's stacks {ours} are not the rule book's"
    if theirs != ours:
        mucked = [out[s] or not state.statuses[s] for s in range(n)]
        assert sum(theirs) == sum(ours) and theirs == rule_book_stacks(hand, mucked), (
            f"{context()}: finishing stacks: pokerkit {theirs}, engine {ours}"
        )
        tally.skip(MERGED_POTS, f"{where}: pokerkit {theirs}, engine {ours}")
    if pure and not any(antes):
        fast_agrees(code, hand, stacks, [c for c in parse_cards("".join(cards))], key, where)
        tally.fast_compared += 1
    if record is not None:
        record.append(script)


def fast_agrees(code: str, hand: Hand, stacks, cards, key: int, where: str) -> None:
    """The numba engine plays the same random-legal hand (cards, key) to the same actions and stacks."""
    import numpy as np

    n = len(stacks)
    fast = play_batch(
        hand.game,
        hand.betting,
        [RANDOM_LEGAL] * n,
        list(stacks),
        [*BLINDS, *[0] * (n - 2)],
        np.array([cards], np.uint8),
        np.array([key], np.uint64),
        np.full((1, n), 0.5),
        keep_actions=True,
    )
    played = [
        a for a in hand.actions if not a.startswith("d dh") and " sm " not in a
    ]  # the fast engine logs no showdown
    logged = fast.actions[0, : fast.action_count[0]]
    assert len(played) == len(logged), f"{where}: {played} against {logged.tolist()}"
    for action, (seat, kind, amount) in zip(played, logged.tolist()):
        words = action.split()
        expected = ("d", "db") if seat < 0 else (f"p{seat + 1}", ("f", "cc", "cbr")[kind])
        assert tuple(words[:2]) == expected and (kind != RAISE or seat < 0 or int(words[2]) == amount), (
            f"{where}: {played} against {logged.tolist()}"
        )
    assert fast.finishing[0].tolist() == hand.finishing_stacks, where


def run(code: str, seed, hands: int) -> Tally:
    tally = Tally()
    for number in range(hands):
        play_one(code, seed, number, tally)
    return tally


def check_tally(tally: Tally, code: str, hands: int) -> None:
    print("\n" + tally.report(code))
    assert tally.hands == hands
    # The comparison must reach the cases it exists for, and skip little.
    assert tally.side_pot_hands >= hands // 20 and tally.all_in_hands >= hands // 5, tally.report(code)
    assert tally.compared >= 0.97 * tally.decisions, tally.report(code)
    assert tally.fast_compared >= hands // 2, tally.report(code)
    assert set(tally.skips) <= {ISSUE_45, UNCALLABLE, NO_CHOICE, MERGED_POTS, SHORT_CLOSES}


# --- random hands ----------------------------------------------------------------------------


@pytest.mark.untraced
@pytest.mark.parametrize("code", ["NT", "PO"])
def test_random_hands_agree_with_pokerkit(code):
    """400 random hands: every decision's options and every finishing stack agree with pokerkit, but for the counted known pokerkit departures."""
    check_tally(run(code, 1, 400), code, 400)


@pytest.mark.slow
@pytest.mark.parametrize("code", ["NT", "PO"])
def test_random_hands_agree_with_pokerkit_slow(code, ci_size):
    """20,000 more random hands (CI: 2,000; other seeds) agree with pokerkit in the same way."""
    hands = ci_size(full=20_000, ci=2_000)
    check_tally(run(code, 2, hands), code, hands)


# --- hand-built hands: the rules, and each way pokerkit departs from them ---------------------


def deal_all(state, hand, holes) -> None:
    for seat, hole in enumerate(holes):
        state.deal_hole(hole, seat)
        hand.deal_hole(seat, hole)


def deal_board(state, hand, cards: str) -> None:
    state.burn_card("??")
    state.deal_board(cards)
    hand.deal_board(cards)


def both(state, hand, action: str, amount: int | None = None) -> None:
    if action == "raise":
        state.complete_bet_or_raise_to(amount)
        hand.raise_to(amount)
    elif action == "call":
        state.check_or_call()
        hand.check_call()
    else:
        state.fold()
        hand.fold()


def test_pokerkit_issue_45_short_raise_over_limpers_reopens():
    """pokerkit lets a limper re-raise after a short all-in raise over the big blind (Rule 96 forbids it); the engine allows only call or fold."""
    # Seats: 0 small blind, 1 big blind with 3 chips, 2 button. Blinds 1/2.
    state, hand = new_pair("NT", [100, 3, 100])
    deal_all(state, hand, ["AsAh", "KdKc", "7h2c"])
    both(state, hand, "call")  # the button limps for 2: it has acted
    both(state, hand, "call")  # the small blind completes to 2: it has acted
    both(state, hand, "raise", 3)  # the big blind is all-in for 3: a raise of 1, short of the full raise of 2
    assert hand.actor == state.actor_index == 2
    # Rule 96: the short all-in does not reopen the betting to the button, who faces 1 more.
    assert hand.legal() == Legal(fold=True, call=1, min_raise_to=None, max_raise_to=None)
    with pytest.raises(IllegalAction):
        hand.raise_to(5)
    # pokerkit measured the raise of 1 against its largest earlier raise, 0, so counted it full.
    assert state.completion_betting_or_raising_amount == 1 and 2 not in state.acted_player_indices
    assert (state.min_completion_betting_or_raising_to_amount, state.max_completion_betting_or_raising_to_amount) == (
        5,
        100,
    )
    assert state.can_complete_bet_or_raise_to(5)


def test_pokerkit_issue_45_short_bet_after_check_reopens():
    """After the flop pokerkit lets players who checked raise an all-in bet below the minimum bet; the engine does not (Rule 96)."""
    # Seats: 0 small blind, 1 big blind, 2 button with 3 chips (1 left after calling preflop).
    state, hand = new_pair("NT", [100, 100, 3])
    deal_all(state, hand, ["AsAh", "KdKc", "7h2c"])
    for _ in range(3):
        both(state, hand, "call")  # the button calls, the small blind completes, the big blind checks
    deal_board(state, hand, "2d7d9h")
    both(state, hand, "call")  # seat 0 checks: it has acted
    both(state, hand, "call")  # seat 1 checks: it has acted
    both(state, hand, "raise", 1)  # the button bets its last chip: less than the minimum bet of 2
    for seat in (0, 1):
        assert hand.actor == state.actor_index == seat
        assert hand.legal() == Legal(fold=True, call=1, min_raise_to=None, max_raise_to=None)
        assert state.min_completion_betting_or_raising_to_amount == 3  # pokerkit: a raise to 3 or more
        assert state.max_completion_betting_or_raising_to_amount == 98
        both(state, hand, "call")
    assert hand.board_due == 1 and state.can_burn_card()


def test_pokerkit_0_7_7_fixed_the_issue_45_reproducer():
    """pokerkit 0.7.7 passes the reproducer of its issue #45 (a full all-in raise fed its short all-in pool): the button who called may not re-raise, as in the engine."""
    for utg in (16, 200):  # all-in for a full raise, or a plain full raise
        state, hand = new_pair("NT", [19, 200, utg, 200])
        deal_all(state, hand, ["AsAh", "KdKc", "7h2c", "QsJs"])
        both(state, hand, "raise", 16)  # under the gun: a full raise
        both(state, hand, "call")  # the button calls 16: it has acted
        both(state, hand, "raise", 19)  # the small blind is all-in for 19: short of the minimum 30
        both(state, hand, "call")  # the big blind calls
        if utg == 200:
            assert hand.actor == state.actor_index == 2
            assert peer_options(state) == our_options(hand) == (2, True, 3, None, None)
            both(state, hand, "call")
        assert peer_options(state) == our_options(hand) == (3, True, 3, None, None)


def test_wsop_rule_96a_cumulative_short_all_ins_reopen():
    """Rule 96a: a bet of 500, a raise to 1000, all-ins to 1300 and 1700 reopen the betting to the raiser (min re-raise 2200); to 1300 and 1400 they do not; both engines agree."""
    for last, reopened in ((1800, True), (1500, False)):
        # Seats 0..3 (3 the button), blinds 50/100; everyone calls 100 preflop.
        state = pokerkit.NoLimitTexasHoldem.create_state(
            AUTOMATIONS, False, 0, (50, 100), 100, [5000, 5000, 1400, last], 4, mode=Mode.TOURNAMENT
        )
        hand = Hand(game("holdem"), NO_LIMIT, [5000, 5000, 1400, last], [50, 100, 0, 0], min_bet=100)
        deal_all(state, hand, ["AsAh", "KdKc", "7h2c", "QsJs"])
        for _ in range(4):
            both(state, hand, "call")
        deal_board(state, hand, "2d7d9h")
        both(state, hand, "raise", 500)  # seat 0 bets 500
        both(state, hand, "raise", 1000)  # seat 1 raises to 1000: a full raise of 500
        both(state, hand, "raise", 1300)  # seat 2 all-in: 300 more, short
        both(state, hand, "raise", last - 100)  # seat 3 all-in: 400 more (700 in all, a full raise) or 100 (400)
        both(state, hand, "call")  # seat 0 calls (it faced seat 1's full raise: it could have re-raised)
        assert hand.actor == state.actor_index == 1
        expected = (1, True, last - 1100, 2200, 5000 - 100) if reopened else (1, True, last - 1100, None, None)
        assert our_options(hand) == peer_options(state) == expected


def test_pokerkit_a_further_short_all_in_closes_what_short_all_ins_reopened():
    """Rule 96a: after a raise to 46 (a full raise of 36), short all-ins to 65 and 93 add up to a
    full raise and reopen the betting for the raiser: both engines agree. One more short all-in,
    to 95, only adds to what the raiser faces: the engine still allows the raise (all-in, 100),
    pokerkit refuses it (``short all-in closes``)."""
    for last, peer_allows in ((("call",), True), (("raise", 95), False)):
        state = pokerkit.NoLimitTexasHoldem.create_state(
            AUTOMATIONS, False, 0, BLINDS, MIN_BET, [111, 12, 97, 102, 67, 95], 6, mode=Mode.TOURNAMENT
        )
        hand = Hand(game("holdem"), NO_LIMIT, [111, 12, 97, 102, 67, 95], [*BLINDS, 0, 0, 0, 0], min_bet=MIN_BET)
        deal_all(state, hand, ["AsAh", "KdKc", "7h2c", "QsJs", "9c9d", "5s4s"])
        for _ in range(6):
            both(state, hand, "call")
        deal_board(state, hand, "2d7d9h")
        for action in (
            ("raise", 2),
            ("raise", 10),
            ("call",),
            ("raise", 46),
            ("raise", 65),
            ("raise", 93),
            ("call",),
            last,
        ):
            both(state, hand, *action)
        assert hand.actor == state.actor_index == 3
        assert our_options(hand)[3:] == (100, 100)
        assert peer_options(state)[3:] == ((100, 100) if peer_allows else (None, None))


def test_uncallable_raise_pokerkit_refuses_engine_allows_and_it_plays_as_a_call():
    """When no opponent can put in more than the current bet, pokerkit refuses a raise the engine allows; the raise plays out exactly as a call."""
    results = []
    for action in ("call", "raise"):
        # Seats 0 small blind (30), 1 big blind (60), 2 under the gun (100), 3 button (500).
        state, hand = new_pair("NT", [30, 60, 100, 500])
        deal_all(state, hand, ["AsAh", "KdKc", "7h2c", "QsJs"])
        both(state, hand, "raise", 100)  # under the gun is all-in for 100
        assert hand.actor == state.actor_index == 3
        # The blinds still have chips (29 and 58) but neither can reach 100: nobody can call a raise.
        assert peer_options(state) == (3, True, 100, None, None)
        assert our_options(hand) == (3, True, 100, 198, 500)  # a full raise of 98 more
        if action == "raise":
            hand.raise_to(300)  # the engine takes it; pokerkit can only call
            state.check_or_call()
        else:
            both(state, hand, "call")
        both(state, hand, "call")  # the small blind calls all-in
        both(state, hand, "call")  # the big blind calls all-in
        assert hand.bets[3] == 100  # the uncalled 200 came back
        for cards in ("2d7d9h", "Tc", "3s"):
            deal_board(state, hand, cards)
        assert hand.done and not state.status
        results.append(hand.finishing_stacks)
        assert hand.finishing_stacks == list(state.stacks)
    assert results[0] == results[1]


def test_no_choice_check_pokerkit_asks_engine_skips():
    """When every opponent is all-in and nothing is owed, pokerkit still asks the player to check (its only option); the engine asks nobody."""
    # Ante 1: the small blind (2 chips) is all-in after the ante and its blind.
    state, hand = new_pair("NT", [2, 9, 6], antes=[1, 1, 1])
    deal_all(state, hand, ["AsAh", "KdKc", "7h2c"])
    both(state, hand, "fold")  # the button folds
    assert hand.actor is None and hand.board_due == 3
    assert peer_options(state) == (1, False, 0, None, None)
    state.check_or_call()
    for cards in ("2d7d9h", "Tc", "3s"):
        deal_board(state, hand, cards)
    assert hand.finishing_stacks == list(state.stacks)


def test_odd_chip_of_one_pot_goes_to_the_first_tied_winner_left_of_the_button():
    """A tied pot of 5 gives the odd chip to the tied winner first clockwise from the button, in both engines."""
    # Seats: 0 small blind, 1 big blind, 2 the button; seats 1 and 2 tie with the board's straight.
    state, hand = new_pair("NT", [100, 100, 100])
    deal_all(state, hand, ["AsAh", "2c3d", "2h3s"])
    both(state, hand, "call")  # the button calls 2
    both(state, hand, "fold")  # the small blind folds its 1
    both(state, hand, "call")  # the big blind checks
    for cards in ("9h8dTc", "Jd", "Qs"):
        deal_board(state, hand, cards)
        both(state, hand, "call")
        both(state, hand, "call")
    assert hand.finishing_stacks == list(state.stacks) == [99, 101, 100]


def test_merged_side_pots_split_once_in_pokerkit_each_pot_in_the_rule_book():
    """Two tied winners of a main pot and a side pot, both odd: the engine splits each pot (RULES 6.4: each odd chip to the tied winner first left of the button); pokerkit mucks the loser, merges the pots and splits once."""
    # Seats: 0 small blind, 1 big blind, 2 with 5 chips, 3, 4 the button. Seats 1 and 4 tie.
    state, hand = new_pair("NT", [100, 100, 5, 100, 100])
    deal_all(state, hand, ["4h5h", "AsKd", "2c3d", "6s6h", "AhKc"])
    both(state, hand, "raise", 5)  # seat 2 is all-in for 5
    both(state, hand, "raise", 10)  # seat 3
    both(state, hand, "call")  # seat 4
    both(state, hand, "fold")  # seat 0 (1 chip in)
    both(state, hand, "raise", 30)  # seat 1
    both(state, hand, "fold")  # seat 3 (10 chips in)
    both(state, hand, "call")  # seat 4
    for cards in ("QhJdTc", "8s", "8d"):
        deal_board(state, hand, cards)
        both(state, hand, "call")
        both(state, hand, "call")
    assert hand.contributed == [1, 30, 5, 10, 30]
    # Main pot 1*5 + 4*4 = 21 for seats 1, 2, 4; side pot 5*3 + 20*2 = 55 for seats 1 and 4.
    assert side_pots(hand.contributed, hand.folded) == [(21, (1, 2, 4)), (55, (1, 4))]
    # The rule book: 21 = 11 + 10 and 55 = 28 + 27, each odd chip to seat 1 (first left of the button).
    assert hand.finishing_stacks == [99, 70 + 11 + 28, 0, 90, 70 + 10 + 27]
    # pokerkit: seat 2 mucks, both pots have seats 1 and 4 only and merge: 76 = 38 + 38.
    assert list(state.stacks) == [99, 108, 0, 90, 108]
    assert list(state.stacks) == rule_book_stacks(hand, [True, False, True, True, False])


def test_pokerkit_fixed_limit_omaha_hi_lo_is_pot_limit():
    """pokerkit 0.7.7's FixedLimitOmahaHoldemHighLowSplitEightOrBetter derives from PotLimitPokerMixin, so its 'fixed-limit' bets go up to the pot; the engine's fixed limit allows one size."""
    peer = pokerkit.FixedLimitOmahaHoldemHighLowSplitEightOrBetter
    assert issubclass(peer, pokerkit.PotLimitPokerMixin) and not issubclass(peer, pokerkit.FixedLimitPokerMixin)
    state = peer.create_state(AUTOMATIONS, False, 0, (1, 2), 2, 4, [200, 200, 200], 3, mode=Mode.TOURNAMENT)
    hand = Hand(game("plo8"), fixed_limit(2, 4), [200, 200, 200], [1, 2, 0])
    deal_all(state, hand, ["AsAh2c3d", "KdKc4h5s", "7h2h9s9d"])
    assert state.betting_structure == pokerkit.BettingStructure.POT_LIMIT
    # The button opens: a fixed-limit raise is to 4 and nothing else; pokerkit allows up to the pot, 7.
    assert our_options(hand) == (2, True, 2, 4, 4)
    assert peer_options(state) == (2, True, 2, 4, 7)
