"""Test helpers for real Ray clusters: a cluster of `ray start` processes on this machine, each
ended by its own process group (never `ray stop`, which ends every Ray on the machine), and a
counter of the shard tasks running at once, read from the workers' process titles."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

TASK_TITLE = b"ray::_run_shard_task"


def _parent(pid: int) -> int:
    """The parent of ``pid`` (0 once it is gone): field 4 of /proc/<pid>/stat, after the name."""
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return 0


def _descends_from(pid: int, root: int) -> bool:
    while pid > 1:
        if pid == root:
            return True
        pid = _parent(pid)
    return False


def running_shard_tasks(root: int | None = None) -> int:
    """Processes running a shard task now (Ray titles a busy worker by its task) that descend from
    ``root`` (this process by default): the workers of this test's Ray or cluster, whose raylets
    this process started, and not those of a Ray another test runs at the same time."""
    root = os.getpid() if root is None else root
    count = 0
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                if Path(f"/proc/{pid}/cmdline").read_bytes().startswith(TASK_TITLE) and _descends_from(int(pid), root):
                    count += 1
            except OSError:
                continue
    return count


class TaskCounter:
    """Polls ``running_shard_tasks`` in a thread. ``peak`` is the most seen at once in
    ``window`` polls in a row: a worker keeps its task's title for a moment after the task
    ends, so a lone poll can see a hand-off between two workers as two tasks."""

    def __init__(self, interval: float = 0.02, window: int = 3):
        self.interval = interval
        self.window = window
        self.peak = 0
        self.polls_busy = 0
        self._recent: list[int] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._poll, daemon=True)

    def _poll(self) -> None:
        while not self._stop.is_set():
            running = running_shard_tasks()
            self._recent = [*self._recent[1 - self.window :], running]
            if len(self._recent) == self.window:
                self.peak = max(self.peak, min(self._recent))
            self.polls_busy += running > 0
            time.sleep(self.interval)

    def __enter__(self) -> TaskCounter:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LocalCluster:
    """A head (``ray start --head --num-cpus 0``, token authentication on) and nodes added with
    ``add_node``, every one a ``ray start --block`` in a session of its own.

    The token lives in a file of the test (``RAY_AUTH_TOKEN_PATH``), never in ``~/.ray``.
    ``driver_env`` is what a person on the head node has: the token at hand, ``RAY_AUTH_MODE``
    unset.
    """

    def __init__(self, root: Path):
        # A short folder: Ray's socket paths must stay under 108 bytes.
        self.temp_dir = Path(root)
        self.temp_dir.mkdir(parents=True, exist_ok=True)
        self.token_path = self.temp_dir / "token"
        self.token_path.write_text(uuid.uuid4().hex)
        self.port = free_port()
        self.address = f"127.0.0.1:{self.port}"
        self.processes: list[subprocess.Popen] = []
        base = {k: v for k, v in os.environ.items() if not k.startswith("RAY_")}
        base.update(RAY_USAGE_STATS_ENABLED="0", RAY_AUTH_TOKEN_PATH=str(self.token_path))
        self.driver_env = base
        self.node_env = {**base, "RAY_AUTH_MODE": "token"}
        self._start(["--head", "--num-cpus", "0", "--port", str(self.port), "--include-dashboard", "false"])

    def _start(self, args: list[str], env: dict | None = None) -> None:
        log = open(self.temp_dir / f"node-{len(self.processes)}.log", "w")
        process = subprocess.Popen(
            ["ray", "start", "--block", "--temp-dir", str(self.temp_dir), *args],
            env={**self.node_env, **(env or {})},
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.processes.append(process)

    def add_node(self, cpus: int, env: dict | None = None) -> None:
        """A node of ``cpus`` CPUs; ``env`` adds to its environment (its workers inherit it)."""
        self._start(["--address", self.address, "--num-cpus", str(cpus)], env)

    def wait_for_cpus(self, cpus: int, timeout: float = 120) -> None:
        """Block until the cluster reports ``cpus`` CPUs (asked through a throwaway driver)."""
        probe = (
            "import ray, sys, time\n"
            f"ray.init(address={self.address!r}, log_to_driver=False)\n"
            f"deadline = time.time() + {timeout}\n"
            f"while ray.cluster_resources().get('CPU', 0) < {cpus} and time.time() < deadline:\n"
            "    time.sleep(0.2)\n"
            f"sys.exit(ray.cluster_resources().get('CPU', 0) < {cpus})\n"
        )
        subprocess.run(
            [sys.executable, "-c", probe], env=self.node_env, check=True, capture_output=True, timeout=timeout + 60
        )

    def shutdown(self) -> None:
        """SIGTERM each ``ray start --block`` (it ends its own children), then SIGKILL whatever
        is left in its process group."""
        for process in reversed(self.processes):
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        deadline = time.time() + 30
        for process in self.processes:
            try:
                process.wait(timeout=max(deadline - time.time(), 0.1))
            except subprocess.TimeoutExpired:
                pass
        for process in self.processes:
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            if process.poll() is None:
                process.wait(timeout=10)
