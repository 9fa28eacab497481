"""Hand records in the PHH format (``phh-std``): read, replay through the engine, write back.

A ``.phh`` file is one TOML table per hand; a ``.phhs`` file holds hands in sections ``[1]``,
``[2]``, ... Amounts may be decimals (``0.50``, ``200.30``): a record's chips are counted in
its smallest unit (the largest number of decimals among its stacks, blinds, antes, bets and
actions) as exact integers, and written back in the same unit.

Variant codes: the standard ``NT`` (no-limit hold'em), ``FT`` (fixed-limit hold'em), ``PO``
(pot-limit Omaha), ``FO/8`` (fixed-limit Omaha hi-lo) and, on PHH's pattern (the structure's
letter N, P or F, then the game), ``PO/8`` (pot-limit Omaha hi-lo) and the other structures of
each game (``PT``, ``NO``, ...). The project's own games get codes of their own, each meaning
its preset's rules (the pot-limit codes below; ``N`` and ``F`` codes likewise, with ``NS3`` for
no-limit PLS, as PHH's ``NS`` is short-deck); a hand whose rules are not its preset's (a
variant: other hole-card use, ranking or low) carries them in the user-defined field
``_sampyong`` (PHH keeps keys that start with ``_``), so it is never mistaken for the preset:

==========  ========  ===========================================================
code        game      rules
==========  ========  ===========================================================
``PS/7``    pls7      3 hole cards, any used, skip straights, 7-or-better, pot limit
``PS``      pls       the same, high only
``PS2/7``   pls7-2    at least 2 hole cards for high and for low
``PO5/8``   plo5-8    Big O: 5 hole cards, exactly 2 used, 8-or-better, pot limit
==========  ========  ===========================================================

>>> text = '''
... variant = "NT"
... antes = [0, 0]
... blinds_or_straddles = [0.5, 1]
... min_bet = 1
... starting_stacks = [100, 100.25]
... actions = ["d dh p1 AsAh", "d dh p2 KdKc", "p2 cbr 3.5", "p1 f"]
... finishing_stacks = [99, 101.25]
... '''
>>> record = loads(text)[0]
>>> result = replay(record)
>>> result.status.value, result.finishing_stacks
('match', [Decimal('99.00'), Decimal('101.25')])
"""

from __future__ import annotations

import dataclasses
import enum
import json
import re
import tomllib
from decimal import Decimal

import rtoml
import tomli_w

from engine import departures
from engine.betting import NO_LIMIT, POT_LIMIT, Betting, fixed_limit
from engine.hand import Hand, IllegalAction
from evaluator.errors import SampyongError
from evaluator.games import Game
from evaluator.games import game as preset


@dataclasses.dataclass(frozen=True)
class Variant:
    """What a PHH variant code plays: a game preset and a betting kind."""

    code: str
    game: str
    betting: str


# A code is the betting structure's letter (N no-limit, P pot-limit, F fixed-limit) and the
# game's stem, as PHH writes NT, FT, PO and FO/8. PHH's own NS is short-deck hold'em, so the
# no-limit Sampyong high game is written NS3.
_LETTERS = {"no-limit": "N", "pot-limit": "P", "fixed-limit": "F"}
_STEMS = {"holdem": "T", "plo": "O", "plo8": "O/8", "plo5-8": "O5/8", "pls7": "S/7", "pls": "S", "pls7-2": "S2/7"}
_RENAMED = {"NS": "NS3"}
VARIANTS = {
    v.code: v
    for v in (
        Variant(_RENAMED.get(letter + stem, letter + stem), game, kind)
        for game, stem in _STEMS.items()
        for kind, letter in _LETTERS.items()
    )
}
CODES = {(v.game, v.betting): v.code for v in VARIANTS.values()}
STANDARD_CODES = {"NT", "FT", "PO", "FO/8"}  # written exactly as PHH and pokerkit read them

