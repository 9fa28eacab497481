"""The mutation tool's test selection (tests/mutants/mutants.py): a mutant runs only the tests
that execute the statement it changed, and every test whenever that cannot be known."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

SPEC = importlib.util.spec_from_file_location("mutants_tool", Path(__file__).parent / "mutants" / "mutants.py")
tool = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(tool)

ORIGINAL = """import numpy as np
from numba import njit

LIMIT = 3


def clamp(x):
    if x > LIMIT:
        return LIMIT
    return max(
        x,
        0,
    )


@njit(cache=True)
def kernel(x):
    return x + 1


def unused(x):
    return -x
"""
COVERAGE = {  # line -> the tests that run it, as coverage_map writes it
    "1": ["*"],
    "2": ["*"],
    "4": ["*"],
    "7": ["*"],
    "16": ["*"],
    "17": ["*"],
    "21": ["*"],
    "8": ["tests/test_a.py::test_big", "tests/test_a.py::test_small"],
    "9": ["tests/test_a.py::test_big"],
    "10": ["tests/test_a.py::test_small", "tests/test_b.py::test_other[1]"],
}


@pytest.fixture
def work(tmp_path):
    (tmp_path / "original.py").write_text(ORIGINAL)
    (tmp_path / "coverage.json").write_text(json.dumps(COVERAGE))
    return tmp_path


def mutant(work: Path, old: str, new: str) -> tuple:
    assert ORIGINAL.count(old) == 1
    (work / "mutated.py").write_text(ORIGINAL.replace(old, new))
    return tool.selected_tests(work, work / "mutated.py")


def test_a_mutant_runs_the_tests_that_run_its_statement(work):
    """A changed line runs the tests that executed it; a line inside a multi-line statement, the tests of that statement."""
    assert mutant(work, "return LIMIT", "return LIMIT + 1")[0] == {"tests/test_a.py::test_big"}
    assert mutant(work, "if x > LIMIT:", "if x >= LIMIT:")[0] == {
        "tests/test_a.py::test_big",
        "tests/test_a.py::test_small",
    }
    assert mutant(work, "        0,\n", "        1,\n")[0] == {
        "tests/test_a.py::test_small",
        "tests/test_b.py::test_other[1]",
    }


@pytest.mark.parametrize(
    "old, new, reason",
    [
        ("return x + 1", "return x + 2", "numba kernel"),  # jitted code is never traced
        ("LIMIT = 3", "LIMIT = 4", "outside a test's own call"),  # run at import
        ("return -x", "return x", "no test runs line"),  # executed by nobody: run everything, do not guess
    ],
)
def test_every_test_runs_when_the_map_cannot_say(work, old, new, reason):
    """A line of a numba kernel, one run at import, or one no test ran: every test runs, with the reason."""
    chosen, why = mutant(work, old, new)
    assert chosen is None and reason in why


def test_without_a_map_every_test_runs(tmp_path):
    """No coverage map (pytest-cov missing, the coverage run failing): every test runs."""
    (tmp_path / "mutated.py").write_text(ORIGINAL)
    assert tool.selected_tests(tmp_path, tmp_path / "mutated.py") == (None, "no coverage map")


def test_stages_keep_their_order_and_their_own_tests():
    """The stages are cut down to the chosen tests, each in the stage that lists its file, its doctest module or itself."""
    stages = [["pkg/mod.py", "tests/test_a.py"], ["tests/test_b.py", "tests/test_c.py::test_one"]]
    tests = {
        "tests/test_a.py::test_big",
        "pkg/mod.py::pkg.mod.clamp",
        "tests/test_c.py::test_one[2]",
        "tests/test_b.py::test_other[1]",
    }
    assert tool.narrowed(stages, tests) == [
        ["pkg/mod.py::pkg.mod.clamp", "tests/test_a.py::test_big"],
        ["tests/test_b.py::test_other[1]", "tests/test_c.py::test_one[2]"],
    ]


def test_survivors_reopen_unless_documented_equivalent(tmp_path, monkeypatch):
    """``--survivors`` marks only the undocumented survivors as not run yet: killed mutants and
    survivors documented in equivalent.txt keep their results."""
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import MutationSpec, TestOutcome, WorkerOutcome, WorkItem, WorkResult

    source = tmp_path / "clamp.py"
    source.write_text(ORIGINAL)
    equivalents = tmp_path / "equivalent.txt"
    equivalents.write_text("m/clamp.py:4: NumberReplacer: `LIMIT = 3` => `LIMIT = 4` — nothing reads it\n")
    monkeypatch.setattr(tool, "EQUIVALENTS", equivalents)
    db_path = tmp_path / "session.sqlite"
    outcomes = {
        "killed": (4, "LIMIT = 2", TestOutcome.KILLED),
        "documented": (4, "LIMIT = 4", TestOutcome.SURVIVED),
        "open": (9, "return 3", TestOutcome.SURVIVED),
    }
    with use_db(str(db_path), WorkDB.Mode.create) as db:
        for job, (line, after, outcome) in outcomes.items():
            before = ORIGINAL.splitlines()[line - 1]
            db.add_work_item(
                WorkItem(
                    job_id=job,
                    mutations=[MutationSpec("m/clamp.py", "core/NumberReplacer", 0, (line, 0), (line, len(before)))],
                )
            )
            db.set_result(
                job,
                WorkResult(
                    worker_outcome=WorkerOutcome.NORMAL,
                    test_outcome=outcome,
                    output="x",
                    diff=f"--- a\n+++ b\n-{before}\n+{before.replace(before.strip(), after)}\n",
                ),
            )
    assert tool.reopen_survivors(db_path, "m/clamp.py", source) == 1
    with use_db(str(db_path), WorkDB.Mode.open) as db:
        assert [item.job_id for item in db.pending_work_items] == ["open"]
        assert sorted(item.job_id for item, _ in db.completed_work_items) == ["documented", "killed"]
