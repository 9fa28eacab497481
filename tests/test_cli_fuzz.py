"""Random command lines from the real option names, with random and extreme values: every one
ends with exit code 0, 1 or 2 and no traceback, and an exit 2 leaves no file behind.

The commands run in this process through the console entry point (``main``). ``run`` is
handed a stand-in executor that plans the shards and writes nothing, so any accepted config
is checked for its limits without computing it; every other command runs for real.
"""

import contextlib
import io
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sampyong.cli as cli
import sampyong.runs as runs
from pipeline.plan import MAX_DEALS, MAX_SEED, MAX_SHARDS, check_limits

EXTREME_INTS = st.sampled_from([0, 1, 2, -1, 3, 8, 16, 999, 2**31, 2**63, 2**64 - 1, 2**64, -(2**70), 10**30])
COUNTS = st.sampled_from(
    [
        "1",
        "4",
        "1000",
        "20k",
        "1M",
        "1e3",
        "2.5k",
        "0",
        "-5",
        "1e30",
        "1e400",
        "9" * 40,
        "many",
        "",
        "1.5",
        "1e15",
        "1e16",
        "10G",
        "1_000",
    ]
)
GAMES = st.sampled_from(["pls7", "pls", "pls7-2", "holdem", "plo", "plo8", "plo5-8", "PLS7", "stud", "", "x" * 300])
TEXT = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=20)
CARDS = st.sampled_from(["As", "Kd", "Qh", "2c", "7s", "Td", "10h", "9♠", "Ah", "As", "Xx", "", "1s", "Aa"])
HANDS = st.one_of(
    st.lists(CARDS, min_size=2, max_size=5).map(" ".join),
    st.sampled_from(["random", "As Ks Qh", "2c 3c 4c", "Ad Kd", "7h 8h 9h Th", "As Ks"]),
    TEXT,
)
BOARDS = st.one_of(
    st.sampled_from(["", "Ad 7s 4h", "Ad 7s 4h 8s Qc", "2c 3d 4h 5s 6c", "Ad 7s 4h 8s"]),
    st.lists(CARDS, max_size=6).map(" ".join),
)


def option(name: str, values, sensible=None) -> st.SearchStrategy:
    """Most often absent, often a sensible value, sometimes anything of ``values``: a command
    line with every option wild would only ever test the first refusal."""
    pick = sensible if sensible is not None else values
    return st.integers(0, 19).flatmap(
        lambda k: st.just([]) if k < 12 else (pick if k < 18 else values).map(lambda v: [name, str(v)])
    )


def flag(name: str) -> st.SearchStrategy:
    return st.sampled_from([[], [name]])


def command_line(head, *parts) -> st.SearchStrategy:
    return st.tuples(*parts).map(lambda chosen: [*head, *[word for part in chosen for word in part]])


RUN = command_line(
    [],
    st.sampled_from(
        [
            ["run", job]
            for job in ("showdown", "variants", "textures", "draws", "distribution", "grid", "rulebook", "nosuch")
        ]
    ),
    option("--game", GAMES, st.sampled_from(["pls7", "holdem", "plo8"])),
    option("--hole-use", st.sampled_from(["free", "pls-2", "2-3", "0-4", "4-4", "3-1", "x", "at-least-one", "-1-2"])),
    option("--ranking", st.sampled_from(["base", "both", "standard", "skip_over_flush", "silly"])),
    option("--low", st.sampled_from(["6", "7", "8", "none", "9", "5", "-1"])),
    option("--deals", COUNTS, st.sampled_from(["1000", "20k", "1M", "1e15"])),
    option("--players", EXTREME_INTS, st.integers(2, 8)),
    option("--seed", EXTREME_INTS, st.sampled_from([0, 1, 2**64 - 1])),
    option("--shard-deals", COUNTS, st.sampled_from(["1000", "1M", "1e9"])),
    option("--variants", st.sampled_from(["base", "low=8", "hole_use=2-3;ranking=both,low=8", "bogus", "low=", ";;"])),
    flag("--exact"),
    option("--address", st.sampled_from(["local", "auto", "127.0.0.1:1", ""])),
    option("--workers", EXTREME_INTS, st.integers(1, 4)),
    option("--backend", st.sampled_from(["auto", "ray", "serial", "dask"])),
    flag("--no-resume"),
    flag("--quiet"),
)
DECK = [r + s for r in "23456789TJQKA" for s in "shdc"]
HOLE_CARDS = {"pls7": 3, "holdem": 2, "plo8": 4}


