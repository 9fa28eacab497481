"""The calculator (``sampyong games``, ``eval``, ``equity``, ``range``, ``precompute``): the game
presets, a showdown refereed, the equity of hands and ranges, a range expanded. Each function
imports the rules it needs when called: ``sampyong eval`` and a small exact ``equity`` load
neither numba nor polars (``tests/test_light_commands.py``)."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import TYPE_CHECKING

from evaluator.errors import SampyongError
from sampyong.rankings import ranking

if TYPE_CHECKING:
    import polars as pl


def games() -> pl.DataFrame:
    """The game presets: ``name, hole_cards, hole_use_min, hole_use_max, ranking, low, max_players``
    (``low`` null for high only).

    >>> games().filter(name="plo8").select("hole_cards", "low").row(0)
    (4, 8)
    """
    import polars as pl

    from evaluator.games import PRESETS

    return pl.DataFrame(
        [
            {
                "name": g.name,
                "hole_cards": g.hole_cards,
                "hole_use_min": g.hole_use[0],
                "hole_use_max": g.hole_use[1],
                "ranking": g.ranking.name,
                "low": g.low,
                "max_players": g.max_players,
            }
            for g in PRESETS.values()
        ],
        schema={
            "name": pl.String,
            "hole_cards": pl.Int64,
            "hole_use_min": pl.Int64,
            "hole_use_max": pl.Int64,
            "ranking": pl.String,
            "low": pl.Int64,
            "max_players": pl.Int64,
        },
    )


@dataclasses.dataclass(frozen=True)
class Equity:
    """All-in equity of hands or ranges (``sy.equity``).

    Parameters:
        game: the game's name.
        board: the known board cards.
        exact: True when every deal was enumerated (then no standard errors).
        samples: the boards enumerated, or the deals sampled.
        hands: a row per hand: ``hand, equity, equity_se, win, tie, high, low, scoop`` (and
            ``combos`` for a range), as ``evaluator.equity.equity`` defines them.

    >>> equity(["As Ah", "Kd Kc"], board="Qs Js 2h 3c", game="holdem").frame.select("hand", "win").rows()
    [('As Ah', 0.9545454545454546), ('Kd Kc', 0.045454545454545456)]
    """

    game: str
    board: str
    exact: bool
    samples: int
    hands: tuple[dict, ...]

    @property
    def frame(self) -> pl.DataFrame:
        """The rows as a polars frame."""
        import polars as pl

        return pl.DataFrame(list(self.hands))

    def _repr_html_(self) -> str:
        kind = "exact" if self.exact else f"Monte Carlo, {self.samples:,} deals"
        return f"<p>{self.game}, board {self.board or '(none)'}: {kind}</p>" + self.frame._repr_html_()


def equity(
    hands: list[str],
    *,
    board: str = "",
    dead: str = "",
    game: str = "pls7",
    samples: str | int | None = None,
    seed: int = 0,
    exact: bool | None = None,
    threads: int | None = None,
) -> Equity:
    """Equity of hands, ``random`` hands and ranges against each other (``sampyong equity``):
    exact when enumerating fits about a second, else sampled with standard errors; ``N%``
    ranges use the game's ranking (``ranking``). ``samples`` forces sampling (default 1M deals
    when enumeration does not fit), ``exact=True`` enumerates beyond the budget, ``threads``
    sets how many threads enumerate (default every core; the answer does not depend on it).
    ``SampyongError`` for bad cards, ranges or counts.

    >>> result = equity(["As Ah", "Kd Kc"], board="Qs Js 2h 3c", game="holdem")
    >>> result.exact, [round(h["equity"], 4) for h in result.hands]
    (True, [0.9545, 0.0455])
    """
    from evaluator.equity import equity as compute
    from evaluator.games import game as preset
    from pipeline.counts import parse_count

    if samples is not None and exact:
        raise SampyongError("give samples (Monte Carlo) or exact, not both")
    if samples is not None:
        exact = False
    rules = preset(game)
    result = compute(
        rules,
        list(hands),
        board=board,
        dead=dead,
        samples=parse_count(str("1M" if samples is None else samples), "sample count"),
        seed=seed,
        exact=exact,
        top=lambda percent: ranking(rules).top(percent),
        threads=threads,
    )
    return Equity(result["game"], result["board"], result["exact"], result["samples"], tuple(result["hands"]))


def precompute(*, threads: int | None = None, progress=None) -> Path:
    """Build the tables the calculator looks up rather than enumerates, unless this machine has
    them (``sampyong precompute``): hold'em heads-up before the flop, every pair of hands
    (``evaluator.preflop``; about a minute on two cores, once). The table's file.
    ``progress(done, total)`` follows the pair classes counted.

    >>> precompute().name  # doctest: +SKIP
    'holdem-preflop-v1-t5.npz'
    >>> precompute(threads=0)
    Traceback (most recent call last):
    ...
    evaluator.errors.SampyongError: threads must be at least 1
    """
    from evaluator import preflop

    if threads is not None and threads < 1:
        raise SampyongError("threads must be at least 1")
    return preflop.precompute(threads, progress)


@dataclasses.dataclass(frozen=True)
class Verdict:
    """A showdown refereed (``sy.evaluate``).

    Parameters:
        game: the game's name.
        board: the five board cards.
        pot: the chips in the pot.
        button: the dealer's seat.
        players: per seat, as the ``--json`` object writes it: ``hole``, ``high`` (``category``,
            ``cards``), ``low`` (``cards``, or None) and ``chips`` won.

    >>> evaluate("Ad 8c 5h Ks 2c", ["As Ah 3s 6d", "Kh Qc Jh Td"], game="plo8").frame.select("high", "chips").rows()
    [('three_of_a_kind', 100), ('one_pair', 0)]
    """

    game: str
    board: tuple[str, ...]
    pot: int
    button: int
    players: tuple[dict, ...]

    def as_dict(self) -> dict:
        """The ``sampyong eval --json`` object."""
        return {
            "game": self.game,
            "board": list(self.board),
            "pot": self.pot,
            "button": self.button,
            "players": list(self.players),
        }

    @property
    def frame(self) -> pl.DataFrame:
        """A row per seat: ``seat, hole, high, high_cards, low, chips``."""
        import polars as pl

        return pl.DataFrame(
            [
                {
                    "seat": seat,
                    "hole": " ".join(p["hole"]),
                    "high": p["high"]["category"],
                    "high_cards": " ".join(p["high"]["cards"]),
                    "low": " ".join(p["low"]["cards"]) if p["low"] else None,
                    "chips": p["chips"],
                }
                for seat, p in enumerate(self.players)
            ],
            schema={
                "seat": pl.Int64,
                "hole": pl.String,
                "high": pl.String,
                "high_cards": pl.String,
                "low": pl.String,
                "chips": pl.Int64,
            },
        )

    def _repr_html_(self) -> str:
        return f"<p>{self.game}, board {' '.join(self.board)}, pot {self.pot}</p>" + self.frame._repr_html_()


def evaluate(board: str, hands: list[str], *, game: str = "pls7", pot: int = 100, button: int = 0) -> Verdict:
    """Referee one showdown (``sampyong eval``): each player's high and low and the chips won.

    >>> [p["chips"] for p in evaluate("Ad 8c 5h Ks 2c", ["As Ah 3s 6d", "Kh Qc Jh Td"], game="plo8", pot=101).players]
    [101, 0]
    """
    from evaluator.referee import referee

    result = referee(game, board, list(hands), pot=pot, button=button)
    return Verdict(result["game"], tuple(result["board"]), result["pot"], result["button"], tuple(result["players"]))


@dataclasses.dataclass(frozen=True)
class Range:
    """A range expanded (``sy.range``): its hands and weights in one game.

    Parameters:
        game: the game's name.
        expression: the range as written.
        hands: each hand's cards (``"As Kd"``), in card order.
        weights: each hand's weight, 0 to 1.
        share: the weighted share of all starting hands of the game.

    >>> range("AA@50, KK", game="holdem").frame["weight"].sum()
    9.0
    """

    game: str
    expression: str
    hands: tuple[str, ...]
    weights: tuple[float, ...]
    share: float

    @property
    def size(self) -> int:
        """How many hands the range holds."""
        return len(self.hands)

    @property
    def frame(self) -> pl.DataFrame:
        """``hand, weight``, a row per hand."""
        import polars as pl

        return pl.DataFrame(
            {"hand": list(self.hands), "weight": list(self.weights)}, schema={"hand": pl.String, "weight": pl.Float64}
        )

    def _repr_html_(self) -> str:
        return (
            f"<p>{self.game} {self.expression}: {self.size:,} hands, {100 * self.share:.3f} %</p>"
            + self.frame._repr_html_()
        )


def range(expression: str, *, game: str = "pls7") -> Range:  # noqa: A001  the command's name
    """Expand a range (``sampyong range``): the hands it holds and its share of all starting hands.
    The grammar is in ``evaluator.ranges``; ``N%`` uses the game's ``ranking``.

    >>> r = range("QQ+, AKs", game="holdem")
    >>> r.size, round(100 * r.share, 3), r.hands[:2]
    (22, 1.659, ('Qs Qh', 'Qs Qd'))
    """
    from evaluator.cards import format_cards
    from evaluator.games import game as preset
    from evaluator.ranges import parse_range

    rules = preset(game)
    parsed = parse_range(expression, rules, lambda percent: ranking(rules).top(percent))
    return Range(
        rules.name, expression, tuple(format_cards(c) for c in parsed.combos), parsed.weights, parsed.share(rules)
    )
