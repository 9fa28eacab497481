"""The home-game server (``table/``): hands refereed by the rules, records that replay, keys that
see only what they may, nothing lost to a kill, nothing double-applied under load."""

from __future__ import annotations

import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from engine.phh import replay
from engine.record_files import load_file
from evaluator.cards import format_card
from evaluator.errors import SampyongError
from table.app import create_app
from table.bots import Bots
from table.session import Conflict, Forbidden, Session
from table.store import Store

CARD = re.compile(r"[2-9TJQKA][shdc]")
POLICIES = Bots(folder=Path(__file__).parent / "data")  # random-legal.toml: every legal action at random
ALL_CARDS = {format_card(c) for c in range(52)}


def choose(view: dict, rng: random.Random) -> str:
    """A random legal action for the player to act: fold, check or call, or a raise to any size."""
    legal = view["legal"]
    player = legal["player"]
    r = rng.random()
    if legal["fold"] and r < 0.15:
        return f"{player} f"
    if legal["min_raise_to"] is not None and r > 0.7:
        low, high = legal["min_raise_to"], legal["max_raise_to"]
        return f"{player} cbr {high if rng.random() < 0.3 else rng.randint(low, high)}"
    return f"{player} cc"


def hidden_from(session: Session, who) -> set[str]:
    """The cards of the hand in progress that ``who`` (a seat or "dealer") may not see."""
    hand = session.hand
    if hand is None:
        return set()
    seen = {format_card(c) for c in hand.board}
    for p, seat in enumerate(session.current["order"]):
        if hand.hole[p] is not None and (hand.showed[p] or (seat == who and session.rules.deal == "app")):
            seen |= {format_card(c) for c in hand.hole[p]}
    return ALL_CARDS - seen


def assert_sees_only_its_own(view: dict, session: Session) -> None:
    """No card ``view``'s key may not see is anywhere in it (the last hand: only cards shown)."""
    current = {k: v for k, v in view.items() if k not in ("last", "id")}
    leaked = set(CARD.findall(json.dumps(current))) & hidden_from(session, view["you"])
    assert not leaked, f"{view['you']} sees {leaked}"
    last = view["last"]
    if last:
        assert all("?" in a for a in last["actions"] if a.startswith("d dh"))
        shown = {a.split()[0] for a in last["actions"] if re.match(r"p\d+ sm \S", a)}
        assert sum(h is not None for h in last["holes"]) == len(shown)


def records_of(folder: Path, table_id: str):
    file = folder / f"{table_id}.phhs"
    return load_file(file) if file.exists() else []


def assert_records_replay(folder: Path, table_id: str, hands: int) -> list:
    """The table's file holds hands 1..``hands``, each once, each replaying to its finishing stacks.
    It may hold the next ones too: bots play the hand dealt after the last action sent, and
    finish it alone when they fold to a player who need not act (the deck is a secure shuffle,
    so that happens now and then)."""
    records = records_of(folder, table_id)
    numbers = [r.fields["hand"] for r in records]
    assert numbers == list(range(1, len(numbers) + 1)) and len(numbers) >= hands, numbers
    results = [replay(r) for r in records]
    assert [r.status for r in results] == ["match"] * len(records), [r.message for r in results if r.status != "match"][
        :3
    ]
    return records


def play_through_api(client: TestClient, made: dict, hands: int, rng: random.Random, check_views: bool = True) -> None:
    """Play ``hands`` hands by the seat keys (random legal actions); the dealer tops up a table
    where fewer than two people have chips."""
    table_id, keys, dealer = made["id"], made["seat_keys"], made["dealer_key"]
    session = client.app.state.tables.get(table_id)
    while session.number <= hands:
        view = client.get(f"/api/tables/{table_id}", params={"key": dealer}).json()
        if view["hand"] is None:  # stalled: top every empty stack up
            for seat, stack in enumerate(view["stacks"]):
                if stack == 0:
                    client.post(
                        f"/api/tables/{table_id}/change",
                        json={"key": dealer, "op": "chips", "seat": seat, "amount": 40},
                    )
            continue
        seat = view["actor"]
        view = client.get(f"/api/tables/{table_id}", params={"key": keys[seat]}).json()
        if check_views:
            assert_sees_only_its_own(view, session)
            other = rng.randrange(len(keys))
            assert_sees_only_its_own(client.get(f"/api/tables/{table_id}", params={"key": keys[other]}).json(), session)
        answer = client.post(
            f"/api/tables/{table_id}/act",
            json={"key": keys[seat], "action": choose(view, rng), "hand": view["hand"], "step": len(view["actions"])},
        )
        assert answer.status_code == 200, answer.json()
        if check_views:
            assert_sees_only_its_own(answer.json(), session)
            assert_sees_only_its_own(client.get(f"/api/tables/{table_id}", params={"key": dealer}).json(), session)


