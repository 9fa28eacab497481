"""mypy finds no type error in the packages ``[tool.mypy]`` of pyproject.toml names (evaluator,
sampyong, pipeline, solver), so that a wrong type fails the suite. mypy runs in a fresh process
from the project's root, where it reads that configuration; its cache (``.mypy_cache``) makes
a second run take about a second, a first one 20-60 s on two cores."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_mypy_finds_no_type_error():
    done = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Success" in done.stdout, done.stdout + done.stderr
