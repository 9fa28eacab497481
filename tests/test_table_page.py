"""table/static/index.html in a real browser (headless Chromium, driven by Playwright) against a
real table server (uvicorn on a free loopback port): a six-handed PLS7 hand created and played
entirely through the page in physical-deal mode, and a seat link in app-deal mode."""

import json
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
import tomllib
from types import SimpleNamespace

import pytest

from evaluator.cards import format_cards
from tests.browser import ARGS, CHROMIUM, expect, needs_browser, sync_playwright

pytestmark = needs_browser

SUIT = {"s": "\u2660", "h": "\u2665", "d": "\u2666", "c": "\u2663"}
NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The table app served by uvicorn in a thread, on a free loopback port, over a tmp folder."""
    import uvicorn

    from table.app import create_app

    folder = tmp_path_factory.mktemp("tables")
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    instance = uvicorn.Server(uvicorn.Config(create_app(folder), log_level="warning", lifespan="off"))
    thread = threading.Thread(target=instance.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not instance.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the table server did not start"
        time.sleep(0.05)
    yield SimpleNamespace(url=f"http://127.0.0.1:{port}", folder=folder)
    instance.should_exit = True
    thread.join(10)
    sock.close()


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as p:
        instance = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield instance
        instance.close()


def new_page(browser, url, width=1100):
    page = browser.new_page(viewport={"width": width, "height": 1000})
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.set_default_timeout(10_000)
    page.goto(url)
    return page


def press(page, testid, fill=None, into=None, error=False):
    """Fill ``into`` (a test id) with ``fill``, click ``testid``, wait for the server's answer on the page."""
    if fill is not None:
        page.get_by_test_id(into).fill(fill)
    page.get_by_test_id(testid).click()
    page.wait_for_function("() => !document.body.dataset.busy")
    if not error:
        expect(page.get_by_test_id("error")).to_be_hidden()


def act_for(page, name, testid, **kwargs):
    """As the dealer: check the page offers ``name``'s turn, then press ``testid``."""
    expect(page.get_by_test_id("act-panel")).to_contain_text(f"Acting for {name}")
    press(page, testid, **kwargs)


def page_stacks(page):
    return [int(page.get_by_test_id(f"seat-{i}").get_by_test_id("seat-stack").text_content()) for i in range(6)]


def shown_cards(locator):
    return locator.evaluate_all("els => els.map(e => e.dataset.card)")


