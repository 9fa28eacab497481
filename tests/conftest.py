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


# Files whose tests start Ray, or count its processes across the machine. Under pytest-xdist they
# all run on one worker, one at a time: no two Rays share the cores and no count sees another's.
RAY_FILES = {
    "test_cli_fuzz.py",
    "test_cli_run.py",
    "test_cluster.py",
    "test_light_commands.py",
    "test_play.py",
    "test_ray.py",
    "test_records.py",
    "test_reliability.py",
    "test_solve_study.py",
}


def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.path.name in RAY_FILES:
            item.add_marker(pytest.mark.xdist_group("ray"))


def pytest_addoption(parser):
    parser.addoption(
        "--full-size",
        action="store_true",
        help="run the slow tests at their full size (default: their CI size, same checks on fewer hands)",
    )


@pytest.fixture(scope="session")
def ci_size(request):
    """``ci_size(full=N, ci=M)``: a slow test's size, M by default (what CI runs), N with ``--full-size``."""
    wide = request.config.getoption("--full-size")

    def size(*, full: int, ci: int) -> int:
        return full if wide else ci

    return size
