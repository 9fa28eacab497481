"""Microgaming (MPN) hand histories: XML, 2009 to 2016, cash and tournaments.

A hand is a ``<Game id date tablename stakes="0.05|0.10" betlimit="NL|PL|FL" gametype="Hold'em|Omaha|
Omaha H/L" istournament>`` of ``<Seats>`` (``<Seat num alias balance endbalance [dealer="true"]
[sittingout="true"]/>``) and ``<Gameplay>`` of ``<Action seq type seat value>`` played in the order
of ``seq``: ``SmallBlind``, ``BigBlind``, ``PostedToPlay`` (a post: a big blind live, a small one dead), ``Fold``, ``Check``,
``Call``, ``Bet`` and ``AllIn`` (the chips added), ``Raise`` (the street total), ``MoneyReturned``
(an uncalled bet), ``DealCards`` (the hero's), ``DealFlop|DealTurn|DealRiver`` and ``ShowCards``
with ``<Card value="10" suit="c"/>``, ``MuckCards``, and ``Win`` with ``<Seat num amount/>``. Files
from a tracker start with ``----PRIMA.DAT----``. No rake per pot is written: it is what was put in
and not collected (none in tournaments).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from decimal import Decimal

from engine.sites import convert as why
from engine.sites.model import Player, SiteHand, amount, classify

HEADER = re.compile(r"<Game\b[^>]*?\sid=\"(?P<id>\d+)\"")
_VERBS = {
    "SmallBlind": "blind",
    "BigBlind": "blind",
    "PostedToPlay": "blind",
    "Fold": "fold",
    "Check": "check",
    "Call": "call",
    "Bet": "bet",
    "AllIn": "bet",
    "Raise": "raise",
    "MoneyReturned": "return",
    "MuckCards": "muck",
}
_DEALS = {"DealFlop": 1, "DealTurn": 2, "DealRiver": 3}
_LIMITS = {"NL": "No Limit", "PL": "Pot Limit", "FL": "Limit"}


def split(text: str) -> list[tuple[int, str]]:
    starts = [m.start() for m in HEADER.finditer(text)]
    out = []
    for start, end in zip(starts, starts[1:] + [len(text)]):
        closing = text.find("</Game>", start, end)
        out.append(
            (
                text.count("\n", 0, start) + 1,
                text[start : closing + len("</Game>")] if closing >= 0 else text[start:end],
            )
        )
    return out


def parse(text: str) -> SiteHand:
    h = SiteHand(site="Microgaming", hand_id=HEADER.search(text).group("id"), rake=None)
    try:
        game = ET.fromstring(text)
    except ET.ParseError as error:
        h.problem = f"{why.PARTIAL}: not well-formed XML ({error})"
        return h
    h.game_text = f"{game.get('gametype', '')} {_LIMITS.get(game.get('betlimit'), game.get('betlimit', ''))}"
    h.game, h.betting = classify(h.game_text.replace("H/L", "Hi/Lo"))
    h.table, h.time = game.get("tablename"), game.get("date")
    small, _, big = (game.get("stakes") or "").partition("|")
    if big:
        if h.betting == "fixed-limit":
            h.small_bet, h.big_bet = amount(small), amount(big)
        else:
            h.small_blind, h.big_bet = amount(small), amount(big)
    if game.get("istournament") == "1":
        h.tournament, h.rake = f"tournament {h.table}", Decimal(0)
    seats = {}
    for seat in game.iterfind("Seats/Seat"):
        seats[seat.get("num")] = seat.get("alias")
        h.players.append(Player(int(seat.get("num")), seat.get("alias"), amount(seat.get("balance"))))
        if seat.get("endbalance"):
            h.final[seat.get("alias")] = amount(seat.get("endbalance"))
        if seat.get("dealer") == "true":
            h.button = int(seat.get("num"))
    street = 0
    actions = sorted(game.iterfind("Gameplay/Action"), key=lambda a: int(a.get("seq", 10**9)))
    for action in actions:
        kind, name = action.get("type"), seats.get(action.get("seat"))
        found = "".join(
            ("T" if c.get("value") == "10" else c.get("value")) + c.get("suit") for c in action.iterfind("Card")
        )
        if kind in _DEALS:
            street = _DEALS[kind]
            h.deal(street, found)
        elif kind == "DealCards" and name:
            h.player(name).cards = found
        elif kind == "ShowCards" and name:
            h.player(name).cards = h.player(name).cards or found
            h.act(street, name, "show", cards=found)
        elif kind == "Win":
            for seat in action.iterfind("Seat"):
                h.collect(seats.get(seat.get("num")), amount(seat.get("amount")))
        elif kind in _VERBS and name:
            value = amount(action.get("value")) if action.get("value") else Decimal(0)
            h.act(street, name, _VERBS[kind], value, all_in=kind == "AllIn")
    return h
