"""Studies: one module per study, each ending in ``STUDY = Study(...)`` (``pipeline.study``;
most use ``jobs.common.Study``, which adds the Markdown of their tables).

``STUDIES`` maps the names ``sampyong run`` knows to those objects; the pipeline is handed a
study and never looks one up. The rule book (``jobs.rulebook``) is not a study but a
campaign: a list of studies run as one job graph, then one report.
"""

from __future__ import annotations

from jobs import distribution, draws, grid, hand_ranking, match, play, records, showdown, textures, variants
from pipeline.study import Study

from jobs.hand_ranking import ranking  # noqa: E402  a game's starting-hand ranking in the driver (fit, N% ranges)

STUDIES: dict[str, Study] = {
    module.STUDY.name: module.STUDY for module in (showdown, distribution, grid, variants, textures, draws, play, match, records, hand_ranking)
}
