"""``sampyong tune``: policies tuned by self-play, each candidate scored by a duplicate match."""

from __future__ import annotations

import dataclasses

import pytest
from typer.testing import CliRunner

import sampyong as sy
from engine.betting import default_betting
from engine.policy import builtin, builtin_names, parse_policy
from engine.tune import Deals, policy_at, score, vector_of
from evaluator.errors import SampyongError
from evaluator.games import game
from sampyong import cli


def test_knobs_round_trip():
    """Every built-in thresholds policy is the policy its own knob vector maps back to."""
    for name in builtin_names():
        policy = builtin(name)
        if policy.style == "thresholds":
            assert policy_at(policy, vector_of(policy)) == policy, name


def test_the_field_against_itself_scores_exactly_zero():
    """A policy scored against itself in duplicate wins exactly nothing, with no error; another
    policy does not."""
    pls7 = game("pls7")
    deals = Deals.dealt(pls7, 3, 300, 7, sy.ranking("pls7"))
    regular = builtin("regular")
    assert score(pls7, default_betting(pls7), regular, regular, 3, deals) == (0.0, 0.0)
    twin = dataclasses.replace(regular, name="twin")
    assert score(pls7, default_betting(pls7), twin, regular, 3, deals) == (0.0, 0.0)
    assert score(pls7, default_betting(pls7), builtin("loose"), regular, 3, deals)[1] > 0


def test_the_best_response_to_a_station_wins_and_reruns_agree():
    """Against a calling station the tuned best response wins by more than 3 standard errors on
    fresh deals, and the same arguments give the same policy, byte for byte."""
    first = sy.tune("holdem", players=2, start="station", rounds=1, trials=12, hands=500)
    again = sy.tune("holdem", players=2, start="station", rounds=1, trials=12, hands=500)
    assert first.toml == again.toml
    (round_,) = first.rounds
    assert round_.gain > 3 * round_.gain_se and round_.trials >= 12
    assert first.policy.name == "tuned-holdem" and not first.converged  # it gained: the station was no equilibrium
    assert (vector_of(first.policy) != vector_of(builtin("station"))).any()  # the gaining response is the new field
    assert parse_policy(first.toml, "tuned.toml") == first.policy


def test_cli_prints_or_writes_the_policy(tmp_path):
    """``sampyong tune`` prints a policy file that reads back (rounds on stderr), or writes it with --out."""
    runner = CliRunner()
    result = runner.invoke(
        cli.app,
        [
            "tune",
            "--game",
            "holdem",
            "--players",
            "2",
            "--start",
            "regular",
            "--rounds",
            "1",
            "--trials",
            "4",
            "--hands",
            "200",
            "--name",
            "mine",
        ],
    )
    assert result.exit_code == 0, result.output
    assert parse_policy(result.stdout, "out.toml").name == "mine" and "round 1:" in result.stderr
    out = tmp_path / "mine.toml"
    result = runner.invoke(
        cli.app,
        [
            "tune",
            "--game",
            "holdem",
            "--players",
            "2",
            "--rounds",
            "1",
            "--trials",
            "4",
            "--hands",
            "200",
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0 and parse_policy(out.read_text(), str(out)).name == "tuned-holdem"


@pytest.mark.parametrize(
    "arguments, message",
    [
        ({"rounds": 0}, "rounds must be at least 1"),
        ({"trials": 2}, "at least 4 trials"),
        ({"margin": -1.0}, "margin cannot be negative"),
        ({"players": 1}, "players must be"),
        ({"start": "nobody"}, "unknown policy"),
    ],
)
def test_bad_arguments_are_refused(arguments, message):
    """Bad tuning arguments are one-line errors."""
    with pytest.raises(SampyongError, match=message):
        sy.tune("holdem", **{"players": 2, "hands": 100, **arguments})


def test_games_without_a_ranking_are_refused():
    """Five-card games have no heads-up grid to rank starting hands by: tuning them is refused."""
    with pytest.raises(SampyongError, match="2 to 4 hole cards"):
        sy.tune("plo5-8", players=2, hands=100)


@pytest.mark.parametrize(
    "game_name, hands",
    [
        ("pls7", 5000),
        ("holdem", 5000),
        pytest.param("plo8", 5000, marks=pytest.mark.slow),
        pytest.param("plo", 12000, marks=pytest.mark.slow),
    ],
)
def test_the_built_in_tuned_policy_beats_pro_like_on_fresh_deals(game_name, hands):
    """Each shipped tuned policy, scored on deals its tuning never saw, beats pro-like at six seats
    by more than 3 standard errors."""
    rules = game(game_name)
    deals = Deals.dealt(rules, 6, hands, (2026, 12, 2), sy.ranking(game_name))  # the tuning used seeds (0, round, k)
    gain, se = score(rules, default_betting(rules), builtin(f"tuned-{game_name}"), builtin("pro-like"), 6, deals)
    assert gain > 3 * se > 0
