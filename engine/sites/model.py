"""The hand model every site module fills: who sat where with what, the forced bets, every
action in order, the board, what was shown and what each player collected, as the site wrote it.

Amounts are ``Decimal`` as written (``amount("$1,234.50")``); the converter (``engine.sites.convert``)
turns them into whole chips of the hand's smallest unit, so no float ever touches money.
"""

from __future__ import annotations

import dataclasses
import re
from decimal import Decimal, InvalidOperation

# Streets: 0 preflop, 1 flop, 2 turn, 3 river.
PREFLOP, FLOP, TURN, RIVER = range(4)

# Action verbs (``Act.verb``):
#   forced bets: "ante" (dead), "dead" (a dead blind: dead money), "blind" (a live blind, posted
#   in the blind seats), "straddle", "post" (a live blind posted out of the blind seats);
#   betting: "fold", "check", "call" (amount: the chips added, as written), "bet" (amount: the
#   chips added), "raise" (amount: the street total raised to); "return" (an uncalled bet given
#   back, as written); and "show" (cards) and "muck" at showdown.
FORCED = ("ante", "dead", "blind", "post", "straddle")
PARTIAL = "partial or corrupted hand"  # the reason a hand with unreadable parts is skipped (``engine.sites.convert``)
_DEALT = {1: 3, 2: 1, 3: 1}  # board cards dealt on the flop, turn and river
BETTING = ("fold", "check", "call", "bet", "raise")


@dataclasses.dataclass
class Player:
    """One seat: its number at the table, the player's name and chips before the hand."""

    seat: int
    name: str
    stack: Decimal
    cards: str | None = None  # hole cards known from the start (the hero's) or shown later


@dataclasses.dataclass
class Act:
    """One step of the hand as written: ``name`` does ``verb`` on ``street``."""

    street: int
    name: str
    verb: str
    amount: Decimal = Decimal(0)
    cards: str | None = None
    all_in: bool = False


@dataclasses.dataclass
class SiteHand:
    """One hand of one site file, before conversion.

    ``problem`` is set by a site module for a hand it recognises but the engine cannot play
    (run it twice, an unknown game, a cancelled hand, a cash-out): the hand is skipped with it.
    """

    site: str
    hand_id: str
    game: str | None = None  # holdem, plo, plo8, plo5, plo5-8 (None: a game the engine does not play)
    betting: str | None = None  # no-limit, pot-limit, fixed-limit
    game_text: str = ""  # the game as the site named it
    small_blind: Decimal | None = None  # the small blind, where the site names it but posts none
    small_bet: Decimal | None = None  # fixed limit: the small and big bet
    big_bet: Decimal | None = None
    players: list[Player] = dataclasses.field(default_factory=list)
    button: int | None = None  # the button's seat number
    acts: list[Act] = dataclasses.field(default_factory=list)
    board: list[str] = dataclasses.field(default_factory=list)  # cards, in the order dealt
    collected: dict[str, Decimal] = dataclasses.field(default_factory=dict)
    folded: dict[str, int] = dataclasses.field(default_factory=dict)  # the street each folded on, as the summary says
    final: dict[str, Decimal] = dataclasses.field(
        default_factory=dict
    )  # each player's chips after the hand, where written
    rake: Decimal | None = Decimal(0)  # every chip the site took from the pot (rake, jackpot, fees); None: not written
    currency: str | None = None
    table: str | None = None
    time: str | None = None  # as written, "YYYY/MM/DD HH:MM:SS" where the site gives it
    time_zone: str | None = None
    seat_count: int | None = None
    tournament: str | None = None
    problem: str | None = None
    line: int = 0

    def player(self, name: str) -> Player | None:
        return next((p for p in self.players if p.name == name), None)

    def act(self, street: int, name: str, verb: str, amount=0, cards: str | None = None, all_in: bool = False) -> None:
        self.acts.append(Act(street, name, verb, Decimal(amount), cards, all_in))

    def deal(self, street: int | None, found: str) -> None:
        """Board cards (``found``, as ``cards`` spells them) dealt on ``street`` (1 the flop, 2
        the turn, 3 the river; None: the whole board at once, three to five cards). A street whose
        cards are not all read (a card spelt in no known way) makes the hand partial: the engine
        is never dealt a board the site did not deal."""
        dealt = [found[i : i + 2] for i in range(0, len(found), 2)]
        due = _DEALT.get(street)
        if (len(dealt) != due) if due else not 3 <= len(dealt) <= 5:
            self.problem = self.problem or f"{PARTIAL}: board cards unread ({found or 'none'} on street {street})"
        self.board.extend(dealt)

    def deal_through(self, found: str) -> None:
        """The whole board so far (``found``): deal what is new, street by street (a street line
        that writes the board up to it, and a file that lost an earlier street's line)."""
        new = found[2 * len(self.board) :]
        while new:
            street = {0: 1, 3: 2, 4: 3}.get(len(self.board), 4)
            due = 6 if street == 1 else 2
            self.deal(street, new[:due])
            new = new[due:]

    def complete_board(self, found: str) -> None:
        """The summary's whole board (``found``): the streets whose lines are missing (a partial
        file), where it begins with the board read so far."""
        whole = [found[i : i + 2] for i in range(0, len(found), 2)]
        if len(whole) > len(self.board) and whole[: len(self.board)] == self.board and len(whole) <= 5:
            self.board.extend(whole[len(self.board) :])

    def collect(self, name: str, amount) -> None:
        self.collected[name] = self.collected.get(name, Decimal(0)) + Decimal(amount)


_AMOUNT = re.compile(r"\d[\d,.\s]*")


