"""Winamax hand histories, 2010 to 2020, cash (including Go Fast) and tournaments.

The grammar is PokerStars' (``engine.sites.stars``) but for: the header ``Winamax Poker - CashGame |
Tournament "NAME" ... - HandId: #ID - GAME (SB/BB) - DATE``, ``Table: 'NAME' N-max (real money) Seat #B
is the button``, seats ``Seat N: NAME (STACK)``, names without a colon (each line is a known name
and its verb), ``*** ANTE/BLINDS ***`` and ``*** PRE-FLOP ***``, ``posts big blind X out of position``
(a live post), ``posts small blind X out of position`` (dead; more than the big blind: the big
blind live, the rest dead), and ``Total pot X | Rake Y`` or ``| No rake``.
"""

from __future__ import annotations

import re

from engine.sites import convert as why
from engine.sites import stars
from engine.sites.model import Player, SiteHand, amount, cards, split_at

HEADER = re.compile(r"^Winamax Poker - (?P<kind>.*?) - HandId: #(?P<id>[\w-]+) - (?P<rest>.*)$", re.M)
_SEAT = re.compile(r"^Seat (?P<seat>\d+): (?P<name>.+?) \((?P<stack>[^()]*?\d[\d.,]*[kK]?[^()]*?)\)\s*$")
_STREET = re.compile(r"^\*\*\* (?P<street>ANTE/BLINDS|PRE-FLOP|FLOP|TURN|RIVER|SHOW DOWN|SUMMARY) \*\*\*(?P<cards>.*)$")
_STREETS = {"ANTE/BLINDS": 0, "PRE-FLOP": 0, "FLOP": 1, "TURN": 2, "RIVER": 3}
_VERB = re.compile(
    r"^(?P<verb>posts small blind|posts big blind|posts ante|folds|checks|calls|bets|raises|shows|"
    r"collected|mucks)(?P<rest>.*)$"
)


def split(text: str) -> list[tuple[int, str]]:
    return split_at(text, HEADER)


def parse(text: str) -> SiteHand:
    lines = [line.strip() for line in text.split("\n") if line.strip()]
    head = HEADER.match(lines[0])
    h = SiteHand(site="Winamax", hand_id=head.group("id"))
    kind, rest = head.group("kind"), head.group("rest")
    if kind.startswith("Tournament"):
        h.tournament = kind
    stars._read_header(h, re.sub(r"(\d),(\d)", r"\1.\2", rest.replace("€", "").replace(" UTC", "")))
    h.currency = "EUR" if "€" in rest else None
    street, summary, names = 0, False, []
    for line in lines[1:]:
        match = _STREET.match(line)
        if match:
            summary = match.group("street") == "SUMMARY"
            if match.group("street") in _STREETS:
                street = _STREETS[match.group("street")]
                brackets = re.findall(r"\[([^\]]*)\]", match.group("cards"))
                if street and brackets:
                    h.deal(street, cards(brackets[-1]))
            continue
        if summary:
            pot = re.match(r"^Total pot .*?\| (?:Rake (\S+)|No rake)", line)
            if pot:
                h.rake = amount(pot.group(1)) if pot.group(1) else h.rake
            continue
        table = re.match(r"^Table: '(.*)' (?:(\d+)-max)?.*?Seat #(\d+) is the button", line)
        if table:
            h.table, h.button = table.group(1), int(table.group(3))
            h.seat_count = int(table.group(2)) if table.group(2) else None
            continue
        match = _SEAT.match(line)
        if match and not h.acts:
            h.players.append(Player(int(match.group("seat")), match.group("name"), _amount(match.group("stack"))))
            names = sorted((p.name for p in h.players), key=len, reverse=True)
            continue
        dealt = re.match(r"^Dealt to (.+?) \[([^\]]*)\]", line)
        if dealt and h.player(dealt.group(1)):
            h.player(dealt.group(1)).cards = cards(dealt.group(2))
            continue
        name = next((n for n in names if line.startswith(n + " ")), None)
        match = _VERB.match(line[len(name) + 1 :]) if name else None
        if not match:
            continue
        verb, rest = match.group("verb"), match.group("rest")
        if verb == "collected":
            h.collect(name, _amount(rest))
        elif verb == "posts big blind" and "out of position" in rest:
            h.act(street, name, "post", _amount(rest))
        elif verb == "posts small blind" and "out of position" in rest:
            h.act(street, name, "blind", _amount(rest))  # dead; both blinds are written 3€ then 0€: the big one live
        elif (
            verb == "raises"
            and not h.acts
            or (street == 0 and verb == "raises" and not any(a.verb == "blind" for a in h.acts))
        ):
            h.problem = f"{why.PARTIAL}: a raise before the blinds"
        else:
            stars._read_action(
                h,
                street,
                name,
                {"posts ante": "posts the ante", "mucks": "mucks hand"}.get(verb, verb),
                re.sub(r"(\d[\d.,]*[kK]?)", lambda m: str(_amount(m.group(1))), rest),
            )
    return h


def _amount(text: str):
    value = re.search(r"\d[\d.,]*[kK]?", text).group(0)
    return amount(value.upper()) if not value[-1].isdigit() else amount(value)
