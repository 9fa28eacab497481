"""A run on a real multi-node Ray cluster grows with it: the head has no CPUs, one node has 1,
and a node of 2 CPUs joins while the run goes on."""

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


def test_run_scales_out_to_a_node_that_joins(cluster, tmp_path):
    """With one 1-CPU node one shard runs at a time; once a 2-CPU node joins, three do, through
    a token-authenticated head reached by --address alone, and the tables equal a serial run's."""
    serial = subprocess.run(["sampyong", *RUN, "--backend", "serial", "--out", str(tmp_path / "serial")],
                            capture_output=True, text=True, check=True)
    with TaskCounter() as counter:
        driver = subprocess.Popen(["sampyong", *RUN, "--address", cluster.address, "--out", str(tmp_path / "ray")],
                                  env=cluster.driver_env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
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