TABLES = {
    "pls7": {
        "game": "pls7",
        "seats": ["S1", "S2", "S3", "S4", "S5", "S6"],
        "stacks": 60,
        "blinds": [1, 2],
        "bots": {"4": "random-legal", "5": "showdown"},
    },
    "holdem": {
        "game": "holdem",
        "betting": "no-limit",
        "seats": ["Ann", "Bo", "Cy"],
        "stacks": [50, 80, 120],
        "blinds": [1, 2],
        "straddle": 4,
        "ante": 1,
        "bots": {"2": "random-legal"},
    },
    "pls7-knobs": {
        "game": "pls7",
        "hole_use": "2",
        "ranking": "both",
        "low": 8,
        "seats": ["Ann", "Bo", "Cy", "Di"],
        "stacks": 60,
        "bots": {"3": "random-legal"},
    },
    "plo8-limit": {
        "game": "plo8",
        "betting": "fixed-limit",
        "seats": ["Ann", "Bo", "Cy", "Di"],
        "stacks": 40,
        "blinds": [1, 2],
    },
}


@pytest.mark.untraced
@pytest.mark.parametrize("name", TABLES)
def test_random_hands_replay(tmp_path, name):
    """Hands played by seat keys and bots with random legal actions are written once each, in order,
    and every record replays to its finishing stacks; no response shows a seat a card it may not see."""
    client = TestClient(create_app(tmp_path, POLICIES))
    made = client.post("/api/tables", json=TABLES[name]).json()
    play_through_api(client, made, 40, random.Random(name))
    session = client.app.state.tables.get(made["id"])
    records = assert_records_replay(tmp_path, made["id"], session.number - 1)
    if "ranking" in TABLES[name]:  # the record carries the variant's rules
        assert records[0].fields["_sampyong"] == {
            "game": "pls7",
            "hole_use": "2-2",
            "ranking": "both",
            "low": 8,
            "betting": "pot-limit",
        }
    config, names = TABLES[name], TABLES[name]["seats"]
    for record, following in zip(records, records[1:]):
        seats = record.fields["seats"]
        assert record.fields["players"] == [names[s - 1] for s in seats]
        given = config.get("blinds", [1, 2])
        blinds = [*given, config.get("straddle", 0)][: len(seats)] if len(seats) > 2 else given
        assert record.fields["blinds_or_straddles"] == blinds + [0] * (len(seats) - len(blinds))
        assert record.fields["antes"] == [config.get("ante", 0)] * len(seats)
        if sorted(following.fields["seats"]) == sorted(seats):  # the button moves one seat on
            assert following.fields["seats"] == seats[1:] + seats[:1]
    # the stacks carry from hand to hand; the dealer tops up only empty stacks, by 40
    carried = {}
    for record in records:
        for seat, start, finish in zip(
            record.fields["seats"], record.fields["starting_stacks"], record.fields["finishing_stacks"]
        ):
            assert seat not in carried or start == carried[seat] or (carried[seat] == 0 and start == 40)
            carried[seat] = finish
    assert all(session.seats[seat - 1].stack in (chips, 40 if chips == 0 else chips) for seat, chips in carried.items())


@pytest.mark.slow
def test_thousand_hands_replay(tmp_path, ci_size):
    """A thousand six-handed PLS7 hands (CI: 150) by seat keys and bots all replay, and no seat
    ever sees another's unshown cards."""
    hands = ci_size(full=1000, ci=150)
    client = TestClient(create_app(tmp_path, POLICIES))
    made = client.post("/api/tables", json=TABLES["pls7"]).json()
    play_through_api(client, made, hands, random.Random(1000))
    assert_records_replay(tmp_path, made["id"], hands)


