"""PartyPoker and 888 (Cassava, 888poker, 888.ro, PacificPoker) text hand histories, one grammar,
2005 to 2026, cash and tournaments (and other rooms' hands exported in it).

A hand starts at ``***** [ROOM ]Hand History For|for Game ID *****`` (``Game #ID starts.`` and
``#Game No : ID`` may come before). The next line names the game and stakes: 888's ``0.01/0.02
Blinds No Limit Holdem - *** DATE`` (the blinds; in limit games the big blind is the small bet),
Party's ``$15/$30 USD Texas Hold'em`` (limit: the small and big bet; a single amount, ``$5 USD NL
Texas Hold'em``, is the buy-in), ``NL Texas Hold'em ... Blinds(30/60)``, ``Blinds-Antes(1,250/2,500
-250)``, ``FL ... Stakes(200/400)`` (the small and big bet) and, since 2021, ``70000/140000 Tourney
Texas Holdem Game Table (NL)``. Party writes no limit and pot limit as ``NL`` and ``PL``, fixed
limit as nothing. Then ``Table NAME (Real Money)``, ``Seat N is the button``, seats ``Seat N: NAME
( $2.06 [USD] )`` (anything after), a later ``Blinds(...)`` line for a new level, the posts, ``**
Dealing down cards|flop|turn|river ** [ 9s, Ts, 4d ]`` and every action. Names carry no colon, so
each line is a known name and its verb; lines some writers glued together are cut apart at a
name. Amounts are the chips added (``calls [X]``, ``bets [X]``, ``raises [X]``, ``is all-In [X]``),
but ``raises X to Y`` (since 2021) is the total; posts are ``posts small blind [X]``, ``posts big
blind [X]``, ``posts ante [X]``, ``posts dead blind [dead + live]``, ``posts big blind + dead
[total]`` (a second small blind posted is live: Party plays it so); old tournament hands post no
blinds: the seats left of the button post those of the stakes. Pots: ``NAME collected [ X ]``
(888), ``NAME wins X [USD|chips] [from the main pot ...]`` (Party), ``NAME balance X, bet Y,
collected Z`` (2021). Rake: written only as ``Rake: X`` (2021); else what was put in and not
collected (none in tournaments). Uncalled bets are not written. A decimal comma (``0,02$``) or
thousands written with a point (``3.000 $``) is read from the hand's amounts. A player who folds
before the cards are dealt sat the hand out.
"""

from __future__ import annotations

import re
from decimal import Decimal

from engine.sites import convert as why
from engine.sites.model import Act, Player, SiteHand, amount, cards, classify, split_at

HEADER = re.compile(r"^\*{5} ?(?P<room>[\w. -]*?) ?Hand History [Ff]or Game (?P<id>\w+) \*{5}.*$", re.M)
_LEAD = re.compile(r"^(?:Game #\w+ starts\.|#Game No : \w+)\s*$", re.M)
_SEAT = re.compile(r"^[Ss]eat (?P<seat>\d+): (?P<name>.+?) \(\s*(?P<stack>[^()]*?\d[^()]*?)\s*\)(?: - .*)?$")
_BOARD = re.compile(r"^\*\* Dealing (?P<street>down cards|flop|turn|river) \*\*(?P<cards>.*)$", re.I)
_STREETS = {"down cards": 0, "flop": 1, "turn": 2, "river": 3}
_VERB = re.compile(
    r"^(?P<verb>posts small blind|posts big blind \+ dead|posts big blind|posts ante of|posts ante|posts dead blind|"
    r"folds|checks|calls|bets|raises|is all-In|shows|doesn't show|does not show|did not show|mucks|collected|wins|"
    r"balance)(?P<rest>.*)$"
)
_STAKES = re.compile(r"(?:Blinds|Stakes|Blinds-Antes)\((?P<small>[^/()]+)/(?P<big>[^/() ]+)(?: -(?P<ante>[^()]+))?\)")
_LEADING = re.compile(
    r"^(?P<small>[$€£]?\s?\d[\d.,]*\s?[$€£]?)\s?(?:[A-Z]{3}\s?)?/\s?(?P<big>[$€£]?\s?\d[\d.,]*\s?[$€£]?)"
)
_UNSEATED = re.compile(r"^([^:]+?) (?:posts (?:small|big) blind|posts ante|checks|calls|bets|raises|is all-In)\b")
_MONEY = re.compile(r"[\[(]([^\[\]()]*\d[^\[\]()]*)[\])]")


def split(text: str) -> list[tuple[int, str]]:
    return split_at(text, HEADER, _LEAD)


