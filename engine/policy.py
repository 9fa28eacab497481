"""Policies as data: how a simulated player acts, read from a small TOML file.

A policy has a ``style``: ``thresholds`` (the default), ``check-call`` (checks and calls
every bet to the river: with it every table must equal the everyone-shows-down study) or
``random-legal`` (every legal action with fixed probabilities, raise sizes drawn over the whole
legal range: the tests' way to drive the engines' rare branches, hand by hand in both).

``thresholds`` policies decide preflop by the starting hand's **percentile** in the game's
exact heads-up grid (0 = the best hand, 1 = the worst, share of all hands stronger) and
after the flop by **hand strength**, the hand's equity against the opponents still in::

    [preflop]
    open_early = 0.12    # open (raise) with the top 12 % first to act ...
    open_late = 0.40     # ... widening linearly to the top 40 % on the button
    call = 0.15          # call one raise with the top 15 %
    overcall = 0.10      # call one raise that someone has already called with the top 10 %
    reraise = 0.05       # re-raise one raise with the top 5 %
    call_reraised = 0.06 # call two or more raises with the top 6 %
    limp = false         # call the big blind instead of folding what it would not open
    open_size = 1.0      # open and raise sizes as fractions of the pot (capped by the structure)

    [postflop]
    bet = 0.65           # bet, or raise a bet, with equity above 0.65 (1: never)
    bluff = 0.0          # bet, when no one has bet this street, with equity below this too (0: never)
    call_factor = 1.0    # call when equity >= pot odds * call_factor (0: call anything)
    bet_river = 0.75     # any of these three on the turn or the river alone (bet_turn, bluff_river,
                         # call_factor_turn, ...); without one, the street plays as the flop
    bet_size = 0.66      # bets and raises as fractions of the pot
    samples = 64         # hand-strength samples per decision (opponent hands and boards)
    ranges = false       # true: opponents' hands drawn from what their preflop actions allow
                         # (engine.reads), not from every hand

    [random]             # random-legal only: weights of the legal actions, then raise sizes
    fold = 0.25          # fold (when facing a bet)
    check_call = 0.45    # check or call
    bet_raise = 0.30     # bet or raise (when allowed)
    min_raise = 0.3      # share of raises to the minimum ...
    max_raise = 0.3      # ... and to the maximum (pot-limit: the pot; no-limit: all-in);
                         # the rest uniform over every legal amount between

The draws of a ``random-legal`` seat come from ``engine.chance``: fixed by the hand's key and
the number of actions so far, so both engines draw the same action.

>>> p = builtin("regular")
>>> p.name, p.style, p.preflop.open_late, p.postflop.bet_size
('regular', 'thresholds', 0.35, 0.66)
>>> parse_policy("[preflop]\\nopen_erly = 0.2\\n", "mine.toml")
Traceback (most recent call last):
...
evaluator.errors.SampyongError: mine.toml: unknown key preflop.open_erly (known: call, call_reraised, limp, open_early, open_late, open_size, overcall, reraise)
"""

from __future__ import annotations

import dataclasses
import tomllib
from importlib import resources
from pathlib import Path

import numpy as np

from evaluator.errors import SampyongError

STYLES = ("thresholds", "check-call", "random-legal")


@dataclasses.dataclass(frozen=True)
class Preflop:
    """Preflop thresholds as shares of all starting hands (see the module docstring)."""

    open_early: float = 0.15
    open_late: float = 0.35
    call: float = 0.15
    overcall: float = 0.10
    reraise: float = 0.05
    call_reraised: float = 0.06
    limp: bool = False
    open_size: float = 1.0