# Fields whose numbers are chip amounts (the rest: years, days, hand numbers, ...).
AMOUNT_FIELDS = (
    "antes",
    "blinds_or_straddles",
    "bring_in",
    "small_bet",
    "big_bet",
    "min_bet",
    "starting_stacks",
    "_posts",
)
RESULT_FIELDS = ("finishing_stacks", "winnings")
_RAISE_AMOUNT = re.compile(r"^\s*p\d+ cbr (\S+)")
_NOT_WHOLE_RAISE = re.compile(
    r"cbr(?! \d+$)", re.MULTILINE
)  # a bet or raise to other than whole chips, one action a line
ACTION = re.compile(  # a PHH action: groups (d, dh, seat, cards | d, db, cards | seat, verb, argument)
    r"^\s*(?:(d) (dh) p(\d+) (\S+)|(d) (db) (\S+)|p(\d+) (f|cc|cbr|sm)(?: (\S+))?)\s*(?:#.*)?$"
)


@dataclasses.dataclass
class Record:
    """One hand as written: ``fields`` are the TOML keys; ``path`` and ``index`` (the section
    of a ``.phhs``, else None) say where it came from."""

    fields: dict
    path: str = "<text>"
    index: int | None = None

    @property
    def where(self) -> str:
        return self.path if self.index is None else f"{self.path} [{self.index}]"


class Status(str, enum.Enum):
    """How a record replays (a string too: ``Status.MATCH == "match"``, as JSON writes it)."""

    MATCH = "match"  # the finishing stacks equal the record's
    DIFFER = "differ"  # they do not
    ILLEGAL = "illegal"  # an action the rules forbid, or a record that ends mid-hand
    SKIPPED = "skipped"  # a variant the engine does not play
    NO_RECORD = "no_record"  # the record gives no result to compare

    @property
    def is_problem(self) -> bool:
        """Whether ``sampyong replay`` reports the hand and exits 1."""
        return self in (Status.DIFFER, Status.ILLEGAL)


@dataclasses.dataclass
class Replay:
    """The result of replaying one record; ``status`` a ``Status``."""

    record: Record
    status: Status
    finishing_stacks: list[Decimal] | None = None
    expected: list[Decimal] | None = None
    message: str = ""
    hand: Hand | None = None
    departures: tuple[str, ...] = ()  # where the record's writer departed from the rule book (``engine.departures``)

    def as_json(self) -> dict:
        def plain(values):
            return None if values is None else [int(v) if v == int(v) else float(v) for v in values]

        return {
            "path": self.record.path,
            "index": self.record.index,
            "variant": self.record.fields.get("variant"),
            "status": self.status.value,
            "finishing_stacks": plain(self.finishing_stacks),
            "expected": plain(self.expected),
            "message": self.message,
            "departures": list(self.departures),
        }


# --- reading ---------------------------------------------------------------------------------


def loads(text: str, path: str = "<text>") -> list[Record]:
    """The hands of a PHH text: one, or the ``[n]`` sections of a ``.phhs``.

    Raises ``SampyongError`` naming ``path`` and the line for text that is not TOML.
    """
    data = _fast_toml(text)
    try:
        data = data if data is not None else tomllib.loads(text, parse_float=Decimal)
    except tomllib.TOMLDecodeError as error:
        raise SampyongError(f"{path}: not a PHH file ({error})") from None
    except RecursionError:  # tomllib recurses once per level of nesting
        raise SampyongError(f"{path}: not a PHH file (arrays or tables nested too deep)") from None
    if "variant" in data or not data:
        return [Record(data, path)]
    sections = []
    for key, value in data.items():
        if not isinstance(value, dict) or not key.isdigit():
            raise SampyongError(f"{path}: not a PHH file (no variant, and [{key}] is not a numbered hand)")
        sections.append(Record(value, path, int(key)))
    return sections


def _fast_toml(text: str) -> dict | None:
    """The TOML of ``text`` read by rtoml (compiled: about 8x tomllib, most of the reading time of a
    large corpus), or None where tomllib must read it: text rtoml refuses (tomllib words the error),
    and text with a float (whose exact decimal amount only tomllib keeps, ``parse_float``) or a
    date (rtoml's time zones are its own type)."""
    try:
        data = rtoml.loads(text)
    except (ValueError, RecursionError):  # rtoml.TomlParsingError is a ValueError
        return None
    return data if _plain(data) else None


