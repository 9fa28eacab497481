"""PokerStars hand histories, and the rooms that write the same grammar: Run It Once, PokerMaster,
Full Tilt Rush (Stars' era), GGPoker (``Poker Hand #``), PT/HEM exports, 2005 to 2025.

A hand starts ``<Room> Game|Hand #ID: [Tournament #T, buy-in] GAME (SB/BB [CUR]) - DATE``, then
``Table 'NAME' N-max Seat #B is the button``, ``Seat N: NAME (STACK in chips)`` lines, the posts
(``NAME: posts small blind $X``, ``posts big blind``, ``posts small & big blinds``, ``posts the ante``,
``posts straddle``; GGPoker's ``straddle X``, X the straddle's total), ``*** HOLE CARDS ***``, ``Dealt to NAME [cards]``, actions ``NAME: folds |
checks | calls X | bets X | raises X to Y [and is all-in]``, ``*** FLOP *** [..]`` and the rest,
``Uncalled bet (X) returned to NAME``, ``NAME collected X from [side|main] pot``, shows and mucks,
and ``*** SUMMARY ***`` with ``Total pot X | Rake Y [| Jackpot Z ...]``.
"""

from __future__ import annotations

import re
from decimal import Decimal

from engine.sites import convert as why
from engine.sites.model import Player, SiteHand, amount, cards, classify, split_at, summary_fold

HEADER = re.compile(
    r"^(?P<room>PokerStars|POKERSTARS|Run It Once Poker|PokerMaster|Full Tilt Rush|Poker|PokerStars Home Game)"
    r"(?: Zoom)? (?:Hand|Game|HAND|GAME) #(?P<id>[\w-]+):\s*(?P<rest>.*)$",
    re.M,
)
_SITE = {
    "Poker": "GGPoker",
    "POKERSTARS": "PokerStars",
    "Run It Once Poker": "Run It Once",
    "Full Tilt Rush": "Full Tilt",
}
_TABLE = re.compile(
    r"^Table (?:ID )?'(?P<table>.*)'(?: (?P<max>\d+)-[Mm]ax)?.*?(?:Seat #(?P<button>\d+) is the button)?\s*$"
)
_SEAT = re.compile(
    r"^Seat (?P<seat>\d+): (?P<name>.+?) \((?P<stack>[^()]*?[\d.,]+[KM]?) in chips(?P<extra>[^)]*)\)(?P<rest>.*)$"
)
_STREET = re.compile(
    r"^\*\*\* (?P<which>FIRST |SECOND |THIRD )?(?P<street>HOLE CARDS|FLOP|TURN|RIVER|SHOW ?DOWN|SUMMARY|"
    r"FIRST SHOW ?DOWN|SECOND SHOW ?DOWN)(?: \*\*\*)?(?P<cards>.*)$"
)
_STREETS = {"HOLE CARDS": 0, "FLOP": 1, "TURN": 2, "RIVER": 3}
_ACTION = re.compile(
    r"^(?P<name>.+?): (?P<verb>posts small & big blinds|posts small blind|posts big blind|posts the ante|posts straddle|straddle|"
    r"posts|folds|checks|calls|bets|raises|shows|mucks hand|mucks|doesn't show hand|discards)(?P<rest>.*)$"
)
_COLLECTED = re.compile(r"^(?P<name>.+?) (?:collected|wins) (?P<amount>\S+) from (?:the )?(?:main |side )?pot")
_RETURNED = re.compile(r"^Uncalled bet \((?P<amount>[^)]+)\) returned to (?P<name>.+?)\s*$")
_DEALT = re.compile(r"^Dealt to (?P<name>.+?)(?: \[(?P<cards>[^\]]*)\])?\s*$")
_POT = re.compile(r"^Total pot (?P<pot>\S+).*?\| Rake (?P<rake>[^|]+)(?P<more>.*)$")
_LIMITS = re.compile(
    r"\((?P<sb>[^()/]*?\d[\d.,]*[KM]?)/(?P<bb>[^()/ ]*?\d[\d.,]*[KM]?)(?P<cap> - [^)]*Cap[^)]*?)?(?: (?P<cur>[A-Z]{3}))?\)"
)
_CURRENCY = {"$": "USD", "€": "EUR", "£": "GBP", "¥": "CNY", "₹": "INR"}