def test_thresholds_bots_use_the_ranking(tmp_path):
    """Bots of a policy that reads preflop percentiles play from the ranking the server is handed."""
    from engine.ranking import HandRanking

    asked = []

    def ranking_of(game):
        asked.append(game.name)
        return HandRanking.from_strengths(2, [k / 169 for k in range(169)])

    client = TestClient(create_app(tmp_path, Bots(ranking_of)))
    made = client.post(
        "/api/tables",
        json={"game": "holdem", "seats": ["Ann", "Bo", "Cy"], "stacks": 100, "bots": {"1": "pro-like", "2": "regular"}},
    ).json()
    play_through_api(client, made, 10, random.Random(3), check_views=False)
    assert asked and set(asked) == {"holdem"}
    assert_records_replay(tmp_path, made["id"], 10)
    without = TestClient(create_app(tmp_path / "none"))
    answer = without.post("/api/tables", json={"game": "holdem", "seats": ["Ann", "Bo"], "bots": {"1": "pro-like"}})
    assert answer.status_code == 400 and "ranking" in answer.json()["error"]


def test_physical_cards(tmp_path):
    """With physical cards the dealer deals the board and reads the hands shown; hole cards never
    shown stay ``????`` in the record, which replays; seats see no cards but those shown."""
    table = Session.create(tmp_path, {"game": "pls7", "seats": ["Ann", "Bo", "Cy"], "stacks": 100, "deal": "physical"})
    dealer = table.dealer_key
    view = table.view(dealer)
    assert view["holes"] == [None] * 3 and view["due"] is None
    assert view["pot"] == 3 and view["pots"] == []  # the blinds are bets in front of the players, no pot yet
    for action in ("p3 cc", "p1 cc", "p2 cc"):  # Cy (the button) opens; hand 1's p-numbers are the seats
        table.act(dealer, action)
    assert table.view(dealer)["due"] == {"board": 3}
    with pytest.raises(Forbidden):
        table.act(table.seat_keys[0], "d db Ad7s4h")
    table.act(dealer, "d db Ad7s4h")
    assert table.view(dealer)["pots"] == [{"amount": 6, "seats": [0, 1, 2]}]
    table.act(table.seat_keys[0], "p1 cbr 6")
    assert table.view(dealer)["pot"] == 12 and table.view(dealer)["pots"] == [{"amount": 6, "seats": [0, 1, 2]}]
    table.act(table.seat_keys[1], "p2 f")
    table.act(dealer, "p3 cc")
    table.act(dealer, "d db 2c")
    table.act(dealer, "p1 cc")
    table.act(dealer, "p3 cc")
    table.act(dealer, "d db 9h")
    table.act(dealer, "p1 cc")
    table.act(dealer, "p3 cc")
    assert table.view(dealer)["due"] == {"showdown": ["p1", "p3"]}
    with pytest.raises(Forbidden):
        table.act(table.seat_keys[0], "p3 sm 3c5c6c")
    table.act(table.seat_keys[2], "p3 sm 3c5c6c")
    assert table.view(table.seat_keys[0])["holes"][2] == ["3c", "5c", "6c"]
    table.act(dealer, "p1 sm")  # Ann mucks
    record = assert_records_replay(tmp_path, table.id, 1)[0]
    assert record.fields["actions"][:3] == ["d dh p1 ??????", "d dh p2 ??????", "d dh p3 ??????"]
    assert record.fields["actions"][-2:] == ["p3 sm 3c5c6c", "p1 sm"]
    assert record.fields["finishing_stacks"] == [92, 98, 110]
    assert table.last["pots"][0]["won"] == {"2": 18} and "uncontested" in table.last["pots"][0]["reason"]


