"""The equity calculator: known hold'em numbers, exact against Monte Carlo, bad input."""

import itertools
import json

import pytest
from typer.testing import CliRunner

from evaluator.cards import format_cards, make_card
from evaluator.equity import equity
from evaluator.errors import SampyongError
from pipeline.cli import app


def test_aces_against_kings_specific_suits():
    """As Ah against Kd Kc preflop: 81.26 % (exact)."""
    result = equity("holdem", ["As Ah", "Kd Kc"])
    assert result["exact"] and result["samples"] == 1_712_304
    assert round(100 * result["hands"][0]["equity"], 2) == 81.26
    assert sum(h["equity"] for h in result["hands"]) == pytest.approx(1.0, abs=1e-12)


def test_aces_against_kings_averaged_over_suits():
    """AA against KK averaged over every suit combination: 81.95 %."""
    aces = [format_cards(c) for c in itertools.combinations([make_card(12, s) for s in range(4)], 2)]
    kings = [format_cards(c) for c in itertools.combinations([make_card(11, s) for s in range(4)], 2)]
    values = [equity("holdem", [a, k])["hands"][0]["equity"] for a in aces for k in kings]
    assert round(100 * sum(values) / len(values), 2) == 81.95


@pytest.mark.parametrize("game, hands, board", [("holdem", ["As Ah", "Kd Kc"], "Qs 7d 2c"), ("pls7", ["As 2h 3d", "Kd Kc Qs", "7c 8c 9c"], "4s 5h Td")])
def test_exact_and_monte_carlo_agree(game, hands, board):
    """Sampled equity lies within 4 standard errors of the exact value."""
    exact = equity(game, hands, board=board)
    sampled = equity(game, hands, board=board, exact=False, samples=100_000, seed=3)
    assert exact["exact"] and not sampled["exact"]
    for e, s in zip(exact["hands"], sampled["hands"]):
        assert abs(e["equity"] - s["equity"]) <= 4 * s["equity_se"]


def test_random_hand_is_sampled_with_error_bars():
    """A random hand forces Monte Carlo; shares sum to one and carry standard errors."""
    result = equity("pls7", ["As 2h 3d", "random"], samples=50_000)
    assert not result["exact"] and result["samples"] == 50_000
    assert sum(h["equity"] for h in result["hands"]) == pytest.approx(1.0)
    assert all(h["equity_se"] > 0 for h in result["hands"])


def test_cli_json():
    """--json prints the documented object."""
    result = CliRunner().invoke(app, ["equity", "As Ah", "Kd Kc", "--game", "holdem", "--board", "Qs 7d 2c 3h", "--json"])
    data = json.loads(result.stdout)
    assert data["exact"] is True and data["samples"] == 44
    assert set(data["hands"][0]) >= {"hand", "equity", "win", "tie", "equity_se"}


@pytest.mark.parametrize(
    "args, message",
    [
        (["As Ah"], "at least two hands"),
        (["As Ah", "As Kc"], "listed twice"),
        (["As Ah", "Kd"], "needs 2 hole cards"),
        (["As Ah", "Kd Kc", "--board", "2c 3c"], "board takes"),
        (["As Ah", "Kd Kx"], "bad card"),
        (["As Ah", "Kd Kc", "--samples", "0"], "must be positive"),
    ],
)
def test_bad_input(args, message):
    """Bad hands, boards and counts: one line, exit 2."""
    result = CliRunner().invoke(app, ["equity", *args, "--game", "holdem"])
    assert result.exit_code == 2 and message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_exact_refused_when_too_large():
    """Asking for exact with a random hand is a clear error."""
    with pytest.raises(SampyongError, match="too large"):
        equity("holdem", ["As Ah", "random"], exact=True)
