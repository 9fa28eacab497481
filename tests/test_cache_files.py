"""The cache folder's generated files (``evaluator.tables.cached_arrays``): built once, by one
process at a time, read by every other; a damaged file is built again."""

import subprocess
import sys
import textwrap

import numpy as np

from evaluator.tables import cached_arrays

# A process asking for the cache file: its build logs the process and takes a second, so that
# every process asks while the first is still building.
ASK = textwrap.dedent(
    """
    import os, sys, time
    import numpy as np
    from evaluator.tables import cached_arrays

    path, log = sys.argv[1], sys.argv[2]

    def build():
        with open(log, "a") as f:
            f.write(f"{os.getpid()}\\n")
        time.sleep(1.0)
        return {"values": np.arange(5) * 7}

    print(cached_arrays(__import__("pathlib").Path(path), build)["values"].tolist())
    """
)


def test_processes_asking_at_once_build_the_file_once(tmp_path):
    """Three processes ask for the same missing file at once: one builds it, the others wait and
    read what it saved; no temporary file is left behind."""
    path, log = tmp_path / "cache" / "table.npz", tmp_path / "builds.log"
    asking = [
        subprocess.Popen([sys.executable, "-c", ASK, str(path), str(log)], stdout=subprocess.PIPE, text=True)
        for _ in range(3)
    ]
    answers = [p.communicate(timeout=120)[0].strip() for p in asking]
    assert [p.returncode for p in asking] == [0, 0, 0]
    assert answers == ["[0, 7, 14, 21, 28]"] * 3
    assert len(log.read_text().split()) == 1
    assert sorted(p.name for p in path.parent.iterdir()) == ["table.lock", "table.npz"]


def test_a_damaged_file_is_built_again(tmp_path):
    """A cache file that is not an ``.npz`` (a cut-off write by an older version, a full disk) is
    built again and replaced; a sound one is read without building."""
    path = tmp_path / "table.npz"
    np.savez(path, values=np.arange(1000))
    whole = path.read_bytes()
    for damaged in (b"not a zip file", whole[: len(whole) // 2]):
        path.write_bytes(damaged)
        built = cached_arrays(path, lambda: {"values": np.arange(3)})
        assert built["values"].tolist() == [0, 1, 2]

    def refuse():
        raise AssertionError("a sound file was built again")

    assert cached_arrays(path, refuse)["values"].tolist() == [0, 1, 2]