def test_showdown_summary_names_halves_and_the_odd_chip(tmp_path):
    """At showdown the last hand says who won each half with what hand, and who got the odd chip."""
    table = Session.create(
        tmp_path,
        {"game": "pls7", "seats": ["Ann", "Bo", "Cy"], "stacks": 100, "ante": 1, "blinds": [1, 2], "deal": "physical"},
    )
    d = table.dealer_key
    for action in (
        "p3 cc",
        "p1 cc",
        "p2 cc",
        "d db 2h4h6h",
        "p1 cc",
        "p2 cc",
        "p3 cc",
        "d db 8h",
        "p1 cc",
        "p2 cc",
        "p3 cc",
        "d db Th",
        "p1 cc",
        "p2 cc",
        "p3 cc",
        "p1 sm Kd Qd Jc",
        "p2 sm 9c 9s Js",
        "p3 sm Ac 3d Ks",
    ):
        table.act(d, action)
    pot = table.last["pots"][0]
    assert pot["amount"] == 9  # three antes and three big blinds
    # everyone plays the board's skip straight flush: the high half, 5 chips, splits 1-1-1, and the two
    # odd chips go to the tied winner first clockwise from the button (Cy): Ann
    assert pot["high"] == {"seats": [0, 1, 2], "hand": "skip straight flush", "cards": ["Th", "8h", "6h", "4h", "2h"]}
    assert pot["low"] == {"seats": [2], "cards": ["6h", "4h", "3d", "2h", "Ac"]}
    assert pot["won"] == {"0": 3, "1": 1, "2": 5} and pot["odd_chips"] == 2 and pot["odd_chip_seat"] == 0
    assert table.last["net"] == [0, -2, 2]


def test_bad_input_is_one_line_and_changes_nothing(tmp_path):
    """Bad requests get a 4xx and one line, and leave the table and its files as they were."""
    client = TestClient(create_app(tmp_path, POLICIES))
    bad_tables = [
        {"game": "pls9", "seats": ["a", "b"]},
        {"seats": ["a"]},
        {"seats": ["a", "b"], "stacks": -5},
        {"seats": ["a", "a"]},
        {"seats": ["a", "b"], "blinds": [2, 1]},
        {"seats": ["a", "b"], "deal": "x"},
        {"seats": ["a", "b"], "bots": {"7": "regular"}},
        {"seats": ["a", "b"], "bots": {"1": "nobody"}},
        {"seats": ["a", "b"], "deal": "physical", "bots": {"1": "showdown"}},
        {"seats": ["a", "b"], "x": 1},
        [1, 2],
        {"seats": "ab"},
        {"seats": ["a", "b"], "bots": {"1": "/etc/passwd"}},
        {"seats": ["a", "b"], "bots": {"1": "../data/random-legal"}},
        {"seats": ["a", "b"], "bots": {"1": 5}},
    ]
    for body in bad_tables:
        answer = client.post("/api/tables", json=body)
        assert answer.status_code == 400, body
        assert list(answer.json()) == ["error"] and "\n" not in answer.json()["error"]
    assert "passwd" not in client.post("/api/tables", json=bad_tables[-3]).json()["error"].split(";")[1]
    for body in (b'{"seats": ', b'{"seats": ' + b"[" * 100_000 + b"]" * 100_000 + b"}", b" " * 70_000 + b"{}"):
        assert client.post("/api/tables", content=body).status_code == 400
    assert not list(tmp_path.rglob("*.*")), "a refused table wrote files"

    made = client.post("/api/tables", json={"game": "pls7", "seats": ["Ann", "Bo", "Cy"], "stacks": 100}).json()
    url, keys = f"/api/tables/{made['id']}", made["seat_keys"]
    files = sorted(p for p in tmp_path.rglob("*") if p.is_file())
    before = ([p.read_bytes() for p in files], client.get(url, params={"key": made["dealer_key"]}).json())
    cases = [
        (400, {"key": keys[2], "action": "p3 raise 12"}),
        (400, {"key": keys[2], "action": "p3 cbr"}),
        (400, {"key": keys[2], "action": "p3 cbr 1.5"}),
        (400, {"key": keys[2], "action": "p3 cbr \u00b2"}),  # a superscript two is no amount
        (400, {"key": keys[2], "action": "p9 cc"}),
        (400, {"key": keys[2], "action": ["p3 cc"]}),
        (400, {"key": keys[2], "action": "p3 cc", "step": "x"}),
        (400, {"action": "p3 cc"}),
        (403, {"key": "wrong", "action": "p3 cc"}),
        (403, {"key": "\u00e9", "action": "p3 cc"}),
        (403, {"key": keys[0], "action": "p3 cc"}),  # a seat key acting for another seat
        (403, {"key": keys[2], "action": "d dh p1 AsKsQs"}),
        (403, {"key": made["dealer_key"], "action": "d db AsKsQs"}),  # the app deals the board
        (409, {"key": keys[0], "action": "p1 cc"}),  # out of turn
        (409, {"key": keys[2], "action": "p3 cbr 3"}),  # under the minimum raise
        (409, {"key": keys[2], "action": "p3 cbr 99"}),  # over the pot limit
        (409, {"key": keys[2], "action": "p3 cc", "hand": 2}),
        (409, {"key": keys[2], "action": "p3 cc", "step": 1}),
        (409, {"key": keys[2], "action": "p3 sm"}),
    ]
    for status, body in cases:
        answer = client.post(f"{url}/act", json=body)
        assert answer.status_code == status, (body, answer.json())
        assert list(answer.json()) == ["error"] and "\n" not in answer.json()["error"]
    assert client.post(f"{url}/undo", json={"key": made["dealer_key"]}).status_code == 409  # nothing to undo
    assert client.post(f"{url}/undo", json={"key": keys[0]}).status_code == 403
    assert (
        client.post(
            f"{url}/change", json={"key": made["dealer_key"], "op": "chips", "seat": 9, "amount": 5}
        ).status_code
        == 400
    )
    assert (
        client.post(
            f"{url}/change", json={"key": made["dealer_key"], "op": "chips", "seat": 1, "amount": -5}
        ).status_code
        == 400
    )
    assert client.post(f"{url}/change", json={"key": made["dealer_key"], "op": "deal"}).status_code == 409
    assert client.get(url, params={"key": "wrong"}).status_code == 403
    assert client.get(url, params={"key": "\u00e9t\u00e9"}).status_code == 403
    assert client.get("/api/tables/nothing", params={"key": keys[0]}).status_code == 404
    after = ([p.read_bytes() for p in files], client.get(url, params={"key": made["dealer_key"]}).json())
    assert after == before and sorted(p for p in tmp_path.rglob("*") if p.is_file()) == files


