"""Bovada, Bodog and Ignition hand histories (including Zone Poker), 2012 to 2021, cash and tournaments.

A hand starts ``Bovada|Bodog|Bodog.com|Ignition Hand #ID[:] [TBL#N | Zone Poker ID#N | GAME Tournament
#T TBL#N,] GAME LIMIT - DATE``; players are named by their position (``Dealer``, ``Small Blind``,
``Big Blind``, ``UTG``, ``UTG+1``; ``[ME]`` marks the hero) in ``Seat N: POSITION ($X in chips)``;
every line after is ``POSITION : WHAT``: ``Set dealer[/Bring in spot] [N]``, ``Ante chip X``,
``[Ante/]Small [B|b]lind X``, ``Big blind[/Bring in] X``, ``Posts chip X`` (a live post), ``Posts dead
chip X``, ``Card dealt to a spot [cards]`` (every player's cards), ``Folds``, ``Checks``, ``Call[s] X``
and ``Bets X`` and ``All-in X`` (chips added), ``Raises [X to] Y`` and ``All-in(raise) [X to] Y``
(the total raised to), ``Return uncalled portion of bet X``, ``Showdown``, ``Does not show``,
``Mucks``, ``Hand [R|r]esult[-Side [P|p]ot] X``; ``Total Pot(X) [| Rake (Y)]`` in the summary.
"""

from __future__ import annotations

import re
from decimal import Decimal

from engine.sites import convert as why
from engine.sites.model import Act, Player, SiteHand, amount, cards, classify, split_at

HEADER = re.compile(r"^(?P<room>Bovada|Bodog(?:\.com|\.eu)?|Ignition) Hand #(?P<id>\d+):?\s*(?P<rest>.*)$", re.M)
_SEAT = re.compile(r"^Seat[+ ](?P<seat>\d+): (?P<name>.+?) \((?P<stack>[^()]*?[\d.,]+) in chips\)")
_LINE = re.compile(r"^(?P<name>[A-Za-z][A-Za-z +0-9]*?)\s*(?:\[ME\])?\s*: (?P<what>.*)$")
_STREET = re.compile(r"^\*\*\* (?P<street>HOLE CARDS|FLOP|TURN|RIVER|SUMMARY) \*\*\*(?P<cards>.*)$")
_STREETS = {"HOLE CARDS": 0, "FLOP": 1, "TURN": 2, "RIVER": 3}


def split(text: str) -> list[tuple[int, str]]:
    return split_at(text, HEADER)


def _name(text: str) -> str:
    return re.sub(r"\s*\[ME\]\s*", "", text).strip()


def parse(text: str) -> SiteHand:
    lines = [line.strip() for line in text.split("\n") if line.strip()]
    head = HEADER.match(lines[0])
    h = SiteHand(site="Bovada", hand_id=head.group("id"), rake=None)
    _read_header(h, head.group("rest"))
    street, summary, previous, pot, results = None, False, None, None, []
    for line in lines[1:]:
        repeated, previous = line == previous, line
        match = _STREET.match(line)
        if match:
            name = match.group("street")
            if summary:
                break  # a street after the summary: the rest is another hand, its header lost
            summary = name == "SUMMARY"
            if name in _STREETS:
                street = _STREETS[name]
                brackets = re.findall(r"\[([^\]]*)\]", match.group("cards"))
                if street and brackets:
                    h.deal(street, cards(brackets[-1]))
            continue
        if summary:
            rake = re.search(r"Rake \(([^)]*)\)", line)
            if rake:
                h.rake = amount(rake.group(1))
            total = re.match(r"Total Pot\(([^)]*)\)", line)
            if total:
                pot = amount(total.group(1))
            board = re.match(r"Board \[([^\]]*)\]", line)
            if board and not h.board:  # old Bodog hands mark no streets: the board is the summary's
                h.deal(None, cards(board.group(1)))
            continue
        match = _SEAT.match(line)
        if match and street is None:
            h.players.append(Player(int(match.group("seat")), _name(match.group("name")), amount(match.group("stack"))))
            continue
        match = _LINE.match(line)
        if match and h.player(_name(match.group("name"))):
            if re.match(r"Hand [Rr]esult", match.group("what")):
                results.append((_name(match.group("name")), match.group("what"), repeated))
            elif not repeated:  # a player never acts twice in a row: a line written twice (corrupted files) counts once
                _read(h, street, _name(match.group("name")), match.group("what"))
    _antes_all_in(h)
    if h.tournament and h.rake is None:
        h.rake = Decimal(0)  # no rake in a tournament: the pot is what the players collect
    won = sum(_result(what) for _, what, _ in results)
    if pot is not None and won > pot - (h.rake or 0):  # results written twice, beyond the pot: once each
        results = [r for r in results if not r[2]]
    for name, what, _ in results:
        h.collect(name, _result(what))
    # Seat numbers are not always the table's (tournaments number seats in the thousands): the
    # positions say the order, the small blind first and the dealer last.
    for player in h.players:
        player.seat = _ORDER.get(player.name) or 3 + int(re.sub(r"\D", "", player.name) or 0)
    h.button = _ORDER["Dealer"]  # no Dealer: the button's seat is empty (a dead button), after the last UTG
    return h


