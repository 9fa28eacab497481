"""The numba engine plays every hand exactly as the reference engine does, hand by hand, on
everything it publishes.

What ``engine.fast.play_batch`` returns, and what each is checked against here (the reference
engine ``engine.player.play_hand`` on the same deal, in ``compare``):

* ``actions`` (every action and raise amount, board deals): the reference's PHH actions;
* ``finishing`` (so the net per seat of ``positions`` and ``classes``): its finishing stacks;
* ``voluntary`` (``played``): the seats that put chips in preflop by choice;
* ``reached`` (``streets.reach``, ``won_here``, the showdown tables): the street it ended on;
* ``players_at`` (``streets.players``, ``fit``'s players at the flop): players left when each
  reached street's betting began, counted from the reference's folds, and at showdown;
* ``live`` (who is at showdown: the showdown flags, ``positions.showdown``): its live seats;
* ``pot`` (``pots``): its pot;
* ``stats`` (``fit``'s statistics: VPIP, PFR, three-bet, aggression per street, ...): the
  reference hand's ``engine.records.seat_stats``.

The built-in policies never reach some branches (a pot-limit maximum, an overbet, a raise
short of the minimum); the ``random-legal`` policy (``engine.chance``) takes every legal
action with fixed weights and raise sizes across the whole legal range, so those run too.
"""

import dataclasses
import functools

import numpy as np
import pytest

from engine.betting import FIXED_LIMIT, NO_LIMIT, POT_LIMIT, fixed_limit
from engine.fast import CHECK_CALL, DEAL, FOLD, MAX_ACTIONS, RAISE, play_batch
from engine.player import deal_hands, play_hand
from engine.policy import Policy, Random, builtin
from engine.ranking import HandRanking
from engine.records import STATS, seat_stats
from evaluator.cards import hand_classes, parse_cards
from evaluator.errors import SampyongError
from evaluator.games import game

MIXED = ["station", "loose", "regular", "tight", "pro-like", "regular"]


def crude_percentile(hole) -> float:
    """A stand-in for the exact grid: higher ranks are stronger (0 best, 1 worst)."""
    return 1 - sum(c >> 2 for c in hole) / (12 * len(hole))


@functools.cache
def crude_ranking(hole_cards: int) -> HandRanking:
    """A ``HandRanking`` (which ranges read) ordered like ``crude_percentile``: more high ranks are
    stronger, pairs and suits count for nothing."""
    _, _, _, examples = hand_classes(hole_cards)
    return HandRanking.from_strengths(hole_cards, [-crude_percentile(parse_cards(e)) for e in examples])


