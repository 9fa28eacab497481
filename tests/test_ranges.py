"""Ranges: the grammar against eval7 and hand counts, top-% ranges by the exact grid, and range
equity against a brute force over the combos and against eval7."""

import dataclasses
import itertools
from math import comb

import eval7
import pytest

from evaluator.cards import format_cards, parse_cards
from evaluator.equity import equity
from evaluator.errors import SampyongError
from evaluator.games import game
from evaluator.ranges import parse_range, top_percent

HOLDEM, PLS7, PLO = game("holdem"), game("pls7"), game("plo")
ONE_CARD = dataclasses.replace(HOLDEM, name="one-card", hole_cards=1, hole_use=(0, 1))  # a legal 1-hole-card game
HOLDEM_STRINGS = [
    "QQ+",
    "AKs",
    "AKo",
    "AK",
    "A5s-A2s",
    "22-55",
    "T9s+",
    "K9s+",
    "A2s+",
    "KQo",
    "JJ-99, AQs+",
    "QQ+, AKs, AKo",
    "88-JJ, A7o-ATo, KTs+",
    "As3c, 8c5s",
    "76s, 65s, 54s",
    "AK-AQ",
    "55-22",
    "ATs-AKs",
    "KAs",
    "kqo",
]


def as_text(combos) -> set:
    return {tuple(sorted(format_cards(c).split())) for c in combos}


@pytest.mark.parametrize("text", HOLDEM_STRINGS)
def test_holdem_notation_expands_as_eval7_reads_it(text):
    """Each PokerStove string holds exactly the hands eval7's HandRange holds."""
    theirs = {tuple(sorted(str(c) for c in hand)) for hand, _ in eval7.HandRange(text).hands}
    assert as_text(parse_range(text, HOLDEM).combos) == theirs


def test_patterns_match_hand_counts():
    """Counted by hand: two or more aces in three cards 6*48 + 4 = 292; a suited ace-king plus
    any card 4 * 50 = 200; double-suited aces in Omaha C(4,2) * 12 * 12 = 864; any ace-high
    Omaha hand with an ace C(52,4) - C(48,4) = 76,145."""
    assert parse_range("AA*", PLS7).size == 6 * 48 + 4
    assert parse_range("AxKx*", PLS7).size == 4 * 50
    assert parse_range("AxAyxy", PLO).size == 6 * 12 * 12
    assert parse_range("A***", PLO).size == comb(52, 4) - comb(48, 4)
    assert parse_range("AA*!AAA", PLS7).size == 6 * 48
    assert parse_range("random", PLS7).size == comb(52, 3)


def test_weights_and_groups():
    """@50 halves a weight, eval7's 40%(...) and 0.6(...) weigh a group, and a hand named twice keeps its largest weight."""
    weights = dict(
        zip(
            parse_range("AA@50, KK, 40%(AKs), 0.6(AA)", HOLDEM).combos,
            parse_range("AA@50, KK, 40%(AKs), 0.6(AA)", HOLDEM).weights,
        )
    )
    aces = tuple(sorted(parse_cards("As Ah")))
    kings = tuple(sorted(parse_cards("Ks Kh")))
    suited = tuple(sorted(parse_cards("As Ks")))
    assert (weights[aces], weights[kings], weights[suited]) == (0.6, 1.0, 0.4)


