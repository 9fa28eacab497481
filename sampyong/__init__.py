"""Sampyong Lab's front door: ``import sampyong as sy`` for the Python API (``sampyong.api``:
one function per command, results as polars frames) and the ``sampyong`` command
(``sampyong.cli``), a thin layer over it; the one place that imports the rules (``evaluator``),
the studies (``jobs``) and the pipeline together."""

from __future__ import annotations

__all__ = [
    "Conversion", "Equity", "Fit", "IncompleteRun", "Range", "Replays", "Run", "Tuned", "Verdict", "check", "convert", "equity", "evaluate", "fit", "games", "jobs",
    "load_solution", "play", "policies", "precompute", "range", "ranking", "replay", "report", "run", "solve", "table", "table_app", "tune", "view",
]


def __getattr__(name: str):
    # The API is imported on first use, so that ``sampyong eval`` and friends stay light.
    if name in __all__:
        from sampyong import api

        return getattr(api, name)
    raise AttributeError(f"module 'sampyong' has no attribute {name!r}")
