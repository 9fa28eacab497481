"""Records written elsewhere replay as written; records written here are complete and compact.

pokerkit 0.7.7 (a test-only peer) is the reference PHH writer. Its records replay as ``match``
where its rules depart from the rule book in the known ways of ``engine.departures``, each
named on the hand and counted by kind; any other difference stays ``differ`` or ``illegal``.
The other way round, every hand this project writes replays in pokerkit to its recorded
stacks, but for the one departure pokerkit cannot read: a raise nobody can call, which
pokerkit refuses (``uncallable raise`` in ``tests/test_engine_pokerkit.py``).
"""

from __future__ import annotations

import collections
import random
import tomllib
import warnings
from decimal import Decimal

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

pokerkit = pytest.importorskip("pokerkit")

from engine import departures, phh  # noqa: E402
from engine.betting import NO_LIMIT, POT_LIMIT  # noqa: E402
from engine.hand import Hand  # noqa: E402
from engine.player import play_hand  # noqa: E402
from engine.policy import Policy, Random  # noqa: E402
from evaluator.games import game  # noqa: E402
from tests.pokerkit_records import Writer  # noqa: E402

RANDOM_LEGAL = Policy(
    "random-legal",
    style="random-legal",
    random=Random(fold=0.15, check_call=0.45, bet_raise=0.40, min_raise=0.3, max_raise=0.25),
)


def replay_text(text: str) -> phh.Replay:
    return phh.replay(phh.loads(text)[0])