def _plain(value) -> bool:
    """Whether ``value`` holds only strings, integers, booleans, lists and tables."""
    kind = type(value)
    if kind is dict:
        kinds = set(map(type, value.values()))
        return kinds <= _SCALARS or all(map(_plain, value.values()))
    if kind is list:
        kinds = set(map(type, value))
        return kinds <= _SCALARS or all(map(_plain, value))
    return kind in _SCALARS


_SCALARS = {str, int, bool}
_INT = {
    int
}  # a set of values' types within it: every value an int (no bool)  # exact types: rtoml makes no subclasses, and anything else goes to tomllib


# --- amounts ---------------------------------------------------------------------------------


def _decimals(value) -> int:
    value = Decimal(str(value))
    return max(0, -value.as_tuple().exponent) if value != value.to_integral_value() else 0


def unit_of(fields: dict) -> int:
    """The record's smallest unit as a power of ten: chips = amount * 10**unit. The site's rake
    (``_rake``, what a site took from the pot) counts too: it may be all that is finer.

    >>> unit_of({"blinds_or_straddles": [Decimal("0.5"), 1], "actions": ["p1 cbr 2.25"]})
    2
    """
    amounts: list = []
    for name in (*AMOUNT_FIELDS, "_rake"):
        value = fields.get(name)
        if value is not None:
            amounts.extend(value) if isinstance(value, list) else amounts.append(value)
    actions = fields.get("actions", [])
    try:
        text = "\n".join(actions)
    except TypeError:  # an action that is not text: read as text below
        text = None
    if text is not None and set(map(type, amounts)) <= _INT and not _NOT_WHOLE_RAISE.search(text):
        return 0  # whole amounts, the common case: no Decimal needed
    actions = [action if isinstance(action, str) else str(action) for action in actions]
    raised = [match.group(1) for match in map(_RAISE_AMOUNT.match, actions) if match]
    places = max((_decimals(amount) for amount in amounts), default=0)
    for text in raised:
        try:
            places = max(places, _decimals(Decimal(text)))
        except ArithmeticError:
            pass
    return places


def to_chips(value, unit: int) -> int:
    """An amount as whole chips of the unit (``SampyongError`` if it is finer than the unit)."""
    if type(value) is int and unit == 0:
        return value
    try:
        scaled = Decimal(str(value)) * (10**unit)
    except ArithmeticError:
        raise SampyongError(f"bad amount {value!r}") from None
    if scaled != scaled.to_integral_value():
        raise SampyongError(f"amount {value} is finer than the smallest chip counted here ({Decimal(1).scaleb(-unit)})")
    return int(scaled)


def from_chips(chips: int, unit: int) -> int | Decimal:
    """Chips back to the record's amount: an int when the unit is whole, else a Decimal."""
    return chips if unit == 0 else Decimal(chips).scaleb(-unit)


# --- replay ----------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Setup:
    """What a record says before its actions: the game, betting, amounts in chips of ``unit``."""

    game: Game
    betting: Betting
    stacks: list[int]
    blinds: list[int]
    antes: list[int]
    min_bet: int | None
    unit: int
    posts: list[int] | None = None  # live posts out of the blind seats (``_posts``), None when there are none


def setup_of(record: Record, unit: int | None = None) -> Setup:
    """The record's game, betting structure, stacks, blinds, antes, minimum bet and live posts, in
    chips. PHH has no field for a live blind posted out of the blind seats (a player joining or
    returning): the user-defined ``_posts`` gives each seat's (``engine.hand.Hand``'s ``posts``).

    ``unit``: count the chips in this unit rather than the record's (``unit_of``), for a record
    whose actions, finer than its other amounts, are still to be written. Raises
    ``SampyongError`` for an unknown variant or malformed fields.
    """
    fields = record.fields
    code = fields.get("variant")
    if code not in VARIANTS:
        raise SampyongError(f"variant {code!r} is not played by this engine")
    variant = VARIANTS[code]
    unit = unit_of(fields) if unit is None else unit

    def amounts(name, default=None):
        values = fields.get(name, default)
        if not isinstance(values, list):
            raise SampyongError(f"{name} must be a list of amounts")
        if unit == 0 and set(map(type, values)) <= _INT:
            return list(values)  # whole chips as written: the common case
        return [to_chips(v, unit) for v in values]

    stacks = amounts("starting_stacks")
    blinds = amounts("blinds_or_straddles", [0] * len(stacks))
    antes = amounts("antes", [0] * len(stacks))
    posts = amounts("_posts") if "_posts" in fields else None
    game = game_of(record, variant)
    small = to_chips(fields.get("small_bet", 0), unit)
    big = to_chips(fields.get("big_bet", 0), unit)
    betting: Betting = {"no-limit": NO_LIMIT, "pot-limit": POT_LIMIT}.get(variant.betting) or fixed_limit(small, big)
    min_bet = to_chips(fields["min_bet"], unit) if "min_bet" in fields else (small or None)
    return Setup(game, betting, stacks, blinds, antes, min_bet, unit, posts if posts and any(posts) else None)


