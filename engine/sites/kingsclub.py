"""KingsClub (and rooms on its software) hand histories, 2020 and 2021, cash.

``#ID: GAME - SB/BB`` (``No Limit Holdem``, ``Pot Limit Omaha [5 Card]``, ``Pot Limit Big O``, ``Limit
Omaha[ Hi-Lo]``; in limit games the stakes are the small and big bet), the date, ``Table 'NAME'
Seat N is the button``, seats ``Seat N: NAME (1,000)``, ``NAME: posts ante X``, ``NAME: posts the
small|big blind X``, ``Dealt to NAME: [cards]`` (``X``: unseen), ``NAME bets X|calls X|raises to X``
(every amount the player's street total; ``, and is all in``), ``folds``, ``checks``, ``NAME shows
[cards]``, ``*** FLOP|TURN|RIVER *** [cards]`` (``*** BOARD 1 - ...``: two boards, or run twice),
and a summary: ``Seat N: NAME (STACK) +NET`` (the chips after the hand), ``Rake X``, ``NAME wins pot (X)`` or ``NAME wins (X)
from pot``. Uncalled bets are not written.
"""

from __future__ import annotations

import re
from decimal import Decimal

from engine.sites import convert as why
from engine.sites.model import Player, SiteHand, amount, cards, classify, split_at

HEADER = re.compile(r"^#(?P<id>\d+): (?P<game>.+?) - (?P<small>[\d.,]+)/(?P<big>[\d.,]+)\s*$", re.M)
_SEAT = re.compile(r"^Seat (?P<seat>\d+): (?P<name>.+?) \((?P<stack>[\d.,]+)\)\s*$")
_STREET = re.compile(
    r"^\*\*\* (?P<board>BOARD \d+ - )?(?P<street>FLOP|TURN|RIVER|SUMMARY|HOLE CARDS) \*\*\*(?P<cards>.*)$"
)
_ACTION = re.compile(
    r"^(?P<name>.+?):? (?P<verb>posts ante|posts the small blind|posts the big blind|folds|checks|calls|bets|"
    r"raises to|shows)(?P<rest>.*)$"
)
_STREETS = {"FLOP": 1, "TURN": 2, "RIVER": 3}


def split(text: str) -> list[tuple[int, str]]:
    return split_at(text, HEADER)


def parse(text: str) -> SiteHand:
    lines = [line.strip() for line in text.split("\n") if line.strip()]
    head = HEADER.match(lines[0])
    h = SiteHand(site="KingsClub", hand_id=head.group("id"))
    h.game_text = head.group("game")
    h.game, h.betting = classify(h.game_text)
    small, big = amount(head.group("small")), amount(head.group("big"))
    if h.betting == "fixed-limit":
        h.small_bet, h.big_bet = small, big
    else:
        h.small_blind, h.big_bet = small, big
    street, summary, put = 0, False, {}
    for line in lines[1:]:
        if re.match(r"^\d{4}-\d{2}-\d{2} \d", line):
            h.time = line
            continue
        table = re.match(r"^Table '(?P<table>.*)' Seat (?P<button>\d+) is the button", line)
        if table:
            h.table, h.button = table.group("table"), int(table.group("button"))
            continue
        match = _STREET.match(line)
        if match:
            if match.group("board"):  # two boards from the flop: a double-board game; later: run twice
                h.problem = h.problem or (
                    f"{why.UNKNOWN_GAME}: {h.game_text}, two boards"
                    if match.group("street") == "FLOP"
                    else why.RUN_TWICE
                )
            summary = match.group("street") == "SUMMARY"
            if match.group("street") in _STREETS:
                street = _STREETS[match.group("street")]
                h.deal_through(cards(match.group("cards")))
            continue
        if summary:
            won = re.match(r"^(?P<name>.+?) wins (?:pot )?\((?P<amount>[\d.,]+)\)", line)
            if won and h.player(won.group("name")):
                h.collect(won.group("name"), amount(won.group("amount")))
            final = re.match(r"^Seat \d+: (?P<name>.+?) \((?P<stack>[\d.,]+)\)", line)
            if final and h.player(final.group("name")):
                h.final[final.group("name")] = amount(final.group("stack"))
            rake = re.match(r"^Rake ([\d.,]+)", line)
            if rake:
                h.rake = amount(rake.group(1))
            continue
        match = _SEAT.match(line)
        if match and not h.acts:
            h.players.append(Player(int(match.group("seat")), match.group("name"), amount(match.group("stack"))))
            continue
        dealt = re.match(r"^Dealt to (?P<name>.+?): \[(?P<cards>[^\]]*)\]", line)
        if dealt and h.player(dealt.group("name")):
            h.player(dealt.group("name")).cards = cards(dealt.group("cards")) or None
            continue
        match = _ACTION.match(line)
        if match and h.player(match.group("name")):
            _read_action(h, street, match.group("name"), match.group("verb"), match.group("rest"), put)
    return h


def _read_action(h: SiteHand, street: int, name: str, verb: str, rest: str, put: dict) -> None:
    all_in = "all in" in rest
    number = re.search(r"[\d.,]*\d", rest)
    value = amount(number.group(0)) if number else Decimal(0)
    key = (street, name)
    if verb == "posts ante":
        h.act(street, name, "ante", value)
    elif verb in ("posts the small blind", "posts the big blind"):
        h.act(street, name, "blind", value, all_in=all_in)
        put[key] = put.get(key, Decimal(0)) + value
    elif verb in ("folds", "checks"):
        h.act(street, name, verb[:-1])
    elif verb in ("calls", "bets"):  # the street total: the chips added are what it adds to the player's
        h.act(street, name, verb[:-1], value - put.get(key, Decimal(0)), all_in=all_in)
        put[key] = value
    elif verb == "raises to":
        h.act(street, name, "raise", value, all_in=all_in)
        put[key] = value
    elif verb == "shows":
        shown = re.search(r"\[([^\]]*)\]", rest)
        if shown:
            h.act(street, name, "show", cards=cards(shown.group(1)))
            h.player(name).cards = h.player(name).cards or cards(shown.group(1))