def test_keys_are_random_and_long(tmp_path):
    """Every key is distinct and carries at least 128 random bits."""
    made = [Session.create(tmp_path, {"game": "holdem", "seats": ["a", "b", "c"]}) for _ in range(20)]
    keys = [k for table in made for k in [table.dealer_key, *table.seat_keys]]
    assert len(set(keys)) == len(keys)
    assert all(len(k) >= 22 and re.fullmatch(r"[A-Za-z0-9_-]+", k) for k in keys)  # 16 bytes, URL-safe base64


def test_undo_takes_back_the_last_person_and_the_bots_after(tmp_path):
    """Undo removes the last action of a person with the bots' and the app's actions after it, and
    the same action then replays the same hand."""
    table = Session.create(
        tmp_path,
        {
            "game": "holdem",
            "seats": ["Ann", "Bo", "Cy"],
            "stacks": 100,
            "bots": {"0": "random-legal", "1": "random-legal"},
        },
        POLICIES,
    )
    before = table.view(table.dealer_key)
    assert before["actor"] == 2
    table.act(table.seat_keys[2], "p3 cc")
    after = table.view(table.dealer_key)
    table.undo(table.dealer_key)
    assert table.view(table.dealer_key)["actions"] == before["actions"]
    assert table.store.journal(table.number) == []
    if after["hand"] == before["hand"]:  # the hand went on: the same call gives the same hand
        table.act(table.seat_keys[2], "p3 cc")
        assert table.view(table.dealer_key)["actions"] == after["actions"]


def test_changes_between_hands(tmp_path):
    """The dealer's changes wait for the hand's end: chips added, the button moved, a seat added
    and one removed; a waiting table deals when the dealer says."""
    table = Session.create(
        tmp_path, {"game": "holdem", "seats": ["Ann", "Bo", "Cy"], "stacks": 100, "wait": True, "deal": "physical"}
    )
    d = table.dealer_key
    assert table.hand is None and table.view(d)["hand"] is None
    with pytest.raises(Conflict):
        table.act(d, "p1 f")
    table.change(d, {"op": "deal"})
    assert table.number == 1 and table.view(d)["button"] == 2
    table.change(d, {"op": "chips", "seat": 0, "amount": 50})
    table.change(d, {"op": "button", "seat": 0})
    new = table.change(d, {"op": "seat", "name": "Di", "stack": 30})
    table.change(d, {"op": "remove", "seat": 1})
    assert len(table.view(d)["pending"]) == 4 and table.view(d)["stacks"][0] < 150
    assert new["key"] not in json.dumps(table.view(table.seat_keys[1])) + json.dumps(table.view(d))
    assert (
        table.view(new["key"])["you"] == 3 and table.view(new["key"])["holes"] == [None] * 3
    )  # its link works at once
    table.act(d, "p3 f")
    table.act(d, "p1 f")  # Bo wins the blinds; the hand is over and the table waits
    assert table.hand is None and table.view(d)["pending"] == []
    assert [s.stack for s in table.seats] == [149, 101, 100, 30] and table.seats[1].out
    assert table.view(new["key"])["you"] == 3
    table.change(d, {"op": "deal"})
    view = table.view(d)
    assert view["button"] == 0 and [s["player"] for s in view["seats"]] == ["p3", None, "p1", "p2"]
    with pytest.raises(Forbidden):
        table.change(table.seat_keys[0], {"op": "deal"})


