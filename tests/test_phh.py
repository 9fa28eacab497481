"""Hand records: the real records replay to their finishing stacks, hands round-trip through PHH
(and load unchanged in pokerkit), the project's own codes carry their rules, and bad records
are named."""

import json
import random
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pokerkit
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.betting import POT_LIMIT
from engine.hand import Hand
from engine.phh import dumps, loads, replay, write_fields
from engine.record_files import load_paths
from evaluator.games import game

HANDS = Path(__file__).resolve().parents[2] / "shared" / "data" / "hands"
PLAYED = ("NT", "FT", "PO", "FO/8")
needs_records = pytest.mark.skipif(not HANDS.is_dir(), reason="../shared/data/hands is not beside this checkout")


@pytest.fixture(scope="module")
def records():
    return list(load_paths([HANDS]))


@needs_records
def test_every_real_record_replays_to_its_finishing_stacks(records):
    """All 1,773 records: every hold'em, PLO and Omaha hi-lo hand with a result matches it
    (1,744), the stud, razz and draw hands are skipped (27), two famous hands have no result."""
    results = [replay(r) for r in records]
    by_status = {}
    for result in results:
        by_status.setdefault(result.status, []).append(result)
    assert {k: len(v) for k, v in by_status.items()} == {"match": 1744, "skipped": 27, "no_record": 2}
    assert {r.record.fields["variant"] for r in by_status["match"]} == set(PLAYED)
    assert all(r.record.fields["variant"] not in PLAYED for r in by_status["skipped"])


@needs_records
def test_pluribus_half_chips_are_matches_with_a_note(records):
    """The Pluribus logs split an odd chip in halves (a stack of x.5): the engine gives the chip
    to one tied winner, and the hand counts as a match with a note saying so."""
    notes = [replay(r) for r in records if "pluribus" in r.path]
    halves = [r for r in notes if "odd chip" in r.message]
    assert len(halves) == 2 and all(r.status == "match" for r in halves)
    for r in halves:
        assert sum(r.finishing_stacks) == sum(r.expected)
        assert any(e != int(e) for e in r.expected)


@needs_records
def test_round_trip_keeps_the_hand_and_loads_in_pokerkit(records):
    """Replayed and written back, a sample of every played variant reads back to the same
    actions and stacks in the engine, and pokerkit reaches the same final stacks from our text
    as from the original."""
    rng = random.Random(3)
    sample = [r for r in records if r.fields.get("variant") in PLAYED]
    sample = [r for r in sample if r.fields["variant"] != "NT"] + rng.sample(
        [r for r in sample if r.fields["variant"] == "NT"], 40
    )
    for record in sample:
        first = replay(record)
        text = dumps(first.hand, unit=_unit(record), fields=record.fields)
        again = replay(loads(text, "written")[0])
        # the written hand carries the engine's finishing stacks, so a hand without a result now has one
        assert again.status == "match" and again.hand.actions == first.hand.actions, record.where
        assert again.finishing_stacks == first.finishing_stacks, record.where
        original = _pokerkit_stacks(Path(record.path).read_text())
        assert _pokerkit_stacks(text) == original, record.where


def _unit(record):
    from engine.phh import unit_of

    return unit_of(record.fields)


def _pokerkit_stacks(text: str) -> list:
    *_, last = iter(pokerkit.HandHistory.loads(text))
    return list(last.stacks)


def test_decimal_amounts_convert_exactly_and_back():
    """Amounts of 0.50 and 200.30 become whole chips of a cent and are written back as they were."""
    text = (
        'variant = "NT"\nantes = [0, 0]\nblinds_or_straddles = [0.25, 0.50]\nmin_bet = 0.50\n'
        'starting_stacks = [200.30, 100]\nactions = ["d dh p1 AsAh", "d dh p2 KdKc", "p2 cbr 1.50", "p1 cbr 4.55", "p2 f"]\n'
    )
    result = replay(loads(text)[0])
    assert result.hand.starting_stacks == [20030, 10000] and result.hand.actions[-2] == "p1 cbr 455"
    assert result.finishing_stacks == [Decimal("201.80"), Decimal("98.50")]
    written = loads(dumps(result.hand, unit=2, fields=loads(text)[0].fields))[0].fields
    assert written["starting_stacks"] == [Decimal("200.30"), Decimal("100.00")]
    assert written["actions"][-2:] == ["p1 cbr 4.55", "p2 f"]
    assert written["finishing_stacks"] == [Decimal("201.80"), Decimal("98.50")]


def _checked_down(rules) -> Hand:
    hand = Hand(rules, POT_LIMIT, stacks=[100, 100, 100], blinds=[1, 2, 0])
    for seat, cards in enumerate(("As 2c Kh", "Kd Qd Jd", "3h 5d 6c")):
        hand.deal_hole(seat, cards)
    hand.check_call(), hand.check_call(), hand.check_call()
    for cards in ("Ad 7s 4h", "8s", "Qc"):
        hand.deal_board(cards)
        for _ in range(3):
            hand.check_call()
    return hand