def hand_of(record: Record, unit: int | None = None) -> tuple[Hand, int]:
    """A fresh ``Hand`` for the record's variant, stacks, blinds and antes, and its unit
    (``unit``: as ``setup_of``).

    Raises ``SampyongError`` for an unknown variant or malformed fields.
    """
    setup = setup_of(record, unit)
    return Hand(
        setup.game,
        setup.betting,
        setup.stacks,
        setup.blinds,
        setup.antes,
        min_bet=setup.min_bet,
        auto_showdown=False,
        posts=setup.posts,
    ), setup.unit


def game_of(record: Record, variant: Variant) -> Game:
    """The rules a record of ``variant`` is played by: its code's preset, or the rules of its
    ``_sampyong`` table (``SampyongError`` for rules of another game, or unknown ones)."""
    rules = record.fields.get("_sampyong")
    if rules is not None and not isinstance(rules, dict):
        raise SampyongError("_sampyong must be a table of the game's rules")
    if isinstance(rules, dict):
        if rules.get("game") != variant.game:
            raise SampyongError(f"_sampyong names game {rules.get('game')!r}, variant {variant.code} is {variant.game}")
        from evaluator.games import resolve_game

        return resolve_game(
            variant.game,
            hole_use=rules.get("hole_use"),
            ranking=rules.get("ranking"),
            low=str(rules["low"]) if "low" in rules else None,
        )
    return preset(variant.game)


def apply(hand: Hand, action: str, unit: int, departures_allowed: bool = True) -> str | None:
    """Apply one PHH action to ``hand`` (``IllegalAction`` if the rules forbid it, or it is out of
    turn); the kind of writer's departure it was read by (``engine.departures``), else None.
    Amounts are counted in ``unit`` (``to_chips``: 0 for whole chips). ``departures_allowed``
    False is live play (the table): what a record's writer may have written loosely (a check
    by a player with nothing to decide, a short all-in raise that reopens) is refused."""
    match = ACTION.match(action)
    if not match:
        raise IllegalAction(f"cannot read the action {action!r}")
    groups = match.groups()
    if groups[1] == "dh":
        hand.deal_hole(int(groups[2]) - 1, None if "?" in groups[3] else groups[3])
    elif groups[5] == "db":
        hand.deal_board(groups[6])
    else:
        seat, verb, argument = int(groups[7]) - 1, groups[8], groups[9]
        if verb == "sm":
            # PHH: a bare ``sm`` mucks, ``sm -`` shows the cards dealt; unknown cards shown count as a muck.
            hand.show(seat, None if argument is None or "?" in argument else argument)
            return None
        if departures_allowed and verb == "cc" and departures.is_no_choice_check(hand, seat):
            return departures.NO_CHOICE_CHECK  # nothing to decide: the check changes nothing
        if hand.actor != seat:
            actor = "nobody" if hand.actor is None else f"p{hand.actor + 1}"
            raise IllegalAction(f"p{seat + 1} acts out of turn ({actor} is to act)")
        if verb == "f":
            hand.fold()
        elif verb == "cc":
            hand.check_call()
        else:
            if argument is None:
                raise IllegalAction(f"{action!r}: cbr needs an amount")
            amount = to_chips(argument, unit)
            if departures_allowed and departures.short_wager_reopens(hand, amount):
                hand.raise_to(amount, reopened=True)
                return departures.SHORT_WAGER
            hand.raise_to(amount)
    return None


