"""The kernel's replay of records (``engine.fast_replay``) against the reference's
(``engine.phh.replay``), record by record.

A record the kernel calls a match is a plain match of the reference (no writer's departure, no
note), and every figure the records study counts from it (``engine.records``' ``figures`` and
``seat_stats``, the pots won, the showdown's flags) is the reference's; the kernel takes every
plain match, so the fast path is the one used, and leaves every other record to the reference.

Records: the real ones of ../shared/data/hands; 3,000 random hands written by pokerkit (every
departure of ``engine.departures``); random-legal hands written here in every preset and betting
structure with antes, straddles, short uneven stacks and hidden hole cards; and all of these
broken one change at a time (an amount, a seat, a card, an action dropped or swapped, a stack).
"""

from __future__ import annotations

import collections
import copy
import random
from decimal import Decimal
from pathlib import Path

import numpy as np
import pytest

from engine import phh, record_files
from engine.betting import NO_LIMIT, POT_LIMIT, fixed_limit
from engine.fast_replay import replay_batch
from engine.hand import Hand
from evaluator.cards import format_cards
from evaluator.games import game

HANDS = Path(__file__).resolve().parents[2] / "shared" / "data" / "hands"
FIELDS = (
    "matched",
    "seats",
    "reached",
    "players_at",
    "live",
    "voluntary",
    "pot",
    "net",
    "won",
    "stats",
    "known",
    "flags",
    "blind",
)


def agree(records: list[phh.Record], every: bool = True) -> collections.Counter:
    """Assert the kernel and the reference agree on every record (see the module): a kernel match
    is a plain match of the reference with its figures, and (``every``) each plain match the
    kernel's; count what they saw."""
    batch = replay_batch(records)
    expected = copy.deepcopy(batch)
    expected.matched[:] = False
    counts = collections.Counter()
    for i, record in enumerate(records):
        reference = phh.replay(record)
        plain = reference.status is phh.Status.MATCH and not reference.departures and not reference.message
        assert bool(batch.matched[i]) == plain or not (every or batch.matched[i]), (
            i,
            reference.status,
            reference.message,
            phh.write_fields(record.fields),
        )
        counts[
            "match"
            if plain
            else "departure"
            if reference.departures
            else "noted"
            if reference.status is phh.Status.MATCH
            else reference.status.value
        ] += 1
        counts["taken"] += bool(batch.matched[i])
        if plain and batch.matched[i]:
            expected.take(i, reference.hand)
            counts["showdown"] += int(batch.reached[i]) == 4
            counts["known"] += bool(batch.known[i])
    for name in FIELDS:
        mine, theirs = getattr(batch, name), getattr(expected, name)
        rows = np.flatnonzero(batch.matched)
        assert np.array_equal(mine[rows], theirs[rows]), name
    assert [batch.games[i] for i in rows] == [expected.games[i] for i in rows]
    return counts


@pytest.mark.skipif(not HANDS.is_dir(), reason="../shared/data/hands is not beside this checkout")
def test_the_real_records_replay_alike():
    """The 1,773 shared records: the kernel takes the 1,742 plain matches (Pluribus, WSOP, and more),
    with the reference's figures; the two half-chip notes, the stud, razz and draw hands and the two
    without a result are the reference's."""
    counts = agree(list(record_files.load_paths([HANDS])))
    assert counts["match"] == 1742 and counts["noted"] == 2 and counts["showdown"] > 300 and counts["known"] > 300, (
        counts
    )


@pytest.mark.untraced
def test_pokerkit_records_replay_alike(pokerkit_records):
    """3,000 random hands written by pokerkit (NT, PO, PO/8, antes, short stacks): plain matches are
    the kernel's, every departure (no-choice check, short wager, pokerkit's pots) the reference's."""
    counts = agree([r for text in pokerkit_records for r in phh.loads(text)])
    assert counts["match"] > 2500 and counts["departure"] > 20 and counts["showdown"] > 2000, counts