def test_pls7_hand_carries_its_rules():
    """A PLS7 hand is written as PS/7, the code of the preset's rules, and read back as PLS7; a
    variant of PLS7 carries its exact rules in _sampyong and is read back as that variant; rules
    naming another game are refused."""
    from evaluator.games import resolve_game

    text = dumps(_checked_down(game("pls7")))
    fields = loads(text)[0].fields
    assert fields["variant"] == "PS/7" and "_sampyong" not in fields
    again = replay(loads(text)[0])
    assert again.status == "match" and again.hand.game == game("pls7")
    assert again.hand.finishing_stacks == [98, 98, 104]  # 3h 5d 6c: the straight and the 6-low scoop
    eight = resolve_game("pls7", low="8")
    text = dumps(_checked_down(eight))
    fields = loads(text)[0].fields
    assert fields["variant"] == "PS/7"
    assert fields["_sampyong"] == {
        "game": "pls7",
        "hole_use": "0-3",
        "ranking": "base",
        "low": 8,
        "betting": "pot-limit",
    }
    again = replay(loads(text)[0])
    assert again.status == "match" and again.hand.game == eight and again.hand.game != game("pls7")
    assert "names game 'plo'" in replay(loads(text.replace('game = "pls7"', 'game = "plo"'))[0]).message


BAD = {
    "a card dealt twice": ('["d dh p1 AsAh", "d dh p2 AsKc"]', "action 2 'd dh p2 AsKc': card As is dealt twice"),
    "an action out of turn": (
        '["d dh p1 AsAh", "d dh p2 KdKc", "p1 cc"]',
        "action 3 'p1 cc': p1 acts out of turn (p2 is to act)",
    ),
    "a raise above the pot limit": (
        '["d dh p1 AsAhKsKh", "d dh p2 KdKc2c3c", "p2 cbr 7"]',
        "p2 may raise to 4 through 6, not 7",
    ),
}


@pytest.mark.parametrize("case", BAD, ids=list(BAD))
def test_bad_records_are_illegal_and_name_the_action(case):
    """A card dealt twice, an action out of turn, a raise above the pot limit: `illegal`, naming the action."""
    actions, message = BAD[case]
    variant = "PO" if "pot" in case else "NT"
    text = f'variant = "{variant}"\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\nstarting_stacks = [100, 100]\nactions = {actions}\n'
    result = replay(loads(text)[0])
    assert result.status == "illegal" and message in result.message


def sampyong(*args):
    return subprocess.run([sys.executable, "-m", "sampyong", *args], capture_output=True, text=True, timeout=120)


def test_replay_cli_malformed_toml_is_exit_2_naming_file_and_line(tmp_path):
    """A malformed TOML line: one line naming the file and the line, exit 2, nothing else printed."""
    bad = tmp_path / "bad.phh"
    bad.write_text('variant = "NT"\nantes = [0, 0\nmin_bet = 2\n')
    result = sampyong("replay", str(bad))
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith(f"error: {bad}: not a PHH file") and "line 3" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_replay_cli_reports_problem_hands_and_exit_1(tmp_path):
    """A .phhs with a good hand, a hand that differs and an illegal one: one line for each
    problem, a summary, exit 1; --json gives one object per hand with the documented keys."""
    head = 'variant = "NT"\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\nstarting_stacks = [100, 100]\n'
    good = head + 'actions = ["d dh p1 AsAh", "d dh p2 KdKc", "p2 cbr 6", "p1 f"]\nfinishing_stacks = [98, 102]\n'
    wrong = head + 'actions = ["d dh p1 AsAh", "d dh p2 KdKc", "p2 cbr 6", "p1 f"]\nfinishing_stacks = [100, 100]\n'
    illegal = head + 'actions = ["d dh p1 AsAh", "d dh p2 KdKc", "p1 f"]\n'
    file = tmp_path / "three.phhs"
    file.write_text("".join(f"[{i}]\n{text}\n" for i, text in enumerate((good, wrong, illegal), 1)))
    result = sampyong("replay", str(tmp_path))
    assert result.returncode == 1
    lines = result.stdout.strip().splitlines()
    assert lines[0].startswith(f"differ   {file} [2]: finishing stacks differ: engine [98, 102], record [100, 100]")
    assert lines[1].startswith(f"illegal  {file} [3]: action 3 'p1 f'")
    assert lines[2] == "3 hands: 1 match, 1 differ, 1 illegal, 0 skipped"
    as_json = [json.loads(line) for line in sampyong("replay", str(file), "--json").stdout.splitlines()]
    assert [h["status"] for h in as_json] == ["match", "differ", "illegal"]
    assert set(as_json[0]) == {
        "path",
        "index",
        "variant",
        "status",
        "finishing_stacks",
        "expected",
        "message",
        "departures",
    }
    assert (
        as_json[1]["index"] == 2
        and as_json[1]["expected"] == [100, 100]
        and as_json[1]["finishing_stacks"] == [98, 102]
    )


