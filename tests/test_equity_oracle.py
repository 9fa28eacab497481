"""Every path of ``evaluator.equity.equity`` against a brute-force oracle.

The four paths: specific hands enumerated exactly, specific and ``random`` hands sampled, ranges
enumerated exactly, ranges (with specific and ``random`` hands) sampled by weight. Each is run
with 0, 3, 4 and 5 board cards known, in hold'em, PLS7 and PLO8; dead cards shrink the deck so
that the oracle, which uses the slow reference evaluator, can enumerate everything.

The oracle enumerates every compatible assignment of hands (a range's combos with their
weights, ``random`` as every hand of the deck left after board and dead cards) and every board
completion from the rest of the deck, and splits each pot by RULES.md section 6 in exact
fractions. Each figure is the mean over deals weighted by the product of the range weights:

* equity: the player's share of the pot;
* win: the share is the whole pot (taken alone);
* tie: the share is part of the pot (0 < share < 1);
* high, low: the part won from the high half and from the low half, as fractions of the pot
  (with no qualifying low the "high half" is the whole pot);
* scoop: some player has a low and this player takes the whole pot.

Exact results must equal the oracle to 1e-9. Sampled results must lie within 4 standard errors:
the reported ``equity_se`` for equity (itself checked against the oracle's spread), the binomial
``sqrt(p (1 - p) / n)`` for win, tie and scoop, and for high and low (values in [0, 1]) the
bound ``sqrt(m (1 - m) / n)`` on the standard error of a mean ``m`` of values in [0, 1].
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import math
from fractions import Fraction

import pytest

from evaluator import reference
from evaluator.cards import format_cards, parse_cards
from evaluator.equity import equity
from evaluator.errors import SampyongError
from evaluator.games import game
from evaluator.ranges import parse_range

FIELDS = ("equity", "win", "tie", "high", "low", "scoop")
FULL_DECK = frozenset(range(52))


# --- the oracle ----------------------------------------------------------------------------


@functools.cache
def _strengths(game_name: str, hole: tuple[int, ...], board: tuple[int, ...]) -> tuple[int, int | None]:
    """(high strength, low strength or None) of one hand by the reference evaluator."""
    shown = reference.showdown(game(game_name), hole, board)
    return shown.high.strength, (shown.low.strength if shown.low is not None else None)


def _split(strengths: list[tuple[int, int | None]]) -> list[tuple[Fraction, Fraction]]:
    """Each player's (high part, low part) of one pot, as fractions of the pot (RULES 6): with a
    qualifying low the pot is halved, tied winners of a half share it equally; else the best
    high takes it all."""
    highs = [high for high, _ in strengths]
    lows = [low for _, low in strengths]
    high_winners = [p for p, high in enumerate(highs) if high == max(highs)]
    qualifying = [low for low in lows if low is not None]
    if qualifying:
        low_winners = [p for p, low in enumerate(lows) if low == max(qualifying)]
        high_pot, low_pot = Fraction(1, 2), Fraction(1, 2)
    else:
        low_winners, high_pot, low_pot = [], Fraction(1), Fraction(0)
    return [
        (
            high_pot / len(high_winners) if p in high_winners else Fraction(0),
            low_pot / len(low_winners) if p in low_winners else Fraction(0),
        )
        for p in range(len(strengths))
    ]


def _options(g, text: str, live: list[int]) -> list[tuple[tuple[int, ...], Fraction]]:
    """Every hand a player may hold, with its weight: ``random`` is every hand of ``live``
    cards, cards are that one hand, anything else is a range (its combos and weights). Hands
    holding a card out of play (board or dead) are left out: no deal can give them."""
    if text.strip().lower() == "random":
        return [(hand, Fraction(1)) for hand in itertools.combinations(live, g.hole_cards)]
    try:
        cards = parse_cards(text)
    except SampyongError:
        cards = None
    if cards is not None and len(cards) == g.hole_cards:
        return [(tuple(sorted(cards)), Fraction(1))]
    rng = parse_range(text, g)
    return [(tuple(c), Fraction(w)) for c, w in zip(rng.combos, rng.weights) if set(c) <= set(live)]


def _assignments(options, held=frozenset()):
    """Every way to give each player one of its hands with no card given twice, as lists of
    (hand, weight)."""
    if not options:
        yield []
        return
    for hand, weight in options[0]:
        if held.isdisjoint(hand):
            for rest in _assignments(options[1:], held | set(hand)):
                yield [(hand, weight)] + rest


@dataclasses.dataclass
class Expected:
    """The oracle's figures: per player a dict of FIELDS (Fractions) and ``sd`` (the weighted
    population standard deviation of the share); ``deals`` (hand assignments times board
    completions); what happened in at least one deal."""

    players: list[dict]
    deals: int
    quartered: bool  # some player won a quarter of a pot (a half split between two)
    whole_pot_no_low: bool  # some player took a whole pot that had no qualifying low
    scooped: bool  # some player took both halves of a pot with a low


@functools.cache
def oracle(game_name: str, hands: tuple[str, ...], board: str = "", dead: str = "") -> Expected:
    """Brute force: every compatible hand assignment (weighted by the product of its range
    weights) times every board completion, each pot split in exact fractions."""
    g = game(game_name)
    board_cards = parse_cards(board) if board else []
    dead_cards = parse_cards(dead) if dead else []
    live = sorted(FULL_DECK - set(board_cards) - set(dead_cards))
    options = [_options(g, text, live) for text in hands]
    players = len(hands)
    total_weight = Fraction(0)
    sums = [dict.fromkeys(FIELDS + ("square",), Fraction(0)) for _ in range(players)]
    deals = 0
    quartered = whole_pot_no_low = scooped = False
    for assignment in _assignments(options):
        holes = [hand for hand, _ in assignment]
        held = [c for hand in holes for c in hand]
        weight = math.prod(w for _, w in assignment)
        rest = [c for c in live if c not in held]
        for completion in itertools.combinations(rest, g.board_cards - len(board_cards)):
            full_board = tuple(sorted(board_cards + list(completion)))
            strengths = [_strengths(game_name, hole, full_board) for hole in holes]
            has_low = any(low is not None for _, low in strengths)
            parts = _split(strengths)
            deals += 1
            total_weight += weight
            for p, (high, low) in enumerate(parts):
                share = high + low
                s = sums[p]
                s["equity"] += weight * share
                s["square"] += weight * share * share
                s["win"] += weight * (share == 1)
                s["tie"] += weight * (0 < share < 1)
                s["high"] += weight * high
                s["low"] += weight * low
                s["scoop"] += weight * (has_low and share == 1)
                quartered |= has_low and Fraction(1, 4) in (high, low)
                whole_pot_no_low |= share == 1 and not has_low
                scooped |= share == 1 and has_low
    assert deals, "no deal: the hands never fit together"
    out = []
    for s in sums:
        figures = {field: s[field] / total_weight for field in FIELDS}
        figures["sd"] = math.sqrt(max(float(s["square"] / total_weight - figures["equity"] ** 2), 0.0))
        out.append(figures)
    return Expected(out, deals, quartered, whole_pot_no_low, scooped)


# --- comparing -----------------------------------------------------------------------------


def dead_except(*texts: str) -> str:
    """Every card not named in ``texts`` (hands, board, live deck): the dead cards that leave
    exactly those cards in play."""
    named = set()
    for text in texts:
        named |= set(parse_cards(text))
    return format_cards(sorted(FULL_DECK - named))


def boards_enumerated(game_name, hands, board, dead) -> int:
    """The completions of the board an exact answer enumerates: from the deck without the known
    and dead cards and without any card that every hand of some player holds."""
    g = game(game_name)
    board_cards = parse_cards(board) if board else []
    known = set(board_cards) | set(parse_cards(dead) if dead else [])
    held = set()
    for text in hands:
        if text == "random":
            continue
        hands_of = [set(c) for c in parse_range(text, g).combos if not known & set(c)]
        held |= set.intersection(*hands_of)
    return math.comb(52 - len(known) - len(held), g.board_cards - len(board_cards))


def check(game_name, hands, board="", dead="", *, exact=None, samples=200_000, seed=1) -> Expected:
    """Run ``equity`` and compare every figure of every player with the oracle; returns the
    oracle's figures for the test's own checks on the case."""
    want = oracle(game_name, tuple(hands), board, dead)
    got = equity(game_name, list(hands), board=board, dead=dead, exact=exact, samples=samples, seed=seed)
    assert got["exact"] is (exact is not False)
    n = got["samples"]
    if got["exact"]:
        assert n == boards_enumerated(game_name, hands, board, dead)
    else:
        assert n == samples
    assert len(got["hands"]) == len(hands)
    for p, (have, expect) in enumerate(zip(got["hands"], want.players)):
        for field in FIELDS:
            value = float(expect[field])
            if got["exact"]:
                tolerance = 1e-9
            elif field == "equity":
                tolerance = 4 * have["equity_se"]
            else:  # binomial for win, tie, scoop; the [0, 1] bound for high, low
                tolerance = 4 * math.sqrt(value * (1 - value) / n)
            assert abs(have[field] - value) <= tolerance + 1e-12, (p, field, have[field], value, tolerance)
        if got["exact"]:
            assert have["equity_se"] == 0
        else:
            assert have["equity_se"] == pytest.approx(expect["sd"] / math.sqrt(n), rel=0.05), p
    return want


def varied(want: Expected, *fields: str) -> None:
    """The case is informative: each named figure lies strictly between 0 and 1 for some player."""
    for field in fields:
        assert any(0 < p[field] < 1 for p in want.players), field


# --- exact, specific hands -------------------------------------------------------------------


def test_exact_specific_holdem_no_board():
    """Hold'em, three specific hands, nothing on the board, a 10-card live deck: enumerated by
    default and equal to the oracle (ties, whole pots and never a scoop)."""
    hands = ["As Kd", "Ac Kh", "7s 7d"]
    dead = dead_except(*hands, "Qs Js Ts 7c 2d 2h 5c 9d Ks 3h")
    want = check("holdem", hands, dead=dead)
    varied(want, "equity", "win", "tie", "high")
    assert want.whole_pot_no_low and all(p["scoop"] == p["low"] == 0 for p in want.players)


def test_exact_specific_pls7_flop_quartered():
    """PLS7, three specific hands on a 3-card board: exact (asked for) and equal to the oracle,
    low halves quartered in some deals."""
    hands, board = ["As 2h 3d", "Ad 2c Kh", "Ks Kc 8s"], "4s 5h Tc"
    dead = dead_except(*hands, board, "6s 7h 7c 3c Qs Qh Js 9d 2d 5c Ac 8d")
    want = check("pls7", hands, board, dead, exact=True)
    varied(want, *FIELDS)
    assert want.quartered


def test_exact_specific_plo8_turn():
    """PLO8, three specific hands on a 4-card board with a low only on some rivers: exact and
    equal to the oracle, whole pots both with and without a low."""
    hands, board = ["2s 3s Kd Jh", "Ac 8c Qd Qh", "3c 4d 9h Ts"], "Ah 5d Kc Qs"
    dead = dead_except(*hands, board, "2d 4s 6c 6h 7d 7s 8s 9c Tc Th Jc Jd 3h 5c Ks Ad")
    want = check("plo8", hands, board, dead, exact=True)
    varied(want, *FIELDS)
    assert want.whole_pot_no_low and want.scooped


def test_exact_specific_pls7_river_one_deal():
    """PLS7 river with a dead card: the one deal is enumerated, the two wheels quarter the pot
    and the full house takes the high half."""
    want = check("pls7", ["As 3h Qc", "Ad 3c 9s", "Ks 9h 9d"], "2s 4h 5d Kc Kd", "Jh")
    assert want.deals == 1 and want.quartered
    assert [p["equity"] for p in want.players] == [Fraction(1, 4), Fraction(1, 4), Fraction(1, 2)]


def test_exact_no_low_possible_whole_pots_are_not_scoops():
    """PLO8 with three high cards on the flop, so no low is possible: whole pots are wins, never
    scoops, and the whole pot counts as the high part."""
    hands, board = ["As 2s Kd Jh", "Ac 3c Qd Th", "4h 5h 9h 9s"], "Kh Qc 9d"
    dead = dead_except(*hands, board, "2d 3d 6c 6s 7d 8s Tc Js Ks Ah")
    want = check("plo8", hands, board, dead, exact=True)
    varied(want, "equity", "win", "tie", "high")
    assert want.whole_pot_no_low and not want.scooped
    assert all(p["scoop"] == p["low"] == 0 for p in want.players)


# --- sampled, specific and random hands ----------------------------------------------------


def test_sampled_specific_vs_random_pls7_no_board():
    """PLS7, a specific hand against a random one, nothing on the board, a 12-card live deck:
    sampled figures within 4 standard errors of the oracle."""
    dead = dead_except("As 2h 3d", "4c 5c 6s 7h Kd Kh Qs 8c 9c")
    want = check("pls7", ["As 2h 3d", "random"], dead=dead, exact=False, seed=11)
    varied(want, *FIELDS)
    assert want.quartered


def test_sampled_specific_holdem_flop():
    """Hold'em, three specific hands on a 3-card board (only the board drawn), often chopping:
    sampled figures within 4 standard errors of the oracle."""
    hands, board = ["As Qd", "Ac Qh", "8s 8c"], "Kd Js 4c"
    dead = dead_except(*hands, board, "Ad Kh Qs Tc Th 9s 8h 4s 2s 3h 7d")
    want = check("holdem", hands, board, dead, exact=False, seed=12)
    varied(want, "equity", "win", "tie", "high")


def test_sampled_specific_vs_random_plo8_turn():
    """PLO8, a specific hand against a random one on a 4-card board: sampled figures within
    4 standard errors of the oracle."""
    board = "3d 7h Kc 8s"
    dead = dead_except("Ah 2c Kd Qs", board, "As 2s 4c 5h 6d Ks Qh 8d Td Jc")
    want = check("plo8", ["Ah 2c Kd Qs", "random"], board, dead, exact=False, seed=13)
    varied(want, *FIELDS)


def test_sampled_specific_vs_two_randoms_holdem_river():
    """Hold'em river, a specific hand against two random ones from a 14-card live deck: sampled
    figures within 4 standard errors of the oracle."""
    board = "Ah 7c 7d 2s Jh"
    dead = dead_except("As Kd", board, "Ac Ks Kc 7h 2c 2d Jc Qs Ts 9h 8h 3c 4d 5h")
    want = check("holdem", ["As Kd", "random", "random"], board, dead, exact=False, seed=14)
    varied(want, "equity", "win", "tie", "high")


# --- exact, ranges ---------------------------------------------------------------------------

# Three weighted ranges, each left with two hands by the dead cards, weighted differently.
HOLDEM_RANGES = ["AA@50, 76s", "KK, 98s@25", "QQ@10, 54s"]
HOLDEM_RANGES_LIVE = "As Ah 7c 6c Ks Kh 9d 8d Qs Qh 5h 4h 2s Tc"


def test_exact_ranges_holdem_no_board_weighted_in_every_position():
    """Hold'em, three ranges each with two hands of different weights, nothing on the board:
    enumerated by default and equal to the oracle's weighted figures."""
    want = check("holdem", HOLDEM_RANGES, dead=dead_except(HOLDEM_RANGES_LIVE))
    varied(want, "equity", "win", "tie", "high")