def reference_log(hand) -> list[tuple[int, int, int]]:
    """The reference hand's actions as the fast engine logs them (hole-card deals left out)."""
    out = []
    for action in hand.actions:
        words = action.split()
        if words[:2] == ["d", "db"]:
            out.append((-1, DEAL, len(words[2]) // 2))
        elif words[0] != "d" and words[1] != "sm":  # the fast engine logs no showdown
            seat = int(words[0][1:]) - 1
            kind = {"f": FOLD, "cc": CHECK_CALL, "cbr": RAISE}[words[1]]
            out.append((seat, kind, int(words[2]) if kind == RAISE else 0))
    return out


def reached(hand) -> int:
    return 4 if len(hand.live) > 1 else {0: 0, 3: 1, 4: 2, 5: 3}[len(hand.board)]


def players_at(hand) -> list[int]:
    """Players still in when each street's betting began (counted from the folds in the
    reference's actions), for the streets the hand reached, then at showdown (0 without one)."""
    count, out = hand.seats, [hand.seats]
    for action in hand.actions:
        words = action.split()
        if words[:2] == ["d", "db"]:
            out.append(count)
        elif words[1] == "f":
            count -= 1
    return out[: min(reached(hand), 3) + 1] + [len(hand.live) if reached(hand) == 4 else 0]


def random_legal(fold=0.25, check_call=0.45, bet_raise=0.30, min_raise=0.3, max_raise=0.3) -> Policy:
    return Policy(
        "random-legal", style="random-legal", random=Random(fold, check_call, bet_raise, min_raise, max_raise)
    )


def policy(spec) -> Policy:
    return spec if isinstance(spec, Policy) else builtin(spec)


def compare(name, betting, seats, hands, seed, policies=None, stacks=None, percentile=crude_percentile):
    """Play ``hands`` hands of ``name`` in both engines and assert they agree on everything."""
    g = game(name)
    rng = np.random.default_rng(seed)
    policies = [policy(p) for p in (policies or MIXED[:seats])]
    stacks = stacks or [200] * seats
    blinds = [1, 2] + [0] * (seats - 2)
    cards, keys = deal_hands(rng, hands, seats, g)
    hole = cards[:, : seats * g.hole_cards].reshape(hands, seats, g.hole_cards)
    ranks = np.array([[percentile(sorted(h.tolist())) for h in row] for row in hole])
    ranking = percentile if isinstance(percentile, HandRanking) else None
    fast = play_batch(
        g, betting, policies, stacks, blinds, cards, keys, ranks, keep_actions=True, ranking=ranking, keep_stats=True
    )
    fast.references = []
    for i in range(hands):
        ref = play_hand(g, betting, policies, list(stacks), blinds, cards[i], keys[i], percentile)
        where = f"{name} hand {i}"
        assert [tuple(int(x) for x in row) for row in fast.actions[i, : fast.action_count[i]]] == reference_log(ref), (
            where
        )
        assert fast.finishing[i].tolist() == ref.finishing_stacks, where
        assert fast.voluntary[i].tolist() == [s in ref.voluntary for s in range(seats)], where
        assert fast.reached[i] == reached(ref) and fast.pot[i] == ref.pot, where
        assert fast.live[i].tolist() == [s in ref.live for s in range(seats)], where
        reach = int(fast.reached[i])
        published = [*fast.players_at[i, : min(reach, 3) + 1].tolist(), int(fast.players_at[i, 4])]
        assert published == players_at(ref), where
        assert fast.stats[i].tolist() == [[seat[name] for name in STATS] for seat in seat_stats(ref)], where
        fast.references.append(ref)
    return fast


@pytest.mark.untraced
@pytest.mark.parametrize(
    "name, betting, seats, hands",
    [
        ("pls7", POT_LIMIT, 6, 1000),
        ("holdem", NO_LIMIT, 6, 1000),
        ("plo8", POT_LIMIT, 6, 1000),
        ("plo", POT_LIMIT, 6, 1000),
        ("holdem", FIXED_LIMIT, 4, 300),
        ("plo8", POT_LIMIT, 5, 300),
        ("plo", POT_LIMIT, 2, 300),
        ("pls7", NO_LIMIT, 3, 300),
    ],
)
def test_fast_engine_equals_the_reference_hand_by_hand(name, betting, seats, hands):
    """Mixed policies, 1,000 six-handed hands per game (and 300 of other tables and structures):
    every action and every finishing stack agree."""
    fast = compare(name, betting, seats, hands, seed=seats)
    assert fast.reached.max() == 4 and fast.reached.min() == 0  # some hands end preflop, some at showdown


def test_percentiles_exactly_on_the_policies_thresholds_agree():
    """Percentiles equal to a policy's thresholds (open, call, overcall, re-raise shares): both
    engines take the same side of every boundary (a hand exactly at a share is outside it)."""
    regular = builtin("regular").preflop
    edges = sorted(
        {regular.open_early, regular.open_late, regular.call, regular.overcall, regular.reraise, regular.call_reraised}
    )

    def on_an_edge(hole) -> float:
        return edges[sum(hole) % len(edges)]

    fast = compare("holdem", NO_LIMIT, 6, 300, 17, policies=["regular"] * 6, percentile=on_an_edge)
    assert int((fast.actions[:, :, 1] == RAISE).sum()) > 0


BY_STREET = [  # bluffs, and thresholds that differ by street (None: the street plays as the flop)
    dict(bluff=0.3),
    dict(bluff=0.2, bet_river=0.55, call_factor_river=2.5),
    dict(bluff=0.45, bluff_turn=0.1),
    dict(bet_turn=0.9, call_factor_turn=0.5, bluff_river=0.4),
    dict(bluff=0.35, bet_river=0.8),
    dict(call_factor=2.0, call_factor_river=0.8),
]


@pytest.mark.untraced
@pytest.mark.parametrize("name, betting", [("holdem", NO_LIMIT), ("pls7", POT_LIMIT)])
def test_bluffs_and_thresholds_by_street_agree_hand_by_hand(name, betting):
    """Policies that bluff (``postflop.bluff``: bet with the weakest hands when no one has bet) and
    set their thresholds street by street (``bet_river``, ``call_factor_turn``, ...) play alike in
    both engines, and bet more than the same policies without them."""
    names = ("regular", "tight", "loose", "regular", "station", "tight")
    changed = [
        dataclasses.replace(builtin(p), postflop=dataclasses.replace(builtin(p).postflop, **c))
        for p, c in zip(names, BY_STREET)
    ]
    fast = compare(name, betting, 6, 400, 23, policies=changed)
    plain = compare(name, betting, 6, 400, 23, policies=[builtin(p) for p in names])
    raises = lambda played: int((played.actions[:, :, 1] == RAISE).sum())  # noqa: E731
    assert raises(fast) > raises(plain)


def test_short_and_uneven_stacks_side_pots_agree():
    """Stacks from 3 to 300 chips: all-ins for less, side pots and odd chips agree with the reference."""
    rng = np.random.default_rng(3)
    for k in range(6):
        stacks = [int(x) for x in rng.integers(3, 300, size=6)]
        compare(
            "pls7",
            POT_LIMIT if k % 2 else NO_LIMIT,
            6,
            60,
            seed=100 + k,
            stacks=stacks,
            policies=["loose", "station", "loose", "pro-like", "loose", "regular"],
        )


STRUCTURES = {"NL": NO_LIMIT, "PL": POT_LIMIT, "FL": FIXED_LIMIT, "FL uncapped": fixed_limit(max_bets=None)}


@pytest.mark.untraced
@pytest.mark.parametrize("structure", STRUCTURES)
@pytest.mark.parametrize("name", ["pls7", "holdem", "plo8", "plo", "pls7-2", "plo5-8"])
def test_random_legal_play_agrees_in_every_game_and_structure(name, structure):
    """Random legal actions with raise sizes over the whole legal range (minimum, maximum,
    anything between), uneven short stacks and 2 to 6 seats: both engines agree hand by hand,
    and the rare branches they are meant to reach are reached."""
    rng = np.random.default_rng(len(name) * 10 + len(structure))
    seen = {"all-in": 0, "fold": 0, "ended before showdown": 0}
    for k, seats in enumerate((2, 3, 6)):
        stacks = [int(x) for x in rng.integers(3, 400, size=seats)]
        stacks[k % seats] = int(rng.integers(3, 15))  # one short stack a table: all-ins in fixed-limit too
        policies = [random_legal(fold=0.1 + 0.1 * (s % 3), bet_raise=0.2 + 0.15 * (s % 2)) for s in range(seats)]
        fast = compare(name, STRUCTURES[structure], seats, 80, seed=1000 + k, policies=policies, stacks=stacks)
        for i, ref in enumerate(fast.references):
            seen["fold"] += int((fast.actions[i, : fast.action_count[i], 1] == FOLD).any())
            seen["ended before showdown"] += int(fast.reached[i] < 4)
            seen["all-in"] += int(0 in ref.stacks)
    assert min(seen.values()) > 0, seen


def test_random_legal_reaches_the_pot_limit_maximum_and_no_limit_overbets():
    """The random-legal policy raises to the pot-limit maximum and overbets the pot in no-limit,
    the branches no built-in policy takes, and both engines agree on those hands."""
    deep = [2000] * 4
    pl = compare(
        "pls7", POT_LIMIT, 4, 200, seed=7, policies=[random_legal(min_raise=0.0, max_raise=1.0)] * 4, stacks=deep
    )
    nl = compare(
        "holdem", NO_LIMIT, 4, 200, seed=8, policies=[random_legal(min_raise=0.0, max_raise=0.0)] * 4, stacks=deep
    )
    assert (pl.actions[:, :, 1] == RAISE).sum() > 100 and (nl.actions[:, :, 1] == RAISE).sum() > 100
    # A pot-limit maximum raise puts in the pot after the call: a street total above the bet faced.
    assert (pl.pot > 2000).any() and (nl.pot == 8000).any()


def with_ranges(name: str) -> Policy:
    """The built-in policy ``name`` reading its opponents' ranges after the flop."""
    p = builtin(name)
    return dataclasses.replace(p, name=f"{name}+ranges", postflop=dataclasses.replace(p.postflop, ranges=True))


# Every read: opens, re-raises, calls, overcalls, calls of raises, limps (loose, station), the big blind's checks.
RANGES_TABLE = [
    with_ranges("loose"),
    "station",
    with_ranges("regular"),
    random_legal(),
    with_ranges("pro-like"),
    "tight",
]


@pytest.mark.untraced
@pytest.mark.parametrize(
    "name, betting, seats",
    [
        ("pls7", POT_LIMIT, 6),
        ("holdem", NO_LIMIT, 6),
        ("plo8", POT_LIMIT, 6),
        ("plo", POT_LIMIT, 6),
        ("pls7", NO_LIMIT, 3),
    ],
)
def test_strength_against_ranges_agrees_hand_by_hand(name, betting, seats):
    """Policies that read ranges beside ones that do not: both engines note the same reads, cap
    the same ranges and draw the same opponent hands, so every action agrees; and the ranges
    change some hands from what the same seats play against random hands."""
    fast = compare(
        name,
        betting,
        seats,
        500,
        seed=77,
        policies=RANGES_TABLE[:seats],
        percentile=crude_ranking(game(name).hole_cards),
    )
    plain = [
        builtin(p.name.removesuffix("+ranges")) if isinstance(p, Policy) and p.postflop.ranges else p
        for p in RANGES_TABLE[:seats]
    ]
    against_random = compare(
        name, betting, seats, 500, seed=77, policies=plain, percentile=crude_ranking(game(name).hole_cards)
    )
    assert (fast.finishing != against_random.finishing).any(axis=1).sum() >= 5


def test_a_ranges_policy_without_a_ranking_is_refused():
    """``play_batch`` refuses a ranges policy when no ``HandRanking`` is given (it has nothing to read ranges by)."""
    g = game("holdem")
    cards, keys = deal_hands(np.random.default_rng(1), 4, 2, g)
    with pytest.raises(SampyongError, match="needs the game's ranking"):
        play_batch(g, NO_LIMIT, [with_ranges("regular")] * 2, [200] * 2, [1, 2], cards, keys, np.full((4, 2), 0.5))


@pytest.mark.slow
@pytest.mark.parametrize(
    "name, betting", [("pls7", POT_LIMIT), ("holdem", NO_LIMIT), ("plo8", POT_LIMIT), ("plo", POT_LIMIT)]
)
def test_fast_engine_equals_the_reference_on_many_hands(name, betting, ci_size):
    """100,000 six-handed hands per game with mixed policies (CI: 5,000): the engines agree hand by hand."""
    compare(name, betting, 6, ci_size(full=100_000, ci=5_000), seed=2026)


def agree(name, betting, seats, hands, seed, policies, stacks, blinds):
    """``compare``'s hand-by-hand check (actions, finishing stacks, pot) for any ``blinds``."""
    g = game(name)
    cards, keys = deal_hands(np.random.default_rng(seed), hands, seats, g)
    hole = cards[:, : seats * g.hole_cards].reshape(hands, seats, g.hole_cards)
    ranks = np.array([[crude_percentile(sorted(h.tolist())) for h in row] for row in hole])
    fast = play_batch(g, betting, policies, stacks, blinds, cards, keys, ranks, keep_actions=True)
    for i in range(hands):
        ref = play_hand(g, betting, policies, list(stacks), blinds, cards[i], keys[i], crude_percentile)
        where = f"{name} blinds {blinds} hand {i}"
        assert [tuple(int(x) for x in row) for row in fast.actions[i, : fast.action_count[i]]] == reference_log(ref), (
            where
        )
        assert fast.finishing[i].tolist() == ref.finishing_stacks and fast.pot[i] == ref.pot, where
    return fast


@pytest.mark.parametrize("structure", STRUCTURES)
def test_blinds_of_one_chip_or_none_make_the_minimum_bet_one_chip(structure):
    """Blinds whose largest is 1 chip (or 0: none) make the minimum bet and raise 1 chip, as in
    the reference: minimum raises, fixed-limit bets and pot-limit bounds agree hand by hand."""
    minimum = random_legal(fold=0.1, bet_raise=0.5, min_raise=1.0, max_raise=0.0)  # every raise the minimum
    for seats, blinds in ((2, [0, 1]), (3, [1, 1, 0]), (3, [0, 0, 0])):
        fast = agree(
            "holdem", STRUCTURES[structure], seats, 40, seats + sum(blinds), [minimum] * seats, [60] * seats, blinds
        )
        raises = fast.actions[:, :, 1] == RAISE
        assert raises.sum() > 20
        # A 1-chip minimum: every first raise of a hand is to 1 or 2 chips (a 2-chip one: 2 to 4).
        first = fast.actions[np.arange(40), raises.argmax(axis=1), 2][raises.any(axis=1)]
        assert (first <= 2).all()


def test_strengths_given_to_play_batch_are_the_ones_played():
    """``highs`` and ``lows`` given (here every seat tied, no low) decide the showdowns:
    check-call seats all split every pot and get their chips back."""
    g = game("plo8")
    seats, hands = 4, 60
    cards, keys = deal_hands(np.random.default_rng(21), hands, seats, g)
    showdown = [builtin("showdown")] * seats
    ranks = np.full((hands, seats), 0.5)
    tied = play_batch(
        g,
        POT_LIMIT,
        showdown,
        [200] * seats,
        [1, 2, 0, 0],
        cards,
        keys,
        ranks,
        highs=np.full((hands, seats), 7),
        lows=np.zeros((hands, seats), np.int64),
    )
    assert (tied.reached == 4).all() and (tied.finishing == 200).all()
    dealt = play_batch(g, POT_LIMIT, showdown, [200] * seats, [1, 2, 0, 0], cards, keys, ranks)
    assert (dealt.finishing != 200).any()  # the cards' own strengths have winners and losers


def test_hands_split_into_several_chunks_agree(monkeypatch):
    """Hands played chunk by chunk (a chunk of 64 hands here: the chunks after the first start
    past hand 0) agree with the reference hand by hand, strengths of every chunk included."""
    monkeypatch.setattr("engine.fast.CHUNK", 64)
    fast = compare("pls7", POT_LIMIT, 6, 150, seed=31)
    assert fast.reached[128:].max() == 4 and fast.rounds > 3  # the last chunk reached showdowns, in rounds


def test_strength_requests_ask_each_strength_once_for_seats_that_may_act(monkeypatch):
    """The kernel asks only for strengths of thresholds seats still in the hand, each (hand,
    seat, street, opponents) once, and ``strength_requests`` counts exactly those asked."""
    from engine import strength as strength_module

    asked = []

    def recording(game, cards, keys, requests, opponents, samples, *ranges):
        asked.extend((*(int(x) for x in row[:4]), opponents) for row in requests)  # (hand, seat, street, known)
        return strength_module.strengths(game, cards, keys, requests, opponents, samples, *ranges)

    monkeypatch.setattr("engine.fast.strengths", recording)
    policies = ["loose", "showdown", "regular", random_legal(), "station", "tight"]
    fast = compare("holdem", NO_LIMIT, 6, 200, seed=41, policies=policies)
    assert len(asked) == len(set(asked)) == fast.strength_requests > 100
    for hand, seat, street, known, opponents in asked:
        assert policy(policies[seat]).style == "thresholds", (hand, seat)
        assert known == {1: 3, 2: 4, 3: 5}[street] and 1 <= opponents < fast.players_at[hand, street]
        log = fast.actions[hand, : fast.action_count[hand]]
        deals = np.flatnonzero(log[:, 1] == DEAL)
        before = log[: deals[street - 1]]  # the actions before this street's cards
        assert not ((before[:, 0] == seat) & (before[:, 1] == FOLD)).any(), (hand, seat, street)


def test_a_table_without_thresholds_seats_asks_for_no_strength():
    """Check-call and random-legal seats never need a strength: one round, no request."""
    g = game("holdem")
    cards, keys = deal_hands(np.random.default_rng(51), 100, 3, g)
    fast = play_batch(
        g,
        NO_LIMIT,
        [builtin("showdown"), random_legal(), random_legal()],
        [200] * 3,
        [1, 2, 0],
        cards,
        keys,
        np.full((100, 3), 0.5),
    )
    assert fast.rounds == 1 and fast.strength_requests == 0 and (fast.reached == 4).any()


RAISER = random_legal(fold=0.0, check_call=0.0, bet_raise=1.0)  # raises whenever it may, else checks or calls


@pytest.mark.parametrize("stack, fits", [(394, True), (396, False), (400, False), (402, False)])
def test_a_hand_of_more_actions_than_the_log_holds_is_an_error(stack, fits):
    """Heads-up uncapped fixed-limit raising wars to all-in with 394 chips each log 197 actions
    and 3 deals, exactly MAX_ACTIONS rows: played as the reference plays it. With 2 chips more a
    deal falls past the log (the river's with 396, the flop's with 400), with 402 an action:
    ``SampyongError``, never a log written past its end."""
    g = game("holdem")
    cards, keys = deal_hands(np.random.default_rng(61), 1, 2, g)
    uncapped = fixed_limit(max_bets=None)
    ref = play_hand(g, uncapped, [RAISER] * 2, [stack] * 2, [1, 2], cards[0], keys[0], crude_percentile)
    assert len(reference_log(ref)) == stack // 2 + 3 and (len(reference_log(ref)) <= MAX_ACTIONS) == fits
    if fits:
        agree("holdem", uncapped, 2, 1, 61, [RAISER] * 2, [stack] * 2, [1, 2])
    else:
        with pytest.raises(SampyongError, match=f"past {MAX_ACTIONS} actions"):
            play_batch(
                g, uncapped, [RAISER] * 2, [stack] * 2, [1, 2], cards, keys, np.full((1, 2), 0.5), keep_actions=True
            )


def test_chips_stay_exact_with_stacks_past_float64_integers():
    """Stacks above 2**53 chips (past the integers a float64 holds exactly): every hi-lo split,
    odd chips included, pays the reference's exact finishing stacks, and the action log holds
    the exact raise amounts."""
    g = game("plo8")
    seats, hands = 3, 60
    stacks = [2**55 + 1, 2**55 + 3, 2**54 + 5]
    shover = random_legal(fold=0.1, check_call=0.3, bet_raise=0.6, min_raise=0.0, max_raise=1.0)
    cards, keys = deal_hands(np.random.default_rng(4), hands, seats, g)
    fast = play_batch(
        g, NO_LIMIT, [shover] * seats, stacks, [1, 2, 0], cards, keys, np.full((hands, seats), 0.5), keep_actions=True
    )
    for i in range(hands):
        ref = play_hand(g, NO_LIMIT, [shover] * seats, list(stacks), [1, 2, 0], cards[i], keys[i], crude_percentile)
        assert fast.finishing[i].tolist() == ref.finishing_stacks and fast.pot[i] == ref.pot, i
        assert [tuple(int(x) for x in row) for row in fast.actions[i, : fast.action_count[i]]] == reference_log(ref), i
    assert ((fast.reached == 4) & (fast.pot > 2**54)).sum() > 20