def replay(record: Record) -> Replay:
    """Replay a record's actions through the engine and compare its finishing stacks (or winnings)."""
    fields = record.fields
    code = fields.get("variant")
    if code not in VARIANTS:
        return Replay(record, Status.SKIPPED, message=f"variant {code} is not played by this engine")
    try:
        hand, unit = hand_of(record)
        actions = fields.get("actions", [])
        if not isinstance(actions, list):
            raise SampyongError("actions must be a list")
        kinds = []
        for number, action in enumerate(actions, 1):
            try:
                kinds.append(apply(hand, str(action), unit))
            except SampyongError as error:
                raise IllegalAction(f"action {number} {str(action).strip()!r}: {error}") from None
        if not hand.done and hand.showdown_due:
            hand.finish_showdown()
        if not hand.done:
            raise IllegalAction("the record ends before the hand is over")
    except SampyongError as error:
        return Replay(record, Status.ILLEGAL, message=str(error))
    finishing = [Decimal(c).scaleb(-unit) for c in hand.finishing_stacks]
    for field in ("finishing_stacks", "winnings"):
        if field in fields:
            expected = [Decimal(str(v)) for v in fields[field]]
            status, message = _compare(_result(hand, hand.finishing_stacks, field, unit), expected, unit)
            if status == Status.DIFFER and field == "finishing_stacks" and fields.get("_rake"):
                status, message = _raked(hand, hand.finishing_stacks, expected, fields["_rake"], unit)
            if status == Status.DIFFER and len(hand.live) > 1:
                # Settled at showdown: the writer may have split the pots by pokerkit's rules.
                stacks, paid = departures.pokerkit_finishing_stacks(hand)
                if _result(hand, stacks, field, unit) == expected:
                    status, message = Status.MATCH, ""
                    kinds += paid
                elif field == "finishing_stacks" and fields.get("_rake"):
                    status, message = _raked(hand, stacks, expected, fields["_rake"], unit)
                    kinds += paid if status == Status.MATCH else ()
            if status == Status.MATCH:
                message = "; ".join(filter(None, [message, *_departure_notes(kinds)]))
            elif field == "winnings":
                message = f"winnings: {message}"
            return Replay(
                record,
                status,
                finishing,
                expected if field == "finishing_stacks" else None,
                message,
                hand,
                _departures(kinds) if status == Status.MATCH else (),
            )
    return Replay(
        record, Status.NO_RECORD, finishing, message="the record has no finishing_stacks or winnings", hand=hand
    )


def _result(hand: Hand, stacks: list[int], field: str, unit: int) -> list[Decimal]:
    """``finishing_stacks``, or ``winnings`` (the chips each seat won from the pots), in the record's amounts."""
    if field == "winnings":
        stacks = [f - s for f, s in zip(stacks, hand.stacks)]
    return [Decimal(c).scaleb(-unit) for c in stacks]


def _departures(kinds) -> tuple[str, ...]:
    """The distinct kinds of departure, in ``departures.KINDS`` order."""
    return tuple(k for k in departures.KINDS if k in kinds)


def _departure_notes(kinds) -> list[str]:
    return [f"replayed as written: {kind} ({departures.RULES[kind]})" for kind in _departures(kinds)]