@dataclasses.dataclass(frozen=True)
class Postflop:
    """Postflop thresholds on hand strength (equity against the opponents still in): against
    random hands, or with ``ranges`` against the hands each opponent's preflop actions allow
    under this policy's own preflop thresholds (``engine.reads``)."""

    bet: float = 0.65
    bet_turn: float | None = None
    bet_river: float | None = None
    bluff: float = 0.0
    bluff_turn: float | None = None
    bluff_river: float | None = None
    call_factor: float = 1.0
    call_factor_turn: float | None = None
    call_factor_river: float | None = None
    bet_size: float = 0.66
    samples: int = 64
    ranges: bool = False

    def at(self, street: int) -> tuple[float, float, float]:
        """``bet``, ``bluff`` and ``call_factor`` on ``street`` (1 the flop, 2 the turn, 3 the river):
        the street's own where the policy gives one, else the flop's.

        >>> Postflop(bet=0.6, bet_river=0.8, call_factor_turn=2.0).at(3)
        (0.8, 0.0, 1.0)
        """
        return tuple(self.value(name, street) for name in BY_STREET)

    def value(self, name: str, street: int) -> float:
        """``name`` (one of ``BY_STREET``) on ``street``: its own value there, else the flop's."""
        return self.resolved(name if street == 1 else f"{name}_{STREETS[street]}")

    def resolved(self, field: str):
        """The value of ``field``; a turn's or river's threshold left to the flop's (None) as the flop's.

        >>> Postflop(bet=0.6).resolved("bet_river"), Postflop(bet=0.6, bet_river=0.7).resolved("bet_river")
        (0.6, 0.7)
        """
        value = getattr(self, field)
        return getattr(self, field.rsplit("_", 1)[0]) if value is None else value


STREETS = ("preflop", "flop", "turn", "river")
BY_STREET = ("bet", "bluff", "call_factor")  # the postflop thresholds a policy may set street by street


@dataclasses.dataclass(frozen=True)
class Random:
    """A ``random-legal`` seat's action weights and raise sizes (see the module docstring)."""

    fold: float = 0.25
    check_call: float = 0.45
    bet_raise: float = 0.30
    min_raise: float = 0.3
    max_raise: float = 0.3


@dataclasses.dataclass(frozen=True)
class Policy:
    """A player's policy.

    Parameters:
        name: what ``sampyong policies`` lists it as.
        description: one line saying what kind of player it is.
        style: ``thresholds``, ``check-call`` or ``random-legal``.
        preflop, postflop: the thresholds (read by ``thresholds`` only).
        random: the action weights and raise sizes (read by ``random-legal`` only).

    >>> row = builtin("regular").encode()
    >>> row[[P_STYLE, P_OPEN_LATE, P_SAMPLES]].tolist()
    [0.0, 0.35, 64.0]
    """

    name: str
    description: str = ""
    style: str = "thresholds"
    preflop: Preflop = Preflop()
    postflop: Postflop = Postflop()
    random: Random = Random()

    def encode(self) -> np.ndarray:
        """The policy as the numba kernels read it: ``float64[ENCODED]``, indexed by the ``P_*``
        constants of this module (the kernels import them; nothing else spells the order)."""
        row = np.zeros(ENCODED, np.float64)
        row[P_STYLE] = STYLES.index(self.style)
        for section, first in ((self.preflop, P_OPEN_EARLY), (self.postflop, P_BET), (self.random, P_FOLD)):
            for offset, field in enumerate(dataclasses.fields(section)):
                value = section.resolved(field.name) if section is self.postflop else getattr(section, field.name)
                row[first + offset] = float(value)
        return row


# The encoded row: the style's index in STYLES, then every field of each section in order (a
# threshold the policy leaves to the flop's, such as ``bet_river``, at the flop's value: the
# kernels read a street's as ``P_BET + street - 1``).
P_STYLE = 0
(
    P_OPEN_EARLY,
    P_OPEN_LATE,
    P_CALL,
    P_OVERCALL,
    P_RERAISE,
    P_CALL_RERAISED,
    P_LIMP,
    P_OPEN_SIZE,
    P_BET,
    P_BET_TURN,
    P_BET_RIVER,
    P_BLUFF,
    P_BLUFF_TURN,
    P_BLUFF_RIVER,
    P_CALL_FACTOR,
    P_CALL_FACTOR_TURN,
    P_CALL_FACTOR_RIVER,
    P_BET_SIZE,
    P_SAMPLES,
    P_RANGES,
    P_FOLD,
    P_CHECK_CALL,
    P_BET_RAISE,
    P_MIN_RAISE,
    P_MAX_RAISE,
) = range(1, 26)
ENCODED = 26
THRESHOLDS, CHECK_CALL_STYLE, RANDOM_LEGAL = (float(i) for i in range(len(STYLES)))


# Keys whose values are shares in [0, 1]; every other number must be at least 0.
_SHARES = {
    "open_early",
    "open_late",
    "call",
    "overcall",
    "reraise",
    "call_reraised",
    "bet",
    "bet_turn",
    "bet_river",
    "bluff",
    "bluff_turn",
    "bluff_river",
    "min_raise",
    "max_raise",
}


