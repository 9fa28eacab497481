"""``sampyong eval``, a small exact ``sampyong equity`` and ``sampyong range`` stay light: they answer
at once, without Ray, polars, matplotlib or pyarrow (issue #28, DESIGN.md's light commands). Each command runs in a fresh Python, since this
test process has long imported them all; speed itself is measured in bench/, not asserted here."""

import json
import re
import subprocess
import sys

# Imported only by the commands that run studies, read or write tables, or draw.
HEAVY = {"ray", "polars", "matplotlib", "pyarrow"}
_imported: set[str] = set()  # the top-level packages the last ``run_command`` imported

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
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(report), *args], capture_output=True, text=True, timeout=900
    )
    assert done.returncode == 0, done.stderr
    seen = json.loads(report.read_text(encoding="utf-8"))
    assert seen["exit_code"] == 0, done.stdout + done.stderr
    _imported.clear()
    _imported.update(name.split(".")[0] for name in seen["modules"])
    return done.stdout, sorted(_imported & HEAVY)


def test_eval_imports_no_heavy_package(tmp_path):
    """Refereeing a PLO8 showdown prints the verdict without importing Ray, polars, matplotlib,
    pyarrow or even numba (the referee is the reference rule book)."""
    out, heavy = run_command(
        tmp_path, "eval", "--board", "Ad 8c 5h Ks 2c", "As Ah 3s 6d", "Kh Qc Jh Td", "--game", "plo8"
    )
    assert heavy == [], f"sampyong eval imported {heavy}"
    assert "numba" not in _imported, "sampyong eval imported numba: the referee needs no kernel"
    seats = [line.split() for line in out.splitlines() if line.lstrip().startswith("seat")]
    assert [(s[s.index("high") + 1], s[-1]) for s in seats] == [("three_of_a_kind", "100"), ("one_pair", "0")], out


def test_equity_imports_no_heavy_package(tmp_path):
    """Aces against kings at hold'em, exact over every board, prints 81.255 % without importing Ray, polars, matplotlib,
    pyarrow or numba."""
    out, heavy = run_command(tmp_path, "equity", "As Ah", "Kd Kc", "--game", "holdem")
    assert heavy == [], f"sampyong equity imported {heavy}"
    assert "numba" not in _imported, "a small exact equity imported numba: numpy answers before it would load"
    assert "exact over 1,712,304 boards" in out, out
    equities = dict(re.findall(r"^\s+(\S+ \S+)\s+equity\s+([\d.]+)%", out, re.MULTILINE))
    assert equities == {"As Ah": "81.255", "Kd Kc": "18.745"}, out