def summary(results) -> str:
    """One line: hands, and how many match, differ, are illegal, skipped (by variant), have no
    result, and the matches read by a writer's rules (by kind of departure: ``engine.departures``).

    >>> from types import SimpleNamespace as R
    >>> hands = [R(status="match", message="", record=R(fields={"variant": "NT"}))] * 3
    >>> hands += [R(status="skipped", message="", record=R(fields={"variant": v})) for v in ("FR", "F7S", "FR")]
    >>> summary(hands)
    '6 hands: 3 match, 0 differ, 0 illegal, 3 skipped (F7S 1, FR 2)'
    >>> summary([R(status="match", message="", departures=("no-choice check",), record=R(fields={}))])
    '1 hands: 1 match, 0 differ, 0 illegal, 0 skipped; 1 of the matches replayed as their writer played them (no-choice check 1)'
    """
    from collections import Counter

    counts = Counter(r.status for r in results)
    skipped = Counter(str(r.record.fields.get("variant")) for r in results if r.status == "skipped")
    line = (
        f"{len(results):,} hands: {counts['match']:,} match, {counts['differ']:,} differ, "
        f"{counts['illegal']:,} illegal, {counts['skipped']:,} skipped"
    )
    if skipped:
        line += " (" + ", ".join(f"{v} {n}" for v, n in sorted(skipped.items())) + ")"
    if counts["no_record"]:
        line += f", {counts['no_record']:,} without a recorded result"
    halves = sum(1 for r in results if r.status == "match" and "in halves" in r.message)
    if halves:
        line += f"; {halves:,} of the matches split an odd chip in halves in the record"
    written = Counter(kind for r in results if r.status == "match" for kind in getattr(r, "departures", ()))
    if written:
        hands = sum(1 for r in results if r.status == "match" and getattr(r, "departures", ()))
        line += (
            f"; {hands:,} of the matches replayed as their writer played them ("
            + ", ".join(f"{kind} {written[kind]:,}" for kind in departures.KINDS if written[kind])
            + ")"
        )
    return line


def _raked(hand: Hand, stacks: list[int], expected: list[Decimal], rake, unit: int) -> tuple[Status, str]:
    """Whether the record's finishing stacks are the engine's less the user-defined ``_rake``
    (what the site took from the pot, PHH having no field for it), taken only from seats that won
    (``stacks``: the engine's finishing stacks, or pokerkit's split of the same showdown).

    >>> record = loads('variant = "NT"\\nblinds_or_straddles = [1, 2]\\nantes = [0, 0]\\nmin_bet = 2\\n'
    ...                'starting_stacks = [100, 100]\\nactions = ["d dh p1 ????", "d dh p2 ????", "p2 cbr 6", "p1 cc",'
    ...                ' "d db 2c3d4h", "p1 cbr 6", "p2 f"]\\nfinishing_stacks = [105, 94]\\n_rake = 1')[0]
    >>> replay(record).status.value, replay(record).message
    ('match', 'the site took a rake of 1 from the winners')
    """
    try:
        owed = [to_chips(e, unit) for e in expected]
        taken = to_chips(rake, unit)
    except SampyongError:
        return Status.DIFFER, "finishing stacks differ"
    diffs = [ours - site for ours, site in zip(stacks, owed)]
    won = [ours > behind for ours, behind in zip(stacks, hand.stacks)]
    if len(owed) == hand.seats and sum(diffs) == taken and all(d == 0 or (d > 0 and w) for d, w in zip(diffs, won)):
        return Status.MATCH, f"the site took a rake of {rake} from the winners"
    return Status.DIFFER, f"finishing stacks differ (a rake of {rake} taken from the winners included)"


def _compare(ours: list[Decimal], expected: list[Decimal], unit: int) -> tuple[Status, str]:
    if len(ours) != len(expected):
        return Status.DIFFER, f"the record lists {len(expected)} stacks for {len(ours)} players"
    if ours == expected:
        return Status.MATCH, ""
    step = Decimal(1).scaleb(-unit)
    halves = [e for e in expected if (e / step) != (e / step).to_integral_value()]
    if halves and sum(ours) == sum(expected) and all(abs(o - e) <= step / 2 for o, e in zip(ours, expected)):
        return (
            Status.MATCH,
            "the record splits an odd chip in halves; the engine gives it to the first tied winner left of the button",
        )
    return Status.DIFFER, "finishing stacks differ"


# --- writing ---------------------------------------------------------------------------------


def dumps(hand: Hand, unit: int = 0, fields: dict | None = None, game_code: str | None = None) -> str:
    """The PHH text of a played ``hand``: its variant, amounts, actions and finishing stacks,
    with every other field of ``fields`` (a record it was replayed from) kept as it was; one
    line per field, as pokerkit writes PHH (``write_fields``).

    ``game_code`` defaults to the code of the hand's game and betting kind (``SampyongError``
    when PHH and this project have none).
    """
    return write_fields(hand_fields(hand, unit, fields, game_code))


