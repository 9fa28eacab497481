"""iPoker hand histories (XML, whatever the file's extension), 2011 to 2021, cash and tournaments.

A file holds one or more ``<session>`` elements; each opens with a ``<general>`` (``gametype``:
``Holdem NL $0.02/$0.04``, ``Omaha PL €0.10/€0.20``, ``Holdem L $5/$10`` (the small and big bet),
``PL €0.05/€0.10`` (the game left to the cards dealt), ``Holdem NL`` (tournaments), ``SL`` and
``БЛ`` for no limit, ``ПЛ`` for pot limit; ``tablename``,
``currency``, ``tablecurrency``, ``nickname`` (the hero), ``tournamentname``, ``tournamentcode``)
and holds ``<game gamecode="ID">`` elements, one per hand: ``<player seat name chips dealer win
bet/>`` (``chips`` before the hand; ``bet`` every chip put in, an uncalled bet included; ``win``
every chip collected, the uncalled bet back included; the rake is what was put in and not
collected), then ``<round no="N">`` (0 the forced bets, 1 preflop to 4 the river) with ``<cards
type="Pocket|Flop|Turn|River" player="NAME">`` (suit then rank: ``HA C10``; ``X``: unseen; a player
other than the hero whose cards are known showed them) and ``<action no player type sum/>``,
played in the order of ``no`` (not the file's). Action types: 0 fold, 1 small blind, 2 big blind
(more than the big blind: a post with a dead part), 3 call, 4 check, 5 bet (``sum``: the chips
added), 7 all-in (the chips added), 8 and 9 sitting out, 15 ante, 23 raise (``sum``: the street
total raised to). Amounts carry the currency sign in cash games; tournament chips are whole,
written with ``,`` or ``.`` between thousands.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from decimal import Decimal

from engine.sites import convert as why
from engine.sites.model import Player, SiteHand, amount, classify

HEADER = re.compile(r"<game\s+gamecode=\"(?P<id>[^\"]*)\"")
_GENERAL = re.compile(r"<general>.*?</general>", re.S)
_SESSION = re.compile(r"<session\b")
_END = re.compile(r"</game>|</session>|<session\b|<\?xml")
_CARD = re.compile(r"^([SHDC])(10|[2-9TJQKA])$", re.I)
_TYPES = {
    "0": "fold",
    "1": "blind",
    "2": "blind",
    "3": "call",
    "4": "check",
    "5": "bet",
    "7": "bet",
    "15": "ante",
    "23": "raise",
}
_SITTING_OUT = ("8", "9")
_STREET_NAMES = {"Flop": 1, "Turn": 2, "River": 3}
_MONTHS = {
    m: i for i, m in enumerate(("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), 1)
}


def split(text: str) -> list[tuple[int, str]]:
    """Each ``<game>`` with its session's ``<general>`` before it, and the game's first line."""
    sessions = [(m.start(), _GENERAL.search(text, m.start())) for m in _SESSION.finditer(text)]
    games = list(HEADER.finditer(text))
    out = []
    for i, game in enumerate(games):
        start = game.start()
        end = games[i + 1].start() if i + 1 < len(games) else len(text)
        session = [s for s in sessions if s[0] < start]
        closing = _END.search(text, start, end)  # some writers leave the game, or the session, unclosed
        body = text[start : closing.start() if closing else end] + "</game>"
        general = session[-1][1].group(0) if session and session[-1][1] and session[-1][1].start() < start else ""
        out.append((text.count("\n", 0, start) + 1, general + "\n" + body))
    return out


def parse(text: str) -> SiteHand:
    hand_id = HEADER.search(text).group("id")
    h = SiteHand(site="iPoker", hand_id=hand_id)
    try:
        root = ET.fromstring(f"<hand>{text}</hand>")
    except ET.ParseError as error:
        h.problem = f"{why.PARTIAL}: not well-formed XML ({error})"
        return h
    session, game = root.find("general"), root.find("game")
    if game is None or game.find("general") is None:
        h.problem = f"{why.PARTIAL}: no players"
        return h

    def field(name: str) -> str:
        found = session.find(name) if session is not None else None
        return (found.text or "").strip() if found is not None else ""

    hero = field("nickname")
    tournament = field("tournamentcode") or field("tournamentname")
    h.tournament = f"tournament {tournament}" if tournament else None
    h.table = field("tablename") or None
    h.currency = None if tournament else field("tablecurrency") or field("currency") or None
    h.time = _time(game.findtext("general/startdate") or field("startdate"))
    chips_only = bool(tournament)

    def money(value: str | None) -> Decimal:
        return _money(value or "0", chips_only)

    for player in game.iterfind("general/players/player"):
        name = player.get("name", "")
        if player.get("dealer") == "1":
            h.button = int(player.get("seat"))  # an empty seat's too: a dead button
        if name:
            h.players.append(Player(int(player.get("seat")), name, money(player.get("chips"))))
    bets = {p.get("name"): money(p.get("bet")) for p in game.iterfind("general/players/player") if p.get("name")}
    wins = {p.get("name"): money(p.get("win")) for p in game.iterfind("general/players/player") if p.get("name")}
    pockets = {}
    for round_ in game.iterfind("round"):
        for cards in round_.iterfind("cards"):
            kind, shown = cards.get("type"), _cards(cards.text or "")
            if kind == "Pocket":
                pockets[cards.get("player")] = (shown, len((cards.text or "").split()))
            elif kind in _STREET_NAMES:
                h.deal(_STREET_NAMES[kind], shown)
    _read_game(h, field("gametype"), max((count for _, count in pockets.values()), default=0), chips_only)
    actions = sorted(
        ((int(a.get("no", 0)), int(r.get("no", 0)), a) for r in game.iterfind("round") for a in r.iterfind("action")),
        key=lambda item: item[0],
    )
    for _, round_no, action in actions:
        name, kind = action.get("player"), action.get("type")
        if kind in _SITTING_OUT:
            if any(a.name == name for a in h.acts):
                h.act(max(0, round_no - 1), name, "fold")
            continue
        if kind not in _TYPES:
            h.problem = f"{why.PARTIAL}: an action of an unknown type ({kind})"
            return h
        verb, value = _TYPES[kind], money(action.get("sum"))
        h.act(max(0, round_no - 1), name, verb, value, all_in=kind == "7")
    for name, (shown, _) in pockets.items():
        player = h.player(name)
        if player and shown:
            player.cards = shown
            if name != hero:
                h.act(3, name, "show", cards=shown)  # another's cards are known only when shown
    for name, won in wins.items():
        if won:
            h.collect(name, won)
    h.rake = sum(bets.values()) - sum(wins.values())
    put = _put_in(h)
    wrong = next((n for n in bets if h.player(n) and put.get(n, 0) != bets[n]), None)
    if wrong is not None and not h.problem:
        h.problem = f"{why.UNBALANCED}: {wrong}'s actions put in {put.get(wrong, 0)}, the site says {bets[wrong]}"
    return h


def _read_game(h: SiteHand, text: str, hole_cards: int, chips_only: bool) -> None:
    """The game and stakes of a ``gametype``: the game by name, else by the hole cards dealt."""
    h.game_text = text
    words = re.sub(r"\b(?:FL|L|ФЛ|Л)\b", "Limit", text)  # the kinds of limit as iPoker writes them, Russian too
    words = re.sub(r"\b(?:SL|NL|БЛ)\b", "No Limit", re.sub(r"\b(?:PL|ПЛ)\b", "Pot Limit", words))
    if not re.search(r"hold|omaha", words, re.I):
        words = {2: "Holdem ", 4: "Omaha ", 5: "5 Card Omaha "}.get(hole_cards, "") + words
    h.game, h.betting = classify(words)
    stakes = re.search(r"(\S*\d[\d.,]*)/(\S*\d[\d.,]*)", text)
    if stakes:
        small, big = _money(stakes.group(1), chips_only), _money(stakes.group(2), chips_only)
        if h.betting == "fixed-limit":
            h.small_bet, h.big_bet = small, big
        else:
            h.small_blind, h.big_bet = small, big


def _put_in(h: SiteHand) -> dict[str, Decimal]:
    """What each player's actions put in (a raise adds up to its street total)."""
    total: dict[str, Decimal] = {}
    street_put: dict[tuple[int, str], Decimal] = {}
    for act in h.acts:
        key = (act.street, act.name)
        if act.verb == "raise":
            added = act.amount - street_put.get(key, Decimal(0))
        elif act.verb in ("blind", "ante", "call", "bet"):
            added = act.amount
        else:
            continue
        total[act.name] = total.get(act.name, Decimal(0)) + added
        if act.verb != "ante":
            street_put[key] = street_put.get(key, Decimal(0)) + added
    return total