def split(text: str) -> list[tuple[int, str]]:
    """The hands of a file's text, each with its first line number."""
    return split_at(text, HEADER)


def parse(text: str) -> SiteHand:
    lines = [line.rstrip() for line in text.split("\n")]
    head = HEADER.match(lines[0])
    h = SiteHand(site=_SITE.get(head.group("room"), head.group("room")), hand_id=head.group("id"))
    rest = head.group("rest")
    _read_header(h, rest)
    street, summary, showdowns = 0, False, 0
    for line in lines[1:]:
        if not line:
            continue
        if summary:
            _read_summary(h, line)
            continue
        match = _STREET.match(line)
        if match:
            name = match.group("street")
            if match.group("which") or name.startswith(("FIRST", "SECOND")):
                h.problem = why.RUN_TWICE
            if name == "SUMMARY":
                summary = True
            elif name in _STREETS:
                street = _STREETS[name]
                if street:
                    brackets = re.findall(r"\[([^\]]*)\]", match.group("cards"))
                    h.deal(street, cards(brackets[-1]) if brackets else "")
            elif "SHOW" in name:
                showdowns += 1
            continue
        if line.startswith("Table "):
            match = _TABLE.match(line)
            if match:
                h.table = match.group("table")
                h.seat_count = int(match.group("max")) if match.group("max") else None
                h.button = int(match.group("button")) if match.group("button") else h.button
            continue
        match = _SEAT.match(line)
        if match and street == 0 and not h.acts:
            if "out of hand" in match.group("rest"):
                continue
            h.players.append(Player(int(match.group("seat")), match.group("name"), amount(match.group("stack"))))
            continue
        match = _DEALT.match(line)
        if match:
            player = h.player(match.group("name"))
            if player and match.group("cards"):
                player.cards = cards(match.group("cards"))
            continue
        match = _RETURNED.match(line)
        if match:
            h.act(street, match.group("name"), "return", amount(match.group("amount")))
            continue
        match = _COLLECTED.match(line)
        if match and h.player(match.group("name")):
            h.collect(match.group("name"), amount(match.group("amount")))
            continue
        if line.startswith(("STP added", "Cash Drop to Pot")):
            h.problem = why.ADDED
            continue
        if " cashed out the hand " in line or re.search(r"\binsurance\b", line, re.I):
            h.problem = why.CASH_OUT
            continue
        match = _ACTION.match(line)
        if match and h.player(match.group("name")):
            _read_action(h, street, match.group("name"), match.group("verb"), match.group("rest"))
    return h


def _read_header(h: SiteHand, rest: str) -> None:
    tournament = re.match(r"(?:Zoom )?Tournament #(\d+),?\s*(.*)$", rest)
    if tournament:
        h.tournament = f"tournament {tournament.group(1)}"
        rest = tournament.group(2)
    date = re.search(r" - (\d{4}/\d{1,2}/\d{1,2}[ -]+\d{1,2}:\d{2}(?::\d{2})?)(?: \(?([A-Z]{2,4})\)?)?", rest)
    if date:
        h.time, h.time_zone = date.group(1).replace(" - ", " "), date.group(2)
    game = rest.split(" - ")[0] if not tournament else rest
    mixed = re.search(r"\(([^()]*?(?:Hold'em|Omaha)[^(),]*)[,)]", game)
    limits = _LIMITS.search(rest)
    h.game_text = mixed.group(1) if mixed else _LIMITS.sub("", game.split(" - Level")[0]).strip()
    h.game, h.betting = classify(h.game_text)
    if limits:
        small, big = amount(limits.group("sb")), amount(limits.group("bb"))
        h.currency = limits.group("cur") or _CURRENCY.get(limits.group("sb").strip()[:1])
        if limits.group("cap"):
            h.problem = why.CAPPED
        if h.betting == "fixed-limit":
            h.small_bet, h.big_bet = small, big
        else:
            h.big_bet = big
    if "Play Money" in rest or (h.currency is None and not h.tournament):
        h.currency = h.currency


