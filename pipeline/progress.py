"""A rich progress bar for long runs (deals done, deals/s, ETA, and the Ray cluster in use).

Silent with --quiet; without a terminal, a cluster that grows or shrinks is one plain line.
"""

from __future__ import annotations

import sys

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress as RichProgress,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)


class Progress:
    """One bar per run: ``Progress([(label, total, done), ...])``, then ``advance(row, deals)``."""

    def __init__(self, rows: list[tuple[str, int, int]], quiet: bool = False):
        self.quiet = quiet
        self.enabled = not quiet and sys.stderr.isatty()
        self._bar = None
        self._cluster = None
        if self.enabled:
            self._bar = RichProgress(
                TextColumn("[bold]{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TaskProgressColumn(),
                TextColumn("{task.fields[rate]}"),
                TextColumn("{task.fields[cluster]}"),
                TimeElapsedColumn(),
                TextColumn("ETA"),
                TimeRemainingColumn(),
                console=Console(stderr=True),
                transient=False,
            )
            self._tasks = [self._bar.add_task(label, total=total, completed=done, rate="", cluster="") for label, total, done in rows]
            self._start_done = [done for _, _, done in rows]

    def __enter__(self) -> Progress:
        if self._bar is not None:
            self._bar.start()
        return self

    def __exit__(self, *exc) -> None:
        if self._bar is not None:
            self._bar.stop()

    def advance(self, row: int, deals: int) -> None:
        if self._bar is None:
            return
        task_id = self._tasks[row]
        self._bar.advance(task_id, deals)
        task = self._bar.tasks[row]
        if task.elapsed:
            rate = (task.completed - self._start_done[row]) / task.elapsed
            self._bar.update(task_id, rate=f"{rate / 1e6:,.2f} M deals/s")

    def cluster(self, status) -> None:
        """Show the cluster's nodes and CPUs in use (a ``ClusterStatus``); without a bar, log a
        line each time the cluster's size changes."""
        size = (status.nodes, status.cpus)
        if self._bar is not None:
            for task_id in self._tasks:
                self._bar.update(task_id, cluster=f"ray: {status}")
        elif not self.quiet and size != self._cluster:
            print(f"ray: {status.nodes} node{'s' * (status.nodes != 1)}, {status.cpus} CPU{'s' * (status.cpus != 1)}", file=sys.stderr)
        self._cluster = size
