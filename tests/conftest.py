"""Shared fixtures. Ray is never started here; tests that need it use ``ray_session``."""

import os

os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")

import pytest


@pytest.fixture(scope="session")
def ray_session():
    """One small local Ray for every test that needs it (2 CPUs, no dashboard)."""
    import ray

    ray.init(
        address="local",  # its own Ray, even while another test's cluster runs on this machine
        num_cpus=2,
        include_dashboard=False,
        object_store_memory=100 * 1024 * 1024,
        log_to_driver=False,
        configure_logging=False,
    )
    yield ray
    ray.shutdown()