def _read_action(h: SiteHand, street: int, name: str, verb: str, rest: str) -> None:
    all_in = "all-in" in rest
    if verb.startswith("posts") or verb == "straddle":
        value = amount(rest)
        if verb == "posts the ante":
            h.act(street, name, "ante", value)
        elif verb == "posts small & big blinds":
            dead = _small_of(h, value)
            h.act(street, name, "dead", dead)
            h.act(street, name, "post", value - dead)
        elif verb == "posts small blind":
            h.act(street, name, "blind", value, all_in=all_in)
        elif verb == "posts big blind":
            h.act(street, name, "blind", value, all_in=all_in)
        elif verb == "posts straddle":
            h.act(street, name, "straddle", value, all_in=all_in)
        elif verb == "straddle":  # GGPoker: the straddle's total, a re-straddle raising the player's own
            before = sum(a.amount for a in h.acts if a.name == name and a.verb == "straddle")
            h.act(street, name, "straddle", value - before, all_in=all_in)
        else:
            h.act(street, name, "blind", value)
        return
    if verb == "folds":
        h.act(street, name, "fold")
    elif verb == "checks":
        h.act(street, name, "check")
    elif verb == "calls":
        h.act(street, name, "call", amount(rest), all_in=all_in)
    elif verb == "bets":
        h.act(street, name, "bet", amount(rest), all_in=all_in)
    elif verb == "raises":
        to = re.search(r" to (\S+)", rest)
        h.act(street, name, "raise", amount(to.group(1) if to else rest), all_in=all_in)
    elif verb == "shows":
        shown = re.search(r"\[([^\]]*)\]", rest)
        if shown:
            h.act(street, name, "show", cards=cards(shown.group(1)))
            player = h.player(name)
            if player.cards is None:
                player.cards = cards(shown.group(1))
    elif verb.startswith("mucks") or verb == "doesn't show hand":
        h.act(street, name, "muck")


def _small_of(h: SiteHand, both: Decimal) -> Decimal:
    """The dead small blind of a ``posts small & big blinds`` total: the blinds' ratio, 1:2 unless known."""
    posted = sorted({a.amount for a in h.acts if a.verb == "blind"})
    if len(posted) >= 2 and posted[0] + posted[-1] == both:
        return posted[0]
    if h.big_bet and h.betting != "fixed-limit" and both > h.big_bet:
        return both - h.big_bet
    return both / 3


def _read_summary(h: SiteHand, line: str) -> None:
    summary_fold(h, line)
    board = re.match(r"^Board \[([^\]]*)\]", line)
    if board and not h.problem:
        h.complete_board(cards(board.group(1)))
    match = _POT.match(line)
    if match:
        h.rake = amount(match.group("rake"))
        for fee in re.findall(r"\| (?:Jackpot|Bingo|Fortune|Tax|Fund|JP Fee)[^|$€£\d]*([^|]+)", match.group("more")):
            h.rake += amount(fee)
        return
    if line.startswith("Hand was run"):
        h.problem = why.RUN_TWICE
        return
    seat = re.match(r"^Seat \d+: (?P<name>.+?) (?:\(.*?\) )*(?:mucked|showed) \[(?P<cards>[^\]]*)\]", line)
    if seat and h.player(seat.group("name")) and h.player(seat.group("name")).cards is None:
        h.player(seat.group("name")).cards = cards(seat.group("cards"))
        if "showed" in line:
            h.act(3, seat.group("name"), "show", cards=cards(seat.group("cards")))