def dumps_many(hands, fields: dict | None = None) -> str:
    """Hands as one ``.phhs`` text, in sections ``[1]``, ``[2]``, ... (``fields`` added to each)."""
    return "\n".join(f"[{i}]\n{write_fields(hand_fields(hand, 0, fields))}" for i, hand in enumerate(hands, 1))


def write_fields(fields: dict) -> str:
    """TOML text of a record's fields, one line per field, arrays and tables inline.

    >>> print(write_fields({"variant": "NT", "antes": [0, 0], "min_bet": Decimal("0.50"),
    ...                     "actions": ["p1 cc"], "_sampyong": {"game": "pls7", "low": 7}}), end="")
    variant = "NT"
    antes = [0, 0]
    min_bet = 0.50
    actions = ["p1 cc"]
    _sampyong = {game = "pls7", low = 7}
    """
    return "".join(f"{_toml_key(key)} = {_toml_value(value)}\n" for key, value in fields.items())


_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def _toml_key(key: str) -> str:
    # fullmatch: a pattern ending in $ also matches a key ending in a line break ("0\n")
    return key if _BARE_KEY.fullmatch(key) else _toml_value(key)


def _toml_value(value) -> str:
    """One TOML value on one line; what this cannot write inline (dates, times) as ``tomli_w`` writes it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        # A JSON string is a TOML basic string but for DEL, which TOML wants escaped too.
        return json.dumps(value, ensure_ascii=False).replace("\x7f", "\\u007f")
    if isinstance(value, int):
        return str(value)
    if isinstance(value, Decimal) and value.is_finite():
        return str(value) if "E" not in str(value) else f"{value:f}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(map(_toml_value, value)) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_toml_key(k)} = {_toml_value(v)}" for k, v in value.items()) + "}"
    return tomli_w.dumps({"v": value}).split(" = ", 1)[1].strip()


def hand_fields(hand: Hand, unit: int = 0, fields: dict | None = None, game_code: str | None = None) -> dict:
    """The PHH fields of a played ``hand`` (see ``dumps``)."""
    code = game_code or CODES.get((hand.game.base_name, hand.betting.kind))
    if code is None:
        raise SampyongError(f"no PHH code for {hand.game.name} {hand.betting.kind}")
    blinds, antes = hand.initial_blinds, hand.initial_antes
    fields = fields or {}
    out = {"variant": code}
    if "ante_trimming_status" in fields or any(antes):  # it says how uneven antes are posted: nothing without antes
        out["ante_trimming_status"] = fields.get("ante_trimming_status", len(set(antes)) == 1)
    out["antes"] = [from_chips(a, unit) for a in antes]
    out["blinds_or_straddles"] = [from_chips(b, unit) for b in blinds]
    if any(hand.initial_posts):  # live posts out of the blind seats: PHH has no field for them (``setup_of``)
        out["_posts"] = [from_chips(p, unit) for p in hand.initial_posts]
    if hand.betting.kind == "fixed-limit":
        out["small_bet"] = from_chips(hand.betting.bet_size(0, hand.min_bet), unit)
        out["big_bet"] = from_chips(hand.betting.bet_size(3, hand.min_bet), unit)
    else:
        out["min_bet"] = from_chips(hand.min_bet, unit)
    out["starting_stacks"] = [from_chips(s, unit) for s in hand.starting_stacks]
    out["actions"] = [_scale_action(a, unit) for a in hand.actions]
    kept = ("variant", "actions", "ante_trimming_status", "_sampyong", *AMOUNT_FIELDS, *RESULT_FIELDS)
    out.update({k: v for k, v in fields.items() if k not in kept})
    if hand.game != preset(hand.game.base_name):  # a preset's code says its rules (the table above)
        out["_sampyong"] = {
            "game": hand.game.base_name,
            "hole_use": "-".join(map(str, hand.game.hole_use)),
            "ranking": hand.game.ranking.name,
            "low": hand.game.low if hand.game.low is not None else "none",
            "betting": hand.betting.kind,
        }
    if hand.done:
        out["finishing_stacks"] = [from_chips(s, unit) for s in hand.finishing_stacks]
    return out


def _scale_action(action: str, unit: int) -> str:
    match = re.match(r"^(p\d+ cbr )(\d+)$", action)
    return f"{match.group(1)}{from_chips(int(match.group(2)), unit)}" if match else action
