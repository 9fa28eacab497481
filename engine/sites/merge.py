"""Merge Network (Carbon Poker and its skins) hand histories: XML, 2008 to 2015, cash and tournaments.

A hand is a ``<description type="Holdem|Omaha[ H/L][ Tournament]" stakes="No Limit ($0.25/$0.50)|Pot
Limit|Limit $0.02/$0.04|No Limit Level 4 Blinds 40/80"/>`` then ``<game id="ID" starttime
numholecards data="DATE|TABLE|...">``: ``<players dealer="SEAT">`` of ``<player seat nickname
balance dealtin/>`` (not dealt in: not in the hand; an empty list: the stacks are not known),
``<round id="BLINDS|PREFLOP|POSTFLOP|POSTTURN|POSTRIVER|END_OF_GAME...">`` of ``<event sequence
type player amount/>`` (``player`` a seat; types ``SMALL_BLIND``, ``BIG_BLIND``, ``ANTE``, ``CALL``,
``BET`` and ``ALL_IN`` with the chips added, ``RAISE``, ``CHECK``, ``FOLD``, ``SHOW``, ``MUCK``) and
``<cards type="HOLE|SHOWN|MUCKED|COMMUNITY" cards="Ah,8s" player/>`` (the community cards so far),
and ``<winner amount player uncalled="true|false"/>`` (an uncalled bet given back, or a pot won).
``RAISE`` is the chips added in the 2008 files and the street total later: each hand's own calls
say which (the caller's total meets the raise's). No rake is written: it is what was put in and
not collected (none in tournaments).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from decimal import Decimal

from engine.sites import convert as why
from engine.sites.model import Player, SiteHand, amount, cards, classify

HEADER = re.compile(r"<game\b[^>]*?\sid=\"(?P<id>[^\"]+)\"")
_DESCRIPTION = re.compile(r"<description\b[^>]*/>")
_STREETS = {"BLINDS": 0, "PREFLOP": 0, "POSTFLOP": 1, "POSTTURN": 2, "POSTRIVER": 3}
_VERBS = {
    "SMALL_BLIND": "blind",
    "BIG_BLIND": "blind",
    "ANTE": "ante",
    "CALL": "call",
    "BET": "bet",
    "ALL_IN": "bet",
    "RAISE": "raise",
    "CHECK": "check",
    "FOLD": "fold",
    "MUCK": "muck",
}


def split(text: str) -> list[tuple[int, str]]:
    """Each ``<game>`` with the ``<description>`` before it, and the game's first line."""
    descriptions = list(_DESCRIPTION.finditer(text))
    games = list(HEADER.finditer(text))
    out = []
    for i, game in enumerate(games):
        start = game.start()
        end = games[i + 1].start() if i + 1 < len(games) else len(text)
        closing = text.find("</game>", start, end)
        body = text[start:closing] + "</game>" if closing >= 0 else text[start:end] + "</game>"
        before = [d for d in descriptions if d.start() < start]
        out.append((text.count("\n", 0, start) + 1, (before[-1].group(0) if before else "") + body))
    return out


