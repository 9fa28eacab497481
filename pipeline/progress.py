"""A rich progress bar for long runs (deals done, deals/s, ETA); silent with --quiet or no TTY."""

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
        self.enabled = not quiet and sys.stderr.isatty()
        self._bar = None
        if self.enabled:
            self._bar = RichProgress(
                TextColumn("[bold]{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TaskProgressColumn(),
                TextColumn("{task.fields[rate]}"),
                TimeElapsedColumn(),
                TextColumn("ETA"),
                TimeRemainingColumn(),
                console=Console(stderr=True),
                transient=False,
            )
            self._tasks = [self._bar.add_task(label, total=total, completed=done, rate="") for label, total, done in rows]
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
