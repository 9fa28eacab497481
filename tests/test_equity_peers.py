"""eval7's exact equity against ours: equal on complete boards; with cards still to come it
does not enumerate them, so its answers there are wrong (shown here, so the bench compares
only where eval7 answers)."""

import eval7
import pytest

from evaluator.equity import equity


def _eval7(hero: str, villain: str, board: str) -> float:
    return eval7.py_hand_vs_range_exact(
        [eval7.Card(c) for c in hero.split()], eval7.HandRange(villain), [eval7.Card(c) for c in board.split()]
    )


@pytest.mark.parametrize(
    "hero, villain, board",
    [
        ("As Ah", "QQ+,AKs,JTs", "Ks 7d 2c 3h 9s"),
        ("Ad Kd", "22+,AT+,KQ", "Qd 7d 2c 3h 9s"),
        ("7h 6h", "88+,A9s+", "5h 4h 2c Kd 3s"),
    ],
)
def test_eval7_equals_ours_on_complete_boards(hero, villain, board):
    """On a river eval7's exact equity (float32) is ours to 1e-6."""
    assert _eval7(hero, villain, board) == pytest.approx(
        equity("holdem", [hero, villain], board=board)["hands"][0]["equity"], abs=1e-6
    )


def test_eval7_does_not_enumerate_missing_board_cards():
    """As Ah against Kd Kc on Qs 7d 2c 3h: the kings win on the 2 kings of the 44 rivers, 42/44
    (counted by hand in test_equity's test_cli_json); eval7's exact says 1.0, its value on the
    four cards alone. Before the flop it says 1.0 against the 81.26 % every calculator gives."""
    assert equity("holdem", ["As Ah", "Kd Kc"], board="Qs 7d 2c 3h")["hands"][0]["equity"] == pytest.approx(42 / 44)
    assert _eval7("As Ah", "KdKc", "Qs 7d 2c 3h") == 1.0
    assert _eval7("As Ah", "KdKc", "") == 1.0
