"""The reference evaluator against the rule book's examples (RULES sections 4, 5, 8)."""

import pytest

from evaluator.cards import parse_cards as cards
from evaluator.games import RANKINGS, game
from evaluator.games import Category as C
from evaluator.reference import best_high, best_low, classify5, present_categories, strength5

BASE = RANKINGS["base"]


def high(name, hole, board):
    return best_high(game(name), cards(hole), cards(board))


def low(name, hole, board):
    return best_low(game(name), cards(hole), cards(board))


@pytest.mark.parametrize(
    "hand, category, top",
    [
        ("Ah 3d 5s 7c 9h", C.skip_straight, 7),  # ace low: tops at the 9
        ("6h 8d Ts Qc Ah", C.skip_straight, 12),  # ace high
        ("2h 4d 6s 8c Th", C.skip_straight, 8),
        ("Ah 2d 3s 4c 5h", C.straight, 3),
        ("Ts Js Qs Ks As", C.royal_flush, 12),
        ("2h 4h 6h 8h Th", C.skip_straight_flush, 8),
        ("9s Ts Js Qs Ks", C.straight_flush, 11),
    ],
)
def test_skip_straights_and_straights(hand, category, top):
    """Skips and straights get their category and top card (ace low or high as RULES says)."""
    assert classify5(cards(hand), BASE) == (category, (top,))


@pytest.mark.parametrize("hand", ["Qh Ad 3s 5c 7h", "Kh Ad 2s 3c 4h", "Jh Kd Ad 3s 5c"])
def test_no_wrap_around(hand):
    """Q-A-3-5-7, K-A-2-3-4 and J-K-A-3-5 are nothing (high card)."""
    assert classify5(cards(hand), BASE)[0] == C.high_card


def test_flush_family_order():
    """Royal > skip straight flush > every other straight flush > quads; skip flush tie on top card."""
    royal = strength5(cards("Ts Js Qs Ks As"), BASE)
    skip_flush = strength5(cards("2h 4h 6h 8h Th"), BASE)
    best_skip_flush = strength5(cards("6h 8h Th Qh Ah"), BASE)
    king_straight_flush = strength5(cards("9s Ts Js Qs Ks"), BASE)
    quads = strength5(cards("As Ah Ad Ac Ks"), BASE)
    assert royal > best_skip_flush > skip_flush > king_straight_flush > quads


def test_skip_beats_straight_and_flush_beats_skip():
    """In the base ranking: flush > skip straight > straight > trips."""
    flush = strength5(cards("2h 5h 9h Jh Kh"), BASE)
    skip = strength5(cards("6h 8d Ts Qc Ah"), BASE)
    straight = strength5(cards("Th Jd Qs Kc Ah"), BASE)
    trips = strength5(cards("As Ah Ad Kc Qh"), BASE)
    assert flush > skip > straight > trips


def test_pool_with_straight_and_skip_plays_the_skip():
    """3 4 5 6 7 9 + a pool holding both a straight and a skip plays the skip."""
    h = high("pls", "3c 5d 7h", "4s 6c 9d Kh 2c")  # straight 3-7 and skip 3-5-7-9-J? no: 3-5-7-9 needs J
    assert h.category == C.straight
    h = high("pls", "3c 5d 7h", "4s 6c 9d Jh 2c")  # straight 3-7 and skip 3-5-7-9-J
    assert h.category == C.skip_straight and h.tiebreak == (9,)


def test_ranking_variant_changes_the_best_five_cards():
    """With trips over straight, a pool holding both plays the trips."""
    g = game("pls").variant(ranking="trips_over_straight")
    h = best_high(g, cards("9c 9d 9h"), cards("Ts Jc Qd Kh 2c"))
    assert h.category == C.three_of_a_kind
    assert high("pls", "9c 9d 9h", "Ts Jc Qd Kh 2c").category == C.straight


def test_lows():
    """Wheel is the best low; a suited 7-low counts; a paired hand has no low; board-only low plays."""
    wheel = low("pls7", "Ah 2d Kc", "3s 4d 5c Kd Kh")
    assert wheel.ranks == (5, 4, 3, 2, 1)
    suited = low("pls7", "7h 6h Kc", "5h 4h 3h Kd Ks")
    assert suited.ranks == (7, 6, 5, 4, 3)
    assert low("pls7", "Ah Ad Kc", "2s 2d 3c 3d Kh") is None
    assert low("pls7", "Kh Qd Jc", "Ah 2d 3c 4d 6h").ranks == (6, 4, 3, 2, 1)
    assert low("pls7", "8h 2d 3c", "Ah 4d 5c Kd Ks").ranks == (5, 4, 3, 2, 1)
    assert low("pls7", "8h 8d 9c", "Ah 2d 3c 4d 8s") is None  # an 8 does not qualify for 7-or-better
    assert wheel.strength > low("pls7", "Ah 2d 6c", "3s 4d Tc Kd Kh").strength


def test_low_compares_from_the_top():
    """6-4-3-2-A beats 7-5-4-3-2."""
    a = low("pls7", "6h 4d 3c", "2s Ad Kc Kd Kh")
    b = low("pls7", "7h 5d 4c", "3s 2d Kc Kd Kh")
    assert a.strength > b.strength


def test_omaha_examples():
    """The worked PLO8 examples of RULES section 8."""
    h = high("plo8", "As 2c Kh Kd", "Ad 7s 4h 8s Qc")
    assert h.category == C.one_pair and h.tiebreak == (12, 11, 10, 6)
    assert low("plo8", "As 2c Kh Kd", "Ad 7s 4h 8s Qc").ranks == (8, 7, 4, 2, 1)
    alice = ("As Ah 3s 6d", "Ad 8c 5h Ks 2c")
    bob = ("Kh Qc Jh Td", "Ad 8c 5h Ks 2c")
    assert high("plo8", *alice).category == C.three_of_a_kind
    assert high("plo8", *bob).category == C.one_pair  # A-K-Q-J-T would need three hole cards
    assert low("plo8", *alice).ranks == (6, 5, 3, 2, 1)
    assert low("plo8", *bob) is None


def test_plo8_needs_exactly_two_hole_cards_for_low():
    """A board with fewer than three low ranks makes no PLO8 low; free use would."""
    assert low("plo8", "As 2c 3h 4d", "5d Kc Qs Jh 9c") is None
    assert best_low(game("pls7").variant(low=8), cards("As 2c 3h"), cards("4d 5d Kc Qs Jh")).ranks == (5, 4, 3, 2, 1)


def test_present_counts_exact_categories():
    """Quads + a pair can make quads, a full house, trips, two pair...; not a straight."""
    present = present_categories(game("pls"), cards("As Ah Ad"), cards("Ac Ks Kd 2c 7h"))
    assert {C.four_of_a_kind, C.full_house, C.three_of_a_kind, C.two_pair, C.one_pair} <= present
    assert C.straight not in present and C.high_card not in present
