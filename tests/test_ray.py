"""The Ray backend: same tables as the serial backend for any worker count, and --workers obeyed
exactly (the multi-node cluster is in test_cluster.py)."""

from pathlib import Path

import yaml

from pipeline.backends import RayBackend, SerialBackend
from pipeline.plan import RunConfig
from tests.helpers import execute
from tests.ray_tools import TaskCounter

CONFIG = RunConfig(job="showdown", game="pls7", deals=40_000, shard_deals=10_000, players=4, seed=5)
ROOT = Path(__file__).resolve().parent.parent


def tables(run_dir: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((run_dir / "tables").glob("*.csv"))}


def test_ray_equals_serial_for_any_worker_count(ray_session, tmp_path):
    """Serial, Ray with 1 worker in flight and Ray with 2 give bit-identical tables."""
    serial = execute(CONFIG, SerialBackend(), tmp_path / "serial", quiet=True)
    one = execute(CONFIG, RayBackend(workers=1), tmp_path / "one", quiet=True)
    two = execute(CONFIG, RayBackend(workers=2), tmp_path / "two", quiet=True)
    assert tables(serial) == tables(one) == tables(two)


LONG_SHARDS = RunConfig(job="showdown", game="pls7", deals=12_000_000, shard_deals=2_000_000, players=8, seed=5)


def test_workers_caps_the_shards_running_at_once(ray_session, tmp_path):
    """On a Ray with 2 CPUs, --workers 1 runs one shard at a time and --workers 2 runs two."""
    peaks = {}
    for workers in (1, 2):
        with TaskCounter() as counter:
            execute(LONG_SHARDS, RayBackend(workers=workers), tmp_path / str(workers), quiet=True)
        peaks[workers] = counter.peak
    assert peaks == {1: 1, 2: 2}


def test_cluster_yaml_passes_rays_validator():
    """cluster.yaml is a valid Ray cluster launcher config (Ray's own schema and defaults)."""
    from ray.autoscaler._private.util import prepare_config, validate_config

    config = yaml.safe_load((ROOT / "cluster.yaml").read_text())
    validate_config(prepare_config(config))
    assert any("sampyong" in command for command in config["setup_commands"])


def test_a_shard_lost_with_its_worker_runs_again(ray_session, tmp_path):
    """A worker that dies under a shard (Ray's own retries off) costs nothing: the shard runs
    again and every shard's result arrives once; a shard lost every time stops the run in one line."""
    import os

    import pytest

    from evaluator.errors import SampyongError
    from pipeline.backends import ShardTask
    from pipeline.plan import ShardSpec

    marks = tmp_path / "marks"
    marks.mkdir()

    def dies_once(config, shard):
        mark = Path(config) / f"{shard.index}"
        if shard.index % 2 == 0 and not mark.exists():
            mark.touch()
            os._exit(1)  # the worker process dies mid-task, as on a lost node
        return {"shard": shard.index}

    tasks = [ShardTask(dies_once, str(marks), ShardSpec(index=i, deals=1, root_seed=0)) for i in range(6)]
    results = []
    RayBackend(workers=2, max_retries=0).run(tasks, lambda task, result: results.append(result["shard"]))
    assert sorted(results) == list(range(6))
    assert sorted(p.name for p in marks.iterdir()) == ["0", "2", "4"]

    def always_dies(config, shard):
        os._exit(1)

    with pytest.raises(SampyongError, match="shard 0 was lost 4 times"):
        RayBackend(workers=1, max_retries=0).run([ShardTask(always_dies, "x", ShardSpec(0, 1, 0))], lambda t, r: None)


class ShardsOnRay:
    """A stand-in for the auto backend's Ray: notes the shards handed to it and runs them here."""

    def __init__(self):
        self.shards: list[int] = []

    def _init(self):
        return None, False  # nothing started, nothing to stop

    def run(self, tasks, on_result, on_status=None):
        self.shards += [task.shard.index for task in tasks]
        SerialBackend().run(tasks, on_result)


def test_auto_backend_keeps_work_that_cannot_pay_for_ray_in_process(tmp_path, monkeypatch):
    """Shards whose total is far below Ray's fixed cost never reach Ray; the tables are serial's."""
    import pipeline.backends as backends

    monkeypatch.setattr(backends, "RAY_FIXED_SECONDS", 1e9)
    monkeypatch.setattr(backends.AutoBackend, "_ray_is_up", staticmethod(lambda: False))  # another test's Ray
    auto = backends.AutoBackend(cpus=2)
    auto.ray = ShardsOnRay()
    serial = execute(CONFIG, SerialBackend(), tmp_path / "serial", quiet=True)
    assert tables(execute(CONFIG, auto, tmp_path / "auto", quiet=True)) == tables(serial)
    assert auto.ray.shards == []


def test_auto_backend_hands_the_shards_left_to_ray_once_it_pays(tmp_path, monkeypatch):
    """With Ray free of fixed cost and two cores, the first shard runs here and the rest on Ray;
    on one core Ray never pays. The tables are serial's either way."""
    import pipeline.backends as backends

    monkeypatch.setattr(backends, "RAY_FIXED_SECONDS", 0.0)
    monkeypatch.setattr(backends.AutoBackend, "_ray_is_up", staticmethod(lambda: False))  # another test's Ray
    serial = execute(CONFIG, SerialBackend(), tmp_path / "serial", quiet=True)
    for cpus, on_ray in ((2, [1, 2, 3]), (1, [])):
        auto = backends.AutoBackend(cpus=cpus)
        auto.ray = ShardsOnRay()
        assert tables(execute(CONFIG, auto, tmp_path / f"auto{cpus}", quiet=True)) == tables(serial)
        assert auto.ray.shards == on_ray


AUTO_ON_A_REAL_RAY = """
import dataclasses
import sys
import pipeline.backends as backends
from tests.helpers import execute
from tests.test_ray import CONFIG, tables
backends.RAY_FIXED_SECONDS = 0.0
auto = backends.AutoBackend(cpus=2)
with auto.session():
    first = execute(CONFIG, auto, sys.argv[1] + "/first", quiet=True)
    import ray
    assert ray.is_initialized()
    second = execute(dataclasses.replace(CONFIG, seed=6), auto, sys.argv[1] + "/second", quiet=True)
assert not ray.is_initialized()
print(tables(first) == tables(execute(CONFIG, backends.SerialBackend(), sys.argv[1] + "/serial", quiet=True)))
"""


def test_auto_backend_starts_one_ray_for_its_session_and_stops_it(tmp_path):
    """In a fresh process (no test's Ray up): the first run starts an embedded Ray, the session's
    next run uses it, the session's end stops it, and the tables are serial's."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", AUTO_ON_A_REAL_RAY, str(tmp_path)], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().splitlines()[-1] == "True"
