"""The CLI is a thin layer over the Python API: each command calls the API function of its name,
and ``sampyong run STUDY --help`` shows the options that study declares, in plain text."""

import re
import sys

import pytest
from typer.testing import CliRunner

import sampyong
from jobs import STUDIES, campaigns
from sampyong import cli, runs

runner = CliRunner()

# Each command, the API function it must call (eval is ``evaluate``: ``eval`` is Python's), and
# the fewest arguments that reach the call.
CALLS = {
    "games": ("games", []),
    "jobs": ("jobs", []),
    "report": ("report", ["RUN_DIR"]),
    "check": ("check", ["RUN_DIR"]),
    "eval": ("evaluate", ["--board", "Ad 7s 4h 8s Qc", "As 2c Kh", "Kd Qd 3s"]),
    "equity": ("equity", ["As Ah", "Kd Kc"]),
    "range": ("range", ["QQ+"]),
    "view": ("view", ["RUN_DIR"]),
    "policies": ("policies", []),
    "fit": ("fit", ["hands.phh"]),
    "replay": ("replay", ["hands.phh"]),
    "convert": ("convert", ["hands.txt", "--out", "phh"]),
    "table": ("table", []),
    "tune": ("tune", []),
    "solve": ("solve", ["--board", "Ks 7d 2c 9h", "--oop", "AA*", "--ip", "KK*"]),
    "precompute": ("precompute", []),
    **{f"run {name}": ("run", []) for name in [*STUDIES, *campaigns()]},
}
# What every `sampyong run STUDY` has besides the study's own options: where the work runs.
WHERE = {"--backend", "--address", "--workers", "--out", "--resume", "--no-resume", "--quiet", "-q", "--help", "-h"}


class Called(Exception):
    """Raised by a stand-in API function: the command reached it."""


def commands(group, prefix=""):
    """Every leaf command of the typer app, by its words (``run play``)."""
    import typer.main

    context = (
        typer.main.get_command(cli.app).make_context("sampyong", [], resilient_parsing=True) if not prefix else None
    )
    found = {}
    for name in group.list_commands(context):
        command = group.get_command(context, name)
        if hasattr(command, "list_commands"):
            found |= commands(command, f"{prefix}{name} ")
        else:
            found[f"{prefix}{name}"] = command
    return found


def app_commands():
    import typer.main

    return commands(typer.main.get_command(cli.app))


def test_every_command_is_listed_here():
    """The walk finds exactly the commands of ``CALLS``: a new command needs its API function."""
    assert set(app_commands()) == set(CALLS)


@pytest.mark.parametrize("command", sorted(CALLS))
def test_each_command_calls_the_api_function_of_its_name(command, monkeypatch):
    """Invoking the command reaches ``sy.NAME`` in the module that defines it (with the job's name
    for ``run``)."""
    function, arguments = CALLS[command]
    assert callable(getattr(sampyong, function)) and function in sampyong.__all__
    face = sys.modules[getattr(sampyong, function).__module__]

    def reached(*args, **kwargs):
        raise Called(function, args, kwargs)

    monkeypatch.setattr(face, function, reached)
    result = runner.invoke(cli.app, [*command.split(), *arguments])
    assert isinstance(result.exception, Called), (result.exit_code, result.output)
    name, args, _ = result.exception.args
    assert name == function
    if command.startswith("run "):
        assert args == (command.split()[1],)


@pytest.mark.parametrize("job", [*STUDIES, *campaigns()])
def test_run_study_help_lists_the_study_options_only(job):
    """`sampyong run JOB --help` names the options the job declares, and where work runs: no other."""
    declared = STUDIES[job].options + STUDIES[job].output_options if job in STUDIES else campaigns()[job].OPTIONS
    result = runner.invoke(cli.app, ["run", job, "--help"], terminal_width=200)
    assert result.exit_code == 0, result.output
    shown = set(re.findall(r"(?<![\w-])(--?[a-z][a-z-]*)", result.stdout)) - {"-"}
    expected = {flag for option in declared if not option.argument for flag in option.flags} | WHERE
    assert shown == expected


def test_play_help_names_no_option_of_another_study():
    """The issue's example: `run play --help` shows neither --variants nor --exact."""
    text = runner.invoke(cli.app, ["run", "play", "--help"], terminal_width=200).stdout
    assert "--policy" in text and "--record" in text and "--hands" in text
    assert "--variants" not in text and "--exact" not in text


def test_option_help_reads_as_plain_text():
    """Every declared option's help is plain sentences: no RST backquotes, no line breaks, no space
    before a stop or comma, no square brackets (rich would read them as markup and drop them)."""
    options = {o for study in STUDIES.values() for o in (*study.options, *study.output_options)} | {
        o for c in campaigns().values() for o in c.OPTIONS
    }
    for option in options:
        assert "`" not in option.help and "\n" not in option.help, option
        assert not re.search(r"\s[.,;]|\s{2}|[\[\]]", option.help), option
        assert option.help[:1].isupper(), option
        assert option.help.endswith("."), option


def test_run_alone_lists_the_studies():
    """`sampyong run` with no study prints the studies it knows."""
    result = runner.invoke(cli.app, ["run"], terminal_width=200)
    assert all(name in result.stdout for name in [*STUDIES, *campaigns()])


def test_api_keywords_are_the_declared_options(tmp_path):
    """``sy.run`` accepts what the study declares and refuses what another study declares."""
    from evaluator.errors import SampyongError

    with pytest.raises(SampyongError, match="play has no use for --variants"):
        runs.run("play", variants="base", out=tmp_path)
    with pytest.raises(SampyongError, match="showdown has no use for --policy"):
        runs.run("showdown", policy="tight", out=tmp_path)


def test_typer_is_not_given_rich_markup_in_help():
    """The commands' docstrings carry no RST backquotes (typer prints them as they are)."""
    import typer.main

    for name, command in app_commands().items():
        assert "``" not in (command.help or ""), name
    assert isinstance(typer.main.get_command(cli.app), typer.core.TyperGroup)
