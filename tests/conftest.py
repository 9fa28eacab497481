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


# First, before pytest-xdist reads the ``xdist_group`` marks (it runs its own hook before a
# conftest's otherwise, and the group was silently ignored). Then the longest tests first (the
# ``minutes`` of their ``slow`` mark, at CI size): the two workers take tests in this order, so a
# long test taken last would leave one core idle while it runs alone.
@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.path.name in RAY_FILES:
            item.add_marker(pytest.mark.xdist_group("ray"))
    items.sort(key=lambda item: -_minutes(item))


def _minutes(item) -> float:
    mark = item.get_closest_marker("slow")
    return mark.kwargs.get("minutes", 0) if mark else 0


# CI traces the default run for its coverage figure (pytest-cov). Tests marked ``untraced`` run
# without the tracer, fixtures included: each checks a long loop against a peer (pokerkit, eval7,
# scipy) or a brute-force reference, thousands of times over lines that smaller tests reach too.
# Traced, Python code runs about three times slower, a peer's as well though its lines are not
# measured. Not under ``--cov-context`` (tests/mutants: which tests run each line is the point).
def _untraced(item):
    controller = getattr(item.config.pluginmanager.getplugin("_cov"), "cov_controller", None)
    pause = (
        getattr(controller, "cov", None) is not None
        and item.get_closest_marker("untraced") is not None
        and not item.config.getoption("cov_context", None)
    )
    if pause:
        controller.pause()
    try:
        yield
    finally:
        if pause:
            controller.resume()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_setup(item):
    yield from _untraced(item)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    yield from _untraced(item)


def pytest_addoption(parser):
    parser.addoption(
        "--full-size",
        action="store_true",
        help="run the slow tests at their full size (default: their CI size, same checks on fewer hands)",
    )


@pytest.fixture(scope="session")
def pokerkit_records(tmp_path_factory):
    """3,000 random hands written by pokerkit (``tests.pokerkit_records``), played once per session
    for every xdist worker (their temporary folders share a parent)."""
    from tests.pokerkit_records import shared_records

    root = tmp_path_factory.getbasetemp()
    return shared_records(root.parent if os.environ.get("PYTEST_XDIST_WORKER") else root, seed=1, hands=3000)


@pytest.fixture(scope="session")
def ci_size(request):
    """``ci_size(full=N, ci=M)``: a slow test's size, M by default (what CI runs), N with ``--full-size``."""
    wide = request.config.getoption("--full-size")

    def size(*, full: int, ci: int) -> int:
        return full if wide else ci

    return size
