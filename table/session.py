"""One home-game table: seats, keys, hands dealt one after another, bots, records, restore.

A ``Session`` referees a table with the engine's ``Hand``: it starts each hand (the button
moves, the blinds are posted, the cards are dealt by a secure shuffle or by the dealer's
hands), applies the PHH actions the keys send (``p3 cbr 12``, ``d db Ad7s4h``, ``p2 sm
AsKd7h``), lets the bot seats act, writes each finished hand to ``ID.phhs`` and starts the
next. Everything it needs to pick up a hand again is on disk before it answers
(``table.store``).

Who may do what: a **seat key** acts for its own seat only and sees its own hole cards; the
**dealer key** deals the board and reads the hands shown (when the cards are physical), may
act for a person's seat, undoes, and changes the table between hands; a **bot** seat acts by
itself. Nobody sees a card that was not shown, but a seat its own (``view``).

Seats are numbered 0.. in the order the table was created with; in actions a player is the
hand's PHH number (``p1`` first left of the button, the button last), which ``view`` gives
for every seat dealt in.

>>> import tempfile
>>> folder = Path(tempfile.mkdtemp())
>>> table = Session.create(folder, {"game": "holdem", "seats": ["Ann", "Bo"], "stacks": 100, "deal": "physical"})
>>> seen = table.view(table.dealer_key)
>>> seen["actor"], seen["legal"]  # heads-up the button (Bo, p2) posts the small blind and acts first
(1, {'fold': True, 'call': 1, 'min_raise_to': 4, 'max_raise_to': 100, 'player': 'p2', 'seat': 1})
>>> table.act(table.seat_keys[1], "p2 f")
>>> seen = table.view(table.seat_keys[0])  # hand 2 has begun: Ann has the button, the small blind
>>> seen["last"]["net"], seen["hand"], seen["button"], seen["stacks"]
([1, -1], 2, 0, [100, 97])
"""

from __future__ import annotations

import dataclasses
import datetime
import re
import secrets
import threading
from pathlib import Path

from engine.betting import default_betting, parse_betting
from engine.hand import Hand
from engine.phh import ACTION, apply, hand_fields, write_fields
from engine.player import act as bot_act
from engine.player import positions
from evaluator.cards import format_cards
from evaluator.errors import SampyongError
from evaluator.games import resolve_game
from evaluator.settle import clockwise_from_button
from table.bots import Bots
from table.store import Store
from table.views import hidden, summary

MAX_NAME = 40
MAX_CHIPS = 10**12


class Forbidden(SampyongError):
    """A key that may not see this table, or do this."""


class NotFound(SampyongError):
    """No such table."""


class Conflict(SampyongError):
    """Something that cannot be done now (out of turn, no hand in progress, nothing to undo)."""


@dataclasses.dataclass
class Seat:
    """One chair: its player's ``name``, ``stack`` (chips behind, as the current hand began),
    ``key`` (the seat link's secret), ``bot`` (a policy's name or file, or None for a person),
    and ``out`` (removed from the table)."""

    name: str
    stack: int
    key: str
    bot: str | None = None
    out: bool = False


@dataclasses.dataclass(frozen=True)
class Rules:
    """A table's rules, read from its creation request (``parse_rules``)."""

    game: object
    betting: object
    blinds: tuple[int, int]
    straddle: int
    ante: int
    deal: str
    wait: bool


def parse_rules(config: dict) -> Rules:
    """The game, betting, blinds, straddle, ante, deal mode and wait option of a creation
    request (``SampyongError`` naming the field that is wrong).

    >>> parse_rules({"game": "pls7", "blinds": [1, 2]}).betting.kind
    'pot-limit'
    >>> parse_rules({"game": "pls9"})
    Traceback (most recent call last):
    ...
    evaluator.errors.SampyongError: unknown game 'pls9'; choose one of ...
    """
    game = resolve_game(
        _text(config.get("game", "pls7"), "game"),
        hole_use=_optional(config, "hole_use"),
        ranking=_optional(config, "ranking"),
        low=_optional(config, "low"),
    )
    betting = parse_betting(_text(config["betting"], "betting")) if config.get("betting") else default_betting(game)
    blinds = config.get("blinds", [1, 2])
    if (
        not isinstance(blinds, list)
        or len(blinds) != 2
        or not all(_is_int(b) for b in blinds)
        or not 0 <= blinds[0] <= blinds[1]
        or not 0 < blinds[1] <= MAX_CHIPS
    ):
        raise SampyongError("blinds must be [small, big], whole chips, 0 <= small <= big, big at least 1")
    straddle, ante = config.get("straddle", 0), config.get("ante", 0)
    if not _is_int(straddle) or not (straddle == 0 or blinds[1] <= straddle <= MAX_CHIPS):
        raise SampyongError("straddle must be 0 (none) or at least the big blind, in whole chips")
    if not _is_int(ante) or not 0 <= ante <= MAX_CHIPS:
        raise SampyongError("ante must be whole chips, 0 or more")
    deal = config.get("deal", "app")
    if deal not in ("app", "physical"):
        raise SampyongError("deal must be 'app' (the app shuffles and deals) or 'physical' (a dealer deals real cards)")
    if not isinstance(config.get("wait", False), bool):
        raise SampyongError("wait must be true or false")
    return Rules(game, betting, (blinds[0], blinds[1]), straddle, ante, deal, config.get("wait", False))