def _money(text: str, chips_only: bool) -> Decimal:
    """An amount: tournament chips are whole (``1.300`` and ``1,035`` are thousands); money
    has a decimal point, or a decimal comma (``€0,10``)."""
    if chips_only:
        return Decimal(re.sub(r"\D", "", text) or 0)
    return amount(text, decimal_comma=bool(re.search(r"\d,\d{1,2}$", text.strip())))


def _cards(text: str) -> str:
    """Cards in the engine's spelling (``"HA C10"`` -> ``"AhTc"``); unseen cards (``X``) none."""
    out = []
    for word in text.split():
        match = _CARD.match(word)
        if match:
            rank = match.group(2).upper()
            out.append(("T" if rank == "10" else rank) + match.group(1).lower())
    return "".join(out) if len(out) == len(text.split()) else ""


def _time(text: str | None) -> str | None:
    """``YYYY/MM/DD HH:MM:SS`` of the dates iPoker writes (``2011-11-29 15:22:24``, ``18.05.2021
    18:26:13``, ``30/01/2012 02:30``, ``23-Jan-2011 12:57:40``)."""
    if not text:
        return None
    clock = re.search(r"(\d{1,2}):(\d{2})(?::(\d{2}))?", text)
    iso = re.search(r"(\d{4})-(\d{1,2})-(\d{1,2})", text)
    european = re.search(r"(\d{1,2})[./](\d{1,2})[./](\d{4})", text)
    named = re.search(r"(\d{1,2})-([A-Za-z]{3})-(\d{4})", text)
    if iso:
        year, month, day = iso.groups()
    elif european:
        day, month, year = european.groups()
    elif named and named.group(2).lower() in _MONTHS:
        day, month, year = named.group(1), _MONTHS[named.group(2).lower()], named.group(3)
    else:
        return None
    hour, minute, second = clock.groups() if clock else ("0", "0", "0")
    return f"{int(year):04d}/{int(month):02d}/{int(day):02d} {int(hour):02d}:{int(minute):02d}:{int(second or 0):02d}"
