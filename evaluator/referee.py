"""The showdown referee behind ``sampyong eval``: hands in text, verdict as plain data.

>>> r = referee("plo8", "Ad 8c 5h Ks 2c", ["As Ah 3s 6d", "Kh Qc Jh Td"], pot=101)
>>> [(p["high"]["category"], p["low"] and " ".join(p["low"]["cards"]), p["chips"]) for p in r["players"]]
[('three_of_a_kind', '6d 5h 3s 2c Ad', 101), ('one_pair', None, 0)]
"""

from __future__ import annotations

from evaluator import reference
from evaluator.cards import check_distinct, format_card, parse_cards
from evaluator.errors import SampyongError
from evaluator.games import Game
from evaluator.games import game as preset
from evaluator.settle import MAX_CHIPS, split_pot


def referee(game: Game | str, board: str | list[str], hands: list[str], pot: int = 100, button: int = 0) -> dict:
    """Judge one showdown: each player's best high and low and the chips won from ``pot``."""
    g = preset(game) if isinstance(game, str) else game
    board_cards = parse_cards(board)
    if len(board_cards) != g.board_cards:
        raise SampyongError(f"{g.name}: the board needs {g.board_cards} cards, got {len(board_cards)}")
    if not hands:
        raise SampyongError("give at least one hand")
    holes = []
    for text in hands:
        hole = parse_cards(text)
        if len(hole) != g.hole_cards:
            raise SampyongError(f"{g.name}: each hand needs {g.hole_cards} hole cards, got {len(hole)} in {text!r}")
        holes.append(hole)
    if len(holes) > g.max_players:
        raise SampyongError(f"{g.name}: at most {g.max_players} players, got {len(holes)}")
    check_distinct(board_cards + [c for h in holes for c in h])
    if pot < 0:
        raise SampyongError(f"the pot cannot be negative, got {pot}")
    if pot > MAX_CHIPS:
        raise SampyongError(f"the pot holds at most 2**62 chips, got {pot}")
    if not 0 <= button < len(holes):
        raise SampyongError(f"button must be a seat from 0 to {len(holes) - 1}, got {button}")

    highs = [reference.best_high(g, hole, board_cards) for hole in holes]
    lows = [reference.best_low(g, hole, board_cards) for hole in holes]
    chips = split_pot(
        pot,
        [h.strength for h in highs],
        [lo.strength if lo else 0 for lo in lows],
        list(range(len(holes))),
        button,
    )
    return {
        "game": g.name,
        "board": [format_card(c) for c in board_cards],
        "pot": pot,
        "button": button,
        "players": [
            {
                "hole": [format_card(c) for c in hole],
                "high": {"category": high.category.name, "cards": [format_card(c) for c in high.cards]},
                "low": {"cards": [format_card(c) for c in low.cards]} if low else None,
                "chips": won,
            }
            for hole, high, low, won in zip(holes, highs, lows, chips)
        ],
    }


def referee_lines(lines, game: str = "pls7", pot: int = 100, button: int = 0, source: str = "input") -> list[dict]:
    """Judge every deal of a JSON-lines stream (``{"game", "board", "hands", "pot", "button"}``,
    ``game``, ``pot`` and ``button`` defaulting to the arguments); blank lines are skipped.

    Every line is judged before anything is returned, so a bad line (a ``SampyongError``
    naming ``source`` and the line number) leaves no partial output.

    >>> deal = '{"game": "plo8", "board": "Ad 8c 5h Ks 2c", "hands": ["As Ah 3s 6d", "Kh Qc Jh Td"], "pot": 101}'
    >>> [p["chips"] for p in referee_lines([deal, ""])[0]["players"]]
    [101, 0]
    >>> referee_lines(['{"board": "Ad"}'], source="deals.jsonl")
    Traceback (most recent call last):
    ...
    evaluator.errors.SampyongError: deals.jsonl line 1: bad JSON deal (KeyError('hands'))
    """
    import json

    results = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            deal = json.loads(line)
            results.append(
                referee(
                    deal.get("game", game),
                    deal["board"],
                    deal["hands"],
                    pot=int(deal.get("pot", pot)),
                    button=int(deal.get("button", button)),
                )
            )
        except (ValueError, KeyError, TypeError, AttributeError, OverflowError, RecursionError) as error:
            message = (
                str(error)
                if isinstance(error, SampyongError)
                else "bad JSON deal (nested too deep)"
                if isinstance(error, RecursionError)
                else f"bad JSON deal ({error!r})"
            )
            raise SampyongError(f"{source} line {number}: {message}") from None
    return results