def _is_int(value) -> bool:
    return type(value) is int


def _text(value, field: str) -> str:
    if not isinstance(value, str):
        raise SampyongError(f"{field} must be text")
    return value


def _optional(config: dict, field: str) -> str | None:
    value = config.get(field)
    return None if value is None else str(value)


class Session:
    """One table (see the module's docstring); create with ``create``, load with ``restore``.

    Parameters:
        store: the table's files.
        state: its saved state (``create`` makes the first).
        bots: the policies its bots may play (``Bots``; the server is handed the starting-hand
            ranking they read, as data).
    """

    def __init__(self, store: Store, state: dict, bots: Bots = Bots()):
        self.store = store
        self.id = store.id
        self.config = state["config"]
        self.rules = parse_rules(self.config)
        self.dealer_key = state["dealer_key"]
        self.seats = [Seat(**seat) for seat in state["seats"]]
        self.button = state["button"]
        self.next_button = state.get("next_button")
        self.number = state["number"]
        self.current = state["current"]
        self.records_size = state["records_size"]
        self.pending = state["pending"]
        self.last = state["last"]
        self.bots = bots
        self.lock = threading.Lock()
        self.hand: Hand | None = None
        self.entries: list[dict] = []
        self.policies = {}
        for seat in self.seats:
            self._load_bot(seat)

    # --- creating and restoring ------------------------------------------------------------------
    @classmethod
    def create(cls, folder: Path, config: dict, bots: Bots = Bots()) -> Session:
        """A new table from a creation request (``SampyongError`` for anything wrong in it,
        nothing written then); its first hand is dealt unless it waits for the dealer."""
        if not isinstance(config, dict):
            raise SampyongError("the table must be a JSON object")
        known = {
            "game",
            "hole_use",
            "ranking",
            "low",
            "betting",
            "seats",
            "stacks",
            "blinds",
            "straddle",
            "ante",
            "deal",
            "bots",
            "wait",
        }
        unknown = sorted(set(config) - known)
        if unknown:
            raise SampyongError(f"unknown field {unknown[0]!r}; the fields are {', '.join(sorted(known))}")
        rules = parse_rules(config)
        names = config.get("seats")
        if not isinstance(names, list) or not all(isinstance(n, str) and n.strip() for n in names):
            raise SampyongError("seats must be a list of the players' names")
        names = [n.strip() for n in names]
        if len(set(names)) != len(names) or any(len(n) > MAX_NAME for n in names):
            raise SampyongError(f"the players' names must differ and be at most {MAX_NAME} characters")
        rules.game.check_players(len(names))
        stacks = config.get("stacks", 100 * rules.blinds[1])
        stacks = [stacks] * len(names) if not isinstance(stacks, list) else stacks
        if len(stacks) != len(names) or not all(_is_int(s) and 0 < s <= MAX_CHIPS for s in stacks):
            raise SampyongError("stacks must be whole chips above 0: one number, or one per seat")
        wanted = config.get("bots", {})
        if not isinstance(wanted, dict):
            raise SampyongError('bots must map seats to policies, e.g. {"3": "pro-like"}')
        seat_bots = {}
        for where, policy in wanted.items():
            if not str(where).isdigit() or not 0 <= int(where) < len(names):
                raise SampyongError(f"bots: no seat {where!r}; seats are 0 to {len(names) - 1}")
            seat_bots[int(where)] = policy
        if seat_bots and rules.deal == "physical":
            raise SampyongError("bots play only when the app deals: a bot cannot see physical cards")
        seats = [
            Seat(name, stack, secrets.token_urlsafe(16), seat_bots.get(i))
            for i, (name, stack) in enumerate(zip(names, stacks))
        ]
        state = {
            "config": config,
            "dealer_key": secrets.token_urlsafe(16),
            "seats": [dataclasses.asdict(s) for s in seats],
            "button": None,
            "next_button": None,
            "number": 0,
            "current": None,
            "records_size": 0,
            "pending": [],
            "last": None,
        }
        table_id = secrets.token_hex(6)
        store = Store(folder, table_id)
        session = cls(store, state, bots)  # loads the bots' policies: a bad one is refused here
        for seat in session.seats:
            if seat.bot is not None:
                session._percentile(seat)  # the ranking is made now, not at the bot's first turn
        session._save()
        if not rules.wait:
            session._start_hand()
        return session

    @classmethod
    def restore(cls, folder: Path, table_id: str, bots: Bots = Bots()) -> Session:
        """The table as it was saved, its hand in progress replayed from the journal."""
        store = Store(folder, table_id)
        session = cls(store, store.load_state(), bots)
        store.trim_records(session.records_size)
        if session.current is not None:
            session._replay(store.journal(session.number))
            store.rewrite_journal(session.number, session.entries)  # without a line the kill tore
            session._advance()
        return session

    # --- what a key sees ---------------------------------------------------------------------------
    @property
    def seat_keys(self) -> list[str]:
        return [seat.key for seat in self.seats]

    def who(self, key) -> str | int:
        """``"dealer"`` or the seat index of ``key`` (``Forbidden`` for any other key)."""
        if isinstance(key, str) and key:
            given = key.encode()
            if secrets.compare_digest(given, self.dealer_key.encode()):
                return "dealer"
            waiting = [e["new"]["key"] for e in self.pending if e["op"] == "seat"]  # seated when this hand ends
            for index, seat_key in enumerate([seat.key for seat in self.seats] + waiting):
                if secrets.compare_digest(given, seat_key.encode()):
                    return index
        raise Forbidden("wrong key for this table")

    def view(self, key) -> dict:
        """The table as ``key`` may see it: hidden cards are never in it, but the seat's own."""
        who = self.who(key)
        hand, order = self.hand, self.current["order"] if self.current else []
        player = {seat: p for p, seat in enumerate(order)}
        seats, holes, stacks = [], [], []
        for index, seat in enumerate(self.seats):
            p = player.get(index) if hand else None
            stack = hand.stacks[p] if p is not None else seat.stack
            stacks.append(stack)
            seats.append(
                {
                    "name": seat.name,
                    "stack": stack,
                    "bot": seat.bot,
                    "out": seat.out,
                    "player": None if p is None else f"p{p + 1}",
                    "bet": hand.bets[p] if p is not None else 0,
                    "in_hand": p is not None and p in hand.live,
                    "folded": p is not None and hand.folded[p],
                    "all_in": p is not None and p in hand.live and stack == 0,
                }
            )
            shown = (
                p is not None
                and hand.hole[p] is not None
                and (hand.showed[p] or (who == index and self.rules.deal == "app"))
            )
            holes.append(format_cards(hand.hole[p]).split() if shown else None)
        legal = None
        if hand is not None and hand.actor is not None:
            allowed = hand.legal()
            legal = {
                "fold": allowed.fold,
                "call": allowed.call,
                "min_raise_to": allowed.min_raise_to,
                "max_raise_to": allowed.max_raise_to,
                "player": f"p{hand.actor + 1}",
                "seat": order[hand.actor],
            }
        due = None
        if hand is not None and self.rules.deal == "physical":
            due = (
                {"board": hand.board_due}
                if hand.board_due
                else (
                    {"showdown": [f"p{p + 1}" for p in hand.live if not hand.showed[p]]} if hand.showdown_due else None
                )
            )
        return {
            "id": self.id,
            "you": who,
            "game": self.rules.game.name,
            "betting": self.rules.betting.kind,
            "deal": self.rules.deal,
            "blinds": list(self.rules.blinds),
            "straddle": self.rules.straddle,
            "ante": self.rules.ante,
            "wait": self.rules.wait,
            "hand": self.number if self.current else None,
            "button": self.current["button"] if self.current else self.button,
            "actor": legal["seat"] if legal else None,
            "legal": legal,
            "due": due,
            "board": format_cards(hand.board).split() if hand else [],
            "pot": hand.pot if hand else 0,
            "pots": [
                {"amount": chips, "seats": [order[p] for p in eligible]}
                for chips, eligible in hand.pots(collected=hand.actor is not None)
            ]
            if hand
            else [],
            "stacks": stacks,
            "holes": holes,
            "seats": seats,
            "actions": [hidden(a, None if who == "dealer" or who not in player else player[who]) for a in hand.actions]
            if hand
            else [],
            "pending": [_public(entry) for entry in self.pending],
            "last": self.last,
        }

    # --- acting ----------------------------------------------------------------------------------------
    def act(self, key, action: str, hand: int | None = None, step: int | None = None) -> None:
        """Apply one PHH action sent with ``key`` (``Forbidden`` when the key may not make it,
        ``Conflict`` or ``IllegalAction`` when the rules or the moment forbid it, ``SampyongError``
        for text that is not an action); nothing changes unless it is applied.

        ``hand`` and ``step`` (the hand number and the count of its ``actions`` the sender saw)
        make the action apply only to that very state: a second phone pressing the same button,
        or a press on a screen the table has moved past, is refused (``Conflict``)."""
        who = self.who(key)
        if not isinstance(action, str) or "\n" in action or len(action) > 200:
            raise SampyongError("action must be one PHH action, e.g. 'p3 cbr 12'")
        action = _glue_cards(action.strip())
        if self.hand is None:
            raise Conflict("no hand is in progress")
        for name, value in (("hand", hand), ("step", step)):
            if value is not None and not _is_int(value):
                raise SampyongError(f"{name} must be a whole number")
        if (hand is not None and hand != self.number) or (step is not None and step != len(self.hand.actions)):
            raise Conflict("the table has moved on since that screen: look again")
        groups = self._parse(action)
        if groups[1] == "dh":
            raise Forbidden("hole cards are dealt by the table, not sent")
        if groups[5] == "db":
            if who != "dealer" or self.rules.deal != "physical":
                raise Forbidden("only the dealer deals the board, and only when the cards are physical")
        else:
            seat = self._table_seat(int(groups[7]))
            if who != "dealer" and who != seat:
                raise Forbidden("a seat key acts only for its own seat")
            if self.seats[seat].bot:
                raise Forbidden(f"{self.seats[seat].name}'s seat is played by a bot")
            if groups[8] == "sm" and self.rules.deal == "app":
                raise Conflict("the app shows the hands at showdown")
            if groups[8] == "sm" and groups[9] is not None and "?" in groups[9]:
                raise SampyongError("show the cards, or muck with a bare 'sm'")
            if groups[8] == "cbr" and groups[9] is None:
                raise SampyongError(f"{action!r}: cbr needs an amount in whole chips")
        apply(self.hand, action, 0, departures_allowed=False)
        self._log(action, "dealer" if who == "dealer" else "seat")
        self._advance()

    def undo(self, key) -> None:
        """The dealer takes back the last action a person (or the dealer) made in this hand, with
        whatever the bots and the app did after it."""
        self._need_dealer(key)
        if self.hand is None:
            raise Conflict("no hand is in progress")
        kept = list(self.entries)
        while kept and kept[-1]["by"] in ("bot", "app"):
            kept.pop()
        if not kept:
            raise Conflict("nothing to undo in this hand")
        kept.pop()
        self.store.rewrite_journal(self.number, kept)  # on disk first: a failed write changes nothing
        self._replay(kept)

    def change(self, key, change: dict) -> dict:
        """A dealer's change to the table, made between hands (at once when no hand is in
        progress, else when the current hand ends): ``button`` (``seat``: it has the button next
        hand), ``chips`` (``seat``, ``amount`` added), ``seat`` (``name``, ``stack``, optional
        ``bot``: a new seat; its key is returned), ``remove`` (``seat`` leaves), ``deal`` (start
        the next hand now). Returns ``{}`` or ``{"seat", "key"}`` for a new seat."""
        self._need_dealer(key)
        if not isinstance(change, dict):
            raise SampyongError("a change must be a JSON object")
        op = change.get("op")
        answer = {}
        if op == "deal":
            if self.hand is not None:
                raise Conflict("a hand is in progress")
            if not self._start_hand(by_dealer=True):
                raise Conflict("a hand needs two seated players with chips")
            return answer
        if op == "button" or op == "chips" or op == "remove":
            seat = change.get("seat")
            if not _is_int(seat) or not 0 <= seat < len(self.seats) or self.seats[seat].out:
                raise SampyongError(f"no seat {seat!r} at this table")
            if op == "chips" and not (_is_int(change.get("amount")) and 0 < change["amount"] <= MAX_CHIPS):
                raise SampyongError("amount must be whole chips above 0")
            entry = {"op": op, "seat": seat, **({"amount": change["amount"]} if op == "chips" else {})}
        elif op == "seat":
            name, stack = change.get("name"), change.get("stack")
            taken = [s.name for s in self.seats if not s.out] + [
                e["new"]["name"] for e in self.pending if e["op"] == "seat"
            ]
            if not isinstance(name, str) or not name.strip() or len(name.strip()) > MAX_NAME or name.strip() in taken:
                raise SampyongError(f"the new seat needs a name of its own, at most {MAX_NAME} characters")
            if not (_is_int(stack) and 0 < stack <= MAX_CHIPS):
                raise SampyongError("stack must be whole chips above 0")
            bot = change.get("bot")
            if bot is not None and self.rules.deal == "physical":
                raise SampyongError("bots play only when the app deals")
            seated = sum(not s.out for s in self.seats) + sum(e["op"] == "seat" for e in self.pending)
            if seated >= self.rules.game.max_players:
                raise SampyongError(f"{self.rules.game.name} seats at most {self.rules.game.max_players} players")
            new = Seat(name.strip(), stack, secrets.token_urlsafe(16), _text(bot, "bot") if bot is not None else None)
            self._load_bot(new)
            if new.bot is not None:
                self._percentile(new)
            entry = {"op": "seat", "new": dataclasses.asdict(new)}
            answer = {"seat": len(self.seats) + sum(e["op"] == "seat" for e in self.pending), "key": new.key}
        else:
            raise SampyongError("op must be one of deal, button, chips, seat, remove")
        self.pending.append(entry)
        if self.hand is None:
            self._carry_out_changes()
            if not self.rules.wait:
                self._start_hand()
            else:
                self._save()
        else:
            self._save()
        return answer

    # --- the hand's course ---------------------------------------------------------------------------
    def _start_hand(self, by_dealer: bool = False) -> bool:
        """Deal the next hand if two seated players have chips (and, unless the dealer asks, one
        of them is a person: bots alone do not play on by themselves). Whether one was dealt."""
        self._carry_out_changes()
        active = [i for i, s in enumerate(self.seats) if not s.out and s.stack > 0]
        if len(active) < 2 or not (by_dealer or any(self.seats[i].bot is None for i in active)):
            self._save()
            return False
        size = len(self.seats)
        if self.next_button in active:
            button = self.next_button
        elif self.button is None:
            button = active[-1]
        else:
            button = min(active, key=lambda s: (s - self.button - 1) % size)
        order = clockwise_from_button(active, button, size)
        deck = None
        if self.rules.deal == "app":
            deck = list(range(52))
            secrets.SystemRandom().shuffle(deck)
        self.number += 1
        self.next_button = None
        self.current = {"order": order, "button": button, "deck": deck, "key": secrets.randbits(63)}
        self._save()
        self.store.start_journal(self.number)
        self.hand = self._fresh_hand()
        self.entries = []
        self._advance()
        return True

    def _fresh_hand(self) -> Hand:
        """The current hand as it was dealt, before any action."""
        order, rules = self.current["order"], self.rules
        n = len(order)
        blinds = [*rules.blinds, *([rules.straddle] if n > 2 and rules.straddle else [])]
        blinds += [0] * (n - len(blinds))
        hand = Hand(
            rules.game,
            rules.betting,
            [self.seats[s].stack for s in order],
            blinds,
            [rules.ante] * n,
            min_bet=rules.blinds[1],
            auto_showdown=rules.deal == "app",
        )
        hole = rules.game.hole_cards
        deck = self.current["deck"]
        for p in range(n):
            hand.deal_hole(p, deck[p * hole : (p + 1) * hole] if deck else None)
        hand.key = self.current["key"]
        self.positions = positions(hand)
        return hand

    def _advance(self) -> None:
        """Let the bots act and the app deal until a person or the dealer must; end the hand
        when it is over."""
        hand = self.hand
        while hand is not None and not hand.done:
            if hand.actor is not None:
                seat = self.seats[self.current["order"][hand.actor]]
                if seat.bot is None:
                    break
                before = len(hand.actions)
                bot_act(hand, self.policies[seat.key], self.positions, self._percentile(seat))
                self._log(hand.actions[before], "bot")
            elif hand.board_due and self.current["deck"]:
                start = len(self.current["order"]) * self.rules.game.hole_cards + len(hand.board)
                action = "d db " + format_cards(self.current["deck"][start : start + hand.board_due]).replace(" ", "")
                apply(self.hand, action, 0, departures_allowed=False)
                self._log(action, "app")
            else:
                break
        if hand is not None and hand.done:
            self._end_hand()

    def _end_hand(self) -> None:
        """Write the finished hand, carry the stacks, and deal the next (unless the table waits)."""
        hand, order = self.hand, self.current["order"]
        today = datetime.date.today()
        fields = {
            "hand": self.number,
            "seat_count": len(self.seats),
            "seats": [s + 1 for s in order],
            "players": [self.seats[s].name for s in order],
            "day": today.day,
            "month": today.month,
            "year": today.year,
            "_table": self.id,
        }
        text = f"[{self.number}]\n" + write_fields(hand_fields(hand, 0, fields))
        self.records_size = self.store.append_record(("\n" if self.records_size else "") + text)
        for p, seat in enumerate(order):
            self.seats[seat].stack = hand.finishing_stacks[p]
        self.button = self.current["button"]
        self.last = summary(self.number, hand, order, [s.name for s in self.seats])
        self.hand, self.current, self.entries = None, None, []
        if self.rules.wait:
            self._carry_out_changes()
            self._save()
        else:
            self._start_hand()

    # --- pieces -------------------------------------------------------------------------------------------
    def _parse(self, action: str):
        match = ACTION.match(action)
        if not match or "#" in action:
            raise SampyongError(f"cannot read the action {action!r}; write e.g. 'p3 cbr 12', 'p1 f', 'd db Ad7s4h'")
        return match.groups()

    def _table_seat(self, number: int) -> int:
        order = self.current["order"]
        if not 1 <= number <= len(order):
            raise SampyongError(f"there is no p{number} in this hand of {len(order)} players")
        return order[number - 1]

    def _log(self, action: str, by: str) -> None:
        """Journal an action just applied; if it cannot be written, the hand goes back to the
        journal's state (nothing is applied that is not on disk) and the error goes on."""
        entry = {"action": action, "by": by}
        try:
            self.store.log(entry)
        except BaseException:
            self._replay(self.entries)
            raise
        self.entries.append(entry)

    def _replay(self, entries: list[dict]) -> None:
        """The current hand as dealt, then ``entries`` applied."""
        self.hand = self._fresh_hand()
        for entry in entries:
            apply(self.hand, entry["action"], 0, departures_allowed=False)
        self.entries = list(entries)

    def _need_dealer(self, key) -> None:
        if self.who(key) != "dealer":
            raise Forbidden("only the dealer may do this")

    def _load_bot(self, seat: Seat) -> None:
        if seat.bot is not None:
            self.policies[seat.key] = self.bots.policy(seat.bot)

    def _percentile(self, seat: Seat):
        return self.bots.percentile(self.policies[seat.key], self.rules.game)

    def _carry_out_changes(self) -> None:
        for entry in self.pending:
            if entry["op"] == "button":
                self.next_button = entry["seat"]
            elif entry["op"] == "chips":
                self.seats[entry["seat"]].stack += entry["amount"]
            elif entry["op"] == "remove":
                self.seats[entry["seat"]].out = True
            elif entry["op"] == "seat":
                self.seats.append(Seat(**entry["new"]))
                self._load_bot(self.seats[-1])
        self.pending = []

    def _state(self) -> dict:
        return {
            "config": self.config,
            "dealer_key": self.dealer_key,
            "seats": [dataclasses.asdict(s) for s in self.seats],
            "button": self.button,
            "next_button": self.next_button,
            "number": self.number,
            "current": self.current,
            "records_size": self.records_size,
            "pending": self.pending,
            "last": self.last,
        }

    def _save(self) -> None:
        self.store.save_state(self._state())


def _public(change: dict) -> dict:
    """A waiting change as every key may see it: a new seat without its key."""
    if change["op"] != "seat":
        return change
    new = change["new"]
    return {"op": "seat", "name": new["name"], "stack": new["stack"], "bot": new["bot"]}


def _glue_cards(action: str) -> str:
    """Cards written with spaces or commas glued as PHH writes them (``d db Ad 7s 4h`` -> ``d db Ad7s4h``).

    >>> _glue_cards("p2 sm As, Kd 7h"), _glue_cards("p2 cbr 12")
    ('p2 sm AsKd7h', 'p2 cbr 12')
    """
    match = re.match(r"^(d db|p\d+ sm) (.+)$", action)
    return f"{match.group(1)} {re.sub(r'[ ,]+', '', match.group(2))}" if match else action