def random_legal_record(rng: random.Random) -> str:
    """One hand played by random legal actions in the reference engine and written as PHH: any
    preset, any structure, 2-9 seats, stacks of 1 to 80 big blinds, antes and a straddle at
    times, folded players' cards hidden at times (``????``)."""
    name = rng.choice(["holdem", "plo", "plo8", "pls7", "pls", "plo5-8"])
    rules = game(name)
    betting = rng.choice([NO_LIMIT, POT_LIMIT, fixed_limit(2)])
    n = rng.randint(2, 9)
    blinds = [1, 2, *[0] * (n - 2)]
    if n > 3 and rng.random() < 0.2:
        blinds[2] = 4
    antes = [rng.choice([0, 1])] * n if rng.random() < 0.3 else None
    stacks = [rng.randint(1, 160) for _ in range(n)]
    hand = Hand(rules, betting, stacks, blinds, antes)
    deck = rng.sample(range(52), 52)
    for seat in range(n):
        hand.deal_hole(seat, [deck.pop() for _ in range(rules.hole_cards)])
    while not hand.done:
        if hand.board_due:
            hand.deal_board([deck.pop() for _ in range(hand.board_due)])
            continue
        legal = hand.legal()
        choice = rng.random()
        if legal.fold and choice < 0.2:
            hand.fold()
        elif legal.min_raise_to is not None and choice < 0.55:
            edge = rng.random()
            low, high = legal.min_raise_to, legal.max_raise_to
            hand.raise_to(low if edge < 0.3 else high if edge < 0.5 else rng.randint(low, high))
        else:
            hand.check_call()
    text = phh.dumps(hand)
    if rng.random() < 0.3:  # hide the cards of the players who folded, as real records do
        for seat in range(n):
            if hand.folded[seat]:
                dealt = "".join(format_cards(hand.hole[seat]).split())
                text = text.replace(f"d dh p{seat + 1} {dealt}", f"d dh p{seat + 1} {'??' * rules.hole_cards}")
    return text


@pytest.fixture(scope="module")
def ours():
    rng = random.Random(2026)
    return [phh.loads(random_legal_record(rng))[0] for _ in range(1500)]


@pytest.mark.untraced
def test_random_legal_records_replay_alike(ours):
    """1,500 random-legal hands of every preset and structure (antes, straddles, all-ins for less,
    side pots, hi-lo splits, hidden cards): every one a plain match the kernel takes, figures alike."""
    counts = agree(ours)
    assert counts["match"] == len(ours) and counts["showdown"] > 400, counts


BREAKS = ("amount", "seat", "card", "drop", "swap", "repeat", "muck", "stack", "setup")


def broken(record: phh.Record, rng: random.Random) -> phh.Record:
    """The record with one change that a replay must notice, or not, as the reference does."""
    fields = copy.deepcopy(record.fields)
    actions = fields["actions"]
    how, at = rng.choice(BREAKS), rng.randrange(len(actions))
    words = actions[at].split()
    if how == "amount" and words[1:2] == ["cbr"]:
        actions[at] = f"{words[0]} cbr {int(words[2]) + rng.choice([-1, 1, 2])}"
    elif how == "seat" and words[0] != "d":
        actions[at] = " ".join([f"p{rng.randint(1, len(fields['starting_stacks']))}", *words[1:]])
    elif how == "card" and words[:2] in (["d", "dh"], ["d", "db"]) and "?" not in words[-1]:
        actions[at] = " ".join([*words[:-1], words[-1][:-2] + rng.choice(["As", "2c", "Td", "7h"])])
    elif how == "drop":
        del actions[at]
    elif how == "swap" and at + 1 < len(actions):
        actions[at], actions[at + 1] = actions[at + 1], actions[at]
    elif how == "repeat":  # a card dealt twice, a player acting or showing twice
        actions.insert(at, actions[at])
    elif how == "setup":  # a negative minimum bet, stack, blind or ante
        name = rng.choice(["min_bet", "starting_stacks", "blinds_or_straddles", "antes"])
        if name == "min_bet":
            fields["min_bet"] = -rng.randint(1, 2)
        elif isinstance(fields.get(name), list):
            fields[name][at % len(fields[name])] = -1
    elif how == "muck":  # a player mucks or shows where the rules allow it, or not
        seat = rng.randint(1, len(fields["starting_stacks"]))
        actions.insert(at + rng.randint(0, 1), rng.choice([f"p{seat} sm", f"p{seat} sm -"]))
    else:
        fields["finishing_stacks"][at % len(fields["finishing_stacks"])] += rng.choice([-1, 1])
    return phh.Record(fields, record.path, record.index)


