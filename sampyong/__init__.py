"""Sampyong Lab's front door: ``import sampyong as sy`` for the Python API (one function per
command, results as polars frames and small frozen dataclasses, errors as ``SampyongError`` with
the CLI's one-line message) and the ``sampyong`` command (``sampyong.cli``), a thin layer over it;
the one place that imports the rules (``evaluator``), the studies (``jobs``) and the pipeline together.

Each face is a module of its own: ``runs`` (``run``, ``report``, ``check``, ``view``, ``jobs``),
``calculator`` (``games``, ``evaluate``, ``equity``, ``range``, ``precompute``), ``replays``,
``conversion``, ``fits``, ``playing`` (``policies``, ``play``, ``tune``), ``home_game``
(``table``), ``solutions`` (``solve``) and ``rankings``. A name's module is imported at the
name's first use, so that ``sampyong eval`` and friends stay light."""

from __future__ import annotations

# The module of each public name.
_FACES = {
    "calculator": ("Equity", "Range", "Verdict", "equity", "evaluate", "games", "precompute", "range"),
    "conversion": ("Conversion", "convert"),
    "fits": ("Fit", "fit"),
    "home_game": ("table", "table_app"),
    "playing": ("Tuned", "play", "policies", "tune"),
    "rankings": ("ranking",),
    "replays": ("Replays", "replay"),
    "runs": ("IncompleteRun", "Run", "check", "jobs", "report", "run", "view"),
    "solutions": ("load_solution", "solve"),
}
_MODULE = {name: module for module, names in _FACES.items() for name in names}

__all__ = sorted(_MODULE)


def __getattr__(name: str):
    if name in _MODULE:
        import importlib

        return getattr(importlib.import_module(f"sampyong.{_MODULE[name]}"), name)
    raise AttributeError(f"module 'sampyong' has no attribute {name!r}")
