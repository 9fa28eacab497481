"""Studies: one module per study, each ending in ``STUDY = Study(...)`` (``pipeline.study``;
most use ``jobs.common.Study``, which adds the Markdown of their tables).

``STUDIES`` maps the names ``sampyong run`` knows to those objects; the pipeline is handed a
study and never looks one up. The rule book (``jobs.rulebook``) and the panel
(``jobs.panel``) are not studies but campaigns: a list of studies run as one job graph, then one
report; ``campaigns()`` maps their names to their modules.
"""

from __future__ import annotations

from jobs import distribution, draws, grid, hand_ranking, match, play, records, showdown, solve, textures, variants
from pipeline.study import Study

from jobs.hand_ranking import ranking  # noqa: E402  a game's starting-hand ranking in the driver (fit, N% ranges)

STUDIES: dict[str, Study] = {
    module.STUDY.name: module.STUDY for module in (showdown, distribution, grid, variants, textures, draws, play, match, records, hand_ranking, solve)
}


def campaigns() -> dict:
    """The campaigns ``sampyong run`` knows, by name: modules with ``NAME``, ``DESCRIPTION``,
    ``OPTIONS`` and ``run_campaign(config, backend, out, *, resume, quiet) -> report folder``."""
    from jobs import panel, rulebook, strategy

    return {module.NAME: module for module in (rulebook, panel, strategy)}