def test_exact_ranges_pls7_flop_patterns():
    """PLS7, two weighted pattern ranges and a specific hand on a 3-card board: exact and equal
    to the oracle's weighted figures."""
    hands, board = ["AA*@30, KK*", "23*, 67*@60", "Jh Jd 9c"], "4s 5h Tc"
    dead = dead_except(board, "Jh Jd 9c", "As Ah Ks Kh 2c 3c 6d 7s 8h Qd")
    want = check("pls7", hands, board, dead, exact=True)
    varied(want, *FIELDS)
    assert want.quartered


def test_exact_ranges_plo8_turn():
    """PLO8, a weighted list of hands and a weighted pattern range on a 4-card board: exact and
    equal to the oracle's weighted figures."""
    hands = ["As 2s Ks Qh@40, Ah 2h 9h Qd, Ac 4c 5c Jd@70", "KKQ6@25, 456T"]
    board = "3d 7h Kc 8s"
    dead = dead_except(board, "As 2s Ks Qh Ah 2h 9h Qd Ac 4c 5c Jd Kd Kh 6s 6h 4h 5s Ts Tc")
    want = check("plo8", hands, board, dead)
    varied(want, "equity", "tie", "high", "low", "win", "scoop")


def test_exact_ranges_holdem_river_three_ranges():
    """Hold'em river, three ranges weighted in every position and a dead card: exact and equal to
    the oracle's weighted figures."""
    hands = ["QQ+@50, AKs, 65s", "JJ-TT@25, AQo, 87s@60", "TT@10, A9s+, 44, 53s@75"]
    want = check("holdem", hands, "Kh 9s 6d 4c 2h", "Ad 8s", exact=True)
    varied(want, "equity", "win", "tie", "high")


