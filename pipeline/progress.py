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
    def __init__(self, total: int, done: int = 0, quiet: bool = False, label: str = "deals"):
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
            self._task = self._bar.add_task(label, total=total, completed=done, rate="")
            self._start_done = done

    def __enter__(self) -> Progress:
        if self._bar is not None:
            self._bar.start()
        return self

    def __exit__(self, *exc) -> None:
        if self._bar is not None:
            self._bar.stop()

    def advance(self, deals: int) -> None:
        if self._bar is None:
            return
        self._bar.advance(self._task, deals)
        task = self._bar.tasks[0]
        if task.elapsed:
            rate = (task.completed - self._start_done) / task.elapsed
            self._bar.update(self._task, rate=f"{rate / 1e6:,.2f} M deals/s")