def test_restore_after_a_kill_at_every_window(tmp_path):
    """A table restored from disk is where it was: mid-hand, after a torn journal line, and after a
    hand was written but before the next was saved (written once, not twice)."""
    config = {"game": "pls7", "seats": ["Ann", "Bo", "Cy"], "stacks": 10_000, "bots": {"1": "showdown"}}  # nobody busts
    table = Session.create(tmp_path, config, POLICIES)
    rng = random.Random(5)
    while table.number < 4:
        view = table.view(table.dealer_key)
        table.act(table.dealer_key, choose(view, rng))
    view = table.view(table.seat_keys[0])
    again = Session.restore(tmp_path, table.id)
    assert again.view(table.seat_keys[0]) == view
    with open(again.store.journal_file, "ab") as file:
        file.write(b'{"action": "p1 c')  # the kill tore the line: it was never answered
    assert Session.restore(tmp_path, table.id).view(table.seat_keys[0]) == view

    # the kill comes after the hand's record is on disk and before the next hand's state is
    table = Session.restore(tmp_path, table.id)
    written = table.number - 1

    def killed(state):
        raise KeyboardInterrupt

    table.store.save_state = killed
    with pytest.raises(KeyboardInterrupt):
        while True:
            view = table.view(table.dealer_key)
            table.act(table.dealer_key, choose(view, rng))
    assert len(records_of(tmp_path, table.id)) == written + 1
    restored = Session.restore(tmp_path, table.id)
    assert restored.number == written + 2
    assert_records_replay(tmp_path, table.id, written + 1)


def is_subsequence(part: list[str], whole: list[str]) -> bool:
    items = iter(whole)
    return all(any(x == y for y in items) for x in part)


# --- a real server: kill -9 and load ----------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server:
    """``sampyong table`` in its own process on a free loopback port."""

    def __init__(self, folder: Path):
        self.folder, self.port = folder, free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.start()

    def start(self):
        import httpx

        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "sampyong",
                "table",
                "--dir",
                str(self.folder),
                "--port",
                str(self.port),
                "--policies",
                str(POLICIES.folder),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                httpx.get(f"{self.url}/api/games", timeout=5)
                return
            except httpx.TransportError:
                assert self.process.poll() is None, self.process.stdout.read().decode()
                time.sleep(0.2)
        raise AssertionError("the server did not start")

    def kill(self):
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait()