@pytest.mark.parametrize(
    "text, game_, position, words",
    [
        ("QQ+, AKq", HOLDEM, 5, "'AKq' is not a hand"),
        ("QQ+,,AKs", HOLDEM, 4, "an empty item"),
        ("AA@150", HOLDEM, 3, "not in (0, 100]"),
        ("2(AA)", HOLDEM, 0, "not in (0, 1]"),
        ("AA, (KK", HOLDEM, 7, "missing ')'"),
        ("AKQJ", PLS7, 0, "'AKQJ' is not a hand or a pattern of 3 cards"),
        ("As Ks", PLS7, 0, "has 2 card(s): a pls7 hand needs 3 hole cards"),
        ("15%", PLO, 0, "15% needs the exact grid of plo"),
        ("AA), KK", HOLDEM, 2, "unmatched ')'"),
        ("AA, KK, AKq", HOLDEM, 8, "'AKq' is not a hand"),
        ("AA, KK,  ", HOLDEM, 9, "an empty item"),
        ("0(AA)", HOLDEM, 0, "weight 0 is not in (0, 1]"),
        ("0%(AA)", HOLDEM, 0, "weight 0% is not in (0, 1]"),
        ("1.0001(AA)", HOLDEM, 0, "weight 1.0001 is not in (0, 1]"),
        ("100.0001%(AA)", HOLDEM, 0, "weight 100.0001% is not in (0, 1]"),
        ("0.5(AKq)", HOLDEM, 4, "'AKq' is not a hand"),
        ("KK, 50%(QQ+, AKq)", HOLDEM, 13, "'AKq' is not a hand"),
        ("AA@x", HOLDEM, 3, "weight 'x' is not a percentage"),
        ("KK, AA @ 5x", HOLDEM, 8, "weight ' 5x' is not a percentage"),
        ("AA@0", HOLDEM, 3, "weight 0 is not in (0, 100]"),
        ("AA@-50", HOLDEM, 3, "weight -50 is not in (0, 100]"),
        ("AA@100.0001", HOLDEM, 3, "weight 100.0001 is not in (0, 100]"),
        ("AA!", HOLDEM, 3, "an empty hand"),
        ("AA!  !KK", HOLDEM, 5, "an empty hand"),
        ("AKq!KK", HOLDEM, 0, "'AKq' is not a hand"),
        ("AA!KK!AKq", HOLDEM, 6, "'AKq' is not a hand"),
        ("QQ, AA ! KK ! AKq", HOLDEM, 14, "'AKq' is not a hand"),
        ("0%", HOLDEM, 0, "0% is not a share from 0 % to 100 %"),
        ("100.0001%", HOLDEM, 0, "100.0001% is not a share from 0 % to 100 %"),
        ("1%", HOLDEM, 0, "1% needs the exact grid of holdem"),
        ("100%", HOLDEM, 0, "100% needs the exact grid of holdem"),
        ("As Ks Qs", HOLDEM, 0, "'As Ks Qs' has 3 card(s): a holdem hand needs 2 hole cards"),
        ("AKs-QJs", HOLDEM, 0, "'AKs-QJs' is not a hand, hold'em notation or a pattern of 2 cards"),
        ("QJs-AKs", HOLDEM, 0, "'QJs-AKs' is not a hand, hold'em notation"),
        ("AKs-AQo", HOLDEM, 0, "'AKs-AQo' is not a hand, hold'em notation"),
        ("AKo-AQs", HOLDEM, 0, "'AKo-AQs' is not a hand, hold'em notation"),
        ("AK-AQs", HOLDEM, 0, "'AK-AQs' is not a hand, hold'em notation"),
        ("AA-AK", HOLDEM, 0, "'AA-AK' is not a hand, hold'em notation"),
        ("AK-AA", HOLDEM, 0, "'AK-AA' is not a hand, hold'em notation"),
        ("AAo", HOLDEM, 0, "'AAo' is not a hand, hold'em notation"),
        ("22-55s", HOLDEM, 0, "'22-55s' is not a hand, hold'em notation"),
        ("AA", ONE_CARD, 0, "'AA' is not a hand or a pattern of 1 cards"),
    ],
)
def test_bad_ranges_name_the_position(text, game_, position, words):
    """A bad range is one SampyongError naming the text, the position of the fault and what is wrong."""
    with pytest.raises(SampyongError) as error:
        parse_range(text, game_)
    assert str(error.value).startswith(f"bad range {text!r} at {position}: ") and words in str(error.value)


