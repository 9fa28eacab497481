"""PartyPoker and 888 (Cassava, 888poker, 888.ro, PacificPoker) text hand histories, one grammar:
2005 to 2022, cash and tournaments.

A hand starts at ``Game #N starts.``, ``#Game No : N`` or ``***** [Cassava|888poker] Hand History
for Game N *****``; a game line (``$0.01/$0.02 Blinds No Limit Holdem - *** DD MM YYYY HH:MM:SS``,
``$5 USD NL Texas Hold'em - Sunday, March 31, ...``, ``... Blinds(300/600) ...``), ``Table NAME``,
``Seat N is the button``, seats ``Seat N: NAME ( $2.06 [USD] )``; names carry no colon, so each
line is a known name and its verb. Every amount a player puts in is the chips added
(``calls [X]``, ``bets [X]``, ``raises [X]``, ``is all-In [X]``); posts are ``posts small blind
[X]``, ``posts big blind [X]``, ``posts ante [X]``, ``posts dead blind [dead + live]``, ``posts
big blind + dead [total]``; the board ``** Dealing flop ** [ 9s, Ts, 4d ]``; the pots ``NAME
collected [ X ]`` (888) or ``NAME wins X [USD|chips] [from the main pot ...]`` (Party). No rake
is written: it is what was put in and not collected. Uncalled bets are not written either.
"""

from __future__ import annotations

import re
from engine.sites import convert as why
from engine.sites.model import Act, Player, SiteHand, amount, cards, classify

HEADER = re.compile(r"^\*{5} ?(?P<room>[\w. -]*?) ?Hand History [Ff]or Game (?P<id>\w+) \*{5}.*$", re.M)
_LEAD = re.compile(r"^(?:Game #\w+ starts\.|#Game No : \w+)\s*$", re.M)
_SEAT = re.compile(r"^Seat (?P<seat>\d+): (?P<name>.+?) \(\s*(?P<stack>[^()]*?\d[^()]*?)\s*\)\s*$")
_BOARD = re.compile(r"^\*\* Dealing (?P<street>down cards|flop|turn|river) \*\*(?P<cards>.*)$", re.I)
_STREETS = {"down cards": 0, "flop": 1, "turn": 2, "river": 3}
_VERB = re.compile(
    r"^(?P<verb>posts small blind|posts big blind \+ dead|posts big blind|posts ante of|posts ante|posts dead blind|"
    r"folds|checks|calls|bets|raises|is all-In|shows|doesn't show|does not show|mucks|collected|wins)(?P<rest>.*)$")


def split(text: str) -> list[tuple[int, str]]:
    starts = []
    for match in HEADER.finditer(text):
        start = match.start()
        for lead in _LEAD.finditer(text, max(0, start - 120), start):
            start = min(start, lead.start())
        starts.append(start)
    return [(text.count("\n", 0, s) + 1, text[s:e]) for s, e in zip(starts, starts[1:] + [len(text)])]


def parse(text: str) -> SiteHand:
    lines = [line.strip() for line in text.split("\n") if line.strip()]
    head = next(HEADER.match(line) for line in lines if HEADER.match(line))
    room = head.group("room").strip()
    h = SiteHand(site="888" if room else "PartyPoker", hand_id=head.group("id"), rake=None)
    position = lines.index(head.group(0).strip())
    _read_game(h, lines[position + 1] if position + 1 < len(lines) else "")
    street, names = 0, []
    for line in lines[position + 2:]:
        if line.startswith("Table "):
            h.table = re.sub(r"\s*\((?:Real|Play) Money\)|\s*\(.*?\)\s*$", "", line[6:]).strip()
            continue
        if line.startswith("Tournament #") or line.startswith("Trny"):
            h.tournament = h.tournament or line.split(" - ")[0]
            table = re.search(r"Table #?(\S+)", line)
            h.table = table.group(1) if table else h.table
            continue
        button = re.match(r"^Seat (\d+) is the button", line)
        if button:
            h.button = int(button.group(1))
            continue
        match = _SEAT.match(line)
        if match and not h.acts:
            h.players.append(Player(int(match.group("seat")), match.group("name"), amount(match.group("stack"))))
            names = sorted((p.name for p in h.players), key=len, reverse=True)
            continue
        match = _BOARD.match(line)
        if match:
            street = _STREETS[match.group("street").lower()]
            found = cards(match.group("cards"))
            h.board.extend(found[i:i + 2] for i in range(0, len(found), 2))
            continue
        dealt = re.match(r"^Dealt to (.+?) \[(.*)\]", line)
        if dealt and h.player(dealt.group(1)):
            h.player(dealt.group(1)).cards = cards(dealt.group(2))
            continue
        name = next((n for n in names if line.startswith(n + " ")), None)
        if name:
            match = _VERB.match(line[len(name) + 1:])
            if match:
                _read_action(h, street, name, match.group("verb"), match.group("rest"))
    if not any(a.verb == "blind" for a in h.acts) and h.big_bet and h.button is not None and len(h.players) > 1:
        _blinds_unwritten(h)
    if not any(a.verb in ("fold", "check", "call", "bet") for a in h.acts) and h.collected:
        h.problem = why.CANCELLED  # blinds posted, nobody acted: the site called the hand off
    return h