def parse(text: str) -> SiteHand:
    lines = [line.strip() for line in text.split("\n") if line.strip()]
    position = next(i for i, line in enumerate(lines) if HEADER.match(line))
    head = HEADER.match(lines[position])
    room = head.group("room").strip()
    h = SiteHand(site="888" if room else "PartyPoker", hand_id=head.group("id"), rake=None)
    money = _money_reader(text)
    game = lines[position + 1] if position + 1 < len(lines) else ""
    _read_game(h, game, "Blinds" in game.split(" - ")[0], money)
    names: list[str] = []
    street, dealt, summary = 0, False, False
    for raw in lines[position + 2 :]:
        for line in _unglue(raw, names):
            if line.startswith("Table "):
                h.table = re.sub(
                    r"\s*\((?:Real|Play|Practice) ?Money\)|\s*\((?:Practice Play)\)", "", line[6:].split(" -- ")[0]
                ).strip()
            number = re.match(r"(?:Tournament #|Trny: ?)(\d+)", line)
            if number:
                h.tournament = f"tournament {number.group(1)}"
            button = re.search(r"Seat (\d+) is the button", line)
            if button:
                h.button = int(button.group(1))
                continue
            stakes = _STAKES.search(line)
            if stakes and not h.acts:  # a new level's stakes
                _read_stakes(h, money(stakes.group("small")), money(stakes.group("big")), line.startswith("Stakes"))
                continue
            match = _SEAT.match(line)
            if match and not h.acts and not dealt:
                h.players.append(Player(int(match.group("seat")), match.group("name"), money(match.group("stack"))))
                names = sorted((p.name for p in h.players), key=len, reverse=True)
                continue
            match = _BOARD.match(line)
            if match:
                street = _STREETS[match.group("street").lower()]
                dealt = True
                if street:
                    h.deal(street, cards(match.group("cards")))
                continue
            if re.match(r"^\*\* Summary \*\*", line, re.I):
                summary = True
                continue
            if summary:
                rake = re.search(r"\bRake: (\S+)", line)
                if rake:
                    h.rake = money(rake.group(1))
            found = re.match(r"^Dealt to (.+?) \[(.*)\]", line)
            if found and h.player(found.group(1)):
                h.player(found.group(1)).cards = cards(found.group(2))
                continue
            name = next((n for n in names if line.startswith(n + " ")), None)
            match = _VERB.match(line[len(name) + 1 :]) if name else None
            if match:
                _read_action(h, street, dealt, name, match.group("verb"), match.group("rest"), money)
            elif not name and _UNSEATED.match(line) and not h.problem:
                h.problem = (
                    f"{why.PARTIAL}: {_UNSEATED.match(line).group(1)} acts but has no seat (joined during the hand)"
                )
    if not dealt and h.collected:
        h.problem = h.problem or why.CANCELLED  # no cards were dealt: the posts are given back
    if h.tournament and h.rake is None:
        h.rake = Decimal(0)  # no rake in a tournament
    if (
        not any(a.verb in ("blind", "post") for a in h.acts)
        and h.big_bet
        and h.button is not None
        and len(h.players) > 1
    ):
        _blinds_unwritten(h)
    return h


def _unglue(line: str, names: list[str]) -> list[str]:
    """A line cut where a known name and its verb start glued to the text before it (``...is sitting
    outPlayer4 posts big blind``, ``...Queens.Player4 wins``)."""
    if not names:
        return [line]
    pattern = (
        r"(?<=\S)(?=(?:" + "|".join(map(re.escape, names)) + r") (?:posts|wins|collected|shows|folds|calls|checks))"
    )
    return [part.strip() for part in re.split(pattern, line) if part.strip()]


def _money_reader(text: str):
    """How the hand writes money: each amount's decimal comma (``0,02$``, ``15 788,50 $``) or point
    read from the amount itself, and a point between thousands (``3.000 $``) from the hand's
    amounts (a point before three digits, never before two)."""
    found = _MONEY.findall(text)
    points = any(re.search(r"\d\.\d{3}(?!\d)", a) for a in found) and not any(
        re.search(r"\d\.\d{1,2}(?!\d)", a) for a in found
    )

    def money(text: str) -> Decimal:
        found = re.search(r"\d(?:[\d.,\s]*\d)?", text)  # the number, without a sentence's full stop
        value = found.group(0) if found else text
        if "," in value and "." in value:
            comma = value.rfind(",") > value.rfind(".")
        elif "," in value:
            comma = bool(re.search(r",\d{1,2}(?!\d)", value))
        else:
            comma = points
        return amount(value, decimal_comma=comma)

    return money


def _read_game(h: SiteHand, line: str, blinds_named: bool, money) -> None:
    """The game and stakes of the line after the header (see the module)."""
    h.game_text = re.split(r" - ", line)[0]
    words = re.sub(r"\((NL|PL|FL)\)", r"\1", h.game_text)
    words = re.sub(r"\bNL\b", "No Limit", re.sub(r"\bPL\b", "Pot Limit", re.sub(r"\bFL\b|Fix Limit", "Limit", words)))
    h.game, h.betting = classify(words)
    if h.game is not None and h.betting is None:
        h.betting = "fixed-limit"  # Party names no limit and pot limit, never limit
    if re.search(r"Tourn|Trny|Tourney", line):
        number = re.search(r"(?:Tournament #|Trny: ?)(\d+)", line)
        h.tournament = f"tournament {number.group(1)}" if number else "tournament"
    else:
        h.currency = "USD" if "$" in line else "EUR" if "€" in line else "GBP" if "£" in line else None
    stakes = _STAKES.search(line)
    leading = _LEADING.match(line)
    if stakes:
        _read_stakes(h, money(stakes.group("small")), money(stakes.group("big")), "Stakes(" in line)
    elif leading:
        # 888 names the blinds; Party a limit game's bets, and its no-limit blinds.
        _read_stakes(
            h,
            money(leading.group("small")),
            money(leading.group("big")),
            h.betting == "fixed-limit" and not blinds_named,
        )
    date = re.search(r"(\d{2}) (\d{2}) (\d{4}) (\d{1,2}:\d{2}:\d{2})", line)
    if date:
        h.time = f"{date.group(3)}/{date.group(2)}/{date.group(1)} {date.group(4)}"