def test_describe_shows_each_hand_and_its_weight_when_not_1():
    """describe() gives one line per hand, in the range's combo order: its cards, then " @N" (N the
    weight in %, formatted by %g) only for a weight other than 1."""
    assert parse_range("AsAh@50, AsKs, 12.5%(QhQd)", HOLDEM).describe() == ["Qh Qd @12.5", "Ks As", "As Ah @50"]
    assert parse_range("AsKs, AhKh@100", HOLDEM).describe() == ["Ks As", "Kh Ah"]


def test_a_range_is_frozen_and_hashable():
    """A Range cannot be changed after parsing, and equal ranges hash alike (usable as dict keys)."""
    r = parse_range("AA@50, KK", HOLDEM)
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.text = "QQ"
    assert hash(r) == hash(parse_range("AA@50, KK", HOLDEM)) and {r: 1}[parse_range("AA@50, KK", HOLDEM)] == 1


@pytest.mark.parametrize(
    "text, weight",
    [
        ("AA@100", 1.0),
        ("AA@0.01", 0.0001),
        ("AA@ 50 ", 0.5),
        ("1(AA)", 1.0),
        ("0.0001(AA)", 0.0001),
        ("100%(AA)", 1.0),
        ("0.01%(AA)", 0.0001),
        ("1(50%(AA))", 0.5),
    ],
)
def test_weights_at_the_edges_of_their_bounds_are_accepted(text, weight):
    """A weight is accepted in (0, 100] after "@", in (0, 1] before "(" and in (0 %, 100 %] before "%(", both ends
    exact, and nested groups multiply their weights."""
    r = parse_range(text, HOLDEM)
    assert r.size == 6 and r.weights == (pytest.approx(weight),) * 6


def test_top_atoms_ask_for_shares_above_0_up_to_100():
    """N% asks the top provider for the top N % for every 0 < N <= 100 (1 and 100 included) and holds what it gives."""
    asked = []

    def top(percent):
        asked.append(percent)
        return {(0, 1), (2, 3)}

    assert [parse_range(t, HOLDEM, top).combos for t in ("1%", "100%", "0.5%")] == [((0, 1), (2, 3))] * 3
    assert asked == [1.0, 100.0, 0.5]


def test_holdem_spans_and_reversed_ranks():
    """Pair spans run either way, two-card spans keep their top card and run between the kickers
    either way, ranks may be written low-high, and a span whose kickers cross its top card keeps
    only the kickers below it."""
    size = lambda text: parse_range(text, HOLDEM).size  # noqa: E731
    assert (size("22-55"), size("55-22"), size("AKs-ATs"), size("ATo-AKo"), size("AK-AQ")) == (24, 24, 16, 48, 32)
    assert parse_range("KAs", HOLDEM).combos == parse_range("AKs", HOLDEM).combos
    for top_card_inside in ("KAs-K2s", "KAo-K2o", "KA-K2"):
        assert (
            parse_range(top_card_inside, HOLDEM).combos
            == parse_range(top_card_inside.split("-")[1] + "+", HOLDEM).combos
        )
    assert size("K2s+") == 11 * 4


def test_patterns_shorter_than_the_hole_cards_are_padded_with_any_card():
    """A pattern of fewer specs than the game's hole cards is padded with "*", and hold'em
    notation is read as a pattern in games of other than 2 hole cards: counted by hand, an ace
    in hold'em C(52,2) - C(48,2) = 198, a bare suit variable every hold'em hand, two aces in
    Omaha 6 * C(48,2) + 4 * 48 + 1 = 6,961, and "AKs" in a 3-card game the king of spades with
    an ace C(51,2) - C(47,2) = 194."""
    assert parse_range("A", HOLDEM).size == comb(52, 2) - comb(48, 2)
    assert parse_range("x", HOLDEM).size == comb(52, 2)
    assert parse_range("AA", PLO).size == 6 * comb(48, 2) + 4 * 48 + 1
    assert parse_range("AKs", PLS7).size == comb(51, 2) - comb(47, 2)
    assert all(len(c) == 3 for c in parse_range("AKs", PLS7).combos)