def test_multiset_index_matches_its_definition():
    """The array-built perfect hash (once 0.1 s of pure Python in every evaluating process) is
    the one its definition gives, code by code: ``LO_INDEX`` numbers each size's low codes in
    code order, ``START[n]`` lays the high codes' blocks end to end."""
    import numpy as np

    from evaluator.tables import LO_RANKS, NO_ENTRY, POOL_SIZES, multiset_index

    def size(code: int, digits: int) -> int:
        return sum((code // 5**i) % 5 for i in range(digits))

    lo_sizes = [size(c, LO_RANKS) for c in range(5**LO_RANKS)]
    hi_sizes = [size(c, 13 - LO_RANKS) for c in range(5 ** (13 - LO_RANKS))]
    lo_count = [0] * (max(lo_sizes) + 1)
    expected_lo = []
    for s in lo_sizes:
        expected_lo.append(lo_count[s])
        lo_count[s] += 1
    expected_start = np.full((max(POOL_SIZES) + 1, len(hi_sizes)), NO_ENTRY, dtype=np.int64)
    for n in range(max(POOL_SIZES) + 1):
        offset = 0
        for code, s in enumerate(hi_sizes):
            if s <= n and n - s < len(lo_count):
                expected_start[n, code] = offset
                offset += lo_count[n - s]
    lo_index, start = multiset_index()
    # dtypes and layout matter too: the free-use kernels freeze these arrays into their code,
    # and numba's disk cache is keyed by the frozen bytes.
    assert (lo_index.dtype, lo_index.shape, lo_index.flags.c_contiguous) == (np.uint16, (5**LO_RANKS,), True)
    assert (start.dtype, start.shape, start.flags.c_contiguous) == (np.int32, expected_start.shape, True)
    assert lo_index.tolist() == expected_lo
    assert np.array_equal(start, expected_start)


def test_kernel_stamps_resolve_each_path_once_with_the_same_answer(tmp_path):
    """``kernel_cache._in_project`` remembers each path's resolution (a kernel's stamp walks
    hundreds of modules) and answers as resolving afresh would: inside a folder at any depth,
    through a symlink, but not the folder itself, a sibling sharing its name as a prefix, or
    numpy."""
    from pathlib import Path

    import numpy

    from evaluator import kernel_cache

    root = kernel_cache.ROOT
    link = tmp_path / "linked.py"
    link.symlink_to(root / "evaluator" / "tables.py")
    cases = {
        str(root / "evaluator" / "tables.py"): True,
        root / "engine" / "fast.py": True,
        str(root / "evaluator" / "sub" / "deeper.py"): True,
        str(link): True,
        str(root / "evaluator"): False,
        str(root / "evaluator_old" / "tables.py"): False,
        str(root / "sampyong" / "cli.py"): False,
        numpy.__file__: False,
    }

    def afresh(path) -> bool:
        path = Path(path).resolve()
        return any(folder in path.parents for folder in kernel_cache.FOLDERS)

    for _ in range(2):  # the second round answers from the remembered resolutions
        assert {str(p): kernel_cache._in_project(p) for p in cases} == {str(p): v for p, v in cases.items()}
        assert all(afresh(p) == v for p, v in cases.items())
    assert kernel_cache._resolved.cache_info().hits >= len(cases)


def test_a_percent_range_reads_the_saved_ranking_without_heavy_packages(tmp_path):
    """Once hold'em's ranking has been built, ``range "15%"`` reads it from its saved file: 200
    hands, and no Ray, polars, matplotlib, pyarrow or numba imported."""
    from sampyong import rankings

    rankings.ranking("holdem")  # built (once per cache folder) and saved
    out, heavy = run_command(tmp_path, "range", "15%", "--game", "holdem")
    assert heavy == [] and "numba" not in _imported, (
        f"sampyong range imported {heavy} {'numba' * ('numba' in _imported)}"
    )
    assert "holdem  15%: 200 hands, 15.083 % of all starting hands" in out, out


def test_the_saved_ranking_is_the_one_its_run_gives(tmp_path, monkeypatch):
    """What ``rankings.ranking`` saves and reads back is the ranking read from the game's strength run,
    class by class; games that differ in any rule are saved apart."""
    import numpy as np

    from evaluator.games import game
    from evaluator.tables import cache_dir
    from jobs import ranking as run_and_read
    from pipeline.backends import SerialBackend
    from sampyong import rankings

    runs = cache_dir() / "runs"  # the runs rankings.ranking reads, in a cache folder of this test's own
    monkeypatch.setenv("SAMPYONG_CACHE", str(tmp_path))
    (tmp_path / "runs").symlink_to(runs, target_is_directory=True)
    rankings.ranking("holdem")
    saved = rankings.ranking("holdem")  # read back from the file
    want = run_and_read(game("holdem"), SerialBackend(), runs)
    assert np.array_equal(saved.percentile, want.percentile) and np.array_equal(saved.order, want.order)
    saved_files = [p.name for p in (tmp_path / rankings.RANKINGS).glob("*.npz")]
    assert saved_files == [rankings._ranking_file(game("holdem")).name]
    games = [
        game("holdem"),
        game("holdem").variant(low=8),
        game("holdem").variant(ranking="base"),
        game("pls7"),
        game("pls"),
        game("pls7").variant(hole_use=(2, 2)),
    ]
    assert len({rankings._ranking_file(g) for g in games}) == len(games)