def _read_stakes(h: SiteHand, small: Decimal, big: Decimal, bets: bool) -> None:
    """The stakes: the blinds, or (``bets``) a limit game's small and big bet."""
    if h.betting == "fixed-limit":
        if bets:
            h.small_bet, h.big_bet, h.small_blind = small, big, small / 2
        else:
            h.small_bet, h.big_bet, h.small_blind = big, big * 2, small
    else:
        h.small_blind, h.big_bet = small, big


def _blinds_unwritten(h: SiteHand) -> None:
    """Old tournament hands name the blinds in the header and post none: the seats left of the
    button post them (heads-up, the button the small blind), all-in if short; a player who does
    nothing in the hand (moved to the table, sitting out) posts none."""
    playing = {a.name for a in h.acts}
    order = sorted((p for p in h.players if p.name in playing), key=lambda p: (p.seat - h.button - 1) % 10**6)
    small, big = (order[-1], order[0]) if len(order) == 2 else (order[0], order[1])
    big_blind = h.small_bet if h.betting == "fixed-limit" else h.big_bet
    ante_paid = {p.name: sum(a.amount for a in h.acts if a.name == p.name and a.verb == "ante") for p in order}
    posts = [(small, h.small_blind), (big, big_blind)]
    h.acts[:0] = [Act(0, p.name, "blind", min(value, p.stack - ante_paid[p.name])) for p, value in posts if value]


def _read_action(h: SiteHand, street: int, dealt: bool, name: str, verb: str, rest: str, money) -> None:
    def value() -> Decimal:
        return money(rest)

    if verb == "posts dead blind":
        parts = [money(p) for p in re.findall(r"[$€£]?\s?\d[\d.,]*", rest)]
        if len(parts) >= 2:
            h.act(street, name, "dead", min(parts))
            h.act(street, name, "post", max(parts))
        elif parts:
            h.act(street, name, "dead", parts[0])
    elif verb == "posts big blind + dead":
        total = value()
        posted = [a.amount for a in h.acts if a.verb == "blind"]
        live = (h.small_bet if h.betting == "fixed-limit" else h.big_bet) or max(posted, default=None) or total * 2 / 3
        h.act(street, name, "dead", total - live)
        h.act(street, name, "post", live)
    elif verb == "posts small blind":
        again = any(a.verb == "blind" and a.amount < (h.big_bet or 0) for a in h.acts)
        h.act(street, name, "post" if again else "blind", value())  # a second small blind is live
    elif verb == "posts big blind":
        h.act(street, name, "blind", value())
    elif verb.startswith("posts ante"):
        h.act(street, name, "ante", value())
    elif verb == "folds":
        if dealt:  # a fold before the cards are dealt: the player sat the hand out
            h.act(street, name, "fold")
    elif verb == "checks":
        h.act(street, name, "check")
    elif verb in ("calls", "bets", "is all-In") and re.search(r"\d", rest):
        h.act(street, name, "call" if verb == "calls" else "bet", value(), all_in=verb == "is all-In")
    elif verb == "raises":
        to = re.search(r" to ([$€£]?\s?\d[\d.,]*)", rest)
        if to:  # "raises X to Y" (2021): the total
            h.act(street, name, "raise", money(to.group(1)))
        elif re.search(r"\d", rest):
            h.act(street, name, "bet", value())  # the chips added
        else:
            raise ValueError(f"a raise without an amount: {name} {rest}")
    elif verb == "shows":
        shown = cards(rest.split("]")[0])
        h.act(street, name, "show", cards=shown)
        if h.player(name).cards is None:
            h.player(name).cards = shown
    elif verb in ("doesn't show", "does not show", "did not show", "mucks"):
        h.act(street, name, "muck")
    elif verb in ("collected", "wins"):
        won = re.match(r"\s*[\[(]?\s*([$€£]?\s?\d[\d.,]*\s?[$€£]?)", rest)
        if won:
            h.collect(name, money(won.group(1)))
    elif verb == "balance":  # 2021: "balance X, bet Y, collected Z, net W[ cards ]"
        won = re.search(r"collected ([$€£]?\s?\d[\d.,]*)", rest)
        if won:
            h.collect(name, money(won.group(1)))
        shown = re.search(r"\[([^\]]*)\]", rest)
        if shown and won and h.player(name).cards is None:
            h.player(name).cards = cards(shown.group(1))
            h.act(3, name, "show", cards=h.player(name).cards)
