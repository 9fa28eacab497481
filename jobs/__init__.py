"""Studies: one module per study, each ending in ``STUDY = Study(...)`` (``pipeline.study``;
most use ``jobs.common.Study``, which adds the Markdown of their tables).

``STUDIES`` maps the names ``sampyong run`` knows to those objects; the pipeline is handed a
study and never looks one up. The rule book (``jobs.rulebook``) and the panel
(``jobs.panel``) are not studies but campaigns: a list of studies run as one job graph, then one
report; ``campaigns()`` maps their names to their modules.

Both are made on first use, so that a worker handed one study's shards imports that study
alone (a Ray worker of ``run records`` needs neither the solver nor the grid).
"""

from __future__ import annotations

import importlib

_STUDIES = (
    "showdown",
    "distribution",
    "grid",
    "variants",
    "textures",
    "draws",
    "play",
    "match",
    "records",
    "hand_ranking",
    "solve",
)


def __getattr__(name: str):
    if name == "STUDIES":  # name -> pipeline.study.Study, in the order ``sampyong run --help`` lists them
        studies = {
            module.STUDY.name: module.STUDY for module in (importlib.import_module(f"jobs.{m}") for m in _STUDIES)
        }
        globals()["STUDIES"] = studies
        return studies
    if name == "ranking":  # a game's starting-hand ranking in the driver (fit, N% ranges)
        from jobs.hand_ranking import ranking

        return ranking
    raise AttributeError(f"module 'jobs' has no attribute {name!r}")


def campaigns() -> dict:
    """The campaigns ``sampyong run`` knows, by name: modules with ``NAME``, ``DESCRIPTION``,
    ``OPTIONS`` and ``run_campaign(config, backend, out, *, resume, quiet, upstream_out) -> report
    folder`` (``upstream_out``: where its runs' upstream runs land, as ``pipeline.runner.execute_all``)."""
    from jobs import panel, rulebook, strategy

    return {module.NAME: module for module in (rulebook, panel, strategy)}