def test_six_handed_physical_hand_with_all_in_side_pot_and_odd_chip(server, browser):
    """A six-handed PLS7 table created with the page's form and played through its buttons by the dealer
    shows the short stack's all-in for less, the side pot, each half's winners with the rule book's hand
    name and the odd chip's owner, and the record the server wrote replays to the stacks the page shows.

    Scenario (checked with table.session first): stacks 100 but Dan 6, blinds 1/2, button Fay (seat 5).
    Preflop Cat (p3) pots to 7, Dan (p4) calls all-in for 6, Eve folds, Fay calls, Ann and Bob fold:
    main pot 21 (Cat, Dan, Fay), side pot 2 (Cat, Fay). Flop 9h Jd Kc: Cat bets 10, Fay calls; turn 2c,
    river 3d checked. Showdown: Cat 4h 5d 7s (skip straight 5-7-9-J-K, low 7-5-4-3-2), Dan Ac Qc Tc
    (clubs flush, no low), Fay 5s 7h Qh (the same skip straight, no low). Main pot 21: high Dan 11 (the
    odd chip), low Cat 10. Side pot 22: high tied Cat/Fay 5 each and the odd chip to Cat (first
    clockwise from the button), low Cat 11. Net: Ann -1, Bob -2, Cat +10, Dan +5, Eve 0, Fay -12."""
    page = new_page(browser, server.url + "/", width=1000)
    expect(page.locator("#game option[value=pls7]")).to_have_count(1)
    page.get_by_test_id("game").select_option("pls7")
    page.get_by_test_id("names").fill("\n".join(NAMES))
    page.get_by_test_id("deal").select_option("physical")
    expect(page.get_by_test_id("bots")).to_be_hidden()  # bots play only when the app deals
    page.get_by_test_id("stacks").fill("100, 100, 100, 6, 100, 100")
    page.get_by_test_id("sb").fill("1")
    page.get_by_test_id("bb").fill("2")
    page.get_by_test_id("wait").check()
    page.get_by_test_id("create-table").click()

    expect(page.get_by_test_id("links")).to_be_visible()
    dealer_link = page.get_by_test_id("dealer-link").input_value()
    table_id = re.search(r"table=(\w+)", dealer_link).group(1)
    seat_links = [page.get_by_test_id(f"seat-link-{i}").input_value() for i in range(6)]
    assert len({*seat_links, dealer_link}) == 7 and all(f"table={table_id}&key=" in link for link in seat_links)
    page.get_by_test_id("open-dealer").click()
    page.wait_for_url(dealer_link)
    expect(page.get_by_test_id("you")).to_have_text("you are the dealer")

    press(page, "deal-next")  # the table waits for the dealer
    expect(page.get_by_test_id("hand")).to_have_text("1")
    expect(page.get_by_test_id("seat-5")).to_contain_text("D")
    expect(page.get_by_test_id("seat-0")).to_contain_text("SB")
    expect(page.get_by_test_id("seat-1")).to_contain_text("BB")
    expect(page.get_by_test_id("seat-2")).to_have_class(re.compile(r"\bactor\b"))

    # preflop
    expect(page.get_by_test_id("act-panel")).to_contain_text("Acting for Cat (p3)")
    page.get_by_test_id("raise-max").click()  # pot-limit: the pot is 3, Cat may raise to 7
    expect(page.get_by_test_id("raise-max")).to_have_text("Pot")
    expect(page.get_by_test_id("raise-to")).to_have_value("7")
    act_for(page, "Cat", "raise")
    expect(page.get_by_test_id("call")).to_have_text("Call 6 (all-in)")
    act_for(page, "Dan", "call")
    expect(page.get_by_test_id("seat-3")).to_contain_text("all-in")
    act_for(page, "Eve", "fold")
    press(page, "undo")  # the dealer takes Eve's fold back, and she folds again
    act_for(page, "Eve", "fold")
    expect(page.get_by_test_id("call")).to_have_text("Call 7")
    act_for(page, "Fay", "call")
    act_for(page, "Ann", "fold")
    act_for(page, "Bob", "fold")
    expect(page.get_by_test_id("pot-0")).to_have_text("Main pot: 21 — Cat, Dan, Fay")
    expect(page.get_by_test_id("pot-1")).to_have_text("Side pot 1: 2 — Cat, Fay")
    expect(page.get_by_test_id("act-panel")).to_be_hidden()

    # the board, dealt by the dealer, and the betting between Cat and Fay
    press(page, "deal-board", fill="9h Jd Kc", into="board-cards")
    assert shown_cards(page.get_by_test_id("board").locator("[data-card]")) == ["9h", "Jd", "Kc"]
    act_for(page, "Cat", "raise", fill="10", into="raise-to")
    act_for(page, "Fay", "call")
    press(page, "deal-board", fill="2c", into="board-cards")
    act_for(page, "Cat", "call")
    act_for(page, "Fay", "call")
    press(page, "deal-board", fill="3d", into="board-cards")
    act_for(page, "Cat", "call")
    act_for(page, "Fay", "call")
    expect(page.get_by_test_id("pot-1")).to_have_text("Side pot 1: 22 — Cat, Fay")
    expect(page.get_by_test_id("actions")).to_contain_text("Cat raises to 7")
    expect(page.get_by_test_id("actions")).to_contain_text("Dan calls")

    # the showdown, entered by the dealer
    press(page, "show-p3", fill="4h 5d 7s", into="show-cards-p3")
    press(page, "show-p4", fill="AcQcTc", into="show-cards-p4")
    press(page, "show-p6", fill="5s7hQh", into="show-cards-p6")

    main, side = page.get_by_test_id("pot-result-0"), page.get_by_test_id("pot-result-1")
    expect(main).to_contain_text("Main pot: 21 — Cat, Dan, Fay")
    expect(main.get_by_test_id("high")).to_contain_text("High: Dan — flush")
    assert shown_cards(main.get_by_test_id("high").locator("[data-card]")) == ["Ac", "Kc", "Qc", "Tc", "2c"]
    expect(main.get_by_test_id("low")).to_contain_text("Low: Cat — ")
    assert shown_cards(main.get_by_test_id("low").locator("[data-card]")) == ["7s", "5d", "4h", "3d", "2c"]
    expect(main.get_by_test_id("won")).to_have_text("Won: Cat 10, Dan 11")
    expect(main.get_by_test_id("odd-chip")).to_have_text("Odd chip: Dan")
    expect(side).to_contain_text("Side pot 1: 22 — Cat, Fay")
    expect(side.get_by_test_id("high")).to_contain_text("High: Cat, Fay — skip straight")
    expect(side.get_by_test_id("low")).to_contain_text("Low: Cat — ")
    expect(side.get_by_test_id("won")).to_have_text("Won: Cat 17, Fay 5")
    expect(side.get_by_test_id("odd-chip")).to_have_text("Odd chip: Cat")
    expect(page.get_by_test_id("net")).to_have_text("Net: Ann -1, Bob -2, Cat +10, Dan +5, Eve 0, Fay -12")
    expect(page.get_by_test_id("hand")).to_have_text("–")  # the table waits for the dealer again
    shown = page_stacks(page)
    assert shown == [99, 98, 110, 11, 100, 88]

    # the record the server wrote replays, and its finishing stacks are the page's
    record = server.folder / f"{table_id}.phhs"
    command = [shutil.which("sampyong")] if shutil.which("sampyong") else [sys.executable, "-m", "sampyong"]
    replayed = subprocess.run([*command, "replay", str(record)], capture_output=True, text=True, timeout=60)
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr
    assert "1 match" in replayed.stdout
    hand = tomllib.loads(record.read_text())["1"]
    finishing = {seat - 1: chips for seat, chips in zip(hand["seats"], hand["finishing_stacks"])}
    assert [finishing[i] for i in range(6)] == shown
    assert [s + n for s, n in zip(hand["starting_stacks"], [-1, -2, 10, 5, 0, -12])] == shown

    press(page, "deal-next")  # hand 2: the button moves to Ann; every stack starts where hand 1 left it
    expect(page.get_by_test_id("hand")).to_have_text("2")
    bets = [
        int(page.get_by_test_id(f"seat-{i}").get_by_test_id("seat-bet").text_content() or 0)
        if page.get_by_test_id(f"seat-{i}").get_by_test_id("seat-bet").count()
        else 0
        for i in range(6)
    ]
    assert [s + b for s, b in zip(page_stacks(page), bets)] == shown and sorted(bets) == [0, 0, 0, 0, 1, 2]
    assert not page.errors, page.errors
    page.close()


