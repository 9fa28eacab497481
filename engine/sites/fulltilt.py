"""Full Tilt Poker hand histories, 2006 to 2014, cash and tournaments (UTF-16 or plain).

A hand starts ``Full Tilt Poker Game #ID: [TOURNAMENT (T), ]Table NAME [(6 max, ...)] - SB/BB
[- $N Cap] - GAME - TIME TZ - DATE``; seats ``Seat N: NAME (STACK)``; names carry no colon, so
each line is read as a known name followed by its verb: ``posts the small blind of X``,
``posts the big blind of X``, ``posts a dead small blind of X``, ``posts X``, ``antes X``,
``folds``, ``checks``, ``calls X``, ``bets X``, ``raises to X`` (``, and is all in``), ``shows
[cards]``, ``mucks``, ``wins|ties for the [main|side|high|low] pot (X)``; ``The button is in seat
#N``; ``Uncalled bet of X returned to NAME``; ``Total pot X ... | Rake Y``. In limit games the
stakes are the small and big bets.
"""

from __future__ import annotations

import re

from engine.sites import convert as why
from engine.sites.model import Player, SiteHand, amount, cards, classify, split_at, summary_fold

HEADER = re.compile(r"^(?:Full Tilt Poker|FullTiltPoker) Game #(?P<id>\d+):\s*(?P<rest>.*)$", re.M)
_SEAT = re.compile(r"^Seat (?P<seat>\d+): (?P<name>.+?) \((?P<stack>[^()]*?[\d.,]+)\)(?P<rest>.*)$")
_STREET = re.compile(
    r"^\*\*\* (?P<street>HOLE CARDS|FLOP|TURN|RIVER|SHOW DOWN|SUMMARY)(?P<twice> \d)? \*\*\*(?P<cards>.*)$"
)
_STREETS = {"HOLE CARDS": 0, "FLOP": 1, "TURN": 2, "RIVER": 3}
_VERB = re.compile(
    r"^(?P<verb>posts the small blind of|posts the big blind of|posts a dead small blind of|posts|antes|folds|checks|calls|"
    r"bets|raises to|shows|mucks|wins|ties for)(?P<rest>.*)$"
)
_CURRENCY = {"$": "USD", "€": "EUR", "£": "GBP"}


def split(text: str) -> list[tuple[int, str]]:
    return split_at(text, HEADER)


def parse(text: str) -> SiteHand:
    lines = [line.strip() for line in text.split("\n") if line.strip()]
    head = HEADER.match(lines[0])
    h = SiteHand(site="Full Tilt", hand_id=head.group("id"))
    _read_header(h, head.group("rest"))
    street, summary, names, summed = 0, False, [], {}
    for line in lines[1:]:
        match = _STREET.match(line)
        if match:
            if match.group("twice"):
                h.problem = why.RUN_TWICE
            if match.group("street") == "SUMMARY":
                summary = True
            elif match.group("street") in _STREETS:
                street = _STREETS[match.group("street")]
                brackets = re.findall(r"\[([^\]]*)\]", match.group("cards"))
                if street and brackets and not match.group("twice"):
                    h.deal(street, cards(brackets[-1]))
            continue
        if summary:
            summary_fold(h, line)
            board = re.match(r"^Board: \[([^\]]*)\]", line)
            if board:
                h.complete_board(cards(board.group(1)))
            pot = re.match(r"^Total pot (\S+).*\| Rake (\S+)", line)
            if pot:
                h.rake = amount(pot.group(2))
            won = re.match(
                r"^Seat \d+: (.+?) (?:\(.*?\) )*(?:collected|(?:showed \[[^\]]*\] and )?won) \((\S+?)\)", line
            )
            if won and h.player(won.group(1)):
                summed[won.group(1)] = summed.get(won.group(1), 0) + amount(won.group(2))
            continue
        if "Run It Twice" in line:
            h.problem = why.RUN_TWICE
        match = _SEAT.match(line)
        if match and not h.acts:
            h.players.append(Player(int(match.group("seat")), match.group("name"), amount(match.group("stack"))))
            names = sorted((p.name for p in h.players), key=len, reverse=True)
            continue
        button = re.match(r"^The button is in seat #(\d+)", line)
        if button:
            h.button = int(button.group(1))
            continue
        dealt = re.match(r"^Dealt to (.+?) \[([^\]]*)\]", line)
        if dealt and h.player(dealt.group(1)):
            h.player(dealt.group(1)).cards = cards(dealt.group(2))
            continue
        returned = re.match(r"^Uncalled bet of (\S+) returned to (.+)$", line)
        if returned:
            h.act(street, returned.group(2), "return", amount(returned.group(1)))
            continue
        name = next((n for n in names if line.startswith(n + " ")), None)
        if name:
            match = _VERB.match(line[len(name) + 1 :])
            if match:
                _read_action(h, street, name, match.group("verb"), match.group("rest"))
    if not h.collected:  # some hands write the winnings only in the summary
        for name, won in summed.items():
            h.collect(name, won)
    return h


