"""A run on a real multi-node Ray cluster grows with it: the head has no CPUs, one node has 1,
and a node of 2 CPUs joins while the run goes on."""

import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from tests.ray_tools import LocalCluster, TaskCounter

RUN = ["run", "showdown", "--deals", "100M", "--shard-deals", "2M", "--players", "8", "--seed", "11", "--quiet"]


def tables(run_dir: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((run_dir / "tables").glob("*.csv"))}


@pytest.fixture
def cluster():
    root = Path(tempfile.mkdtemp(prefix="rc", dir="/tmp"))
    cluster = LocalCluster(root)
    try:
        cluster.add_node(cpus=1)
        cluster.wait_for_cpus(1)
        yield cluster
    finally:
        cluster.shutdown()


@pytest.mark.slow  # 75 s with its cluster: CI runs it among the slow tests
def test_run_scales_out_to_a_node_that_joins(cluster, tmp_path):
    """With one 1-CPU node one shard runs at a time; once a 2-CPU node joins, three do, through
    a token-authenticated head reached by --address alone, and the tables equal a serial run's."""
    serial = subprocess.run(
        ["sampyong", *RUN, "--backend", "serial", "--out", str(tmp_path / "serial")],
        capture_output=True,
        text=True,
        check=True,
    )
    with TaskCounter() as counter:
        driver = subprocess.Popen(
            ["sampyong", *RUN, "--address", cluster.address, "--out", str(tmp_path / "ray")],
            env=cluster.driver_env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        deadline = time.time() + 120
        while counter.polls_busy < 5 and driver.poll() is None and time.time() < deadline:
            time.sleep(0.05)
        peak_on_one_cpu = counter.peak
        cluster.add_node(cpus=2)
        added = time.time()
        stdout, stderr = driver.communicate(timeout=600)
        finished = time.time()
    assert driver.returncode == 0, stderr[-2000:]
    assert peak_on_one_cpu == 1
    assert counter.peak == 3, (
        f"at most {counter.peak} shard tasks ran at once; the run ended {finished - added:.1f} s after the node was added"
    )
    run_dir = Path(stdout.strip().splitlines()[-1])
    assert tables(run_dir) == tables(Path(serial.stdout.strip().splitlines()[-1]))


def test_embedded_run_ignores_a_cluster_recorded_on_the_machine(tmp_path):
    """A `ray start` record left on the machine (a live cluster or an unclean stop) does not stop
    the default run: it starts a Ray of its own."""
    ray_tmp = Path(tempfile.mkdtemp(prefix="rs", dir="/tmp"))
    (ray_tmp / "ray").mkdir()
    (ray_tmp / "ray" / "ray_current_cluster").write_text("127.0.0.1:1")  # what `ray start` writes
    env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}
    env.update(RAY_TMPDIR=str(ray_tmp), RAY_USAGE_STATS_ENABLED="0")
    try:
        result = subprocess.run(
            [
                "sampyong",
                "run",
                "showdown",
                "--deals",
                "20000",
                "--shard-deals",
                "10000",
                "--out",
                str(tmp_path),
                "--quiet",
            ],
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
    finally:
        shutil.rmtree(ray_tmp, ignore_errors=True)
    assert result.returncode == 0, result.stderr[-2000:]
    assert (Path(result.stdout.strip().splitlines()[-1]) / "report.md").is_file()


def test_play_ranks_hands_in_the_driver_and_no_worker_cache_gets_a_grid(tmp_path):
    """`run play --game pls7 --address` on a cluster whose only worker node has its own empty
    cache: the run gives a serial run's tables, and the worker's cache holds no grid or ranking
    (the driver runs the ranking once, through the cluster, and hands it to the shards)."""
    root = Path(tempfile.mkdtemp(prefix="rp", dir="/tmp"))
    worker_cache = tmp_path / "worker-cache"
    worker_cache.mkdir()
    play = [
        "run",
        "play",
        "--game",
        "pls7",
        "--deals",
        "4000",
        "--shard-deals",
        "1000",
        "--policy",
        "regular,loose,tight,station,pro-like,regular",
        "--quiet",
    ]
    cluster = LocalCluster(root)
    try:
        cluster.add_node(cpus=2, env={"SAMPYONG_CACHE": str(worker_cache)})
        cluster.wait_for_cpus(2)
        ray = subprocess.run(
            ["sampyong", *play, "--address", cluster.address, "--out", str(tmp_path / "ray")],
            env=cluster.driver_env,
            capture_output=True,
            text=True,
            timeout=1200,
        )
    finally:
        cluster.shutdown()
        shutil.rmtree(root, ignore_errors=True)
    assert ray.returncode == 0, ray.stderr[-2000:]
    serial = subprocess.run(
        ["sampyong", *play, "--backend", "serial", "--out", str(tmp_path / "serial")],
        capture_output=True,
        text=True,
        timeout=1200,
    )
    assert serial.returncode == 0, serial.stderr[-2000:]
    assert tables(Path(ray.stdout.strip().splitlines()[-1])) == tables(Path(serial.stdout.strip().splitlines()[-1]))
    kept = [p.relative_to(worker_cache).as_posix() for p in worker_cache.rglob("*") if p.is_file()]
    assert kept, "the worker node never used its own cache: did its shards run elsewhere?"
    assert not [p for p in kept if "grid" in p.split("/")[0] or p.startswith(("runs", "hand_ranking"))], kept
