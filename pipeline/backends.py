"""Where shards run. A backend only decides *where*: it gets a stream of shard tasks (from one
run, or from every run of the rulebook at once) and hands each result to the driver's
``on_result`` callback, in completion order; the driver writes them.

``SerialBackend`` runs in-process (tests, debugging); ``RayBackend`` runs Ray tasks on an
embedded local Ray or on a cluster; ``AutoBackend`` (the default) runs in-process until the work
left would earn an embedded Ray's start back, then on Ray. ``import ray`` happens only in here.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import os
import sys
import time
from collections.abc import Callable, Sequence
from typing import Protocol

from evaluator.errors import SampyongError
from pipeline.plan import RunConfig, ShardSpec

_RAY_TOKEN_LOGGER = "ray._private.authentication.authentication_token_setup"

# Shard tasks queued ahead of the free CPUs when --workers is not given. Ray holds them until
# a CPU frees up, and the autoscaler sizes the cluster by that queue: 256 one-CPU tasks ask for
# all of cluster.yaml's 16 workers of 16 CPUs at once. A larger cluster queues 2 per CPU.
QUEUE_AHEAD = 256
# How often the driver re-reads the cluster's nodes and CPUs while tasks run.
POLL_SECONDS = 1.0
# What an embedded Ray costs around its shards on a small machine, in seconds: its start (4.7),
# its workers' first import of a study (1.1) and its stop (1.4), measured on 2 cores
# (bench/records.py --cli). A bigger machine starts Ray faster and gains more from it.
RAY_FIXED_SECONDS = 7.0
# Times the driver runs a shard again after losing it with its worker or node, once Ray's own
# retries ran out: a node removed with a long queue on it takes all of them at once.
RESUBMITS = 3

ShardFn = Callable[[RunConfig, ShardSpec], dict]


@dataclasses.dataclass(frozen=True)
class ShardTask:
    """One shard of one run: ``fn(config, shard)`` gives its tables."""

    fn: ShardFn
    config: RunConfig
    shard: ShardSpec


@dataclasses.dataclass(frozen=True)
class ClusterStatus:
    """What the driver last read of the cluster: live nodes, their CPUs, and CPUs busy."""

    nodes: int
    cpus: int
    busy: int

    def __str__(self) -> str:
        """>>> str(ClusterStatus(nodes=3, cpus=6, busy=5))
        '3 nodes, 5/6 CPUs busy'
        """
        return f"{self.nodes} node{'s' * (self.nodes != 1)}, {self.busy}/{self.cpus} CPU{'s' * (self.cpus != 1)} busy"


OnResult = Callable[[ShardTask, dict], None]
OnStatus = Callable[[ClusterStatus], None]


class Backend(Protocol):
    def run(self, tasks: Sequence[ShardTask], on_result: OnResult, on_status: OnStatus | None = None) -> None: ...

    def session(self): ...


class SerialBackend:
    """Every shard in this process, in order."""

    def session(self):
        return contextlib.nullcontext()

    def run(self, tasks: Sequence[ShardTask], on_result: OnResult, on_status: OnStatus | None = None) -> None:
        for task in tasks:
            on_result(task, task.fn(task.config, task.shard))


def _run_shard_task(fn: ShardFn, config: RunConfig, shard: ShardSpec) -> dict:
    return fn(config, shard)


class RayBackend:
    """Ray tasks, retried when a worker or node dies.

    ``address``: ``local`` (the default) always starts an embedded Ray of its own (dashboard
    off, small object store), whatever else runs on the machine, and stops it afterwards;
    ``auto`` (the cluster in ``RAY_ADDRESS`` or on this machine) or ``HOST:PORT`` joins an
    existing cluster, with token authentication whenever a token is at hand, as Ray does for
    clusters it finds itself.

    ``workers``: at most that many shard tasks at once, exactly. Without it the number in
    flight follows the cluster as it grows and shrinks: twice its CPUs, and at least
    ``QUEUE_AHEAD`` queued, so an autoscaler sees the demand and adds nodes.
    """

    def __init__(self, address: str = "local", workers: int | None = None, max_retries: int = 3):
        if workers is not None and workers < 1:
            raise SampyongError(f"workers must be at least 1, not {workers}")
        self.address = address or "local"
        self.workers = workers
        self.max_retries = max_retries

    def _init(self):
        import ray

        if ray.is_initialized():
            return ray, False
        os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
        # Ray 2.60 turns token authentication on for a local cluster and says so on every
        # start. The embedded cluster lives only as long as this run: keep the protection,
        # drop the notice (it would land in every run's output).
        logging.getLogger(_RAY_TOKEN_LOGGER).setLevel(logging.ERROR)
        try:
            if self.address == "local":
                # address="local": never join a cluster that `ray start` left on this machine.
                ray.init(
                    address="local",
                    num_cpus=self.workers or os.cpu_count(),
                    include_dashboard=False,
                    object_store_memory=200 * 1024 * 1024,
                    log_to_driver=False,
                    configure_logging=False,
                )
            else:
                self._join(ray)
        except (ConnectionError, RuntimeError, ValueError, OSError) as error:
            hint = ""
            if self.address != "local" and os.environ.get("RAY_AUTH_MODE", "").lower() != "token":
                hint = (
                    "; if the cluster uses token authentication, set RAY_AUTH_MODE=token and its token in "
                    "RAY_AUTH_TOKEN or ~/.ray/auth_token"
                )
            first_line = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
            raise SampyongError(f"cannot start or reach Ray at {self.address!r}: {first_line}{hint}") from None
        return ray, True

    def _join(self, ray) -> None:
        """Join a running cluster, with token authentication whenever a token is at hand.

        Ray does that itself only for a cluster it finds on this machine; for an explicit
        ``HOST:PORT`` (and for ``auto`` through ``RAY_ADDRESS``, as ``ray job submit`` sets it)
        it does not, and a head started by ``ray start --head`` with a token then refuses the
        driver. ``RAY_AUTH_MODE``, when set, is respected as it is.
        """
        try:
            from ray._private.authentication.authentication_token_setup import (
                maybe_enable_token_auth_if_token_available,
            )
        except ImportError:  # a Ray without token authentication
            pass
        else:
            maybe_enable_token_auth_if_token_available(warn_if_disabled=False)
        ray.init(address=self.address, log_to_driver=False, configure_logging=False)

    @contextlib.contextmanager
    def session(self):
        """Keep one Ray up across several runs (the rulebook); stop it after if we started it."""
        ray, started = self._init()
        try:
            yield
        finally:
            if started:
                ray.shutdown()

    def in_flight_limit(self, cpus: int) -> int:
        """Shard tasks to keep submitted for a cluster of ``cpus`` CPUs.

        >>> RayBackend(workers=3).in_flight_limit(64)
        3
        >>> RayBackend().in_flight_limit(2), RayBackend().in_flight_limit(1000)
        (256, 2000)
        """
        if self.workers:
            return self.workers
        return max(2 * cpus, QUEUE_AHEAD)

    @staticmethod
    def cluster_status(ray) -> ClusterStatus:
        total = int(ray.cluster_resources().get("CPU", 0))
        free = int(ray.available_resources().get("CPU", 0))
        nodes = sum(1 for node in ray.nodes() if node.get("Alive"))
        return ClusterStatus(nodes=nodes, cpus=total, busy=max(total - free, 0))

    def run(self, tasks: Sequence[ShardTask], on_result: OnResult, on_status: OnStatus | None = None) -> None:
        ray, started = self._init()
        try:
            remote = ray.remote(num_cpus=1, max_retries=self.max_retries, retry_exceptions=False)(_run_shard_task)
            lost_errors = (
                ray.exceptions.ObjectLostError,
                ray.exceptions.WorkerCrashedError,
                ray.exceptions.NodeDiedError,
                ray.exceptions.LocalRayletDiedError,
            )

            def submit(task: ShardTask):
                # fn and config travel inside each task (a few hundred bytes): an object put in
                # the store lives on the driver's node and is lost for good if that node goes.
                return remote.remote(task.fn, task.config, task.shard)

            pending = list(tasks)[::-1]
            in_flight: dict = {}
            lost: dict = {}  # (config, shard) -> times its task was lost with a worker or node
            status = self.cluster_status(ray)
            polled = time.monotonic()
            while pending or in_flight:
                limit = self.in_flight_limit(status.cpus)
                while pending and len(in_flight) < limit:
                    task = pending.pop()
                    in_flight[submit(task)] = task
                if on_status is not None:
                    on_status(status)
                # A timeout, so that a node joining while long shards run is seen within a poll.
                done, _ = ray.wait(list(in_flight), num_returns=1, timeout=POLL_SECONDS)
                for ref in done:
                    task = in_flight.pop(ref)
                    try:
                        result = ray.get(ref)
                    except ray.exceptions.RayError as error:
                        if not isinstance(error, lost_errors):
                            raise  # the shard's own error: running it again gives the same
                        # A worker or node died under the task, or with an input of it, and
                        # Ray's own retries ran out (a removed node takes every task queued on
                        # it): run the shard again.
                        key = (task.config, task.shard.index)
                        lost[key] = lost.get(key, 0) + 1
                        if lost[key] > RESUBMITS:
                            first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
                            raise SampyongError(
                                f"shard {task.shard.index} was lost {lost[key]} times: {first}"
                            ) from None
                        pending.append(task)
                        continue
                    on_result(task, result)
                if time.monotonic() - polled >= POLL_SECONDS:
                    status = self.cluster_status(ray)
                    polled = time.monotonic()
        finally:
            if started:
                ray.shutdown()


def ray_pays(seconds_left: float, cpus: int) -> bool:
    """Whether an embedded Ray finishes ``seconds_left`` of one core's shard work sooner than this
    process: its fixed cost plus the work spread over ``cpus``, against the work on one core.

    >>> ray_pays(10.0, 2), ray_pays(20.0, 2), ray_pays(1000.0, 1)
    (False, True, False)
    """
    return RAY_FIXED_SECONDS + seconds_left / cpus < seconds_left


class AutoBackend:
    """This machine, the faster way: shards run in this process, one by one, while the work left
    is too small to pay for an embedded Ray (``ray_pays``, from the time the shards took so far);
    once it is not, the rest run on Ray, which stays up for the session's later runs.

    A file of records that reads in seconds never waits for Ray; a long run loses at most its
    first shard's time on the other cores. The tables do not depend on where shards ran.
    """

    def __init__(self, cpus: int | None = None):
        self.cpus = cpus or os.cpu_count() or 1
        self.ray = RayBackend()
        self._sessions = 0  # sessions open, nested ones included (a campaign's runs)
        self._started = False

    @contextlib.contextmanager
    def session(self):
        """Keep a Ray that a run started up for the session's later runs; the outermost session
        stops it."""
        self._sessions += 1
        try:
            yield
        finally:
            self._sessions -= 1
            if self._started and not self._sessions:
                self._started = False
                import ray

                ray.shutdown()

    @staticmethod
    def _ray_is_up() -> bool:
        return "ray" in sys.modules and sys.modules["ray"].is_initialized()

    def run(self, tasks: Sequence[ShardTask], on_result: OnResult, on_status: OnStatus | None = None) -> None:
        tasks = list(tasks)
        done = 0
        if not self._ray_is_up():
            began = time.monotonic()
            while done < len(tasks):
                task = tasks[done]
                on_result(task, task.fn(task.config, task.shard))
                done += 1
                left = (time.monotonic() - began) / done * (len(tasks) - done)
                if done < len(tasks) and ray_pays(left, self.cpus):
                    break
        if done < len(tasks):
            if self._sessions and not self._ray_is_up():
                _, self._started = self.ray._init()
            self.ray.run(tasks[done:], on_result, on_status)


def make_backend(name: str, address: str | None = None, workers: int | None = None) -> Backend:
    """The backend called ``name``: ``auto`` (Ray from the start when ``address`` or ``workers``
    is given), ``ray`` (``address`` defaults to ``local``) or ``serial`` (no Ray options allowed)."""
    if name == "auto":
        if address is not None or workers is not None:
            return RayBackend(address=address or "local", workers=workers)
        return AutoBackend()
    if name == "serial":
        if address not in ("local", None) or workers is not None:
            raise SampyongError("--address and --workers apply to the ray backend, not to --backend serial")
        return SerialBackend()
    if name == "ray":
        return RayBackend(address=address or "local", workers=workers)
    raise SampyongError(f"unknown backend {name!r}; choose auto, ray or serial")