def parse(text: str) -> SiteHand:
    h = SiteHand(site="Merge", hand_id=HEADER.search(text).group("id"), rake=None)
    try:
        root = ET.fromstring(f"<hand>{text}</hand>")
    except ET.ParseError as error:
        h.problem = f"{why.PARTIAL}: not well-formed XML ({error})"
        return h
    description, game = root.find("description"), root.find("game")
    kind = description.get("type", "") if description is not None else ""
    stakes = (description.get("stakes", "") if description is not None else "") or game.get("stakes", "")
    h.game_text = f"{kind} {stakes}".strip()
    h.game, h.betting = classify(re.sub(r"\s*Tournament", "", h.game_text))
    if h.game and game.get("numholecards") == "5":
        h.game = "plo5-8" if h.game == "plo8" else "plo5"
    if "Tournament" in kind:
        h.tournament, h.rake = f"tournament {(game.get('data') or '||').split('|')[2]}", Decimal(0)
    else:
        h.currency = "USD" if "$" in stakes else None
    blinds = re.search(r"(\$?[\d.,]+)/(\$?[\d.,]+)", stakes)
    if blinds:
        small, big = amount(blinds.group(1)), amount(blinds.group(2))
        if h.betting == "fixed-limit":
            h.small_bet, h.big_bet = small, big
        else:
            h.big_bet = big
    parts = (game.get("data") or "").split("|")
    h.table = parts[1] if len(parts) > 1 else None
    start = game.get("starttime", "")
    compact = re.match(r"(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$", start)
    h.time = "{}/{}/{} {}:{}:{}".format(*compact.groups()) if compact else start[:19] or None
    players = game.find("players")
    seats = {}
    if players is not None:
        h.button = int(players.get("dealer")) if players.get("dealer") is not None else None
        for player in players.iterfind("player"):
            seats[player.get("seat")] = player.get("nickname")
            if player.get("dealtin") != "false":
                h.players.append(Player(int(player.get("seat")), player.get("nickname"), amount(player.get("balance"))))
    if not h.players:
        h.problem = f"{why.PARTIAL}: no players listed (their stacks are not known)"
        return h
    events, returned, cards_ = [], [], []
    for round_ in game.iterfind("round"):
        street = _STREETS.get(round_.get("id"), 3)
        for element in round_:
            if element.tag == "event":
                events.append((int(element.get("sequence", 0)), street, element))
            elif element.tag == "cards":
                cards_.append(element)
            elif element.tag == "winner":
                name = seats.get(element.get("player"))
                if element.get("uncalled") == "true":
                    returned.append((name, amount(element.get("amount"))))
                else:
                    h.collect(name, amount(element.get("amount")))
    events.sort(key=lambda item: item[0])
    raise_to = _raises_are_totals(events)
    for _, street, event in events:
        verb, name = _VERBS.get(event.get("type")), seats.get(event.get("player"))
        if verb is None or name is None:
            continue
        value = amount(event.get("amount")) if event.get("amount") else Decimal(0)
        if verb == "raise" and not raise_to:
            verb = "bet"  # the chips added
        h.act(street, name, verb, value, all_in=event.get("type") == "ALL_IN")
    for element in cards_:  # after the actions: a show comes at the end
        _read_cards(h, element, seats)
    for name, value in returned:
        h.act(max((a.street for a in h.acts), default=0), name, "return", value)
    return h


def _raises_are_totals(events) -> bool:
    """Whether this hand's ``RAISE`` amounts are street totals: the first raise a later call
    answers says it (the caller's street total equals the raiser's); else totals (after 2008)."""
    put: dict[tuple[int, str], Decimal] = {}
    for i, (_, street, event) in enumerate(events):
        kind, who = event.get("type"), event.get("player")
        value = amount(event.get("amount")) if event.get("amount") else Decimal(0)
        if kind == "RAISE":
            before = put.get((street, who), Decimal(0))
            for _, later_street, later in events[i + 1 :]:
                if later_street != street or later.get("type") == "RAISE":
                    break
                if later.get("type") == "CALL" and later.get("player") != who and before:
                    level = put.get((street, later.get("player")), Decimal(0)) + amount(later.get("amount"))
                    return level == value
        if kind in ("SMALL_BLIND", "BIG_BLIND", "CALL", "BET", "ALL_IN", "RAISE"):
            put[(street, who)] = put.get((street, who), Decimal(0)) + value
    return True


def _read_cards(h: SiteHand, element, seats: dict) -> None:
    kind, found = element.get("type"), cards(element.get("cards", ""))
    if kind == "COMMUNITY":  # the board so far
        h.deal_through(found)
        return
    name = seats.get(element.get("player"))
    player = h.player(name) if name else None
    if player is not None and found:
        player.cards = player.cards or found
        if kind == "SHOWN":
            h.act(3, name, "show", cards=found)
