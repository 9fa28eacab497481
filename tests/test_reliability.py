"""Hostile input at every entry point, crashes mid-run, and Ray hygiene (the real console script)."""

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SAMPYONG = [sys.executable, "-c", "from sampyong.cli import main; main()"]
ENV = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0", "PYTHONPATH": str(ROOT)}

BAD_INPUTS = [
    (["run", "showdown", "--deals", "0"], "must be positive"),
    (["run", "showdown", "--deals", "-5"], "bad deal count"),
    (["run", "showdown", "--deals", "many"], "bad deal count"),
    (["run", "showdown", "--shard-deals", "0"], "must be positive"),
    (["run", "showdown", "--game", "stud"], "unknown game"),
    (["run", "nosuchjob"], "unknown job"),
    (["run", "showdown", "--ranking", "upside_down"], "unknown ranking"),
    (["run", "showdown", "--low", "9"], "low qualifier"),
    (["run", "showdown", "--low", "5"], "low qualifier"),
    (["run", "showdown", "--hole-use", "4-4"], "impossible"),
    (["run", "showdown", "--game", "holdem", "--hole-use", "3-3"], "impossible"),
    (["run", "showdown", "--game", "plo", "--players", "12"], "players must be 2 to 11"),
    (["run", "showdown", "--players", "x"], "Invalid value for '--players'"),
    (["run", "showdown", "--workers", "0"], "workers"),
    (["run", "showdown", "--bogus"], "No such option"),
    (["run", "distribution", "--game", "plo8"], "free-use"),
    (["run", "grid", "--players", "16"], "players must be 2 to 15"),
    (["report", "."], "not a run directory"),
    (["check", "/nonexistent"], "not a run directory"),
    (["eval", "--board", "Ad 7s 4h 8s Qx", "As 2c Kh"], "bad card 'Qx'"),
    (["eval", "--board", "Ad 7s 4h 8s Qc", "As 2c Ad"], "Ad is listed twice"),
    (["eval", "--board", "Ad 7s 4h 8s", "As 2c Kh"], "needs 5 cards"),
    (["eval", "--board", "Ad 7s 4h 8s Qc", "As 2c"], "needs 3 hole cards"),
    (
        [
            "eval",
            "--game",
            "plo",
            "--board",
            "2c 3c 4c 5c 6c",
            *["As Ks Qs Js"] * 1,
            "Ah Kh Qh Jh",
            "Ad Kd Qd Jd",
            "Ac Kc Qc Jc",
            "7s 7h 7d 7c",
            "8s 8h 8d 8c",
            "9s 9h 9d 9c",
            "Ts Th Td Tc",
            "2s 2h 2d 3s",
            "3h 3d 4s 4h",
            "4d 5s 5h 5d",
            "6s 6h 6d Tx",
        ],
        "bad card",
    ),
    (["eval", "--board", "Ad 7s 4h 8s Qc", "As 2c Kh", "--pot", "-1"], "negative"),
    (["eval"], "one or more hands"),
    (["equity", "As Ah", "As Kd", "--game", "holdem"], "listed twice"),
    (["equity", "As Ah", "--game", "holdem"], "at least two hands"),
    (["equity", "As Ah", "Kd Kc", "--game", "holdem", "--samples", "lots"], "bad sample count"),
    (["run", "showdown", "--seed", "-1"], "bad seed -1"),
    (["run", "showdown", "--seed", str(2**64)], "bad seed"),
    (["run", "showdown", "--deals", "1e30"], "at most 1,000,000,000,000,000"),
    (["run", "showdown", "--deals", "1e12", "--shard-deals", "10"], "at most 1,000,000 (raise --shard-deals)"),
    (
        [
            "run",
            "rulebook",
            "--game",
            "stud",
            "--ranking",
            "silly",
            "--low",
            "9",
            "--players",
            "999",
            "--exact",
            "--shard-deals",
            "7",
        ],
        "No such option: --game",
    ),
    (["run", "rulebook", "--shard-deals", "7"], "No such option: --shard-deals"),
    (["run", "distribution", "--seed", "3"], "No such option: --seed (see 'sampyong run distribution -h')"),
    (["run", "grid", "--deals", "1M"], "exact enumeration: --deals does not apply"),
    (["run", "grid", "--players", "15", "--deals", "1e9"], "64-bit counters"),
    (["run", "showdown", "--backend", "serial", "--workers", "2"], "apply to the ray backend"),
    (["eval", "--input", "-", "--board", "Ad 7s 4h 8s Qc"], "drop --board"),
    (["eval", "--input", "-", "--json"], "drop --board, the hands and --json"),
    (["equity", "As Ah", "Kd Kc", "--game", "holdem", "--seed", "-1"], "bad seed -1"),
    (["equity", "As Ah", "random", "--game", "holdem", "--samples", "1e30"], "64-bit counters"),
    (["games", "--bogus"], "No such option"),
    (["jobs", "extra"], "unexpected extra argument"),
]


