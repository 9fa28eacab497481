"""A rich progress bar for long runs (deals done, deals/s, ETA, and the Ray cluster in use).

Silent with --quiet; without a terminal, a cluster that grows or shrinks is one plain line.
"""

from __future__ import annotations

import sys

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.progress import (
    Progress as RichProgress,
)


class Progress:
    """Show one progress bar per run on standard error, while used as a context manager.

    >>> with Progress([("showdown", 10, 0)], quiet=True) as progress:
    ...     progress.advance(0, 4)

    Parameters:
        rows: one ``(label, total deals, deals already done)`` per run.
        quiet: show nothing at all (no bar, no cluster lines).

    Without a terminal on standard error there is no bar either.
    """

    def __init__(self, rows: list[tuple[str, int, int]], quiet: bool = False):
        self.quiet = quiet
        self.enabled = not quiet and sys.stderr.isatty()
        self._bar = None
        self._cluster: tuple[int, int] | None = None
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
            self._tasks = [
                self._bar.add_task(label, total=total, completed=done, rate="", cluster="")
                for label, total, done in rows
            ]
            self._start_done = [done for _, _, done in rows]

    def __enter__(self) -> Progress:
        if self._bar is not None:
            self._bar.start()
        return self

    def __exit__(self, *exc) -> None:
        if self._bar is not None:
            self._bar.stop()

    def advance(self, row: int, deals: int) -> None:
        """Count a finished shard's deals on a run's bar, and update its deals per second.

        Parameters:
            row: the run's position in ``rows``.
            deals: the shard's deals.

        Raises ``IndexError`` if ``row`` is not a row (with a bar shown).
        """
        if self._bar is None:
            return
        task_id = self._tasks[row]
        self._bar.advance(task_id, deals)
        task = self._bar.tasks[row]
        if task.elapsed:
            rate = (task.completed - self._start_done[row]) / task.elapsed
            self._bar.update(task_id, rate=f"{rate / 1e6:,.2f} M deals/s")

    def cluster(self, status) -> None:
        """Show the Ray cluster's nodes and busy CPUs; without a bar, log a line when its size changes.

        Parameters:
            status: a ``pipeline.backends.ClusterStatus`` (``nodes``, ``cpus``, ``busy``).
        """
        size = (status.nodes, status.cpus)
        if self._bar is not None:
            for task_id in self._tasks:
                self._bar.update(task_id, cluster=f"ray: {status}")
        elif not self.quiet and size != self._cluster:
            print(
                f"ray: {status.nodes} node{'s' * (status.nodes != 1)}, {status.cpus} CPU{'s' * (status.cpus != 1)}",
                file=sys.stderr,
            )
        self._cluster = size
