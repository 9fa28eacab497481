"""``sampyong eval`` and a small exact ``sampyong equity`` stay light: they answer at once, without
Ray, polars, matplotlib or pyarrow (issue #28). Each command runs in a fresh Python, since this
test process has long imported them all; speed itself is measured in bench/, not asserted here."""

import json
import re
import subprocess
import sys

# Imported only by the commands that run studies, read or write tables, or draw.
HEAVY = {"ray", "polars", "matplotlib", "pyarrow"}

# Runs the CLI's entry point on argv[2:], then writes its exit code and sys.modules to argv[1].
SCRIPT = """
import json, sys
from sampyong.cli import main
report, sys.argv = sys.argv[1], ["sampyong", *sys.argv[2:]]
code = None
try:
    main()
except SystemExit as done:
    code = done.code
with open(report, "w", encoding="utf-8") as f:
    json.dump({"exit_code": code, "modules": sorted(sys.modules)}, f)
"""


def run_command(tmp_path, *args: str) -> tuple[str, list[str]]:
    """The command's stdout, and the heavy packages it imported (a cold numba cache compiles: minutes)."""
    report = tmp_path / "modules.json"
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(report), *args], capture_output=True, text=True,
                          timeout=900)
    assert done.returncode == 0, done.stderr
    seen = json.loads(report.read_text(encoding="utf-8"))
    assert seen["exit_code"] == 0, done.stdout + done.stderr
    return done.stdout, sorted({name.split(".")[0] for name in seen["modules"]} & HEAVY)


def test_eval_imports_no_heavy_package(tmp_path):
    """Refereeing a PLO8 showdown prints the verdict without importing Ray, polars, matplotlib or pyarrow."""
    out, heavy = run_command(tmp_path, "eval", "--board", "Ad 8c 5h Ks 2c", "As Ah 3s 6d", "Kh Qc Jh Td", "--game", "plo8")
    assert heavy == [], f"sampyong eval imported {heavy}"
    seats = [line.split() for line in out.splitlines() if line.lstrip().startswith("seat")]
    assert [(s[s.index("high") + 1], s[-1]) for s in seats] == [("three_of_a_kind", "100"), ("one_pair", "0")], out


def test_equity_imports_no_heavy_package(tmp_path):
    """Aces against kings at hold'em, exact over every board, prints 81.255 % without importing Ray, polars, matplotlib or pyarrow."""
    out, heavy = run_command(tmp_path, "equity", "As Ah", "Kd Kc", "--game", "holdem")
    assert heavy == [], f"sampyong equity imported {heavy}"
    assert "exact over 1,712,304 boards" in out, out
    equities = dict(re.findall(r"^\s+(\S+ \S+)\s+equity\s+([\d.]+)%", out, re.MULTILINE))
    assert equities == {"As Ah": "81.255", "Kd Kc": "18.745"}, out
