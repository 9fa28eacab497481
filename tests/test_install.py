"""The project installs from its own files into a fresh virtual environment on Python 3.11 (the
dependencies taken from the environment this test runs in, so nothing large is downloaded; the
build backend comes from the package index, as for any user) and runs from there, away from
the checkout; a Python older than ``requires-python`` is refused by pip."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
@pytest.mark.skipif(sys.version_info[:2] != (3, 11), reason="the fresh install is checked on Python 3.11")
def test_a_fresh_install_on_python_311_runs_away_from_the_checkout(tmp_path, monkeypatch):
    monkeypatch.delenv("PYTHONPATH", raising=False)  # a checkout on the path would hide the installed package
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True)
    python = venv / "bin" / "python"
    source = tmp_path / "source"  # a copy: pip builds in the tree it is given, and the checkout stays as it is
    skipped = shutil.ignore_patterns(".git", "build", "outputs", "*.egg-info", "__pycache__", ".*_cache", ".hypothesis")
    shutil.copytree(ROOT, source, ignore=skipped)
    subprocess.run(
        [str(python), "-m", "pip", "install", "-q", "--no-deps", str(source)], check=True, cwd=tmp_path, timeout=600
    )
    where = subprocess.run(
        [str(python), "-c", "import sampyong, engine; print(sampyong.__file__); print(len(sampyong.policies()))"],
        check=True,
        capture_output=True,
        text=True,
        cwd=tmp_path,
    ).stdout.split()
    assert where[0].startswith(str(venv)) and int(where[1]) >= 5  # the package, with its policies' data files
    answer = subprocess.run(
        [str(venv / "bin" / "sampyong"), "equity", "As Ah", "Kd Kc", "--game", "holdem"],
        check=True,
        capture_output=True,
        text=True,
        cwd=tmp_path,
    ).stdout
    assert "81.255%" in answer  # AA against KK, exact


def test_requires_python_says_311():
    """The code reads TOML with ``tomllib`` (3.11): the metadata says so, and so does the README."""
    import tomllib

    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert meta["project"]["requires-python"] == ">=3.11"
    assert "Python 3.11" in (ROOT / "README.md").read_text()


def _python_310() -> str | None:
    """A working Python 3.10 of this machine (on the path, or pyenv's), or None."""
    for candidate in ["python3.10", *map(str, sorted(Path.home().glob(".pyenv/versions/3.10*/bin/python")))]:
        found = shutil.which(candidate)
        if found and subprocess.run([found, "-c", "import pip"], capture_output=True).returncode == 0:
            return found
    return None


@pytest.mark.slow
def test_python_310_is_refused(tmp_path):
    python = _python_310()
    if python is None:
        pytest.skip("no Python 3.10 on this machine")
    result = subprocess.run(
        [python, "-m", "pip", "install", "--dry-run", "--no-deps", str(ROOT)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=600,
    )
    assert result.returncode != 0 and "requires a different Python" in result.stderr + result.stdout
