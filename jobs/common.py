"""What the studies share: the game a run plays, the ``sampyong run`` options of a game, and
the pieces every report and figure is made of."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

import polars as pl

from evaluator.games import Game, resolve_game
from pipeline.aggregate import markdown_table
from pipeline.plan import RunConfig
from pipeline.study import SAMPLING_OPTIONS

if TYPE_CHECKING:
    from matplotlib.figure import Figure

# The game and its knobs; a Monte Carlo study of a game also samples deals for some players.
GAME_OPTIONS = frozenset({"game", "hole_use", "ranking", "low"})
MONTE_CARLO_OPTIONS = GAME_OPTIONS | SAMPLING_OPTIONS | {"players"}


def game_of(config: RunConfig) -> Game:
    """Resolve the game a run plays: its preset turned by its knobs.

    >>> game_of(RunConfig(job="showdown", game="pls7", deals=1, shard_deals=1, players=2, seed=0, low="8")).low
    8

    :param config: The run's config (``game``, ``hole_use``, ``ranking``, ``low``).
    :return: The game.
    :raises SampyongError: If the preset or a knob is unknown.
    """
    return resolve_game(config.game, hole_use=config.hole_use, ranking=config.ranking, low=config.low)


def new_figure(figsize: tuple[float, float], dpi: int = 80) -> Figure:
    """Make an empty matplotlib figure, to be saved by the pipeline at ``dpi``.

    A ``matplotlib.figure.Figure``: no pyplot state and no backend to choose; matplotlib is
    imported only when a figure is made.

    >>> figure = new_figure((8, 4.5), dpi=90)
    >>> figure.get_size_inches().tolist(), figure.dpi
    ([8.0, 4.5], 90)

    :param figsize: Width and height in inches.
    :param dpi: Dots per inch it is drawn and saved at.
    :return: The figure, without axes.
    :raises ValueError: If a size is not positive and finite.
    """
    from matplotlib.figure import Figure

    return Figure(figsize=figsize, dpi=dpi)


def figure_links(figure_files: Iterable[str]) -> list[str]:
    """Link each saved figure in Markdown, as a report beside ``figures/`` shows it.

    >>> figure_links(["grid_heatmap.png"])
    ['![grid_heatmap.png](figures/grid_heatmap.png)']

    :param figure_files: File names in ``figures/`` (what the study's ``report`` is given).
    :return: One image line per file, in order.
    :raises: Nothing.
    """
    return [f"![{name}](figures/{name})" for name in figure_files]


def report_header(title: str, text: str, figure_files: Sequence[str] | None = None) -> list[str]:
    """Start a report: its title, a paragraph, and (when given) the figures, each then a blank line.

    >>> report_header("Draws", "Some spots.")
    ['# Draws', '', 'Some spots.', '']
    >>> report_header("Grid", "Every class.", ["grid_heatmap.png"])
    ['# Grid', '', 'Every class.', '', '![grid_heatmap.png](figures/grid_heatmap.png)', '']

    :param title: The heading, without ``# ``.
    :param text: The paragraph that says what was computed and how.
    :param figure_files: The figures to show under the paragraph (None: no figure lines and no
        blank line after them; an empty list still adds the blank line).
    :return: The lines; join a report's lines with ``markdown``.
    :raises: Nothing.
    """
    lines = [f"# {title}", "", text, ""]
    if figure_files is not None:
        lines += [*figure_links(figure_files), ""]
    return lines


def section(heading: str, frame: pl.DataFrame) -> list[str]:
    """Show a table under a heading: the heading, a blank line, the Markdown table.

    >>> print(markdown(section("Lows", pl.DataFrame({"qualifier": [8]}))), end="")
    ## Lows
    <BLANKLINE>
    | qualifier |
    |---|
    | 8 |
    <BLANKLINE>

    :param heading: The section's heading, without ``## ``.
    :param frame: The table (``pipeline.aggregate.markdown_table``).
    :return: The lines; the table's ends in a newline, so a blank line follows it.
    :raises: Nothing.
    """
    return [f"## {heading}", "", markdown_table(frame)]


def markdown(lines: Iterable[str]) -> str:
    """Join a report's lines into its text, one line each and a final newline.

    >>> markdown(["# Draws", "", "Some spots."])
    '# Draws\\n\\nSome spots.\\n'

    :param lines: The lines, without their newlines (a table's own trailing newline is kept).
    :return: The Markdown text of ``report.md``.
    :raises: Nothing.
    """
    return "\n".join(lines) + "\n"
