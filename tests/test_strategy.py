"""``run strategy``: the two sweeps it runs, the verdicts it reads from them, and (slow) the
campaign end to end from the CLI."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import polars as pl
import pytest

from jobs import strategy
from pipeline.plan import RunConfig


def boards(base: list[float], variant: list[float], column: str, name: str) -> pl.DataFrame:
    n = len(base)
    return pl.DataFrame(
        {"board_index": list(range(n)) * 2, "variant": ["base"] * n + [name] * n, column: base + variant}
    )


def test_the_sweeps_solve_the_same_boards_under_both_orders():
    turn, mixed, river = strategy.runs(RunConfig("strategy", "pls7", 7, 1, 2, 3))
    assert (turn.deals, turn.seed, mixed.deals, mixed.seed, river.deals, river.seed) == (7, 3, 7, 3, 7, 3)
    assert turn.option("variants") == mixed.option("variants") == "ranking=trips_over_straight"
    assert river.option("variants") == "ranking=skip_over_flush"
    assert turn.option("street") == mixed.option("street") == "turn" and river.option("street") == "river"
    assert mixed.option("focus") == "oop:made:three_of_a_kind;ip:draw:straight" and mixed.option("oop") == "15%"


def test_paired_differences_and_their_standard_error():
    frame = boards([0.2, 0.4, 0.3], [0.1, 0.2, 0.3], "x", "v")
    found = strategy.paired(frame, "v", "x")
    difference = np.array([-0.1, -0.2, 0.0])
    assert found["difference"] == pytest.approx(difference.mean())
    assert found["difference_se"] == pytest.approx(difference.std(ddof=1) / np.sqrt(3))
    assert found["boards"] == 3


@pytest.mark.parametrize(
    "continues, chops, words",
    [
        (([0.30, 0.35, 0.40], [0.10, 0.12, 0.11]), ([0.02, 0.03, 0.025], [0.04, 0.05, 0.046]), ("yes", "yes")),
        (
            ([0.30, 0.35, 0.40], [0.31, 0.36, 0.39]),
            ([0.02, 0.03, 0.025], [0.02, 0.03, 0.025]),
            ("not shown", "not shown"),
        ),
    ],
)
def test_verdicts_follow_the_paired_differences(continues, chops, words):
    turn = boards(*continues, "turn_ip_continue_vs_bet", "ranking=trips_over_straight").with_columns(
        pot_river=pl.lit(300.0)
    )
    mixed = boards(*continues, "focus_turn_ip_continue_vs_bet", "ranking=trips_over_straight").with_columns(
        focus_share=pl.lit(0.03)
    )
    river = boards(*chops, "hi_chop", "ranking=skip_over_flush")
    lines = strategy.verdicts(turn, mixed, river)
    assert f"keeps the turn action: {words[0]}" in lines[0]
    assert f"inside top-15 % ranges: {words[0]}" in lines[1] and "of the pairs of the two ranges" in lines[1]
    assert f"raises chops: {words[1]}" in lines[2]


def test_the_closest_policy_is_the_smallest_mean_exploitability_and_its_lead_is_paired():
    def spot(variant):
        frame = boards([1.0, 2.0, 3.0], [1.0, 2.0, 3.0], "exploitability", variant)
        return frame.with_columns(
            policy_tight=pl.Series([40.0, 50.0, 45.0] * 2),
            policy_loose=pl.Series([30.0, 70.0, 60.0] * 2),
            policy_station=pl.Series([90.0, 99.0, 95.0] * 2),
        )

    turn, river = spot("ranking=trips_over_straight"), spot("ranking=skip_over_flush")
    line = strategy.closest_policy([turn, turn, river])
    assert "turn: trips v a draw, **tight** at 45 ± 3 % of the pot (8 ± 9 points below the next, loose)" in line
    assert "the solver's strategies at 2.0 ± 0.6 %" in line
    frame = strategy.policy_table([turn, turn, river])
    assert frame["policy"].to_list() == ["equilibrium (DCFR, as reached)", "tight", "loose", "station"]
    assert frame["what it is"][1] == "plays few hands, bets strong hands, folds without the price"


@pytest.mark.slow(minutes=2)
def test_the_campaign_runs_from_the_cli_and_reports_both_verdicts(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "sampyong", "run", "strategy", "--boards", "2", "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert done.returncode == 0, done.stderr
    (report,) = (tmp_path / "strategy").glob("*/report.md")
    text = report.read_text()
    assert "keeps the turn action:" in text and "raises chops:" in text and "depend on no invented player" in text
    assert "The policies against equilibrium:** each built-in policy" in text and "| pro-like |" in text
    assert "inside top-15 % ranges:" in text
    sweeps = sorted((tmp_path / "solve").glob("*/tables/boards.parquet"))
    assert len(sweeps) == 3
    for sweep in sweeps:
        frame = pl.read_parquet(sweep)
        assert frame.group_by("board_index").agg(pl.col("board").n_unique())["board"].to_list() == [1, 1]