def _section(cls, data, where: str, path: str):
    if not isinstance(data, dict):
        raise SampyongError(f"{path}: [{where}] must be a table")
    known = {f.name: f for f in dataclasses.fields(cls)}
    values = {}
    for key, value in data.items():
        if key not in known:
            raise SampyongError(f"{path}: unknown key {where}.{key} (known: {', '.join(sorted(known))})")
        kind = known[key].type
        if kind == "bool":
            if not isinstance(value, bool):
                raise SampyongError(f"{path}: {where}.{key} must be true or false, not {value!r}")
        elif kind == "int":
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise SampyongError(f"{path}: {where}.{key} must be a whole number of at least 1, not {value!r}")
        else:
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise SampyongError(f"{path}: {where}.{key} must be a number, not {value!r}")
            value = float(value)
            if key in _SHARES and not 0 <= value <= 1:
                raise SampyongError(f"{path}: {where}.{key} = {value:g} is not a share from 0 to 1")
            if value < 0:
                raise SampyongError(f"{path}: {where}.{key} = {value:g} cannot be negative")
        values[key] = value
    return cls(**values)


def parse_policy(text: str, path: str = "<policy>", name: str | None = None) -> Policy:
    """A policy from TOML text; ``SampyongError`` (naming ``path``) for anything else, an unknown
    key, a share outside [0, 1] or a negative size."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise SampyongError(f"{path}: not a policy file ({error})") from None
    except RecursionError:  # tomllib recurses once per level of nesting
        raise SampyongError(f"{path}: not a policy file (arrays or tables nested too deep)") from None
    top = {"name", "description", "style", "preflop", "postflop", "random"}
    for key in data:
        if key not in top:
            raise SampyongError(f"{path}: unknown key {key} (known: {', '.join(sorted(top))})")
    style = data.get("style", "thresholds")
    if style not in STYLES:
        raise SampyongError(f"{path}: style {style!r} is not one of {', '.join(STYLES)}")
    return Policy(
        name=str(data.get("name", name or Path(path).stem)),
        description=str(data.get("description", "")),
        style=style,
        preflop=_section(Preflop, data.get("preflop", {}), "preflop", path),
        postflop=_section(Postflop, data.get("postflop", {}), "postflop", path),
        random=_random_section(data.get("random", {}), path),
    )


def _random_section(data, path: str) -> Random:
    section = _section(Random, data, "random", path)
    if section.min_raise + section.max_raise > 1:
        raise SampyongError(
            f"{path}: random.min_raise + random.max_raise = {section.min_raise + section.max_raise:g} is over 1"
        )
    if section.check_call <= 0:
        raise SampyongError(f"{path}: random.check_call must be above 0 (a check or call is always legal)")
    return section


def tables_toml(policy: Policy) -> list[str]:
    """The ``[preflop]`` and ``[postflop]`` tables of a thresholds policy, as lines of its TOML file
    (``parse_policy`` reads them back).

    >>> tables_toml(builtin("regular"))[:2]
    ['[preflop]', 'open_early = 0.14']
    """

    def lines(section, cls) -> list[str]:
        values = [(field.name, getattr(section, field.name)) for field in dataclasses.fields(cls)]
        return [
            f"{name} = {str(value).lower() if isinstance(value, bool) else value}"
            for name, value in values
            if value is not None
        ]  # a street that plays as the flop is left out

    return ["[preflop]", *lines(policy.preflop, Preflop), "", "[postflop]", *lines(policy.postflop, Postflop), ""]


def builtin_names() -> list[str]:
    """The policies that ship with the package."""
    return sorted(
        p.name[:-5] for p in resources.files("engine").joinpath("policies").iterdir() if p.name.endswith(".toml")
    )


def builtin_text(name: str) -> str:
    """The TOML text of a built-in policy (``SampyongError`` naming the built-ins if unknown)."""
    if name not in builtin_names():
        raise SampyongError(f"unknown policy {name!r}; built-ins: {', '.join(builtin_names())} (or a .toml file)")
    return resources.files("engine").joinpath("policies", f"{name}.toml").read_text(encoding="utf-8")


def builtin(name: str) -> Policy:
    return parse_policy(builtin_text(name), f"{name}.toml", name)


def load_policy(spec: str) -> Policy:
    """A built-in policy by name, or a policy file by path."""
    path = Path(spec)
    if spec.endswith(".toml") or path.is_file():
        try:
            return parse_policy(path.read_text(encoding="utf-8"), str(path))
        except OSError as error:
            raise SampyongError(f"cannot read {path}: {error.strerror or error}") from None
    return builtin(spec)