@needs_records
def test_replay_cli_on_the_real_records():
    """`sampyong replay` of the shared records prints only the summary and exits 0."""
    result = sampyong("replay", str(HANDS))
    assert result.returncode == 0, result.stdout[-2000:]
    assert result.stdout.strip() == (
        "1,773 hands: 1,744 match, 0 differ, 0 illegal, 27 skipped (F2L3D 5, F7S 8, F7S/8 3, FB 1, FR 5, N2L1D 4, NS 1), "
        "2 without a recorded result; 2 of the matches split an odd chip in halves in the record"
    )


def _tomllib_records(text: str):
    """The reading of ``text`` by the standard library alone, the oracle of ``loads``' fast path."""
    import tomllib

    data = tomllib.loads(text, parse_float=Decimal)
    if "variant" in data or not data:
        return [(data, None)]
    return [(value, int(key)) for key, value in data.items()]


@needs_records
def test_fast_reading_equals_the_standard_library_on_every_real_record():
    """Every file of ../shared/data/hands reads to the same fields and sections through ``loads``
    (rtoml, falling back to tomllib) as through tomllib with exact decimals."""
    files = sorted(p for p in HANDS.rglob("*") if p.suffix in (".phh", ".phhs"))
    assert len(files) > 1700
    for file in files:
        text = file.read_text(encoding="utf-8")
        assert [(r.fields, r.index) for r in loads(text, str(file))] == _tomllib_records(text), file


_toml_keys = st.from_regex(r"[a-z_][a-z0-9_]{0,8}", fullmatch=True)
_toml_scalars = (
    st.integers(-(2**63), 2**63 - 1)
    | st.booleans()
    | st.text(max_size=12)
    | st.decimals(allow_nan=False, allow_infinity=False, places=3, min_value=-(10**6), max_value=10**6)
    | st.datetimes(timezones=st.none() | st.just(__import__("datetime").timezone.utc))
)
_toml_values = st.recursive(_toml_scalars, lambda inner: st.lists(inner, max_size=4), max_leaves=10)


@pytest.mark.untraced
@settings(max_examples=300, deadline=None)
@given(st.dictionaries(_toml_keys, _toml_values, max_size=6), st.booleans())
def test_fast_reading_equals_the_standard_library_on_any_toml(fields, sectioned):
    """Any TOML of integers, booleans, strings (escapes and all), exact decimals, dates and nested
    arrays, as one hand or as numbered sections, reads the same through ``loads`` as through tomllib."""
    import tomli_w

    document = {"0": {**fields, "variant": "NT"}, "1": fields} if sectioned else {**fields, "variant": "NT"}
    text = tomli_w.dumps(document)
    assert [(r.fields, r.index) for r in loads(text)] == _tomllib_records(text)


POSTED = """variant = "NT"
antes = [0, 0, 0, 0.05]
blinds_or_straddles = [0.05, 0.10, 0, 0]
_posts = [0, 0, 0, 0.10]
min_bet = 0.10
starting_stacks = [10, 10, 10, 10]
actions = ["d dh p1 ????", "d dh p2 ????", "d dh p3 ????", "d dh p4 ????", "p3 cc", "p4 cc", "p1 f", "p2 cc",
           "d db 2c3d4h", "p2 cc", "p3 cbr 0.30", "p4 f", "p2 f"]
finishing_stacks = [9.95, 9.90, 10.30, 9.85]
"""


def test_live_posts_replay_from_the_user_defined_field_and_are_written_back():
    """PHH has no field for a live blind posted out of the blind seats: ``_posts`` carries it (the
    fourth seat posts a dead small blind, an ante, and a live big blind, then checks its option
    unraised); it replays, is written back, and the fast kernel leaves it to the reference (it
    does not play posts: read without them, the same chips would move but the poster's check
    would count as a voluntary call)."""
    from engine.fast_replay import replay_batch

    record = loads(POSTED)[0]
    result = replay(record)
    assert result.status.value == "match", result.message
    assert result.hand.initial_posts == [0, 0, 0, 10] and result.hand.pot == 5 + 10 + 10 + 10 + 5
    written = loads(dumps(result.hand, unit=2, fields=record.fields))[0].fields
    assert (
        written["_posts"] == [0, 0, 0, Decimal("0.10")]
        and replay(loads(dumps(result.hand, 2, record.fields))[0]).status == "match"
    )
    assert "_posts" not in loads(dumps(Hand(game("holdem"), POT_LIMIT, stacks=[100, 100], blinds=[1, 2])))[0].fields
    assert not replay_batch([record]).matched[0]
    unposted = dict(record.fields)
    del unposted["_posts"]  # the same actions read without the post: the fourth seat's check becomes a call
    assert result.hand.voluntary == {2} and replay(loads(write_fields(unposted))[0]).hand.voluntary == {2, 3}
