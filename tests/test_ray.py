"""The Ray backend: same tables as the serial backend, any worker count, a real two-node cluster."""

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import yaml

from pipeline.backends import RayBackend, SerialBackend
from pipeline.plan import RunConfig
from pipeline.runner import execute

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


def test_cluster_yaml_passes_rays_validator():
    """cluster.yaml is a valid Ray cluster launcher config (Ray's own schema and defaults)."""
    from ray.autoscaler._private.util import prepare_config, validate_config

    config = yaml.safe_load((ROOT / "cluster.yaml").read_text())
    validate_config(prepare_config(config))
    assert any("sampyong" in command for command in config["setup_commands"])


def test_two_node_cluster_through_address(tmp_path):
    """A job submitted with --address to a two-node local Ray cluster gives the serial tables."""
    serial = execute(CONFIG, SerialBackend(), tmp_path / "serial", quiet=True)
    script = textwrap.dedent(
        f"""
        import subprocess, sys
        from ray.cluster_utils import Cluster
        cluster = Cluster(initialize_head=True, head_node_args={{"num_cpus": 1, "include_dashboard": False}})
        cluster.add_node(num_cpus=1)
        cluster.wait_for_nodes()
        try:
            out = subprocess.run(
                [sys.executable, "-m", "pipeline.cli", "run", "showdown", "--deals", "{CONFIG.deals}",
                 "--shard-deals", "{CONFIG.shard_deals}", "--players", "{CONFIG.players}", "--seed",
                 "{CONFIG.seed}", "--address", cluster.address, "--out", r"{tmp_path / 'cluster'}", "--quiet"],
                capture_output=True, text=True, check=True,
            )
            print(out.stdout.strip().splitlines()[-1])
        finally:
            cluster.shutdown()
        """
    )
    env = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0"}
    env.pop("RAY_ADDRESS", None)
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, env=env, timeout=300
    )
    assert result.returncode == 0, result.stderr[-3000:]
    run_dir = Path(result.stdout.strip().splitlines()[-1])
    assert tables(run_dir) == tables(serial)
