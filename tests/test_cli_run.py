"""``sampyong run/report/games/jobs``: the flags build the right config; bad input exits 2."""

import sys

import pytest
from typer.testing import CliRunner

from pipeline.backends import AutoBackend, RayBackend, SerialBackend
from pipeline.plan import RunConfig
from sampyong import cli, runs

runner = CliRunner()


@pytest.fixture
def captured(monkeypatch, tmp_path):
    """Replace the heavy runner: record what the CLI asked for, create nothing."""
    calls = []

    def fake_execute(study, config, backend, out, *, resume, quiet, output_options=None):
        calls.append({"config": config, "backend": backend, "out": out, "resume": resume, "quiet": quiet})
        return out / config.job / config.run_id

    monkeypatch.setattr(runs, "execute", fake_execute)
    return calls


def test_run_flags_build_the_config(captured, tmp_path):
    """Every flag lands in RunConfig or the backend; the last line printed is the run directory."""
    result = runner.invoke(
        cli.app,
        [
            "run",
            "showdown",
            "--game",
            "pls7",
            "--ranking",
            "skip_over_flush",
            "--low",
            "8",
            "--hole-use",
            "2-3",
            "--deals",
            "200M",
            "--players",
            "6",
            "--seed",
            "9",
            "--shard-deals",
            "1_000_000",
            "--address",
            "auto",
            "--workers",
            "3",
            "--out",
            str(tmp_path),
            "--no-resume",
            "--quiet",
        ],
    )
    assert result.exit_code == 0, result.output
    call = captured[0]
    assert call["config"] == RunConfig(
        job="showdown",
        game="pls7",
        deals=200_000_000,
        shard_deals=1_000_000,
        players=6,
        seed=9,
        hole_use="2-3",
        ranking="skip_over_flush",
        low="8",
    )
    assert isinstance(call["backend"], RayBackend) and call["backend"].address == "auto"
    assert call["backend"].workers == 3
    assert call["resume"] is False and call["quiet"] is True
    assert result.stdout.strip().splitlines()[-1] == str(tmp_path / "showdown" / call["config"].run_id)


def test_run_defaults(captured, monkeypatch):
    """Defaults: pls7, 20M deals, 8 players, seed 0, 1M-deal shards, the auto backend, outputs/."""
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    result = runner.invoke(cli.app, ["run", "showdown"])
    assert result.exit_code == 0, result.output
    call = captured[0]
    assert call["config"] == RunConfig(
        job="showdown", game="pls7", deals=20_000_000, shard_deals=1_000_000, players=8, seed=0
    )
    assert isinstance(call["backend"], AutoBackend) and str(call["out"]) == "outputs"
    assert call["resume"] is True


def test_serial_backend_flag(captured):
    """--backend serial runs in this process."""
    runner.invoke(cli.app, ["run", "showdown", "--backend", "serial"])
    assert isinstance(captured[0]["backend"], SerialBackend)


@pytest.mark.parametrize(
    "flags, address, workers",
    [
        (["--address", "local"], "local", None),
        (["--workers", "2"], "local", 2),
        (["--backend", "ray"], "local", None),
        (["--backend", "ray", "--address", "auto"], "auto", None),
    ],
)
def test_ray_options_or_backend_ray_mean_ray_from_the_start(captured, flags, address, workers):
    """The default backend is Ray from the start when --address or --workers is given, and so is --backend ray."""
    result = runner.invoke(cli.app, ["run", "showdown", *flags])
    assert result.exit_code == 0, result.output
    backend = captured[0]["backend"]
    assert isinstance(backend, RayBackend) and (backend.address, backend.workers) == (address, workers)


@pytest.mark.parametrize(
    "args, message",
    [
        (["run", "nosuchjob"], "unknown job"),
        (["run", "showdown", "--game", "stud"], "unknown game"),
        (["run", "showdown", "--deals", "0"], "must be positive"),
        (["run", "showdown", "--deals", "-5"], "bad deal count"),
        (["run", "showdown", "--deals", "lots"], "bad deal count"),
        (["run", "showdown", "--shard-deals", "1.5"], "whole number"),
        (["run", "showdown", "--ranking", "silly"], "unknown ranking"),
        (["run", "showdown", "--low", "9"], "low qualifier"),
        (["run", "showdown", "--hole-use", "4-4"], "impossible"),
        (["run", "showdown", "--game", "plo", "--players", "12"], "players must be 2 to 11"),
        (["run", "showdown", "--players", "1"], "players must be"),
        (["run", "showdown", "--workers", "0"], "workers"),
        (["run", "showdown", "--backend", "gpu"], "unknown backend"),
        (["run", "showdown", "--exact"], "No such option: --exact"),
        (["run", "showdown", "--policy", "tight"], "No such option: --policy"),
        (["run", "play", "--variants", "base"], "No such option: --variants"),
        (["run", "grid", "--exact", "--players", "3"], "--exact applies to"),
        (["report", "/nonexistent/run"], "not a run directory"),
    ],
)
def test_bad_input_one_line_exit_2(captured, args, message, monkeypatch, capsys):
    """Bad input, refused by the API or by the study's own options: one line on stderr naming the
    problem, exit 2, nothing run."""
    monkeypatch.setattr(sys, "argv", ["sampyong", *args])
    with pytest.raises(SystemExit) as exit_:
        cli.main()
    stderr = capsys.readouterr().err
    assert exit_.value.code == 2, stderr
    assert message in stderr
    assert len(stderr.strip().splitlines()) == 1
    assert captured == []


@pytest.mark.parametrize("job", ["grid", "distribution"])
def test_exact_flag_accepted_where_enumerated(captured, job):
    """--exact is accepted for the enumerated jobs and changes nothing in their config."""
    with_flag = runner.invoke(cli.app, ["run", job, "--game", "holdem", "--exact"])
    without = runner.invoke(cli.app, ["run", job, "--game", "holdem"])
    assert with_flag.exit_code == 0 and without.exit_code == 0, with_flag.output
    assert captured[0]["config"] == captured[1]["config"]


def test_games_and_jobs_list():
    """games lists presets with their knobs; jobs lists studies."""
    games = runner.invoke(cli.app, ["games"])
    assert games.exit_code == 0 and "pls7" in games.stdout and "plo5-8" in games.stdout
    assert "skip_over_flush" in games.stdout
    jobs = runner.invoke(cli.app, ["jobs"])
    assert jobs.exit_code == 0 and "showdown" in jobs.stdout


def test_version_and_help():
    """--version prints the version; -h explains the commands."""
    assert "sampyong" in runner.invoke(cli.app, ["--version"]).stdout
    assert "run" in runner.invoke(cli.app, ["-h"]).stdout


def test_the_cli_names_no_study():
    """sampyong/cli.py is handed studies by name through jobs.STUDIES: it imports no study module
    and compares no string with a study's name."""
    import re
    from pathlib import Path

    from jobs import STUDIES

    text = (Path(__file__).resolve().parents[1] / "sampyong" / "cli.py").read_text()
    text = re.sub(r'command\("[a-z]+"\)', "", text)  # a command's own name (sampyong solve) names no study
    for name in STUDIES:
        assert f"jobs.{name}" not in text and f"jobs import {name}" not in text, name
        assert f'"{name}"' not in text and f"'{name}'" not in text, name