def pokerkit_stacks(text: str, variant: str) -> list:
    """The finishing stacks pokerkit reaches replaying ``text`` (None while the hand is unfinished)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        state = list(Writer.loads(text))[-1]
    return None if state.status else list(state.stacks)


# --- pokerkit's records, read here ------------------------------------------------------------


@pytest.fixture(scope="module")
def pokerkit_hands(pokerkit_records):
    return pokerkit_records


@pytest.mark.untraced
def test_three_thousand_pokerkit_hands_all_match_each_departure_counted(pokerkit_hands):
    """3,000 random-action hands written by pokerkit (NT, PO, pot-limit Omaha hi-lo, 2-6 seats, uneven stacks) all replay as match; the departures are counted by kind in the summary, and every kind occurs."""
    results = [replay_text(text) for text in pokerkit_hands]
    assert collections.Counter(r.status.value for r in results) == {"match": 3000}
    kinds = collections.Counter(kind for r in results for kind in r.departures)
    assert set(kinds) == set(departures.KINDS), kinds
    line = phh.summary(results)
    hands = sum(1 for r in results if r.departures)
    assert line.startswith("3,000 hands: 3,000 match, 0 differ, 0 illegal, 0 skipped;")
    assert f"{hands} of the matches replayed as their writer played them" in line
    for kind, n in kinds.items():
        assert f"{kind} {n}" in line
    for r in results:
        if r.departures:
            assert all(f"{kind} ({departures.RULES[kind]})" in r.message for kind in r.departures), r.message
    # Each settlement departure is one pokerkit really made: pokerkit pays the record's stacks.
    for text, r in zip(pokerkit_hands, results):
        if set(r.departures) & set(departures.SETTLING):
            assert pokerkit_stacks(text, r.record.fields["variant"]) == [int(s) for s in r.expected]
            assert r.hand.finishing_stacks != [int(s) for s in r.expected]  # and the rule book pays otherwise


@pytest.mark.untraced
def test_the_rule_book_settlement_model_is_the_engines(pokerkit_hands):
    """``departures.settle`` with no departure pays every showdown of the 3,000 hands exactly as the engine does (the model is the rule book's but for the departures it names)."""
    showdowns = 0
    for text in pokerkit_hands:
        hand = replay_text(text).hand
        if len(hand.live) > 1:
            showdowns += 1
            assert departures.settle(hand, ()) == hand.finishing_stacks, text
    assert showdowns > 800


def test_a_record_no_writers_rule_explains_stays_differ_or_illegal(pokerkit_hands):
    """One chip moved between two seats of a matching record makes it differ; a raise below the minimum that no departure allows stays illegal."""
    record = phh.loads(pokerkit_hands[0])[0]
    assert phh.replay(record).status == "match"
    stacks = list(record.fields["finishing_stacks"])
    rich = max(range(len(stacks)), key=lambda s: stacks[s])
    stacks[rich] -= 1
    stacks[(rich + 1) % len(stacks)] += 1
    record.fields["finishing_stacks"] = stacks
    assert phh.replay(record).status == "differ"
    illegal = replay_text(
        HEADER.format(stacks="[100, 100, 100]") + 'actions = ["d dh p1 AsAh", "d dh p2 KdKc", '
        '"d dh p3 7h2c", "p3 cbr 3", "p1 f", "p2 f"]\nfinishing_stacks = [99, 98, 103]\n'
    )
    assert illegal.status == "illegal" and "may raise to 4" in illegal.message and not illegal.departures


HEADER = 'variant = "NT"\nantes = [0, 0, 0]\nblinds_or_straddles = [1, 2, 0]\nmin_bet = 2\nstarting_stacks = {stacks}\n'


def test_no_choice_check_is_a_no_op():
    """`p2 cc` where the small blind is all-in and the button folded (pokerkit asks the big blind to check) replays as a match with the no-choice check named."""
    text = HEADER.format(stacks="[1, 23, 67]") + (
        'actions = ["d dh p1 7c9c", "d dh p2 Qd2s", "d dh p3 3c5s", "p3 f", "p2 cc", "p1 sm 7c9c", "p2 sm Qd2s", '
        '"d db 4d4s9s", "d db As", "d db Kc"]\nfinishing_stacks = [2, 22, 67]\n'
    )
    result = replay_text(text)
    assert result.status == "match" and result.departures == (departures.NO_CHOICE_CHECK,)
    assert "no-choice check" in result.message
    assert pokerkit_stacks(text, "NT") == [2, 22, 67]
    # Out of turn for any other reason it stays illegal: the button checking after folding.
    bad = replay_text(text.replace('"p2 cc"', '"p3 cc"'))
    assert bad.status == "illegal" and "out of turn" in bad.message


def test_raise_after_a_short_first_wager_is_accepted():
    """`p1 cbr 66` after `p1 cc` and a 1-chip all-in bet on the river (pokerkit #45) replays as a match with the departure named; the engine itself still refuses that raise."""
    text = HEADER.format(stacks="[100, 100, 3]") + (
        'actions = ["d dh p1 AsAh", "d dh p2 KdKc", "d dh p3 8c4s", "p3 cc", "p1 cc", "p2 cc", "d db 2d7d9h", '
        '"p1 cc", "p2 cc", "p3 cc", "d db Qc", "p1 cc", "p2 cc", "p3 cc", "d db 3s", "p1 cc", "p2 cc", "p3 cbr 1", '
        '"p1 cbr 66", "p2 f", "p1 sm AsAh", "p3 sm 8c4s"]\nfinishing_stacks = [105, 98, 0]\n'
    )
    result = replay_text(text)
    assert result.status == "match" and result.departures == (departures.SHORT_WAGER,), result.message
    assert pokerkit_stacks(text, "NT") == [105, 98, 0]
    hand = result.hand
    played = Hand(hand.game, NO_LIMIT, [100, 100, 3], [1, 2, 0])
    for action in result.record.fields["actions"][:18]:
        phh.apply(played, action, 0)
    assert played.actor == 0 and played.legal().min_raise_to is None  # Rule 96: no raise for the checker


# pokerkit's own records (seed 1 of tests/pokerkit_records.py), one per settlement departure.
SETTLED_BY_POKERKIT = {
    (departures.MERGED_POTS,): """variant = 'PO/8'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [75, 10, 29]
actions = ['d dh p1 8s2hAdKd', 'd dh p2 4s6sQcJs', 'd dh p3 2cAh4dKs', 'p3 cbr 7', 'p1 cc', 'p2 cc', 'd db Th2s7d', 'p1 cc', 'p2 cc', 'p3 cc', 'd db 2d', 'p1 cbr 10', 'p2 cc', 'p3 cc', 'd db 3h', 'p1 cc', 'p3 cbr 12', 'p1 cc', 'p3 sm 2cAh4dKs', 'p1 sm 8s2hAdKd', 'p2 sm 4s6sQcJs']
finishing_stacks = [63, 0, 51]
""",
    (departures.LOW_ODD_CHIP,): """variant = 'PO/8'
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [16, 70]
actions = ['d dh p1 8h4d2hQs', 'd dh p2 KhAh4c9c', 'p2 cbr 4', 'p1 cc', 'd db 2cAc6s', 'p1 cc', 'p2 cbr 2', 'p1 cbr 7', 'p2 cc', 'd db Jh', 'p1 cc', 'p2 cc', 'd db 3s', 'p1 cc', 'p2 cc', 'p1 sm 8h4d2hQs', 'p2 sm KhAh4c9c']
finishing_stacks = [11, 75]
""",
    (departures.MERGED_POTS, departures.SHARED_LOW_HALF): """variant = 'PO/8'
antes = [0, 0, 0, 0, 0]
blinds_or_straddles = [1, 2, 0, 0, 0]
min_bet = 2
starting_stacks = [79, 31, 70, 49, 13]
actions = ['d dh p1 2c5c6dJd', 'd dh p2 Qd9h6h3c', 'd dh p3 2hQsKcTs', 'd dh p4 QcTcKh8d', 'd dh p5 7s7d5s4h', 'p3 cbr 4', 'p4 cc', 'p5 cc', 'p1 cc', 'p2 cc', 'd db 8c5d9d', 'p1 cc', 'p2 cbr 2', 'p3 cbr 26', 'p4 cc', 'p5 cc', 'p1 f', 'p2 cc', 'd db 5h', 'p2 cc', 'p3 cbr 40', 'p4 cc', 'p2 cc', 'p3 sm 2hQsKcTs', 'p4 sm QcTcKh8d', 'p5 sm 7s7d5s4h', 'p2 sm Qd9h6h3c', 'd db 6s']
finishing_stacks = [75, 41, 21, 49, 56]
""",
}


@pytest.mark.parametrize("kinds", list(SETTLED_BY_POKERKIT), ids=lambda kinds: " + ".join(kinds))
def test_pots_paid_by_pokerkits_rules_match_as_written(kinds):
    """A PLO8 record pokerkit paid by its own rules (merged side pots, a tied low half's odd chip, a low half shared by hands without a low) matches with those departures named, and pokerkit pays it so."""
    text = SETTLED_BY_POKERKIT[kinds]
    result = replay_text(text)
    assert result.status == "match" and result.departures == kinds
    expected = [int(s) for s in result.expected]
    assert pokerkit_stacks(text, "PO/8") == expected
    assert result.hand.finishing_stacks != expected
    assert departures.settle(result.hand, ()) == result.hand.finishing_stacks


def test_pokerkit_pays_a_low_half_to_hands_without_a_low():
    """pokerkit's bug, shown on its own record: a side pot none of whose two contenders has a qualifying low is halved anyway (another player has a low), and its low half shared by the two; the rule book gives the whole pot to the high."""
    text = SETTLED_BY_POKERKIT[(departures.MERGED_POTS, departures.SHARED_LOW_HALF)]
    hand = replay_text(text).hand
    lows = {s: departures.reference.showdown(hand.game, hand.hole[s], hand.board).low for s in hand.live}
    with_low = [s for s, low in lows.items() if low is not None]
    assert with_low and len(with_low) < len(hand.live)
    pokerkit_paid = departures.settle(hand, departures.SETTLING)
    without_the_bug = departures.settle(hand, (departures.MERGED_POTS,))
    assert pokerkit_paid != without_the_bug
    # The seats pokerkit pays more than it should hold no low.
    gained = [s for s in range(hand.seats) if pokerkit_paid[s] > without_the_bug[s]]
    assert gained and all(lows.get(s) is None for s in gained)


# --- records written here, read by pokerkit ---------------------------------------------------


def uncallable_raise(hand: Hand) -> bool:
    """Whether the hand has a raise no opponent could call (every opponent with chips had at
    most the bet it faced): pokerkit refuses such a raise, the rules allow it."""
    again = Hand(hand.game, hand.betting, hand.starting_stacks, hand.initial_blinds, hand.initial_antes, hand.min_bet)
    for action in hand.actions:
        words = action.split()
        if words[1] == "cbr":
            seat = int(words[0][1:]) - 1
            others = [s for s in again.live if s != seat]
            top = again.max_bet
            if all(again.stacks[s] + again.bets[s] <= top for s in others) and any(again.stacks[s] for s in others):
                return True
        phh.apply(again, action, 0)
    return False


@pytest.mark.untraced
@pytest.mark.parametrize("code,name,betting", [("NT", "holdem", NO_LIMIT), ("PO", "plo", POT_LIMIT)])
def test_our_random_legal_records_replay_in_pokerkit(code, name, betting):
    """500 random-legal hands (2-6 seats, stacks of 1 to 60 big blinds) written by `dumps` all replay in pokerkit to their recorded stacks (showdowns included), but those with an uncallable raise, which pokerkit refuses."""
    rules = game(name)
    counts = collections.Counter()
    for number in range(500):
        rng = random.Random(f"{code}:{number}")
        n = rng.randint(2, 6)
        stacks = [rng.randint(1, 120) for _ in range(n)]
        cards = rng.sample(range(52), n * rules.hole_cards + 5)
        hand = play_hand(
            rules,
            betting,
            [RANDOM_LEGAL] * n,
            stacks,
            [1, 2, *[0] * (n - 2)],
            np.array(cards),
            rng.getrandbits(63),
            lambda hole: 0.5,
        )
        text = phh.dumps(hand)
        assert replay_text(text).status == "match"
        try:
            reached = pokerkit_stacks(text, code)
        except ValueError:
            assert uncallable_raise(hand), text
            counts["uncallable raise"] += 1
            continue
        assert reached == hand.finishing_stacks, text
        counts["showdown" if len(hand.live) > 1 else "folded"] += 1
    assert counts["showdown"] > 150 and counts["folded"] > 50 and counts["uncallable raise"] < 30, counts


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    import sampyong as sy

    out = tmp_path_factory.mktemp("played")
    return {
        name: sy.run("play", game=name, players=6, hands=2000, record=300, backend="serial", out=out / name, quiet=True)
        for name in ("holdem", "plo", "pls7")
    }


@pytest.mark.parametrize("name,code", [("holdem", "NT"), ("plo", "PO")])
def test_run_play_records_replay_in_pokerkit(played, name, code):
    """Every hold'em and PLO hand `run play --record` writes replays in pokerkit to its recorded stacks, the showdowns too."""
    text = (played[name].dir / "hands.phhs").read_text()
    hands = phh.loads(text)
    showdowns = 0
    for record in hands:
        single = phh.write_fields(record.fields)
        assert pokerkit_stacks(single, code) == record.fields["finishing_stacks"], single
        showdowns += any(" sm " in a for a in record.fields["actions"])
    assert len(hands) == 300 and showdowns > 20


def test_records_are_compact_one_line_per_field(played):
    """Six-handed PLS7 records average at most 450 bytes a hand, one line per field, and read back as they were played."""
    text = (played["pls7"].dir / "hands.phhs").read_text()
    hands = phh.loads(text)
    assert len(text.encode()) / len(hands) <= 450
    assert all(line == "" or line.startswith("[") or " = " in line for line in text.splitlines())
    assert len(text.splitlines()) == 300 * 9 - 1  # [n], 7 fields, a blank line between hands
    assert [r.status for r in map(phh.replay, hands)] == ["match"] * 300


# --- writing TOML inline ----------------------------------------------------------------------

SCALARS = st.one_of(
    st.integers(-(2**63), 2**63 - 1),
    st.booleans(),
    st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12),
    st.decimals(allow_nan=False, allow_infinity=False, places=3, min_value=-(10**6), max_value=10**6),
)
KEYS = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1, max_size=8)


