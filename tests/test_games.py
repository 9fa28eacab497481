"""Games as data: presets, knobs and impossible rule sets."""

import pytest

from evaluator.errors import SampyongError
from evaluator.games import RANKINGS, Category, game, resolve_game


def test_presets_follow_the_rule_book():
    """Each preset has the hole cards, hole use, ranking and low of RULES section 8."""
    expected = {
        "pls7": (3, (0, 3), "base", 7),
        "pls": (3, (0, 3), "base", None),
        "pls7-2": (3, (2, 3), "base", 7),
        "holdem": (2, (0, 2), "standard", None),
        "plo": (4, (2, 2), "standard", None),
        "plo8": (4, (2, 2), "standard", 8),
        "plo5-8": (5, (2, 2), "standard", 8),
    }
    for name, (hole, use, ranking, low) in expected.items():
        g = game(name)
        assert (g.hole_cards, g.hole_use, g.ranking.name, g.low) == (hole, use, ranking, low)


def test_base_ranking_order():
    """Royal > skip straight flush > straight flush > ... > skip straight > straight > trips."""
    order = RANKINGS["base"].order
    assert order[-3:] == (Category.straight_flush, Category.skip_straight_flush, Category.royal_flush)
    assert order.index(Category.flush) > order.index(Category.skip_straight) > order.index(Category.straight)
    assert order.index(Category.straight) > order.index(Category.three_of_a_kind)


def test_ranking_presets_swap_the_named_pairs():
    """trips_over_straight and skip_over_flush swap exactly their two categories; both swaps both."""
    base = RANKINGS["base"]
    t = RANKINGS["trips_over_straight"]
    s = RANKINGS["skip_over_flush"]
    b = RANKINGS["both"]
    assert t.position(Category.three_of_a_kind) == base.position(Category.straight)
    assert s.position(Category.skip_straight) == base.position(Category.flush)
    assert b.position(Category.three_of_a_kind) == t.position(Category.three_of_a_kind)
    assert b.position(Category.skip_straight) == s.position(Category.skip_straight)


def test_variant_names_record_knobs():
    """A variant's name says which knobs changed; unchanged knobs leave the name alone."""
    assert resolve_game("pls7", hole_use="pls-2").name == "pls7[hole_use=2-3]"
    assert resolve_game("pls7", low="7").name == "pls7"
    assert resolve_game("pls7", low="none").low is None


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"hole_use": "4-4"}, "impossible"),
        ({"hole_use": "3-2"}, "impossible"),
        ({"hole_use": "x"}, "bad hole use"),
        ({"low": "9"}, "low qualifier"),
        ({"low": "five"}, "low qualifier"),
        ({"ranking": "silly"}, "unknown ranking"),
    ],
)
def test_impossible_variants_raise_one_clear_error(kwargs, message):
    """Knobs the game cannot satisfy raise a SampyongError saying why."""
    with pytest.raises(SampyongError, match=message):
        resolve_game("pls7", **kwargs)


def test_unknown_game_and_too_many_players():
    """Unknown presets and more players than the deck allows are errors."""
    with pytest.raises(SampyongError, match="unknown game"):
        game("stud")
    with pytest.raises(SampyongError, match="players must be 2 to 11"):
        game("plo").check_players(12)
    game("pls7").check_players(15)