@st.composite
def deal(draw, board_sizes=(5,)):
    """A well-formed deal: a game, its board and 1-4 hands of distinct cards."""
    game = draw(st.sampled_from(sorted(HOLE_CARDS)))
    cards = draw(st.permutations(DECK))
    board = draw(st.sampled_from(board_sizes))
    hands = draw(st.integers(1, 4))
    size = HOLE_CARDS[game]
    holes = [" ".join(cards[board + i * size : board + (i + 1) * size]) for i in range(hands)]
    return ["--game", game, "--board", " ".join(cards[:board]), *holes]


EVAL = command_line(
    ["eval"],
    st.one_of(deal(), deal().map(lambda words: words[2:])),
    st.integers(0, 4).flatmap(lambda k: st.lists(HANDS, min_size=1, max_size=2) if k == 0 else st.just([])),
    option("--board", BOARDS),
    option("--game", GAMES),
    option("--pot", EXTREME_INTS),
    option("--button", EXTREME_INTS),
    flag("--json"),
    option("--input", st.sampled_from(["deals.jsonl", "missing.jsonl", "bad.jsonl", "deep.jsonl", "."])),
)
EQUITY = command_line(
    ["equity"],
    deal(board_sizes=(3, 4, 5)),
    st.integers(0, 4).flatmap(lambda k: st.lists(HANDS, min_size=1, max_size=1) if k == 0 else st.just([])),
    option("--board", BOARDS),
    option("--dead", st.sampled_from(["", "2c", "As", "Xx"])),
    option("--game", GAMES),
    option("--samples", st.sampled_from(["1", "500", "2k", "0", "1e30", "1e18", "lots", "-3"])),
    option("--seed", EXTREME_INTS),
    flag("--json"),
)
RECORDS = command_line(
    [],
    st.sampled_from([["replay"], ["fit"], ["run", "records"], ["policies"]]),
    st.lists(
        st.sampled_from(
            ["hand.phh", "records", "records/deep.phh", "deep.toml", "bad.phh", "missing.phh", "deals.jsonl"]
        ),
        min_size=1,
        max_size=2,
    ),
    option("--game", GAMES, st.sampled_from(["holdem", "pls7"])),
    option("--against", st.sampled_from(["regular", "nosuch", "deep.toml", "", "hand.phh"])),
    option("--hands", COUNTS),
)
REPORT_CHECK = command_line(
    [],
    st.sampled_from([["report"], ["check"]]),
    st.sampled_from([["run"], ["."], ["missing"], ["deals.jsonl"], [], ["run", "extra"], ["brokenrun"]]),
)


@pytest.fixture(scope="module")
def workdir(tmp_path_factory) -> Path:
    """A folder with a finished run, a broken one, and JSON-lines files for ``eval --input``."""
    root = tmp_path_factory.mktemp("fuzz")
    with contextlib.chdir(root):
        code, _ = invoke(
            [
                "run",
                "showdown",
                "--deals",
                "3000",
                "--shard-deals",
                "1000",
                "--players",
                "3",
                "--backend",
                "serial",
                "--out",
                "outputs",
                "--quiet",
            ],
            real_run=True,
        )
    assert code == 0
    run_dir = next((root / "outputs" / "showdown").iterdir())
    run_dir.rename(root / "run")
    (root / "brokenrun").mkdir()
    (root / "brokenrun" / "run.json").write_text('{"job": "showdown", "game": 3}')
    (root / "deals.jsonl").write_text(
        '{"game": "plo8", "board": "Ad 8c 5h Ks 2c", "hands": ["As Ah 3s 6d", "Kh Qc Jh Td"]}\n'
    )
    (root / "bad.jsonl").write_text('{"board": "Ad 8c 5h Ks 2c", "hands": ["As Ah", 3], "pot": -7}\n[1, 2]\n')
    # Nested too deep for the parsers (they recurse once per level): one line and exit 2, as any bad file.
    (root / "deep.jsonl").write_text("[" * 100_000 + "\n")
    (root / "records").mkdir()
    (root / "records" / "deep.phh").write_text('variant = "NT"\nactions = ' + "[" * 5000 + "]" * 5000 + "\n")
    (root / "deep.toml").write_text("name = " + "[" * 5000 + "\n")
    (root / "hand.phh").write_text(
        'variant = "NT"\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\nstarting_stacks = [100, 100]\n'
        'actions = ["d dh p1 AsAh", "d dh p2 KdKc", "p2 cbr 6", "p1 f"]\nfinishing_stacks = [98, 102]\n'
    )
    (root / "bad.phh").write_text("variant = \n")
    return root