@settings(max_examples=200, deadline=None)
@example({"0\n": 0})  # found by hypothesis: a bare-key pattern ending in $ let the line break through
@given(
    st.dictionaries(
        KEYS, st.one_of(SCALARS, st.lists(SCALARS, max_size=4), st.dictionaries(KEYS, SCALARS, max_size=3)), max_size=6
    )
)
def test_write_fields_reads_back_as_written(fields):
    """Any fields of strings (control characters, quotes, DEL), integers, decimals, booleans, arrays and tables, written one line each, read back equal."""
    text = phh.write_fields(fields)
    assert text.count("\n") == len(fields)
    assert tomllib.loads(text, parse_float=Decimal) == fields


def test_show_dash_shows_the_dealt_cards_and_bare_sm_mucks():
    """PHH's `pN sm -` shows the cards dealt and a bare `pN sm` mucks (pokerkit reads them so); the engine writes a muck as `pN sm`."""
    text = HEADER.format(stacks="[100, 100, 100]") + (
        'actions = ["d dh p1 AsAh", "d dh p2 KdKc", "d dh p3 7h2c", "p3 f", "p1 cc", "p2 cc", "d db 2d7d9h", "p1 cc", '
        '"p2 cc", "d db Qc", "p1 cc", "p2 cc", "d db 3s", "p1 cc", "p2 cc", "p1 sm -", "p2 sm"]\n'
        "finishing_stacks = [102, 98, 100]\n"
    )
    result = replay_text(text)
    assert result.status == "match" and result.hand.showed[0] and result.hand.mucked[1]
    assert result.hand.actions[-2:] == ["p1 sm AsAh", "p2 sm"]
    assert pokerkit_stacks(text, "NT") == [102, 98, 100]


def test_records_study_lists_departures_by_hand_and_counts_them(tmp_path, pokerkit_hands):
    """`run records` on pokerkit's records counts every hand, lists those replayed by the writer's rules with their index and kinds, and its report counts the kinds."""
    import sampyong as sy

    texts = pokerkit_hands[:600]
    path = tmp_path / "pokerkit.phhs"
    path.write_text("\n".join(f"[{i}]\n{text}" for i, text in enumerate(texts, 1)))
    expected = collections.Counter(kind for text in texts for kind in replay_text(text).departures)
    run = sy.run("records", paths=[path], backend="serial", out=tmp_path / "out", quiet=True)
    rows = run.tables["records"]
    assert int(rows["hands"].sum()) == 600 and set(rows["status"]) == {"match"}
    listed = collections.Counter(kind for message in rows["message"] if message for kind in message.split(", "))
    assert listed == expected and expected
    for kind, n in expected.items():
        assert f"{kind} {n}" in run.report
