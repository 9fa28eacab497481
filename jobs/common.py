"""What the studies share: the game a run plays, the ``sampyong run`` options of a game, and
the pieces every report and figure is made of.

Numbers for people: every Markdown table goes through ``pipeline.aggregate.markdown_table``
(rates as percentages to the digit of their standard error, ``17.53 % ± 0.03``; counts with
thousands separators; never scientific notation), with headers in words from ``WORDS``
(``table``). A study made with this module's ``Study`` writes its ``tables/NAME.md`` with its
own ``markdown`` and uses the same function in ``report.md``; the .csv and .parquet keep the
raw fractions and their ``_se`` columns.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

import polars as pl

from evaluator.games import Game, resolve_game
from evaluator.settle_kernels import SHOWDOWN_FLAGS
from pipeline import study as pipeline_study
from pipeline.aggregate import markdown_table
from pipeline.plan import RunConfig
from pipeline.study import SAMPLING, Option

if TYPE_CHECKING:
    from matplotlib.figure import Figure

# The game and its knobs; a Monte Carlo study of a game also samples deals for some players.
GAME_OPTIONS = (
    Option("game", "Game preset (see sampyong games).", default="pls7"),
    Option("hole_use", "Hole cards a hand must use: MIN-MAX, N, free, at-least-one or pls-2 (default: the game's)."),
    Option(
        "ranking", "Category order: base, trips_over_straight, skip_over_flush, both or standard (default: the game's)."
    ),
    Option("low", "Low qualifier: 6, 7, 8 or none (default: the game's)."),
)
PLAYERS = Option("players", "Hands per deal.", int, default=2)
MONTE_CARLO_OPTIONS = (*GAME_OPTIONS, PLAYERS, *SAMPLING)


def replace_option(options: tuple[Option, ...], *replacements: Option) -> tuple[Option, ...]:
    """``options`` with each option of the same name as a replacement replaced by it, in place.

    >>> [o.default for o in replace_option(MONTE_CARLO_OPTIONS, PLAYERS.but(default=6)) if o.name == "players"]
    [6]
    """
    by_name = {o.name: o for o in replacements}
    return tuple(by_name.get(o.name, o) for o in options)


EXACT = Option("exact", "Insist on exact enumeration: an error if the run would sample.", bool)


@dataclasses.dataclass(frozen=True)
class Study(pipeline_study.Study):
    """``pipeline.study.Study`` with the Markdown of its tables.

    Parameters:
        markdown: ``(name, frame, config) -> str``, the text of ``tables/NAME.md``
            (``pipeline.aggregate.build_outputs`` calls it; None: ``markdown_table`` by column
            type).
    """

    markdown: Callable[[str, pl.DataFrame, RunConfig], str] | None = None


# Column headers in words, shared by every study's Markdown (a study adds its own).
WORDS = {
    "hi_chop": "high chopped",
    "low_exists": "a low exists",
    "low_tie": "low tied (of deals with a low)",
    "scoop": "scooped",
    "quartered": "someone gets a quarter",
    "hilo_split": "split high/low",
    "best": "best high (of hands)",
    "present": "can be made (of hands)",
    "win": "wins the high (of deals)",
    "frequency": "share of deals",
}
# The showdown rates, fractions of deals (``low_tie``: of deals with a low) with ``_se`` columns.
RATES = SHOWDOWN_FLAGS
SE_LEGEND = "Percentages ± one standard error; the digits shown stop at the standard error's."


def words(value, row=None) -> str:
    """A name in words, for a Markdown cell: ``three_of_a_kind`` -> ``three of a kind``.

    >>> words("three_of_a_kind"), words(None)
    ('three of a kind', '–')
    """
    return "–" if value is None else str(value).replace("_", " ")


def table(frame: pl.DataFrame, formats: Mapping | None = None, headers: Mapping[str, str] | None = None) -> str:
    """A study's Markdown table: ``markdown_table`` with headers from ``WORDS`` then ``headers``.

    ``formats`` may name columns the frame lacks (one spec serves several tables); they are
    left out.

    >>> frame = pl.DataFrame({"players": [2], "deals": [2000000], "scoop": [0.824665], "scoop_se": [0.00026888]})
    >>> print(table(frame, {"scoop": "percent", "hilo_split": "percent"}), end="")
    | players | deals | scooped |
    |---|---|---|
    | 2 | 2,000,000 | 82.47 % ± 0.03 |

    Parameters:
        frame: the table.
        formats: column to format (``pipeline.aggregate.markdown_table``).
        headers: column to header, over ``WORDS``.

    Returns the Markdown, ending in a newline. Raises ``ValueError`` if a format is unknown.
    """
    present = {column: kind for column, kind in (formats or {}).items() if column in frame.columns}
    return markdown_table(frame, present, {**WORDS, **(headers or {})})


def game_of(config: RunConfig) -> Game:
    """Resolve the game a run plays: its preset turned by its knobs.

    >>> game_of(RunConfig(job="showdown", game="pls7", deals=1, shard_deals=1, players=2, seed=0, low="8")).low
    8

    Parameters:
        config: the run's config (``game``, ``hole_use``, ``ranking``, ``low``).

    Returns the game. Raises ``SampyongError`` if the preset or a knob is unknown.
    """
    return resolve_game(config.game, hole_use=config.hole_use, ranking=config.ranking, low=config.low)


def new_figure(figsize: tuple[float, float], dpi: int = 80) -> Figure:
    """Make an empty matplotlib figure, to be saved by the pipeline at ``dpi``.

    A ``matplotlib.figure.Figure``: no pyplot state and no backend to choose; matplotlib is
    imported only when a figure is made.

    >>> figure = new_figure((8, 4.5), dpi=90)
    >>> figure.get_size_inches().tolist(), figure.dpi
    ([8.0, 4.5], 90)

    Parameters:
        figsize: width and height in inches.
        dpi: dots per inch it is drawn and saved at.

    Returns the figure, without axes. Raises ``ValueError`` if a size is not positive and finite.
    """
    from matplotlib.figure import Figure

    return Figure(figsize=figsize, dpi=dpi)


def use_distinct_colors(ax, n: int) -> None:
    """Give the next ``n`` lines of ``ax`` distinct colours (tab10 up to 10 lines, else tab20).

    >>> ax = new_figure((2, 2)).subplots()
    >>> use_distinct_colors(ax, 12); len({ax.plot([0], [0])[0].get_color() for _ in range(12)})
    12
    """
    from matplotlib import colormaps

    ax.set_prop_cycle(color=list(colormaps["tab10" if n <= 10 else "tab20"].colors)[: max(n, 1)])


def figure_links(figure_files: Iterable[str]) -> list[str]:
    """Link each saved figure in Markdown, as a report beside ``figures/`` shows it.

    >>> figure_links(["grid_heatmap.png"])
    ['![grid_heatmap.png](figures/grid_heatmap.png)']

    Parameters:
        figure_files: file names in ``figures/`` (what the study's ``report`` is given).

    Returns one image line per file, in order.
    """
    return [f"![{name}](figures/{name})" for name in figure_files]


def report_header(title: str, text: str, figure_files: Sequence[str] | None = None) -> list[str]:
    """Start a report: its title, a paragraph, and (when given) the figures, each then a blank line.

    >>> report_header("Draws", "Some spots.")
    ['# Draws', '', 'Some spots.', '']
    >>> report_header("Grid", "Every class.", ["grid_heatmap.png"])
    ['# Grid', '', 'Every class.', '', '![grid_heatmap.png](figures/grid_heatmap.png)', '']

    Parameters:
        title: the heading, without ``# ``.
        text: the paragraph that says what was computed and how.
        figure_files: the figures to show under the paragraph (None: no figure lines and no blank
            line after them; an empty list still adds the blank line).

    Returns the lines; join a report's lines with ``markdown``.
    """
    lines = [f"# {title}", "", text, ""]
    if figure_files is not None:
        lines += [*figure_links(figure_files), ""]
    return lines


def section(heading: str, frame: pl.DataFrame | str, legend: str | None = None) -> list[str]:
    """Show a table under a heading: the heading, a blank line, the Markdown table, a legend.

    >>> print(markdown(section("Lows", pl.DataFrame({"qualifier": [8]}), "Exact.")), end="")
    ## Lows
    <BLANKLINE>
    | qualifier |
    |---|
    | 8 |
    <BLANKLINE>
    Exact.
    <BLANKLINE>

    Parameters:
        heading: the section's heading, without ``## ``.
        frame: the table, as Markdown text (``table``) or a frame (``table`` with no formats).
        legend: a sentence under the table saying how to read it (None: none).

    Returns the lines; the table's ends in a newline, so a blank line follows it.
    """
    text = frame if isinstance(frame, str) else table(frame)
    return [f"## {heading}", "", text] + ([legend, ""] if legend else [])


def markdown(lines: Iterable[str]) -> str:
    """Join a report's lines into its text, one line each and a final newline.

    >>> markdown(["# Draws", "", "Some spots."])
    '# Draws\\n\\nSome spots.\\n'

    Parameters:
        lines: the lines, without their newlines (a table's own trailing newline is kept).

    Returns the Markdown text of ``report.md``.
    """
    return "\n".join(lines) + "\n"
