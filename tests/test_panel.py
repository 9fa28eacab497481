"""``run panel``: the rule book's claims under a panel of policies."""

from __future__ import annotations

import polars as pl

import sampyong as sy
from jobs.play import CLAIMS, holds_within


def test_the_showdown_member_agrees_with_the_showdown_study(tmp_path):
    """Under the showdown policy (everyone checks and calls to the river) the panel's verdicts are
    those of the showdown study's figures at six players, and the report says which claims survive."""
    panel = sy.run("panel", members="showdown", hands="20k", skill=False, backend="serial", out=tmp_path)
    claims = pl.read_parquet(panel.dir / "tables" / "claims.parquet")
    study = sy.run("showdown", players=6, deals="20k", shard_deals="10k", backend="serial", out=tmp_path)
    shown = study.tables["summary"].filter(pl.col("players") == 6).row(0, named=True)
    for row in claims.iter_rows(named=True):
        claim = next(c for c in CLAIMS if c["claim"] == row["claim"] and c["among"] == row["among"])
        if claim["among"] == "heads-up showdowns":
            assert row["holds"] == "n/a"  # six players always show down together
            continue
        figure, se = shown[claim["flag"]], shown[f"{claim['flag']}_se"]
        assert row["holds"] == holds_within(figure, se, 20_000, claim["allowed"])
        assert abs(row["play"] - figure) < 5 * (se**2 + row["play_se"] ** 2) ** 0.5
        if claim["everyone_at"] == 6:
            assert row["play"] == row["everyone"]  # the same deals, everyone showing down
    report = (panel.dir / "report.md").read_text()
    assert "| claim | showdown | survives |" in report and "holds under every policy" in report


def test_the_default_panel_runs_each_run_once():
    """The default PLS7 panel: six members' play runs, then per game with a tuned built-in two
    matches and the tuned policy's play run (PLS7's is its tuned member's), each run once."""
    from engine.policy import builtin_names
    from jobs import panel
    from pipeline.plan import RunConfig

    runs = panel.runs(RunConfig("panel", "pls7", 10_000, 1, 6, 0))
    tuned = [g for g in panel.SKILL_GAMES if f"tuned-{g}" in builtin_names()]
    assert len({c.run_id for c in runs}) == len(runs) == 6 + 3 * len(tuned) - ("pls7" in tuned)
    assert [c.option("policy") for c in runs[:6]] == [
        "tight",
        "regular",
        "loose",
        "pro-like",
        "tuned-pls7",
        panel.MIXED,
    ]
    assert {c.option("policies") for c in runs if c.job == "match"} == {
        f"tuned-{g},{o}" for g in tuned for o in ("station", "loose")
    }


def test_a_campaigns_upstream_runs_land_in_the_cache_folder(tmp_path):
    """As a single run's do: the panel's play run reads its ranking from a run kept in the cache
    folder (done once per machine), and its output folder holds no upstream run."""
    from evaluator.games import game
    from evaluator.tables import cache_dir
    from jobs.hand_ranking import strength_runs

    sy.run("panel", game="holdem", members="tight", hands="20k", skill=False, backend="serial", out=tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["panel", "play"]
    ((study, config),) = strength_runs(game("holdem"))
    assert (cache_dir() / "runs" / study.name / config.run_id / "report.md").is_file()