@pytest.mark.untraced
def test_broken_records_are_the_references_to_judge(ours):
    """Each of those records broken one change at a time (an amount, a seat, a card, an action
    dropped, swapped or repeated, a muck or show slipped in, a finishing stack, a negative minimum
    bet, stack, blind or ante): the kernel calls a match only what the reference does, and takes all
    but a few of the reference's plain matches (a muck while betting may go on is the reference's)."""
    rng = random.Random(11)
    counts = agree([broken(record, rng) for record in ours for _ in range(2)], every=False)
    assert counts["illegal"] > 250 and counts["differ"] > 100 and counts["match"] - 10 < counts["taken"], counts


def in_hundredths(record: phh.Record) -> phh.Record:
    """The record with every amount written in hundredths (a stack of 150 chips as 1.5)."""
    fields = copy.deepcopy(record.fields)
    for name in (*phh.AMOUNT_FIELDS, "finishing_stacks"):
        if isinstance(fields.get(name), list):
            fields[name] = [Decimal(v) / 100 for v in fields[name]]
        elif name in fields:
            fields[name] = Decimal(fields[name]) / 100
    fields["actions"] = [
        " ".join([*a.split()[:2], str(Decimal(a.split()[2]) / 100)]) if " cbr " in a else a for a in fields["actions"]
    ]
    return phh.loads(phh.write_fields(fields))[0]


def test_amounts_in_decimals_replay_alike(ours):
    """The random-legal records with their amounts in hundredths (blinds 0.01 and 0.02): the kernel
    reads the decimals at the record's unit and takes every one, figures alike."""
    counts = agree([in_hundredths(record) for record in ours[:400]])
    assert counts["match"] == counts["taken"] == 400, counts


SPELLINGS = (
    lambda a: f"  {a}  ",  # spaces around
    lambda a: f"{a} # a note",  # a comment
    lambda a: a.replace("d dh p", "d dh p0") if a.startswith("d dh p") else a.replace("p", "p0", 1),  # p01
    lambda a: a.lower() if a.startswith("d d") else a,  # lower-case cards
    lambda a: a.replace("T", "10") if a.startswith("d d") else a,  # 10 for T
    lambda a: a.replace(" ", "  ", 1),  # two spaces
    lambda a: a + " x" if a.endswith((" f", " cc")) else a,  # a word too many
)


@pytest.mark.untraced
def test_other_spellings_are_the_references_to_read(ours):
    """The random-legal records with one action spelt otherwise (spaces, a comment, p01, lower-case
    cards, 10 for T, two spaces, a word too many): the kernel calls a match only what the
    reference does, and leaves the spellings it does not read to the reference."""
    rng = random.Random(5)
    respelt = []
    for record in ours:
        fields = copy.deepcopy(record.fields)
        at = rng.randrange(len(fields["actions"]))
        fields["actions"][at] = rng.choice(SPELLINGS)(fields["actions"][at])
        respelt.append(phh.Record(fields, record.path))
    counts = agree(respelt, every=False)
    assert counts["match"] > 1000 and 300 < counts["taken"] < counts["match"], counts