def _read_header(h: SiteHand, rest: str) -> None:
    parts = [p.strip() for p in rest.split(" - ")]
    table = parts[0]
    tournament = re.match(r"^(.*?) \((\d+)\), (?:Table|Match) (.+)$", table)
    if tournament:
        h.tournament, table = f"{tournament.group(1)} ({tournament.group(2)})", tournament.group(3)
    h.table = re.sub(r"^Table ", "", table)
    size = re.search(r"\((\d+) max|heads up", table)
    h.seat_count = 2 if size and not size.group(1) else int(size.group(1)) if size else None
    h.table = re.sub(r"\s*\(.*\)$", "", h.table)
    stakes = next((p for p in parts[1:] if re.match(r"^\D{0,3}\s?[\d.,]+[KM]?/\D{0,3}\s?[\d.,]+[KM]?$", p)), None)
    h.game_text = next(
        (p for p in parts[1:] if classify(p)[0] or re.search(r"Stud|Razz|Draw|Badugi|Omaha|Hold", p)), ""
    )
    if any(re.search(r"\bCap\b", p) for p in parts[1:]):
        h.problem = why.CAPPED
    h.game, h.betting = classify(h.game_text)
    if stakes:
        small, big = (amount(x) for x in stakes.split("/"))
        h.currency = _CURRENCY.get(stakes.strip()[:1])
        if h.betting == "fixed-limit":
            h.small_bet, h.big_bet = small, big
        else:
            h.big_bet = big
    date = re.search(r"(\d{1,2}:\d{2}(?::\d{2})?) (\w+) - (\d{4}/\d{2}/\d{2})", rest)
    if date:
        h.time, h.time_zone = f"{date.group(3)} {date.group(1)}", date.group(2)


def _read_action(h: SiteHand, street: int, name: str, verb: str, rest: str) -> None:
    all_in = "all in" in rest
    if verb in ("posts the small blind of", "posts the big blind of"):
        h.act(street, name, "blind", amount(rest), all_in=all_in)
    elif verb == "posts a dead small blind of":
        h.act(street, name, "dead", amount(rest))
    elif verb == "posts":
        h.act(street, name, "post", amount(rest))
    elif verb == "antes":
        h.act(street, name, "ante", amount(rest))
    elif verb in ("folds", "checks"):
        h.act(street, name, verb[:-1])
    elif verb == "calls":
        h.act(street, name, "call", amount(rest), all_in=all_in)
    elif verb == "bets":
        h.act(street, name, "bet", amount(rest), all_in=all_in)
    elif verb == "raises to":
        h.act(street, name, "raise", amount(rest), all_in=all_in)
    elif verb == "shows":
        shown = re.search(r"\[([^\]]*)\]", rest)
        if shown:
            h.act(street, name, "show", cards=cards(shown.group(1)))
            if h.player(name).cards is None:
                h.player(name).cards = cards(shown.group(1))
    elif verb == "mucks":
        h.act(street, name, "muck")
    elif verb in ("wins", "ties for"):
        won = re.search(r"\(([^)]*\d[^)]*)\)", rest)
        if won:
            h.collect(name, amount(won.group(1)))