def test_top_percent_takes_the_best_classes_first():
    """Top N %: whole classes best first until N % of all hands is reached (the class that crosses included)."""
    classes = [([(i, 100 + i)], 1 - i / 100) for i in range(10)]
    assert top_percent(classes, 30) == {(0, 100), (1, 101), (2, 102)}
    assert top_percent(classes, 25) == {(0, 100), (1, 101), (2, 102)}
    assert top_percent(classes, 100) == {c for hands, _ in classes for c in hands}


@pytest.mark.slow
def test_holdem_top_15_percent_by_the_exact_grid():
    """The top 15 % of hold'em hands by the exact grid hold AA and AKs, not 72o, and about 15 % of the 1,326 hands."""
    from tests.helpers import ranking

    top = parse_range("15%", HOLDEM, ranking(HOLDEM).top)
    assert 0.15 <= top.share(HOLDEM) < 0.17
    held = as_text(top.combos)
    assert ("Ac", "As") in held and ("As", "Ks") in held and ("2d", "7c") not in held


def brute_force(game_, ranges, board):
    """Range equity as the weighted mean, over every compatible combination of the ranges'
    hands, of the exact equity of those specific hands."""
    parsed = [parse_range(r, game_) for r in ranges]
    blocked = set(parse_cards(board))
    totals = [0.0] * len(ranges)
    weight = 0.0
    for pick in itertools.product(*[list(zip(p.combos, p.weights)) for p in parsed]):
        cards = [c for combo, _ in pick for c in combo]
        if len(set(cards)) != len(cards) or blocked.intersection(cards):
            continue
        w = 1.0
        for _, wi in pick:
            w *= wi
        result = equity(game_, [format_cards(c) for c, _ in pick], board=board)
        assert result["exact"]
        for i, h in enumerate(result["hands"]):
            totals[i] += w * h["equity"]
        weight += w
    return [t / weight for t in totals]


@pytest.mark.parametrize(
    "game_, ranges, board",
    [
        (HOLDEM, ["QQ+, AKs", "JJ-99, AQs+"], "2c 7d Th"),
        (HOLDEM, ["AA@50, KK", "AKs, 76s"], "Ks 7s 2d 3h"),
        (PLS7, ["AA2, AA3", "KKQ, KQJ"], "5c 7d 9h 4s"),
    ],
)
def test_exact_range_equity_equals_a_brute_force_over_the_combos(game_, ranges, board):
    """Enumerated range-vs-range equity equals, to 6 decimals, the weighted mean of the exact
    equities of every compatible pair of hands."""
    result = equity(game_, ranges, board=board)
    assert result["exact"]
    expected = brute_force(game_, ranges, board)
    assert [round(h["equity"], 6) for h in result["hands"]] == [round(e, 6) for e in expected]


EVAL7_RIVER_CASES = [
    ("QQ+, AKs", "JJ-99, AQs+", "2c 7d Th Ks 3h"),
    ("AA", "KK, QQ", "2c 7d Th 4s 9h"),
    ("AKs, AKo", "22-66", "Kd 8c 3s 5h Jd"),
    ("T9s+, 98s", "A2s+", "Jh Th 4c 2h 8s"),
    ("77+", "AJs+, KQs", "Qs Js 2h 7c 3d"),
    ("A5s-A2s", "KQo, KJo", "5c 4d Kh 9s 2c"),
    ("JJ-99", "AK", "Ad 6c 6h 8d 3s"),
    ("22-55", "67s, 78s, 89s", "9c 8d 2s 5h Jc"),
    ("AQ, AJ", "KK+", "Qd Jc 3c 2h 8s"),
    ("QQ-TT, AKs", "99-77, AQo", "8h 7d 2c Ks 4d"),
    ("K9s+", "QTs+", "Ts 9s 3d Qh 2c"),
]


