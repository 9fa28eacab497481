"""OnGame Network hand histories, 2010 to 2013, cash.

``***** History for hand ID *****`` to ``***** End of hand ID *****``; ``Start hand: Wed Aug 18
19:32:32 GMT+0100 2010``; ``Table: NAME [N] (NO_LIMIT|POT_LIMIT|LIMIT TEXAS_HOLDEM|OMAHA_HI|OMAHA_HI_LO
$0.05/$0.10, Real money)`` (limit: the small and big bet; else the blinds); ``User: HERO``;
``Button: seat N``; seats ``Seat N: NAME ($6.86)``; ``NAME posts small blind|big blind|dead blind
($X)`` (a dead blind is dead money); ``Dealing to NAME: [Qh, 4h]``; ``NAME folds|checks|calls X|bets X
|raises X to Y [all in]`` (calls and bets the chips added, raises the street total); ``--- Dealing
flop|turn|river [cards]`` (written again, the same, before an all-in runout); and a summary:
``Main pot: X won by NAME ($Y)[, NAME ($Z)]``, ``Side pot N: ...``, ``Rake taken: $X``, ``Seat N:
NAME ($STACK), net: X, [cards] (hand)`` (the chips after the hand; the cards of those who showed).
"""

from __future__ import annotations

import re

from engine.sites.model import Player, SiteHand, amount, cards, classify, split_at

HEADER = re.compile(r"^\*{5} History for hand (?P<id>[\w-]+) \*{5}\s*$", re.M)
_SEAT = re.compile(r"^Seat (?P<seat>\d+): (?P<name>.+?) \((?P<stack>[^()]*\d[^()]*)\)\s*$")
_ACTION = re.compile(
    r"^(?P<name>.+?) (?P<verb>posts small blind|posts big blind|posts dead blind|folds|checks|calls|bets|raises)"
    r"(?P<rest>.*)$"
)
_BOARD = re.compile(r"^--- Dealing (?P<street>flop|turn|river) \[(?P<cards>[^\]]*)\]")
_STREETS = {"flop": 1, "turn": 2, "river": 3}
_GAMES = {"TEXAS_HOLDEM": "Hold'em", "OMAHA_HI": "Omaha", "OMAHA_HI_LO": "Omaha Hi/Lo"}
_KINDS = {"NO_LIMIT": "No Limit", "POT_LIMIT": "Pot Limit", "LIMIT": "Limit"}


def split(text: str) -> list[tuple[int, str]]:
    return split_at(text, HEADER)


def parse(text: str) -> SiteHand:
    lines = [line.strip() for line in text.split("\n") if line.strip()]
    h = SiteHand(site="OnGame", hand_id=HEADER.match(lines[0]).group("id"))
    street, summary, hero = 0, False, None
    for line in lines[1:]:
        if line.startswith("Table:"):
            _read_table(h, line)
        elif line.startswith("User: "):
            hero = line[6:].strip()
        elif line.startswith("Button: seat"):
            h.button = int(re.search(r"\d+", line).group(0))
        elif line.startswith("Start hand:"):
            h.time = line[11:].strip()
        elif line == "Summary:":
            summary = True
        elif summary:
            _read_summary(h, line, hero)
        elif _SEAT.match(line) and not h.acts:
            match = _SEAT.match(line)
            h.players.append(Player(int(match.group("seat")), match.group("name"), amount(match.group("stack"))))
        elif _BOARD.match(line):
            match = _BOARD.match(line)
            if _STREETS[match.group("street")] > street:  # a street written again before a runout: once
                street = _STREETS[match.group("street")]
                h.deal(street, cards(match.group("cards")))
        elif line.startswith("Dealing to "):
            name, _, shown = line[11:].partition(": ")
            if h.player(name):
                h.player(name).cards = cards(shown)
        else:
            match = _ACTION.match(line)
            if match and h.player(match.group("name")):
                _read_action(h, street, match.group("name"), match.group("verb"), match.group("rest"))
    return h


def _read_table(h: SiteHand, line: str) -> None:
    match = re.search(
        r"^Table: (?P<table>.*?) \[\d+\]\s*\((?P<kind>[A-Z_]+) (?P<game>[A-Z_]+) (?P<stakes>\S+), (?P<money>[^)]*)\)",
        line,
    )
    if not match:
        return
    h.table = match.group("table")
    h.game_text = (
        f"{_KINDS.get(match.group('kind'), match.group('kind'))} {_GAMES.get(match.group('game'), match.group('game'))}"
    )
    h.game, h.betting = classify(h.game_text)
    small, big = (amount(x) for x in match.group("stakes").split("/"))
    if h.betting == "fixed-limit":
        h.small_bet, h.big_bet = small, big
    else:
        h.small_blind, h.big_bet = small, big
    h.currency = "USD" if "$" in match.group("stakes") and "Real" in match.group("money") else None


def _read_action(h: SiteHand, street: int, name: str, verb: str, rest: str) -> None:
    all_in = "[all in]" in rest
    if verb in ("posts small blind", "posts big blind"):
        h.act(street, name, "blind", amount(rest), all_in=all_in)
    elif verb == "posts dead blind":
        h.act(street, name, "dead", amount(rest))
    elif verb in ("folds", "checks"):
        h.act(street, name, verb[:-1])
    elif verb in ("calls", "bets"):
        h.act(street, name, verb[:-1], amount(rest), all_in=all_in)
    elif verb == "raises":
        to = re.search(r" to (\S+)", rest)
        h.act(street, name, "raise", amount(to.group(1) if to else rest), all_in=all_in)


def _read_summary(h: SiteHand, line: str, hero: str | None) -> None:
    pot = re.match(r"^(?:Main pot|Side pot \d*): \S+ won by (?P<winners>.*)$", line)
    if pot:
        for name, won in re.findall(r"(.+?) \(([^)]*)\)(?:, |$)", pot.group("winners")):
            if h.player(name.strip()):
                h.collect(name.strip(), amount(won))
        return
    rake = re.match(r"^Rake taken: (\S+)", line)
    if rake:
        h.rake = amount(rake.group(1))
        return
    final = re.match(r"^Seat \d+: (?P<name>.+?) \((?P<stack>[^)]*)\)", line)
    if final and h.player(final.group("name")):
        h.final[final.group("name")] = amount(final.group("stack"))
    seat = re.match(r"^Seat \d+: (?P<name>.+?) \([^)]*\), net: [^,]*, \[(?P<cards>[^\]]*)\]", line)
    if seat and h.player(seat.group("name")):
        player = h.player(seat.group("name"))
        player.cards = player.cards or cards(seat.group("cards"))
        if seat.group("name") != hero:
            h.act(3, seat.group("name"), "show", cards=cards(seat.group("cards")))
