"""Policies as data: the built-ins load, and a bad policy file is one line and exit 2."""

import subprocess
import sys

import pytest

from engine.policy import builtin, builtin_names, parse_policy


def test_builtins_load_and_include_the_required_ones():
    """tight, regular, loose, station and showdown ship with the package and parse."""
    assert {"tight", "regular", "loose", "station", "showdown"} <= set(builtin_names())
    assert builtin("showdown").style == "check-call"
    tight, loose = builtin("tight"), builtin("loose")
    assert tight.preflop.open_late < loose.preflop.open_late and tight.postflop.bet > loose.postflop.bet


@pytest.mark.parametrize(
    "text, message",
    [
        ("[preflop]\nopen_erly = 0.2\n", "unknown key preflop.open_erly"),
        ("colour = 'red'\n", "unknown key colour"),
        ("[preflop]\ncall = 1.5\n", "preflop.call = 1.5 is not a share from 0 to 1"),
        ("[postflop]\nbet = -0.1\n", "postflop.bet = -0.1 is not a share from 0 to 1"),
        ("[postflop]\nbet_size = -0.5\n", "postflop.bet_size = -0.5 cannot be negative"),
        ("[postflop]\nsamples = 0\n", "postflop.samples must be a whole number of at least 1"),
        ("[preflop]\nlimp = 'yes'\n", "preflop.limp must be true or false"),
        ("style = 'maniac'\n", "style 'maniac' is not one of"),
        ("[preflop\n", "not a policy file"),
    ],
)
def test_bad_policy_files_are_one_line_exit_2(tmp_path, text, message):
    """An unknown key, a share outside [0, 1], a negative size, a bad type or bad TOML: one line naming the file, exit 2."""
    path = tmp_path / "mine.toml"
    path.write_text(text)
    result = subprocess.run(
        [sys.executable, "-m", "sampyong", "policies", str(path)], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.strip().splitlines() == [result.stderr.strip()] and message in result.stderr
    assert f"{path}" in result.stderr


def test_policies_command_lists_and_prints():
    """`sampyong policies` lists the built-ins with their descriptions; with a name it prints the TOML."""
    listing = subprocess.run([sys.executable, "-m", "sampyong", "policies"], capture_output=True, text=True, timeout=60)
    assert listing.returncode == 0 and len(listing.stdout.splitlines()) == len(builtin_names())
    shown = subprocess.run(
        [sys.executable, "-m", "sampyong", "policies", "regular"], capture_output=True, text=True, timeout=60
    )
    assert parse_policy(shown.stdout).name == "regular"


def test_encode_puts_every_field_at_its_named_index():
    """``Policy.encode()`` writes each field of each section at the index of its ``P_*`` constant
    (the numba engine reads them by those names), and the style as its index in ``STYLES``."""
    import dataclasses

    import engine.policy as module
    from engine.policy import Policy, Postflop, Preflop, Random

    sections = {"preflop": Preflop, "postflop": Postflop, "random": Random}
    values = {}
    fields = {}
    for k, (name, cls) in enumerate(sections.items()):
        kwargs = {}
        for j, field in enumerate(dataclasses.fields(cls)):
            value = (field.type == "bool") or (
                10 * k + j + 1 if field.type == "int" else round(0.01 * (10 * k + j + 1), 2)
            )
            kwargs[field.name] = value
            values[field.name] = float(value)
        fields[name] = cls(**kwargs)
    row = Policy("p", style="random-legal", **fields).encode()
    assert row[module.P_STYLE] == module.STYLES.index("random-legal")
    for name, value in values.items():
        assert row[getattr(module, f"P_{name.upper()}")] == value, name
    assert len(row) == module.ENCODED == 1 + len(values)


@pytest.mark.parametrize(
    "text, message",
    [
        (
            "style = 'random-legal'\n[random]\nmin_raise = 0.7\nmax_raise = 0.5\n",
            "random.min_raise + random.max_raise = 1.2 is over 1",
        ),
        ("style = 'random-legal'\n[random]\ncheck_call = 0\n", "random.check_call must be above 0"),
        ("[random]\nbet_raise = 'often'\n", "random.bet_raise must be a number"),
    ],
)
def test_bad_random_sections_are_refused(text, message):
    """A random-legal section whose raise shares exceed 1, with no check or call, or with a non-number is refused."""
    from evaluator.errors import SampyongError

    with pytest.raises(SampyongError, match=message.replace("+", r"\+")):
        parse_policy(text, "mine.toml")