_FOLDED = re.compile(
    r"^Seat \d+: (?P<name>.+?) (?:\(.*?\) )*(?:didn't bet \(folded\)|folded (?P<when>before (?:the )?Flop|on the Flop|"
    r"on the Turn|on the River))"
)
_FOLDED_ON = {"Flop": 1, "Turn": 2, "River": 3}


def split_at(text: str, header: re.Pattern, lead: re.Pattern | None = None) -> list[tuple[int, str]]:
    """The hands of a file's text, each with its first line number: a hand starts at each match
    of ``header``, or at a ``lead`` line up to 120 characters before it (a line some writers put
    above the header), and runs to the next."""
    starts = []
    for match in header.finditer(text):
        start = match.start()
        if lead is not None:
            for line in lead.finditer(text, max(0, start - 120), start):
                start = min(start, line.start())
        starts.append(start)
    return [(text.count("\n", 0, s) + 1, text[s:e]) for s, e in zip(starts, starts[1:] + [len(text)])]


def summary_fold(h: SiteHand, line: str) -> None:
    """A summary's ``Seat N: NAME [(button)] folded before the Flop|on the Turn`` or ``didn't bet
    (folded)`` (PokerStars, Full Tilt): the street the player folded on, the site's word where a
    fold line is missing."""
    match = _FOLDED.match(line)
    if match and h.player(match.group("name")):
        when = match.group("when") or "before the Flop"
        h.folded[match.group("name")] = 0 if when.startswith("before") else _FOLDED_ON[when.split()[-1]]


def amount(text: str, decimal_comma: bool = False) -> Decimal:
    """An amount as written, currency signs, thousands separators and spaces dropped.

    >>> amount("$1,234.50"), amount("€0,90", decimal_comma=True), amount("(2 500)"), amount("12.3K")
    (Decimal('1234.50'), Decimal('0.90'), Decimal('2500'), Decimal('12300'))
    """
    match = _AMOUNT.search(text)
    if not match:
        raise ValueError(f"no amount in {text!r}")
    digits = re.sub(r"\s", "", match.group(0)).rstrip(".,")
    if decimal_comma:
        digits = digits.replace(".", "").replace(",", ".")
    else:
        digits = digits.replace(",", "")
    try:
        value = Decimal(digits)
    except InvalidOperation:
        raise ValueError(f"bad amount {text!r}") from None
    scale = {"K": 1000, "k": 1000, "M": 1_000_000}.get(text[match.end() : match.end() + 1], 1)
    value *= scale
    return value.to_integral_value() if scale > 1 and value == value.to_integral_value() else value


_RANKS = {"10": "T"}
_CARD = re.compile(r"(?<![A-Za-z0-9])(10|[2-9TJQKAtjqka])([shdcSHDC])(?![A-Za-z])")


def cards(text: str) -> str:
    """Cards in the engine's spelling (``"As Td"`` -> ``"AsTd"``, ``"10h"`` -> ``"Th"``).

    >>> cards("[10h, As, kd]"), cards("A♠ K♥"), cards("[ Вh, Тc ]")
    ('ThAsKd', 'AsKh', 'JhAc')
    """
    text = text.translate(_SUITS)
    return "".join(_RANKS.get(rank, rank.upper()) + suit.lower() for rank, suit in _CARD.findall(text))


# Suit symbols, and the ranks of Russian clients (Валет, Дама, Король, Туз: J Q K A), in Cyrillic or
# as their Windows-1251 bytes read as Windows-1252 (a file saved in the one, decoded as the other).
_SUITS = str.maketrans(
    {
        "♠": "s",
        "♥": "h",
        "♦": "d",
        "♣": "c",
        "В": "J",
        "Д": "Q",
        "К": "K",
        "Т": "A",
        "Â": "J",
        "Ä": "Q",
        "Ê": "K",
        "Ò": "A",
    }
)


def classify(text: str) -> tuple[str | None, str | None]:
    """The engine's game and betting of a site's game name, or None for what it does not play.

    >>> classify("Omaha Hi/Lo Pot Limit"), classify("5 Card Omaha Pot Limit"), classify("HOLDEM Fixed Limit")
    (('plo8', 'pot-limit'), ('plo5', 'pot-limit'), ('holdem', 'fixed-limit'))
    >>> classify("PLO-5"), classify("Limit Omaha H/L"), classify("7 Card Stud")
    (('plo5', 'pot-limit'), ('plo8', 'fixed-limit'), (None, None))
    """
    lower = text.lower().replace("'", "").replace("’", "")
    if re.search(
        r"stud|razz|draw|badugi|courchevel|6 card|6-card|six card|short ?deck|6\+|triple|pre-?flop|2-7|2 to 7|5 card draw",
        lower,
    ):
        return None, None
    five = bool(re.search(r"5[ -]?card|plo-?5|\bbig o\b|5c ?plo|5 cards", lower))
    omaha = five or bool(re.search(r"omaha|plo|\bo8\b|big o", lower))
    holdem = bool(re.search(r"hold ?em|\bnlh|\bnlhe|\blhe|texas", lower))
    hilo = bool(re.search(r"hi ?/ ?lo|h ?/ ?l\b|hi-lo|hilo|omaha ?8|o/8|o8|\bplo8|\bbig o\b|split|hi lo", lower))
    if omaha and holdem:
        return None, None
    if omaha:
        game = ("plo5-8" if hilo else "plo5") if five else ("plo8" if hilo else "plo")
    elif holdem:
        game = "holdem"
    else:
        return None, None
    if re.search(r"no ?limit|\bnl\b|\bnl[ho]", lower):
        betting = "no-limit"
    elif re.search(r"pot ?limit|\bpl\b|\bplo", lower):
        betting = "pot-limit"
    elif re.search(r"limit|\bfl\b|\blhe|\bl[o]", lower):
        betting = "fixed-limit"
    else:
        return game, None
    return game, betting
