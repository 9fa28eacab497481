"""The hold'em heads-up preflop table (``evaluator.preflop``): classes, counts, lookups."""

from __future__ import annotations

import numpy as np
import pytest

import evaluator.equity
from evaluator import preflop
from evaluator.cards import parse_cards
from evaluator.equity import equity
from evaluator.fast import fast_evaluator
from evaluator.games import game
from evaluator.isomorphism import completions
from evaluator.ranges import parse_range
from evaluator.tables import cached_arrays

# Matchups and the equities OMPEval and PokerStove print for them (exact enumeration).
PUBLISHED = [
    (["As Ah", "Kd Kc"], 0.812554897),
    (["AA", "KK"], 0.819460505),
    (["QQ+,AKs", "22+,A2s+,KTs+,QJs,AJo+"], 0.714429645),
]
OTHERS = [["AsKs, AhKh@50", "QQ, JsTs"], ["Ah Kh", "7c 7d"], ["7c 7d", "Ah Kh"], ["AKs", "As Ah"], ["KK", "AA"]]


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    """A table of the classes the matchups here need, built by ``preflop.build`` into a scratch cache."""
    cache = tmp_path_factory.mktemp("cache")
    with pytest.MonkeyPatch.context() as m:
        m.setenv("SAMPYONG_CACHE", str(cache))
        needed = set()
        for hands in [h for h, _ in PUBLISHED] + OTHERS:
            for text in hands:
                entry = evaluator.equity._entry(game("holdem"), text, None)
                cards = np.array([sorted(entry)]) if isinstance(entry, tuple) else np.array(entry.combos)
                needed.update(preflop.hand_index(cards).tolist())
        cached_arrays(preflop.path(), lambda: preflop.build(among=np.array(sorted(needed))))
        yield cache


def _boards_won(first: str, second: str) -> tuple[int, int, int]:
    """Every board of two hands, evaluated one by one: boards the first wins, the second wins, tied."""
    holes = np.array([parse_cards(first), parse_cards(second)], np.uint8)
    deck = np.array([c for c in range(52) if c not in holes], np.uint8)
    boards = completions(deck, 5).astype(np.uint8)
    high = fast_evaluator(game("holdem")).high(
        np.ascontiguousarray(np.broadcast_to(holes, (len(boards), 2, 2))), boards
    )
    return (
        int((high[:, 0] > high[:, 1]).sum()),
        int((high[:, 0] < high[:, 1]).sum()),
        int((high[:, 0] == high[:, 1]).sum()),
    )


def test_pairs_fall_into_the_published_47008_classes():
    first, second, key = preflop.pair_classes()
    assert len(first) == 1326 * 1225 and len(np.unique(np.abs(key))) == 47_008


@pytest.mark.parametrize(
    "first, second",
    [
        ("As Ah", "Kd Kc"),
        ("Kd Kc", "As Ah"),  # both ways round
        ("Ah Kh", "Qh Jh"),
        ("7c 2d", "Ah Kh"),
        ("5s 4s", "5h 4h"),  # suits shared, crossed classes, a mirror
    ],
)
def test_table_counts_equal_every_board_evaluated(table, monkeypatch, first, second):
    monkeypatch.setenv("SAMPYONG_CACHE", str(table))
    i, j = pair = preflop.hand_index(np.array([sorted(parse_cards(first)), sorted(parse_cards(second))]))
    built = preflop.build(among=pair)
    wins, ties = built["wins"], built["ties"]
    assert (int(wins[i, j]), int(wins[j, i]), int(ties[i, j])) == _boards_won(first, second)
    assert ties[i, j] == ties[j, i]


@pytest.mark.parametrize("hands, published", PUBLISHED)
def test_lookups_give_the_published_equities(table, monkeypatch, hands, published):
    monkeypatch.setenv("SAMPYONG_CACHE", str(table))
    looked_up = []
    monkeypatch.setattr(evaluator.equity, "_preflop_equity", lambda *a: looked_up.append(1) or preflop_equity(*a))
    result = equity("holdem", hands, exact=True)
    assert looked_up and result["exact"]
    assert round(result["hands"][0]["equity"], 9) == published


preflop_equity = evaluator.equity._preflop_equity


@pytest.mark.parametrize("hands", [h for h, _ in PUBLISHED] + OTHERS)
def test_lookups_equal_the_enumeration(table, monkeypatch, hands):
    """Every figure of the answer, looked up, equals the enumeration's (the table's file hidden)."""
    monkeypatch.setenv("SAMPYONG_CACHE", str(table))
    looked_up = equity("holdem", hands, exact=True)
    monkeypatch.setattr(preflop, "load", lambda: None)
    enumerated = equity("holdem", hands, exact=True)
    assert looked_up["samples"] == enumerated["samples"]
    for got, want in zip(looked_up["hands"], enumerated["hands"]):
        assert got == pytest.approx(want, abs=1e-12)


def test_no_table_for_variants_boards_dead_cards_or_three_players(table, monkeypatch):
    monkeypatch.setenv("SAMPYONG_CACHE", str(table))
    monkeypatch.setattr(evaluator.equity, "_preflop_equity", lambda *a: pytest.fail("looked up"))
    holdem = game("holdem")
    equity(holdem.variant(ranking="trips_over_straight"), ["As Ah", "Kd Kc"], exact=True)
    equity("holdem", ["As Ah", "Kd Kc"], board="2c 3c 4c", exact=True)
    equity("holdem", ["As Ah", "Kd Kc"], dead="2c", exact=True)
    equity("holdem", ["As Ah", "Kd Kc", "Qs Qh"], exact=True)
    assert parse_range("AA", holdem).size == 6


def test_without_the_table_the_calculator_enumerates(tmp_path, monkeypatch):
    monkeypatch.setenv("SAMPYONG_CACHE", str(tmp_path))
    assert preflop.load() is None
    assert round(equity("holdem", ["As Ah", "Kd Kc"], exact=True)["hands"][0]["equity"], 9) == 0.812554897


@pytest.mark.slow
def test_the_whole_table(tmp_path, monkeypatch):
    """``sampyong precompute`` builds every class; every pair's boards add up, ties are mutual,
    and pairs drawn at random equal their boards evaluated one by one."""
    from typer.testing import CliRunner

    from sampyong.cli import app

    monkeypatch.setenv("SAMPYONG_CACHE", str(tmp_path))
    result = CliRunner().invoke(app, ["precompute"])
    assert result.exit_code == 0 and str(preflop.path()) in result.output
    wins, ties = preflop.load()
    first, second, _ = preflop.pair_classes()
    assert (wins[first, second].astype(np.int64) + wins[second, first] + ties[first, second] == preflop.BOARDS).all()
    assert (ties == ties.T).all()
    rng = np.random.default_rng(7)
    for k in rng.choice(len(first), 6, replace=False):
        i, j = first[k], second[k]
        a, b = (" ".join(f"{'23456789TJQKA'[c >> 2]}{'shdc'[c & 3]}" for c in preflop.HANDS[x]) for x in (i, j))
        assert (int(wins[i, j]), int(wins[j, i]), int(ties[i, j])) == _boards_won(a, b)