def sampyong(args, cwd, **kwargs):
    return subprocess.run([*SAMPYONG, *args], cwd=cwd, env=ENV, capture_output=True, text=True, **kwargs)


@pytest.mark.parametrize("args, message", BAD_INPUTS, ids=[" ".join(a)[:60] for a, _ in BAD_INPUTS])
def test_bad_input_is_one_line_exit_2_nothing_written(args, message, tmp_path):
    """Each bad input: one line on stderr naming the problem, exit code 2, no traceback, no files."""
    result = sampyong(args, cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], result.stderr
    assert "Traceback" not in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_unwritable_output_directory(tmp_path):
    """An output folder that cannot be created is one clear error, exit 2."""
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    result = sampyong(
        ["run", "showdown", "--deals", "1000", "--backend", "serial", "--out", str(blocker / "out")], cwd=tmp_path
    )
    assert result.returncode == 2 and "cannot write the run directory" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


RUN = ["run", "showdown", "--deals", "20M", "--shard-deals", "1M", "--players", "8", "--backend", "serial", "--quiet"]
SHARDS = 20


def _tables(run_dir: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((run_dir / "tables").glob("*.csv"))}


@pytest.fixture(scope="module")
def undisturbed(tmp_path_factory):
    out = tmp_path_factory.mktemp("clean")
    result = sampyong([*RUN, "--out", str(out)], cwd=out, check=True)
    return Path(result.stdout.strip().splitlines()[-1])


def _finished(out: Path) -> dict:
    """The manifest's shard entries of the run under ``out`` (none before it exists)."""
    for manifest in out.glob("showdown/*/manifest.json"):
        try:
            return json.loads(manifest.read_text())["shards"]
        except (OSError, ValueError, KeyError):
            return {}
    return {}