def fake_execute(study, config, backend, out, *, resume, quiet, output_options=None):
    """Stand-in for the runner: the config it is handed must be within every limit."""
    check_limits(config)
    assert 0 <= config.seed <= MAX_SEED and 0 < config.deals <= MAX_DEALS
    assert -(-config.deals // config.shard_deals) <= MAX_SHARDS
    return Path(out) / config.job / config.run_id


def invoke(args: list[str], real_run: bool = False) -> tuple[int, str]:
    """Run the console entry point on ``args``; return its exit code and everything it printed."""
    output = io.StringIO()
    saved = sys.argv, runs.execute
    sys.argv = ["sampyong", *args]
    if not real_run:
        runs.execute = fake_execute
    try:
        with contextlib.redirect_stdout(output), contextlib.redirect_stderr(output):
            try:
                cli.main()
                code = 0
            except SystemExit as exit_:
                code = exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None else 1)
    finally:
        sys.argv, runs.execute = saved
    return code, output.getvalue()


def files_under(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*")}


def fake_rulebook(deals, seed, backend, out, *, resume, quiet, upstream_out):
    assert 0 <= seed <= MAX_SEED and 0 < deals <= MAX_DEALS
    return Path(out) / "rulebook" / "fake"


FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def _check(workdir: Path, args: list[str], monkeypatch) -> None:
    import jobs.rulebook

    monkeypatch.setattr(jobs.rulebook, "run_rulebook", fake_rulebook)
    before = files_under(workdir)
    with contextlib.chdir(workdir):
        code, output = invoke(args)
    assert code in (0, 1, 2), (args, code, output)
    assert "Traceback" not in output, (args, output)
    if code == 2:
        assert files_under(workdir) == before, (args, output)
        assert len(output.strip().splitlines()) == 1, (args, output)


@FUZZ
@given(args=RUN)
def test_random_run_command_lines(workdir, monkeypatch, args):
    """`run` with random options: exit 0, 1 or 2, never a traceback, and nothing written on exit 2."""
    _check(workdir, args, monkeypatch)


@FUZZ
@given(args=EVAL)
def test_random_eval_command_lines(workdir, monkeypatch, args):
    """`eval` with random hands, boards, pots and inputs: exit 0, 1 or 2, never a traceback."""
    _check(workdir, args, monkeypatch)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(args=EQUITY)
def test_random_equity_command_lines(workdir, monkeypatch, args):
    """`equity` with random hands, boards and sample counts: exit 0, 1 or 2, never a traceback."""
    _check(workdir, args, monkeypatch)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(args=REPORT_CHECK)
def test_random_report_and_check_command_lines(workdir, monkeypatch, args):
    """`report` and `check` on runs, broken runs, files and missing paths: exit 0, 1 or 2, never a traceback."""
    _check(workdir, args, monkeypatch)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(args=RECORDS)
def test_random_record_command_lines(workdir, monkeypatch, args):
    """`replay`, `fit`, `run records` and `policies` on good, unreadable, missing and too deeply nested files: exit 0, 1 or 2, never a traceback."""
    _check(workdir, args, monkeypatch)


@pytest.mark.parametrize(
    "args",
    [
        ["replay", "records/deep.phh"],
        ["fit", "records/deep.phh"],
        ["run", "records", "records"],
        ["policies", "deep.toml"],
        ["eval", "--input", "deep.jsonl"],
    ],
)
def test_records_nested_too_deep_end_in_one_line(workdir, monkeypatch, args):
    """A file nested five thousand levels deep ends the command in one line naming the file, exit 2, nothing written."""
    _check(workdir, args, monkeypatch)
    with contextlib.chdir(workdir):
        code, output = invoke(args)
    assert code == 2 and "deep" in output and "nested too deep" in output, output