# --- sampled, ranges -------------------------------------------------------------------------


def test_sampled_ranges_holdem_no_board_weighted_in_every_position():
    """Hold'em, three ranges each with two hands of different weights, nothing on the board:
    sampled by weight within 4 standard errors of the oracle."""
    want = check("holdem", HOLDEM_RANGES, dead=dead_except(HOLDEM_RANGES_LIVE), exact=False, seed=21)
    varied(want, "equity", "win", "tie", "high")


def test_sampled_ranges_pls7_flop_patterns_and_random():
    """PLS7, two weighted pattern ranges around a random hand on a 3-card board, an 11-card live
    deck: sampled by weight within 4 standard errors of the oracle."""
    hands, board = ["AA*@30, KK*", "random", "23*, 67*@60"], "4s 5h Tc"
    dead = dead_except(board, "As Ah Ks Kh 2c 3c 6d 7s 8h Qd Jh")
    want = check("pls7", hands, board, dead, exact=False, seed=22)
    varied(want, *FIELDS)
    assert want.quartered


def test_sampled_ranges_plo8_turn_specific_range_random():
    """PLO8, a specific hand, a weighted pattern range and a random hand on a 4-card board:
    sampled by weight within 4 standard errors of the oracle."""
    hands, board = ["As 2s Ks Qh", "KKQ*@25, 456*, A2**@60", "random"], "3d 7h Kc 8s"
    dead = dead_except(board, "As 2s Ks Qh", "Ah 2h 4c 5c 6d 6h Kd Qd Jd Th")
    want = check("plo8", hands, board, dead, exact=False, seed=23)
    varied(want, "equity", "win", "tie", "high", "low", "scoop")
    assert want.quartered


def test_sampled_ranges_pls7_river_with_random():
    """PLS7 river, two weighted pattern ranges and a random hand: sampled by weight within
    4 standard errors of the oracle."""
    hands, board = ["A2*@40, KK*", "34*, QQ*@20", "random"], "5s 6h 7c Kd 9h"
    dead = dead_except(board, "As Ah 2s Ks Kh 3c 4s 4h Qs Qd Jc 8d")
    want = check("pls7", hands, board, dead, exact=False, seed=24)
    varied(want, *FIELDS)


def test_sampled_ranges_holdem_turn_range_and_two_randoms():
    """Hold'em turn, a weighted range and two random hands (each random hand dealt its own
    cards, after the river, from the row's rest of the deck): sampled by weight within
    4 standard errors of the oracle."""
    hands, board = ["AA@40, KQs", "random", "random"], "Kh 9s 6d 2c"
    dead = dead_except(board, "As Ah Ks Qs Kd Qd Jc Tc 9h 6c 5s")
    want = check("holdem", hands, board, dead, exact=False, seed=25)
    varied(want, "equity", "win", "tie", "high")
