"""``import sampyong as sy``: the API's functions give what the CLI prints, as frames and a ``Run``."""

import subprocess
import sys

import polars as pl
import pytest

import sampyong as sy
from engine.policy import builtin_names
from evaluator.errors import SampyongError
from evaluator.games import PRESETS


def test_run_is_the_cli_run(tmp_path):
    """``sy.run`` with the CLI's options lands in the directory `sampyong run` prints, with the same
    tables, read lazily as polars frames; ``check`` finds it sound, then finds a removed shard."""
    args = dict(deals="30k", shard_deals="10k", players=3, seed=4, game="plo8")
    run = sy.run("showdown", backend="serial", out=tmp_path / "api", **args)
    cli = subprocess.run(
        [
            sys.executable,
            "-m",
            "sampyong",
            "run",
            "showdown",
            "--deals",
            "30k",
            "--shard-deals",
            "10k",
            "--players",
            "3",
            "--seed",
            "4",
            "--game",
            "plo8",
            "--backend",
            "serial",
            "--quiet",
            "--out",
            str(tmp_path / "cli"),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert cli.returncode == 0, cli.stderr[-2000:]
    printed = cli.stdout.strip().splitlines()[-1]
    assert run.dir.name == printed.rsplit("/", 1)[-1] and run.config.game == "plo8"
    assert set(run.tables) == {"summary", "categories"} and isinstance(run.tables["summary"], pl.DataFrame)
    assert run.tables["summary"].equals(pl.read_parquet(f"{printed}/tables/summary.parquet"))
    assert run.report.startswith("#") and run.check() == []
    next((run.dir / "shards").rglob("shard-000001.parquet")).unlink()
    assert run.check() and "1" in run.check()[0]


@pytest.mark.parametrize(
    "job, options, message",
    [
        ("showdown", {"policy": "regular"}, "showdown has no use for --policy"),
        ("coin", {}, "unknown job 'coin'"),
        ("showdown", {"deals": "1e30"}, "deal count"),
    ],
)
def test_run_refuses_what_the_cli_refuses(tmp_path, job, options, message):
    """A bad option or value is the CLI's one-line ``SampyongError``, and nothing is written."""
    with pytest.raises(SampyongError, match=message):
        sy.run(job, backend="serial", out=tmp_path / "out", **options)
    assert not (tmp_path / "out").exists()


def test_games_and_policies_are_frames_of_the_presets():
    """``sy.games()`` has a row per preset with its rules; ``sy.policies()`` a row per built-in policy."""
    games = sy.games()
    assert games["name"].to_list() == list(PRESETS)
    pls7 = games.filter(pl.col("name") == "pls7").row(0, named=True)
    assert (pls7["hole_cards"], pls7["hole_use_min"], pls7["hole_use_max"], pls7["low"]) == (3, 0, 3, 7)
    assert games.filter(pl.col("name") == "holdem")["low"].to_list() == [None]
    assert sy.policies()["name"].to_list() == builtin_names()


def test_every_public_name_is_documented_with_a_doctest():
    """Each name of ``sampyong.__all__`` exists in the API and its docstring holds an example."""
    for name in sy.__all__:
        documented = getattr(sy, name)
        assert documented.__doc__ and ">>>" in documented.__doc__, name


def test_each_public_name_is_read_from_the_face_that_defines_it():
    """``sy.NAME`` is the object the face module named for it defines (not the copy another face
    imported), the public names are the API's, and ``import sampyong`` imports no face."""
    for face, names in sy._FACES.items():
        for name in names:
            assert getattr(sy, name).__module__ == f"sampyong.{face}", name
    assert sy.__all__ == [
        "Conversion",
        "Equity",
        "Fit",
        "IncompleteRun",
        "Range",
        "Replays",
        "Run",
        "Tuned",
        "Verdict",
        "check",
        "convert",
        "equity",
        "evaluate",
        "fit",
        "games",
        "jobs",
        "load_solution",
        "play",
        "policies",
        "precompute",
        "range",
        "ranking",
        "replay",
        "report",
        "run",
        "solve",
        "table",
        "table_app",
        "tune",
        "view",
    ]
    with pytest.raises(AttributeError, match="no attribute 'api'"):
        sy.api  # noqa: B018
    loaded = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, sampyong; print(sorted(m for m in sys.modules if m.split('.')[0] == 'sampyong'))",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert loaded.split() == ["['sampyong']"]