def _blinds_unwritten(h: SiteHand) -> None:
    """Old tournament hands name the blinds in the header and post none: the seats left of the
    button post them (heads-up, the button the small blind)."""
    order = sorted(h.players, key=lambda p: (p.seat - h.button - 1) % 10**6)
    small, big = (order[-1], order[0]) if len(order) == 2 else (order[0], order[1])
    posts = [(small, h.small_blind), (big, h.big_bet)]
    h.acts[:0] = [Act(0, p.name, "blind", min(amount, p.stack)) for p, amount in posts if amount is not None]


def _read_game(h: SiteHand, line: str) -> None:
    h.game_text = re.split(r" - ", line)[0]
    h.game, h.betting = classify(re.sub(r"\(PL\)", "Pot Limit", re.sub(r"\(NL\)", "No Limit", re.sub(r"\(FL\)", "Limit", h.game_text))))
    if h.betting is None and h.game is not None:
        h.betting = "fixed-limit" if re.search(r"Fix|Limit", h.game_text) else None
    blinds = re.search(r"(?:^|Blinds\()(?P<sb>[$€£]?[\d.,]+)(?: [A-Z]{3})?/(?P<bb>[$€£]?[\d.,]+)", h.game_text)
    if blinds:
        small, big = amount(blinds.group("sb")), amount(blinds.group("bb"))
        h.small_blind = small
        if h.betting == "fixed-limit":
            h.small_bet, h.big_bet = big, big * 2
        else:
            h.big_bet = big
    if re.search(r"Tourn|Trny|Tourney", line):
        h.tournament = h.tournament or "tournament"
    else:
        h.currency = "USD" if "$" in line else "EUR" if "€" in line else "GBP" if "£" in line else None
    date = re.search(r"(\d{2}) (\d{2}) (\d{4}) (\d{1,2}:\d{2}:\d{2})", line)
    if date:
        h.time = f"{date.group(3)}/{date.group(2)}/{date.group(1)} {date.group(4)}"


def _read_action(h: SiteHand, street: int, name: str, verb: str, rest: str) -> None:
    if verb == "posts dead blind":
        parts = [amount(p) for p in re.findall(r"[$€£]?\d[\d.,]*", rest)]
        if len(parts) >= 2:
            h.act(street, name, "dead", min(parts))
            h.act(street, name, "post", max(parts))
        else:
            h.act(street, name, "dead", parts[0])
        return
    if verb == "posts big blind + dead":
        total = amount(rest)
        live = h.big_bet or total * 2 / 3
        h.act(street, name, "dead", total - live)
        h.act(street, name, "post", live)
        return
    if verb in ("posts small blind", "posts big blind"):
        h.act(street, name, "blind", amount(rest))
    elif verb.startswith("posts ante"):
        h.act(street, name, "ante", amount(rest))
    elif verb in ("folds", "checks"):
        h.act(street, name, verb[:-1])
    elif verb in ("calls", "bets", "raises", "is all-In"):
        if re.search(r"\d", rest):
            h.act(street, name, "call" if verb == "calls" else "bet", amount(rest), all_in=verb == "is all-In")
    elif verb == "shows":
        shown = cards(rest.split("]")[0])
        h.act(street, name, "show", cards=shown)
        if h.player(name).cards is None:
            h.player(name).cards = shown
    elif verb in ("doesn't show", "does not show", "mucks"):
        h.act(street, name, "muck")
    elif verb in ("collected", "wins"):
        won = re.match(r"\s*\[?\s*([$€£]?\s?\d[\d.,]*)", rest)
        if won:
            h.collect(name, amount(won.group(1)))
    if verb == "raises" and not re.search(r"\d", rest):
        raise ValueError(f"a raise without an amount: {name} {rest}")

