"""Where shards run. A backend only decides *where*: it gets a stream of shard tasks (from one
run, or from every run of the rulebook at once) and hands each result to the driver's
``on_result`` callback, in completion order; the driver writes them.

``SerialBackend`` runs in-process (tests, debugging); ``RayBackend`` runs Ray tasks on an
embedded local Ray (the default) or on a cluster. ``import ray`` happens only in here.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import os
from collections.abc import Callable, Sequence
from typing import Protocol

from evaluator.errors import SampyongError
from pipeline.plan import RunConfig, ShardSpec

_RAY_TOKEN_LOGGER = "ray._private.authentication.authentication_token_setup"

ShardFn = Callable[[RunConfig, ShardSpec], dict]


@dataclasses.dataclass(frozen=True)
class ShardTask:
    """One shard of one run: ``fn(config, shard)`` gives its tables."""

    fn: ShardFn
    config: RunConfig
    shard: ShardSpec


OnResult = Callable[[ShardTask, dict], None]


class Backend(Protocol):
    def run(self, tasks: Sequence[ShardTask], on_result: OnResult) -> None: ...

    def session(self): ...


class SerialBackend:
    """Every shard in this process, in order."""

    def session(self):
        return contextlib.nullcontext()

    def run(self, tasks: Sequence[ShardTask], on_result: OnResult) -> None:
        for task in tasks:
            on_result(task, task.fn(task.config, task.shard))


def _run_shard_task(fn: ShardFn, config: RunConfig, shard: ShardSpec) -> dict:
    return fn(config, shard)


class RayBackend:
    """Ray tasks, a bounded number in flight, retried when a worker or node dies.

    ``address``: ``local`` starts an embedded Ray (dashboard off, small object store) and stops
    it afterwards; ``auto`` or ``HOST:PORT`` joins an existing cluster. ``RAY_ADDRESS`` in the
    environment replaces ``local``.
    """

    def __init__(self, address: str = "local", workers: int | None = None, max_retries: int = 3):
        self.address = os.environ.get("RAY_ADDRESS", address) if address == "local" else address
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
            if self.address in ("local", "", None):
                ray.init(
                    num_cpus=self.workers or os.cpu_count(),
                    include_dashboard=False,
                    object_store_memory=200 * 1024 * 1024,
                    log_to_driver=False,
                    configure_logging=False,
                )
            else:
                ray.init(address=self.address, log_to_driver=False, configure_logging=False)
        except (ConnectionError, RuntimeError, ValueError, OSError) as error:
            raise SampyongError(f"cannot start or reach Ray at {self.address!r}: {error}") from None
        return ray, True

    @contextlib.contextmanager
    def session(self):
        """Keep one Ray up across several runs (the rulebook); stop it after if we started it."""
        ray, started = self._init()
        try:
            yield
        finally:
            if started:
                ray.shutdown()

    def parallelism(self, ray) -> int:
        if self.workers:
            return self.workers
        return max(1, int(ray.cluster_resources().get("CPU", 1)))

    def run(self, tasks: Sequence[ShardTask], on_result: OnResult) -> None:
        ray, started = self._init()
        try:
            remote = ray.remote(num_cpus=1, max_retries=self.max_retries, retry_exceptions=False)(_run_shard_task)
            refs: dict = {}  # (fn, config) -> their object refs, put once per run

            def submit(task: ShardTask):
                key = (task.fn, task.config)
                if key not in refs:
                    refs[key] = (ray.put(task.fn), ray.put(task.config))
                fn_ref, config_ref = refs[key]
                return remote.remote(fn_ref, config_ref, task.shard)

            limit = 2 * self.parallelism(ray)
            pending = list(tasks)[::-1]
            in_flight: dict = {}
            while pending or in_flight:
                while pending and len(in_flight) < limit:
                    task = pending.pop()
                    in_flight[submit(task)] = task
                done, _ = ray.wait(list(in_flight), num_returns=1)
                for ref in done:
                    task = in_flight.pop(ref)
                    on_result(task, ray.get(ref))
        finally:
            if started:
                ray.shutdown()


def make_backend(name: str, address: str = "local", workers: int | None = None) -> Backend:
    if name == "serial":
        return SerialBackend()
    if name == "ray":
        return RayBackend(address=address, workers=workers)
    raise SampyongError(f"unknown backend {name!r}; choose serial or ray")