def eval7_range_equity(hero: str, villain: str, board: str, of_hand) -> tuple[float, int]:
    """eval7's equity of each hero hand against the villain range (``of_hand(hand, villain_range,
    board_cards)``), averaged over the hero hands weighted by their compatible villain hands (so
    every compatible pair counts once, as in our range equity); and how many hero hands counted."""
    hero_range, villain_range = eval7.HandRange(hero), eval7.HandRange(villain)
    on_board = set(board.split())
    cards = [eval7.Card(c) for c in board.split()]
    total = weight = 0.0
    counted = 0
    for hand, w in hero_range.hands:
        held = {str(c) for c in hand}
        if held & on_board:
            continue
        compatible = sum(wv for other, wv in villain_range.hands if not (held | on_board) & {str(c) for c in other})
        if compatible:
            total += w * compatible * of_hand(list(hand), villain_range, cards)
            weight += w * compatible
            counted += 1
    return total / weight, counted


def eval7_river_equity(hero: str, villain: str, board: str) -> float:
    """eval7's exact range equity on a complete board."""
    return eval7_range_equity(hero, villain, board, eval7.py_hand_vs_range_exact)[0]


@pytest.mark.parametrize("hero, villain, board", EVAL7_RIVER_CASES)
def test_range_equity_against_eval7_on_the_river(hero, villain, board):
    """On a complete board: our enumeration equals eval7's exact range equity (to its float
    precision) and our sampled equity lies within 4 standard errors of it."""
    expected = eval7_river_equity(hero, villain, board)
    enumerated = equity("holdem", [hero, villain], board=board)
    assert enumerated["exact"] and abs(enumerated["hands"][0]["equity"] - expected) < 1e-6
    sampled = equity("holdem", [hero, villain], board=board, samples=100_000, seed=5, exact=False)["hands"][0]
    assert abs(sampled["equity"] - expected) < 4 * max(sampled["equity_se"], 1e-12), (sampled, expected)


@pytest.mark.parametrize(
    "hero, villain, board",
    [
        ("QQ+, AKs", "JJ-99, AQs+", "2c 7d Th"),
        ("AKs, AKo", "22-66", "Kd 8c 3s"),
        ("T9s+, 98s", "A2s+", "Jh Th 4c 2h"),
        ("77+", "AJs+, KQs", "Qs Js 2h"),
    ],
)
def test_range_equity_against_eval7_monte_carlo_with_runouts(hero, villain, board):
    """With cards to come: eval7's Monte Carlo (100,000 deals per hero hand) lies within 4 of its
    standard errors of our exact range equity."""
    theirs, hands = eval7_range_equity(
        hero,
        villain,
        board,
        lambda hand, villain_range, cards: eval7.py_hand_vs_range_monte_carlo(hand, villain_range, cards, 100_000),
    )
    deals = 100_000 * hands
    ours = equity("holdem", [hero, villain], board=board)
    assert ours["exact"]
    p = ours["hands"][0]["equity"]
    assert abs(theirs - p) < 4 * (p * (1 - p) / deals) ** 0.5 + 1e-9, (theirs, p)


@pytest.mark.slow
def test_preflop_range_equity_of_the_readme_example():
    """QQ+, AKs against JJ-99, AQs+ preflop: the mean exact equity of every compatible pair of
    hands (516 pairs, every board, each pair enumerated on its own) is 73.116 %; the range's
    exact equity (the README's example, deals folded by suit and counted by ranks) equals it,
    and the sampled one lies within 4 SE."""
    hero, villain = parse_range("QQ+, AKs", HOLDEM), parse_range("JJ-99, AQs+", HOLDEM)
    pairs = [(a, b) for a in hero.combos for b in villain.combos if not set(a) & set(b)]
    exact = sum(equity(HOLDEM, [format_cards(a), format_cards(b)])["hands"][0]["equity"] for a, b in pairs) / len(pairs)
    assert len(pairs) == 516 and round(exact, 5) == 0.73116
    ranges = equity(HOLDEM, ["QQ+, AKs", "JJ-99, AQs+"])
    assert ranges["exact"] and ranges["hands"][0]["equity"] == pytest.approx(exact, abs=1e-12)
    sampled = equity(HOLDEM, ["QQ+, AKs", "JJ-99, AQs+"], exact=False)["hands"][0]
    assert abs(sampled["equity"] - exact) < 4 * sampled["equity_se"]