def visible_strings(page) -> str:
    """Every text node and attribute value of the page's DOM, scripts and styles left out."""
    return page.evaluate("""() => {
        const out = [];
        const walk = (n) => {
            if (n.nodeType === 3) out.push(n.textContent);
            if (n.nodeType !== 1 || n.tagName === 'SCRIPT' || n.tagName === 'STYLE') return;
            for (const a of n.attributes) out.push(a.value);
            if (typeof n.value === 'string') out.push(n.value);
            n.childNodes.forEach(walk);
        };
        walk(document.documentElement);
        return out.join('\\n');
    }""")


def test_seat_link_shows_only_its_own_cards_and_an_illegal_raise_changes_nothing(server, browser):
    """A seat link in app-deal mode shows exactly that seat's three hole cards and no other seat's, a
    name is shown as text (no markup), and an illegal raise typed into the page shows the API's one-line
    error and changes nothing."""
    import httpx

    sneaky = '<img src=x onerror="window.hacked=1">'
    made = httpx.post(
        server.url + "/api/tables",
        json={
            "game": "pls7",
            "seats": ["Ann", sneaky, "Cy"],
            "stacks": 200,
            "blinds": [1, 2],
            "bots": {"0": "showdown"},
        },
    ).json()
    state = json.loads((server.folder / ".tables" / f"{made['id']}.json").read_text())
    order, deck = state["current"]["order"], state["current"]["deck"]
    holes = {seat: format_cards(deck[p * 3 : (p + 1) * 3]).split() for p, seat in enumerate(order)}
    me = 2  # the button: first to act three-handed (p3)
    page = new_page(browser, f"{server.url}/?table={made['id']}&key={made['seat_keys'][me]}", width=390)

    expect(page.get_by_test_id("act-panel")).to_contain_text("Your turn, Cy (p3)")
    assert shown_cards(page.get_by_test_id(f"seat-{me}").locator("[data-card]")) == holes[me]
    assert set(shown_cards(page.locator("[data-card]"))) == set(holes[me])  # the seat's box and its "dealt" line
    text = visible_strings(page)
    for seat, cards in holes.items():
        for c in cards:
            pattern = rf"(?<![A-Za-z0-9]){re.escape(c)}(?![A-Za-z0-9])|{re.escape(c[0] + SUIT[c[1]])}"
            assert bool(re.search(pattern, text)) == (seat == me), (seat, c)
    expect(page.get_by_test_id("seat-1").get_by_test_id("seat-name")).to_have_text(sneaky)
    expect(page.get_by_test_id("seat-0")).to_contain_text("bot: showdown")
    assert page.evaluate("() => window.hacked") is None and page.locator("img").count() == 0

    expect(page.get_by_test_id("raise-to")).to_have_value("4")
    before = httpx.get(f"{server.url}/api/tables/{made['id']}", params={"key": made["dealer_key"]}).json()
    press(page, "raise", fill="999", into="raise-to", error=True)
    expect(page.get_by_test_id("error")).to_have_text("p3 may raise to 4 through 7, not 999")
    after = httpx.get(f"{server.url}/api/tables/{made['id']}", params={"key": made["dealer_key"]}).json()
    assert after == before
    expect(page.get_by_test_id("raise-to")).to_have_value("999")  # what was typed stays, to correct it
    expect(page.get_by_test_id(f"seat-{me}")).to_have_class(re.compile(r"\bactor\b"))
    assert page.get_attribute("#table", "data-actions") == str(len(before["actions"]))
    assert not page.errors, page.errors
    page.close()