_ORDER = {"Small Blind": 1, "Big Blind": 2, "UTG": 3, "Dealer": 99}


def _antes_all_in(h: SiteHand) -> None:
    """A blind all-in before the cards in a hand with antes, by a player who posts no ante, is
    that player's ante first (up to the others'), then the blind."""
    antes = [a.amount for a in h.acts if a.verb == "ante"]
    for i, act in enumerate(h.acts):
        if (
            act.verb == "blind"
            and act.all_in
            and antes
            and not any(a.verb == "ante" and a.name == act.name for a in h.acts)
        ):
            ante = min(act.amount, max(antes))
            h.acts[i : i + 1] = [Act(0, act.name, "ante", ante)] + (
                [Act(0, act.name, "blind", act.amount - ante, all_in=True)] if act.amount > ante else []
            )


def _result(what: str) -> Decimal:
    """The chips of a ``Hand Result[-Side Pot] X`` line."""
    return amount(re.findall(r"[$€£]?\d[\d,]*(?:\.\d+)?", what)[-1])


def _read_header(h: SiteHand, rest: str) -> None:
    tournament = re.search(r"Tournament #(\d+)", rest)
    if tournament:
        h.tournament = f"tournament {tournament.group(1)}"
    table = re.search(r"(?:TBL#|Zone Poker ID#)(\d+)", rest)
    h.table = table.group(1) if table else None
    game = re.sub(r"(?:TBL#|Zone Poker ID#|Tournament #)\d+,?|Level \d+ \([^)]*\)|\[\w+\]| - \d{4}-.*$", " ", rest)
    h.game_text = re.sub(r"ZonePoker", "", game).strip(" -,")
    h.game, h.betting = classify(h.game_text.replace("Normal", "No Limit"))
    date = re.search(r"(\d{4}-\d{2}-\d{2} \d{1,2}:\d{2}:\d{2})(?: (\w+))?", rest)
    if date:
        h.time, h.time_zone = date.group(1), date.group(2)
    if not tournament:
        h.currency = "USD"
    level = re.search(r"Level \d+ \((?P<sb>[\d,]+)/(?P<bb>[\d,]+)\)", rest)
    if level:
        h.big_bet = amount(level.group("bb"))


def _read(h: SiteHand, street: int | None, name: str, what: str) -> None:
    # How it was played (timed out, disconnected) changes nothing: "Folds(timeout)" folds,
    # "All-in(raise-timeout)" raises all-in, "Bets chip info(timeout)" bets.
    what = re.sub(
        r"^(\w[\w -]*?)(?: chip info)?\s?\((raise)?-?(?:timeout|auth|disconnect)\)",
        lambda m: m.group(1) + ("(raise)" if m.group(2) else ""),
        what,
    )
    number = re.findall(r"[$€£]?\d[\d,]*(?:\.\d+)?", re.sub(r"\[[^\]]*\]", "", what))
    value = amount(number[-1]) if number else None
    if street is None:  # before the cards: the forced bets
        if what.startswith(("Set dealer", "Draw for dealer")):
            return
        if what.startswith("Ante chip") or (what.startswith("All-in") and name not in ("Small Blind", "Big Blind")):
            h.act(0, name, "ante", value)
        elif re.match(r"(?:Ante/)?Small [Bb]lind|Big [Bb]lind", what) or what.startswith("All-in"):
            h.act(0, name, "blind", value, all_in=what.startswith("All-in"))
        elif what.startswith("Posts dead chip"):
            h.act(0, name, "dead", value)
        elif what.startswith("Posts chip"):
            h.act(0, name, "post", value)
        return
    if what.startswith("Card dealt to a spot"):
        h.player(name).cards = cards(what.partition("[")[2])
    elif what.startswith("Fold"):
        h.act(street, name, "fold")
    elif what.startswith("Check"):
        h.act(street, name, "check")
    elif re.match(r"Calls?\b", what):
        h.act(street, name, "call", value)
    elif what.startswith(("Bets", "All-in ")) and value is not None:
        h.act(street, name, "bet", value, all_in=what.startswith("All-in"))
    elif what.startswith(("Raises", "All-in(raise)")) and value is not None:
        h.act(street, name, "raise", value, all_in=what.startswith("All-in"))
    elif what.startswith("Return uncalled portion of bet"):
        h.act(street, name, "return", value)
    elif what.startswith("Showdown") or what.startswith("Folds & Shows"):
        h.act(street, name, "show", cards=h.player(name).cards)
    elif what.startswith(("Does not show", "Mucks")):
        h.act(street, name, "muck")
    elif what.startswith(("Posts chip", "Posts dead chip", "Ante chip", "Small Blind", "Big blind")):
        raise ValueError(f"a forced bet after the cards: {name} : {what}")
    elif what.startswith(("Insurance", "Cash Out")):
        h.problem = why.CASH_OUT