def _kill_and_resume(out: Path, after_shards: int) -> tuple[Path, dict[str, tuple[bytes, int]]]:
    """Start the run, kill -9 the driver once ``after_shards`` shards are finished, rerun it.

    Returns the run dir and, for every shard file finished before the kill, its bytes and
    modification time then; the kill must land with some shards finished and some not.
    """
    process = subprocess.Popen(
        [*SAMPYONG, *RUN, "--out", str(out)], cwd=out, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    deadline = time.time() + 300
    while len(_finished(out)) < after_shards and process.poll() is None and time.time() < deadline:
        time.sleep(0.01)
    process.send_signal(signal.SIGKILL)
    process.wait()
    finished = _finished(out)
    assert 0 < len(finished) < SHARDS, f"the kill landed with {len(finished)} of {SHARDS} shards finished"
    run_dir = next(out.glob("showdown/*"))
    kept = {}
    for entry in finished.values():
        for info in entry["files"].values():
            path = run_dir / info["path"]
            kept[info["path"]] = (path.read_bytes(), path.stat().st_mtime_ns)
    result = sampyong([*RUN, "--out", str(out)], cwd=out, check=True)
    return Path(result.stdout.strip().splitlines()[-1]), kept


def _assert_kept(run_dir: Path, kept: dict[str, tuple[bytes, int]]) -> None:
    """The shards finished before the kill were resumed as they were, not computed again."""
    for relative, (data, mtime) in kept.items():
        path = run_dir / relative
        assert (path.read_bytes(), path.stat().st_mtime_ns) == (data, mtime), relative


def _assert_exactly_once(run_dir: Path) -> None:
    manifest = json.loads((run_dir / "manifest.json").read_text())
    assert sorted(int(k) for k in manifest["shards"]) == list(range(SHARDS))
    files = sorted(p.name for p in (run_dir / "shards" / "summary").iterdir())
    assert files == [f"shard-{i:06d}.parquet" for i in range(SHARDS)]  # no temporary or stray files


def test_driver_killed_mid_run_resumes_identically(undisturbed, tmp_path):
    """kill -9 of the driver with some shards finished, then the same command: the finished
    shards are kept as they were, the rest computed once, and the tables are bit-identical."""
    run_dir, kept = _kill_and_resume(tmp_path, after_shards=3)
    _assert_exactly_once(run_dir)
    _assert_kept(run_dir, kept)
    assert _tables(run_dir) == _tables(undisturbed)


@pytest.mark.slow
def test_random_driver_kills(undisturbed, tmp_path, ci_size):
    """Ten kills (CI: three) after a random number of shards: none lost or counted twice, tables
    bit-identical each time."""
    rng = random.Random(7)
    for attempt in range(ci_size(full=10, ci=3)):
        out = tmp_path / str(attempt)
        out.mkdir()
        run_dir, kept = _kill_and_resume(out, after_shards=rng.randint(1, SHARDS - 2))
        _assert_exactly_once(run_dir)
        _assert_kept(run_dir, kept)
        assert _tables(run_dir) == _tables(undisturbed)
        shutil.rmtree(out)


def _ray_processes(marker: str) -> list[str]:
    found = []
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
            except OSError:
                continue
            if marker in cmdline:
                found.append(cmdline[:120])
    return found


def test_local_ray_leaves_no_processes(tmp_path):
    """After a run on the embedded Ray, no process of that Ray session is left."""
    # A short folder: Ray's socket paths must stay under 108 bytes.
    ray_tmp = Path(tempfile.mkdtemp(prefix="rt", dir="/tmp"))
    env = {**ENV, "RAY_TMPDIR": str(ray_tmp)}
    env.pop("RAY_ADDRESS", None)
    subprocess.run(
        [*SAMPYONG, "run", "showdown", "--deals", "20000", "--shard-deals", "10000", "--backend", "ray"]
        + ["--out", str(tmp_path), "--quiet"],
        cwd=tmp_path,
        env=env,
        check=True,
        capture_output=True,
        timeout=300,
    )
    deadline = time.time() + 20
    while _ray_processes(str(ray_tmp)) and time.time() < deadline:
        time.sleep(0.5)
    assert _ray_processes(str(ray_tmp)) == []
    shutil.rmtree(ray_tmp, ignore_errors=True)


@pytest.mark.slow
def test_worker_killed_mid_shard(undisturbed, tmp_path):
    """kill -9 of a Ray worker running a shard: Ray retries it and the tables are bit-identical."""
    ray_tmp = Path(tempfile.mkdtemp(prefix="rk", dir="/tmp"))
    env = {**ENV, "RAY_TMPDIR": str(ray_tmp)}
    env.pop("RAY_ADDRESS", None)
    command = ["ray" if arg == "serial" else arg for arg in RUN]  # --backend ray: shards on Ray workers
    process = subprocess.Popen(
        [*SAMPYONG, *command, "--out", str(tmp_path)],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    killed = 0
    deadline = time.time() + 120
    while not killed and process.poll() is None and time.time() < deadline:
        for pid in os.listdir("/proc"):
            if not pid.isdigit():
                continue
            try:
                cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
            except OSError:
                continue
            if "ray::_run_shard_task" in cmdline:
                os.kill(int(pid), signal.SIGKILL)
                killed += 1
                break
        time.sleep(0.1)
    stdout, _ = process.communicate(timeout=300)
    shutil.rmtree(ray_tmp, ignore_errors=True)
    assert killed == 1 and process.returncode == 0
    run_dir = Path(stdout.strip().splitlines()[-1])
    _assert_exactly_once(run_dir)
    assert _tables(run_dir) == _tables(undisturbed)


@pytest.mark.slow
def test_node_removed_mid_run(undisturbed, tmp_path):
    """A node of a two-node Ray cluster removed mid-run: the run completes with identical tables."""
    command = [arg for arg in RUN if arg not in ("--backend", "serial")]
    script = f"""
import subprocess, sys, time
from ray.cluster_utils import Cluster
cluster = Cluster(initialize_head=True, head_node_args={{"num_cpus": 1, "include_dashboard": False}})
node = cluster.add_node(num_cpus=1)
cluster.wait_for_nodes()
try:
    run = subprocess.Popen({SAMPYONG!r} + {command!r} + ["--address", cluster.address, "--out", {str(tmp_path)!r}],
                           stdout=subprocess.PIPE, text=True)
    time.sleep(8)
    cluster.remove_node(node)
    out, _ = run.communicate(timeout=600)
    assert run.returncode == 0, run.returncode
    print(out.strip().splitlines()[-1])
finally:
    cluster.shutdown()
"""
    env = {**ENV}
    env.pop("RAY_ADDRESS", None)
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=900
    )
    assert result.returncode == 0, result.stderr[-3000:]
    run_dir = Path(result.stdout.strip().splitlines()[-1])
    _assert_exactly_once(run_dir)
    assert _tables(run_dir) == _tables(undisturbed)


def test_check_reports_sound_and_damaged_runs(undisturbed, tmp_path):
    """`sampyong check` exits 0 on a complete run and 1 naming each problem otherwise."""
    ok = sampyong(["check", str(undisturbed)], cwd=tmp_path)
    assert ok.returncode == 0 and ok.stdout.startswith("ok: 20 shards")
    copy = tmp_path / "run"
    shutil.copytree(undisturbed, copy)
    (copy / "shards" / "summary" / "shard-000003.parquet").write_bytes(b"garbage")
    (copy / "shards" / "summary" / "stray.parquet").write_bytes(b"stray")
    (copy / "shards" / "categories" / "shard-000007.parquet").unlink()
    bad = sampyong(["check", str(copy)], cwd=tmp_path)
    assert bad.returncode == 1
    assert "shard 3, table summary: shards/summary/shard-000003.parquet does not match its checksum" in bad.stdout
    assert "shard 7, table categories: shards/categories/shard-000007.parquet is missing" in bad.stdout
    assert "stray file shards/summary/stray.parquet" in bad.stdout
    manifest = json.loads((copy / "manifest.json").read_text())
    del manifest["shards"]["5"]
    (copy / "manifest.json").write_text(json.dumps(manifest))
    assert "1 of 20 shards not finished: 5" in sampyong(["check", str(copy)], cwd=tmp_path).stdout


def test_ctrl_c_keeps_finished_shards_and_resumes(undisturbed, tmp_path):
    """Ctrl-C stops the run with exit 130 and a note; the same command then completes identically."""
    process = subprocess.Popen(
        [*SAMPYONG, *RUN, "--out", str(tmp_path)],
        cwd=tmp_path,
        env=ENV,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.time() + 120
    while time.time() < deadline and not any(tmp_path.glob("showdown/*/shards/summary/shard-*.parquet")):
        time.sleep(0.1)
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 130 and "rerun the same command to resume" in stderr
    assert "Traceback" not in stderr
    result = sampyong([*RUN, "--out", str(tmp_path)], cwd=tmp_path, check=True)
    run_dir = Path(result.stdout.strip().splitlines()[-1])
    _assert_exactly_once(run_dir)
    assert _tables(run_dir) == _tables(undisturbed)


def test_full_disk_is_one_clear_error(tmp_path):
    """A disk that fills mid-run: one clear error, and `check` does not call the run complete."""
    disk = tmp_path / "disk"
    disk.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=160k", "tmpfs", str(disk)], capture_output=True)
    if mounted.returncode != 0:
        pytest.skip("cannot mount a small tmpfs here (needs root)")
    try:
        result = sampyong([*RUN, "--out", str(disk)], cwd=tmp_path)
        assert result.returncode == 2, result.stderr
        assert "No space left on device" in result.stderr and len(result.stderr.strip().splitlines()) == 1
        run_dir = next(disk.glob("showdown/*"))
        assert sampyong(["check", str(run_dir)], cwd=tmp_path).returncode == 1
    finally:
        subprocess.run(["umount", str(disk)], check=False)