def test_kill_9_mid_hand_and_restart(tmp_path):
    """Killed with SIGKILL at random moments while actions fly, the restarted server continues every
    hand where it was (the same actions, the same cards), and the records are whole."""
    import httpx

    server = Server(tmp_path)
    try:
        made = httpx.post(f"{server.url}/api/tables", json=TABLES["pls7"]).json()
        url, keys, dealer = f"{server.url}/api/tables/{made['id']}", made["seat_keys"], made["dealer_key"]
        rng = random.Random(9)
        for _ in range(3):  # three kills
            stop = threading.Event()

            def press(stop=stop):
                client = httpx.Client(timeout=10)
                while not stop.is_set():
                    try:
                        view = client.get(url, params={"key": dealer}).json()
                        if view.get("legal"):
                            client.post(f"{url}/act", json={"key": dealer, "action": choose(view, rng)})
                    except (httpx.TransportError, ValueError):
                        return

            presser = threading.Thread(target=press)
            presser.start()
            time.sleep(1.0 + rng.random())
            server.kill()  # mid-request, most likely
            stop.set()
            presser.join()
            store = Store(tmp_path, made["id"])
            state = store.load_state()
            logged = [e["action"] for e in store.journal(state["number"])] if state["current"] else []
            server.start()
            seen = httpx.get(url, params={"key": dealer}).json()
            if state["current"] is not None and seen["hand"] == state["number"]:  # the hand goes on where it was
                assert is_subsequence(logged, seen["actions"])
                order, deck = state["current"]["order"], state["current"]["deck"]
                for p, seat in enumerate(order):
                    mine = httpx.get(url, params={"key": keys[seat]}).json()
                    assert mine["holes"][seat] == [format_card(c) for c in deck[3 * p : 3 * p + 3]]
            elif state["current"] is not None:  # restored, it was finished by the bots and the app
                record = records_of(tmp_path, made["id"])[state["number"] - 1]
                assert is_subsequence(logged, record.fields["actions"])
        server.kill()  # the last kill came mid-request too: restart to restore, play on, then stop while idle
        server.start()
        with httpx.Client(timeout=30) as client:
            while (view := client.get(url, params={"key": dealer}).json())["hand"] is None or view["hand"] <= 3:
                if view["hand"] is None:  # stalled: top the empty stacks up
                    for seat in (s for s, stack in enumerate(view["stacks"]) if stack == 0):
                        client.post(f"{url}/change", json={"key": dealer, "op": "chips", "seat": seat, "amount": 60})
                else:
                    client.post(f"{url}/act", json={"key": dealer, "action": choose(view, rng)})
        server.kill()
        state = Store(tmp_path, made["id"]).load_state()
        hands = state["number"] - (state["current"] is not None)
        assert hands >= 3
        assert_records_replay(tmp_path, made["id"], hands)
    finally:
        if server.process.poll() is None:
            server.kill()


