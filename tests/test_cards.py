"""Cards: text form (RULES section 1) and suit-isomorphism classes."""

import pytest

from evaluator.cards import canonical, class_name, format_cards, iso_classes, parse_card, parse_cards
from evaluator.errors import SampyongError


def test_text_forms_agree():
    """'10', either case and suit symbols all name the same card."""
    assert parse_card("Td") == parse_card("10d") == parse_card("tD") == parse_card("T♦") == parse_card("10♦")
    assert format_cards(parse_cards("As 10h 2♣ kd")) == "As Th 2c Kd"


def test_glued_and_comma_separated_cards_parse():
    """'AsKd', 'As,Kd' and 'As Kd' are the same two cards."""
    assert parse_cards("AsKd") == parse_cards("As,Kd") == parse_cards("As Kd")


@pytest.mark.parametrize("text", ["Ax", "1s", "As Zz", "A", "11h", "Ass"])
def test_bad_token_is_named(text):
    """A malformed card raises an error naming the token."""
    with pytest.raises(SampyongError, match="bad card"):
        parse_cards(text)


def test_duplicate_is_an_error():
    """A card listed twice is an error that names it."""
    with pytest.raises(SampyongError, match="As is listed twice"):
        parse_cards("As Kd as")


@pytest.mark.parametrize("size, classes", [(2, 169), (3, 1755), (4, 16432)])
def test_class_counts(size, classes):
    """2-, 3- and 4-card hands fall into 169, 1,755 and 16,432 suit classes."""
    hands, class_of, class_size = iso_classes(size)
    assert len(class_size) == classes
    assert class_size.sum() == len(hands)
    assert class_of.max() == classes - 1


@pytest.mark.slow
def test_board_class_count():
    """5-card boards fall into 134,459 suit classes."""
    assert len(iso_classes(5)[2]) == 134459


@pytest.mark.untraced
def test_class_names_are_unique_per_class():
    """Every 3-card class has its own name and every member maps to it."""
    hands, class_of, class_size = iso_classes(3)
    names = {}
    for hand, k in zip(hands.tolist(), class_of.tolist()):
        names.setdefault(k, set()).add(class_name(hand))
    assert all(len(v) == 1 for v in names.values())
    assert len({next(iter(v)) for v in names.values()}) == 1755


def test_holdem_class_names():
    """Two-card names are the familiar AA / AKs / AKo."""
    assert class_name(parse_cards("Ah Ad")) == "AA"
    assert class_name(parse_cards("Kh Ah")) == "AKs"
    assert class_name(parse_cards("Kc Ah")) == "AKo"
    assert canonical(parse_cards("Kc Ah")) == canonical(parse_cards("Ks Ad"))