def test_fifty_clients_lose_no_action(tmp_path):
    """Fifty clients polling and pressing at once on loopback: every action answered 200 is in the
    records exactly where it was applied, and every other press got a 4xx."""
    import httpx

    server = Server(tmp_path)
    try:
        config = {"game": "pls7", "seats": [f"S{i}" for i in range(6)], "stacks": 1000, "blinds": [1, 2]}
        made = httpx.post(f"{server.url}/api/tables", json=config).json()
        url, keys, dealer = f"{server.url}/api/tables/{made['id']}", made["seat_keys"], made["dealer_key"]
        applied, refused, errors = [], [], []
        deadline = time.monotonic() + 600  # a safety net: the clients stop after hand 8

        def client_loop(index: int):
            rng = random.Random(index)
            key = keys[index % 6]  # about eight phones per seat
            with httpx.Client(timeout=30) as client:
                while time.monotonic() < deadline:
                    view = client.get(url, params={"key": key}).json()
                    if view["hand"] is None:  # one player won every chip (random all-ins): the dealer tops up
                        if index == 0:
                            stacks = client.get(url, params={"key": dealer}).json()["stacks"]
                            for seat in (s for s, stack in enumerate(stacks) if stack == 0):
                                client.post(
                                    f"{url}/change", json={"key": dealer, "op": "chips", "seat": seat, "amount": 1000}
                                )
                        time.sleep(0.01)
                        continue
                    if view["hand"] > 8:
                        return
                    if view["actor"] != index % 6:
                        time.sleep(0.01)
                        continue
                    action = choose(view, rng)
                    answer = client.post(
                        f"{url}/act",
                        json={"key": key, "action": action, "hand": view["hand"], "step": len(view["actions"])},
                    )
                    if answer.status_code == 200:
                        applied.append((view["hand"], len(view["actions"]), action))
                    elif 400 <= answer.status_code < 500:
                        refused.append(answer.json()["error"])
                    else:
                        errors.append(answer.status_code)

        threads = [threading.Thread(target=client_loop, args=(i,)) for i in range(50)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert not errors
        print(f"{len(applied)} actions applied, {len(refused)} presses refused: {sorted(set(refused))}")
        assert len(applied) >= 8 * 3 and refused  # eight hands at least; the phones of a seat did press at once
        server.kill()
        records = {r.fields["hand"]: r for r in records_of(tmp_path, made["id"])}
        assert len(records) >= 3
        for hand, step, action in applied:
            if hand in records:
                assert records[hand].fields["actions"][step] == action
        in_records = sum(1 for hand, _, _ in applied if hand in records)
        played = sum(1 for r in records.values() for a in r.fields["actions"] if re.match(r"p\d+ (f|cc|cbr)", a))
        assert in_records == played  # every player action in the records was answered 200, once
        assert_records_replay(tmp_path, made["id"], max(records))
    finally:
        if server.process.poll() is None:
            server.kill()


def test_cli_refuses_a_port_in_use(tmp_path):
    """`sampyong table` on a port already taken says so in one line and exits 2."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run(
            [sys.executable, "-m", "sampyong", "table", "--dir", str(tmp_path), "--port", str(port)],
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert result.returncode == 2 and result.stderr.count("\n") == 1 and f":{port}" in result.stderr
    assert not list(tmp_path.iterdir())


def test_seat_links_are_printed_beyond_this_machine(tmp_path, monkeypatch):
    """Listening beyond loopback, the server prints every table's dealer and seat links (restored
    tables at start, new ones as they are made); on loopback it prints only its URL."""
    import uvicorn

    import sampyong as sy

    Session.create(tmp_path, {"game": "holdem", "seats": ["Ann", "Bo"]})
    for host in ("127.0.0.1", "0.0.0.0"):
        lines = []

        def run(app, **options):
            app.state.tables.create({"game": "pls7", "seats": ["Cy", "Di", "Ed"]})

        monkeypatch.setattr(uvicorn, "run", run)
        sy.table(tmp_path, host=host, port=free_port(), echo=lines.append)
        states = [Store(tmp_path, t).load_state() for t in Store.table_ids(tmp_path)]
        keys = [k for state in states for k in [state["dealer_key"], *(s["key"] for s in state["seats"])]]
        shown = "\n".join(lines)
        assert "http://" in shown
        if host == "127.0.0.1":
            assert not any(key in shown for key in keys)
        else:
            assert len(states) == 3 and all(key in shown for key in keys)


def test_a_failed_write_changes_nothing(tmp_path):
    """When an action cannot be journaled (a full disk), the hand is as it was before it, and the
    table restores and plays on once the disk works again."""
    table = Session.create(
        tmp_path, {"game": "pls7", "seats": ["Ann", "Bo", "Cy"], "stacks": 100, "bots": {"0": "random-legal"}}, POLICIES
    )
    before = table.view(table.dealer_key)
    log = table.store.log

    def full(entry):
        raise OSError(28, "No space left on device")

    table.store.log = full
    with pytest.raises(OSError):
        table.act(table.seat_keys[2], "p3 cc")
    assert table.view(table.dealer_key) == before
    table.store.log = log
    table.act(table.seat_keys[2], "p3 cc")
    assert Session.restore(tmp_path, table.id, POLICIES).view(table.dealer_key) == table.view(table.dealer_key)

    rewrite = table.store.rewrite_journal
    table.store.rewrite_journal = lambda hand, entries: full(None)
    now = table.view(table.dealer_key)
    with pytest.raises(OSError):
        table.undo(table.dealer_key)
    assert table.view(table.dealer_key) == now
    table.store.rewrite_journal = rewrite


def test_seats_added_mid_hand(tmp_path):
    """A seat added during a hand joins at the next, a bot acting there even after a restart; a
    name already taken, or waiting to be, is refused."""
    table = Session.create(tmp_path, {"game": "holdem", "seats": ["Ann", "Bo"], "stacks": 100}, POLICIES)
    d = table.dealer_key
    table.change(d, {"op": "seat", "name": "Cy", "stack": 50, "bot": "showdown"})
    with pytest.raises(SampyongError, match="name of its own"):
        table.change(d, {"op": "seat", "name": "Cy", "stack": 50})
    with pytest.raises(SampyongError, match="unknown bot policy"):
        table.change(d, {"op": "seat", "name": "Di", "stack": 50, "bot": "/etc/passwd"})
    table = Session.restore(tmp_path, table.id, POLICIES)
    table.act(d, f"{table.view(d)['legal']['player']} f")  # heads-up, the button folds: hand 2 seats Cy
    view = table.view(d)
    assert view["hand"] == 2 and [s["name"] for s in view["seats"]] == ["Ann", "Bo", "Cy"]
    assert view["seats"][2]["player"] is not None and view["actor"] != 2  # the bot has acted, if it was first
