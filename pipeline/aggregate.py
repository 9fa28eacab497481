"""Sum the shards' count tables with polars and write the study's tables, figures and report.

Count columns are unsigned 64-bit; every other column is a key. The sum does not depend on the
order shards finished in, so tables are bit-identical for any backend or worker count. Every
file is written through ``pipeline.store.atomic_write``; figures are saved here and nowhere
else (a study returns matplotlib figures, and no backend is ever switched).
"""

from __future__ import annotations

import math
import shutil
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeGuard

import numpy as np
import polars as pl

from pipeline.store import RunStore, atomic_write
from pipeline.study import Study

if TYPE_CHECKING:
    from matplotlib.figure import Figure

_COUNT_TYPES = (pl.UInt64, pl.UInt32, pl.Int64)


def sum_counts(files: list[Path]) -> pl.DataFrame:
    """Sum the count columns of Parquet ``files`` by their key columns.

    Key columns are those of any type but ``UInt64``, ``UInt32`` and ``Int64``; the rows come
    out sorted by the keys, so the result does not depend on the order of ``files``.

    >>> import tempfile
    >>> scratch = tempfile.TemporaryDirectory()
    >>> folder = Path(scratch.name)
    >>> for i, n in enumerate([3, 4]):
    ...     shard = pl.DataFrame({"side": ["heads"], "n": pl.Series([n], dtype=pl.UInt64)})
    ...     shard.write_parquet(folder / f"{i}.parquet")
    >>> sum_counts(sorted(folder.glob("*.parquet"))).rows()
    [('heads', 7)]
    >>> scratch.cleanup()

    Parameters:
        files: parquet files of one table, each with the same columns.

    Returns one frame: the key columns and every count column summed (``UInt64``). Raises
    ``OSError`` if a file is missing or cannot be read. Raises ``polars.exceptions.PolarsError`` if
    a file is not Parquet or the files' schemas differ.
    """
    frame = pl.scan_parquet([str(f) for f in files])
    schema = frame.collect_schema()
    keys = [name for name, dtype in schema.items() if dtype not in _COUNT_TYPES]
    counts = [name for name in schema if name not in keys]
    return frame.group_by(keys).agg([pl.col(c).cast(pl.UInt64).sum() for c in counts]).sort(keys).collect()


# --- numbers for people ---------------------------------------------------------------------
# The Markdown of every table is written by ``markdown_table``; the .csv and .parquet keep the
# raw numbers (fractions, with ``_se`` columns). A rate shows as a percentage whose digits stop
# where its standard error does; an exact one, or one without a standard error, to 4 decimals.

MISSING = "–"


def _known(value: float | None) -> TypeGuard[float]:
    """Tell whether ``value`` is a number: not None, not NaN."""
    return not (value is None or (isinstance(value, float) and math.isnan(value)))


def _decimals(se: float) -> int:
    """Decimals that show ``se`` to 1 significant digit (2 when that digit is a 1).

    >>> _decimals(0.031), _decimals(0.018), _decimals(0.0096), _decimals(37.0)
    (2, 3, 3, -1)

    (0.0096 rounds to 0.010: two significant digits, the first a 1, as the rule wants.)
    """
    mantissa, exponent = f"{se:.1e}".split("e")
    return -int(exponent) + (1 if mantissa.startswith("1") else 0)


def _fixed(value: float, decimals: int) -> str:
    """``value`` rounded to ``decimals`` (negative: to tens, hundreds...), never in scientific notation."""
    if decimals < 0:
        return f"{round(value, decimals):.0f}"
    return f"{value:.{decimals}f}"


def _with_se(value: float | None, se: float | None, unit: str, sign: bool = False) -> str:
    if not _known(value):
        return MISSING
    if not _known(se) or se <= 0:
        text, tail = f"{value:.4f}", ""
    else:
        decimals = _decimals(se)
        text, tail = _fixed(value, decimals), f" ± {_fixed(se, decimals)}"
    if text.lstrip("-").strip("0.") == "":  # no sign on a zero, even a rounded negative one
        text = text.lstrip("-")
    elif sign and value > 0:
        text = "+" + text
    return f"{text}{unit}{tail}"


def percent(value: float | None, se: float | None = None) -> str:
    """A fraction as a percentage, to the last digit of its standard error.

    The SE is rounded to 1 significant digit (2 when it starts with a 1) and the value shown to
    that digit; without an SE (exact, or SE 0) the value has 4 decimals.

    >>> percent(0.175335, 0.00031), percent(0.070776, 0.000181338), percent(0.853, 0.0421)
    ('17.53 % ± 0.03', '7.078 % ± 0.018', '85 % ± 4')
    >>> percent(0.8520437), percent(0.0, 0.0), percent(None)
    ('85.2044 %', '0.0000 %', '–')

    Parameters:
        value: the fraction (None or NaN: ``–``).
        se: its standard error as a fraction (None, NaN or 0: none).

    Returns the text, e.g. ``17.53 % ± 0.03``.
    """
    scale = lambda x: 100 * x if _known(x) else x
    return _with_se(scale(value), scale(se), " %")


def points(value: float | None, se: float | None = None) -> str:
    """A difference of two fractions in percentage points, signed, to the last digit of its SE.

    >>> points(0.01138, 0.000237808), points(-0.00037, 4.15261e-05), points(0.0, 0.0), points(-0.00001, 0.0002)
    ('+1.14 pp ± 0.02', '-0.037 pp ± 0.004', '0.0000 pp', '0.00 pp ± 0.02')

    Parameters:
        value: the difference (None or NaN: ``–``).
        se: its standard error (None, NaN or 0: none; the value then has 4 decimals).

    Returns the text, e.g. ``+1.14 pp ± 0.02``.
    """
    scale = lambda x: 100 * x if _known(x) else x
    return _with_se(scale(value), scale(se), " pp", sign=True)


def number(value: float | None, se: float | None = None) -> str:
    """A plain number, to the last digit of its SE; without one, 4 significant digits.

    >>> number(1.23456, 0.0213), number(1.23456, 0.0113), number(6e-05), number(1234567.0), number(8.4312)
    ('1.23 ± 0.02', '1.235 ± 0.011', '0.00006', '1,234,567', '8.431')

    Parameters:
        value: the number (None or NaN: ``–``).
        se: its standard error (None, NaN or 0: none).

    Returns the text, never in scientific notation.
    """
    if not _known(value):
        return MISSING
    if _known(se) and se > 0:
        return _with_se(value, se, "")
    if isinstance(value, int) or float(value).is_integer():
        return count(value)
    return np.format_float_positional(value, precision=4, unique=True, fractional=False, trim="-")


def count(n: int | float | None) -> str:
    """A count with thousands separators.

    >>> count(2000000), count(2e6), count(12)
    ('2,000,000', '2,000,000', '12')

    Parameters:
        n: an integer (a whole float is taken as one; any other float is a ``number``).

    Returns the text.
    """
    if not _known(n):
        return MISSING
    if isinstance(n, float) and not n.is_integer():
        return number(n)
    return f"{int(n):,}"


def binomial_se(rate: float | None, trials: float | None) -> float | None:
    """The binomial standard error of a rate over ``trials`` (None without trials).

    >>> round(binomial_se(0.25, 10_000), 6), binomial_se(0.5, 0)
    (0.00433, None)
    """
    if not _known(rate) or not _known(trials) or trials <= 0:
        return None
    return math.sqrt(max(rate * (1 - rate), 0.0) / trials)


KINDS = ("percent", "points", "number", "count", "text")


def markdown_table(
    frame: pl.DataFrame,
    formats: Mapping[str, str | Callable[[object, dict], str]] | None = None,
    headers: Mapping[str, str] | None = None,
) -> str:
    """Render ``frame`` as a Markdown table for people.

    Each column has a format: a kind, or a function ``(value, row) -> str`` (``row`` is the
    whole row by column name). The kinds: ``percent`` (a fraction, ``percent``), ``points`` (a
    difference of fractions, ``points``), ``number``, ``count``, ``text``, or ``percent of
    COLUMN`` (a rate over the count in COLUMN: binomial SE when there is no ``_se`` column).
    A column without a format is a ``count`` if it holds integers, a ``number`` if floats, else
    ``text``. A ``NAME_se`` column is shown inside NAME's cells (``17.53 % ± 0.03``), not as a
    column of its own. Headers are ``headers[NAME]``, else the name with spaces for ``_``.

    >>> frame = pl.DataFrame({"game": ["pls7"], "deals": [2_000_000], "hi_chop": [0.070776], "hi_chop_se": [0.000181338]})
    >>> print(markdown_table(frame, {"hi_chop": "percent"}, {"hi_chop": "high chopped"}), end="")
    | game | deals | high chopped |
    |---|---|---|
    | pls7 | 2,000,000 | 7.078 % ± 0.018 |
    >>> print(markdown_table(frame.drop("hi_chop_se"), {"hi_chop": "percent of deals"}), end="")
    | game | deals | hi chop |
    |---|---|---|
    | pls7 | 2,000,000 | 7.078 % ± 0.018 |

    Parameters:
        frame: the table; any column types.
        formats: column name to kind or function (default: by the column's type).
        headers: column name to its header in words.

    Returns the Markdown lines, each ending in a newline. Raises ``ValueError`` if a format is no
    kind, ``percent of`` names no column, or a format names a column the frame lacks.
    """
    formats = dict(formats or {})
    headers = dict(headers or {})
    unknown = sorted(set(formats) - set(frame.columns))
    if unknown:
        raise ValueError(f"formats for columns the table lacks: {', '.join(unknown)}")
    shown = [c for c in frame.columns if not (c.endswith("_se") and c[:-3] in frame.columns)]
    cells = {c: _cell_format(frame, c, formats.get(c)) for c in shown}
    header = "| " + " | ".join(headers.get(c, c.replace("_", " ")) for c in shown) + " |"
    rule = "|" + "|".join("---" for _ in shown) + "|"
    rows = ["| " + " | ".join(cells[c](row[c], row) for c in shown) + " |" for row in frame.iter_rows(named=True)]
    return "\n".join([header, rule, *rows]) + "\n"


def _cell_format(frame: pl.DataFrame, column: str, kind) -> Callable[[Any, dict], str]:
    """The function that writes one cell of ``column``."""
    if callable(kind):
        return kind
    dtype = frame.schema[column]
    if kind is None:
        kind = "count" if dtype.is_integer() else "number" if dtype.is_float() else "text"
    se_column = f"{column}_se" if f"{column}_se" in frame.columns else None

    def se_of(row):
        return row[se_column] if se_column else None

    if kind.startswith("percent of "):
        trials = kind.removeprefix("percent of ")
        if trials not in frame.columns:
            raise ValueError(f"{column}: {kind!r} names no column")
        if se_column:
            return lambda value, row: percent(value, se_of(row))
        return lambda value, row: percent(value, binomial_se(value, row[trials]))
    writers = {
        "percent": lambda value, row: percent(value, se_of(row)),
        "points": lambda value, row: points(value, se_of(row)),
        "number": lambda value, row: number(value, se_of(row)),
        "count": lambda value, row: count(value),
        "text": lambda value, row: MISSING if value is None else str(value),
    }
    if kind not in writers:
        raise ValueError(f"{column}: unknown format {kind!r}; use one of {', '.join(KINDS)} or 'percent of COLUMN'")
    return writers[kind]


def write_table(directory: Path, name: str, frame: pl.DataFrame, markdown: str | None = None) -> None:
    """Write ``name.parquet`` (the data), ``name.csv`` and ``name.md`` (for people), each atomically.

    >>> import tempfile
    >>> scratch = tempfile.TemporaryDirectory()
    >>> folder = Path(scratch.name) / "tables"
    >>> write_table(folder, "flips", pl.DataFrame({"side": ["heads"], "n": [7000]}))
    >>> sorted(p.name for p in folder.iterdir()), (folder / "flips.csv").read_text()
    (['flips.csv', 'flips.md', 'flips.parquet'], 'side,n\\nheads,7000\\n')
    >>> (folder / "flips.md").read_text().splitlines()[-1]
    '| heads | 7,000 |'
    >>> scratch.cleanup()

    Parameters:
        directory: the folder, created if missing.
        name: the file name without its suffix.
        frame: the table.
        markdown: the text of ``name.md`` (default: ``markdown_table(frame)``).

    Raises ``OSError`` if the folder or a file cannot be written (no partial file is left).
    """
    directory.mkdir(parents=True, exist_ok=True)
    text = markdown_table(frame) if markdown is None else markdown
    atomic_write(directory / f"{name}.parquet", frame.write_parquet)
    atomic_write(directory / f"{name}.csv", frame.write_csv)
    atomic_write(directory / f"{name}.md", lambda tmp: tmp.write_text(text))


def write_figures(directory: Path, figures: Mapping[str, Figure | Path]) -> list[str]:
    """Save every figure as ``directory/NAME.png``, atomically, in the order given.

    A matplotlib ``Figure`` is rendered at its own dpi (make it with the dpi it should be saved
    with); a ``Path`` is a PNG already rendered (another run's), copied byte for byte.

    >>> import tempfile
    >>> from matplotlib.figure import Figure
    >>> scratch = tempfile.TemporaryDirectory()
    >>> folder = Path(scratch.name) / "figures"
    >>> figure = Figure(figsize=(1, 1), dpi=20)
    >>> write_figures(folder, {"square": figure, "copy": folder / "square.png"})
    ['square.png', 'copy.png']
    >>> (folder / "copy.png").read_bytes() == (folder / "square.png").read_bytes()
    True
    >>> write_figures(folder / "none", {}), (folder / "none").exists()
    ([], False)
    >>> scratch.cleanup()

    Parameters:
        directory: the folder, created when there is a figure to save.
        figures: name (a file name without ``.png``) to figure or PNG file.

    Returns the file names written (``NAME.png``), in the order of ``figures``. Raises
    ``ValueError`` if a name is empty, holds a path separator or ends in ``.png``. Raises
    ``OSError`` if the folder or a file cannot be written or a PNG to copy cannot be read (no
    partial file is left).
    """
    names = []
    for name, figure in figures.items():
        if not name or "/" in name or "\\" in name or name.endswith(".png"):
            raise ValueError(f"bad figure name {name!r}: a file name without .png")
        directory.mkdir(parents=True, exist_ok=True)
        path = directory / f"{name}.png"
        if isinstance(figure, Path):
            atomic_write(path, lambda tmp, source=figure: shutil.copyfile(source, tmp))
        else:
            atomic_write(path, lambda tmp, figure=figure: figure.savefig(tmp, format="png", dpi="figure"))
        names.append(path.name)
    return names


def build_outputs(
    study: Study,
    store: RunStore,
    manifest: dict[int, dict],
    inputs=None,
    options: Mapping | None = None,
) -> dict[str, pl.DataFrame]:
    """Aggregate a run's finished shards into ``tables/``, ``figures/``, ``report.md`` and the
    study's other ``outputs``.

    The shards' count tables are summed (``sum_counts``) and handed to ``study.summarize`` (with
    ``inputs`` when the study has upstream runs);
    each summary is written by ``write_table``, each of ``study.figures``' figures by
    ``write_figures``, and ``study.report``, given the figures' file names, becomes
    ``report.md``. A study that has a ``markdown`` attribute, ``(name, frame, config) -> str``
    or None (``jobs.common.Study`` adds one), writes its tables' ``.md`` with it; otherwise
    ``markdown_table`` does, with every column formatted by its type.

    Parameters:
        study: the study the run belongs to.
        store: the run directory.
        manifest: the finished shards to sum (``RunStore.read_manifest`` or ``finished_shards``):
            shard index to manifest entry.
        inputs: what the study's ``inputs`` built for the run (None without).
        options: the study's ``output_options`` given for this run.

    Returns the summary tables by name, as written. Raises ``OSError`` if a shard file is missing or
    a file cannot be written. Raises ``polars.exceptions.PolarsError`` if a shard file is not
    Parquet.
    """
    counts = {name: sum_counts(files) for name, files in store.table_files(manifest).items()}
    tables = (
        study.summarize(counts, store.config, inputs)
        if study.inputs is not None
        else study.summarize(counts, store.config)
    )
    render = getattr(study, "markdown", None)
    for name, frame in tables.items():
        markdown = render(name, frame, store.config) if render is not None else None
        write_table(store.run_dir / "tables", name, frame, markdown)
    figures = write_figures(store.run_dir / "figures", study.figures(tables, store.config))
    report = study.report(tables, store.config, figures)
    atomic_write(store.run_dir / "report.md", lambda tmp: tmp.write_text(report))
    write_extra_outputs(study, store.run_dir, store.config, tables, inputs, options)
    return tables


def write_extra_outputs(
    study: Study, run_dir: Path, config, tables: Mapping, inputs=None, options: Mapping | None = None
) -> list[Path]:
    """Write the study's ``outputs`` into ``run_dir`` (each atomically; None writes nothing).

    Parameters:
        config: the run's config.
        tables: its summary tables by name.

    Returns the files written.
    """
    written = []
    for name, make in study.outputs.items():
        text = make(tables, config, inputs, dict(options or {}))
        if text is not None:
            atomic_write(Path(run_dir) / name, lambda tmp, text=text: tmp.write_text(text, encoding="utf-8"))
            written.append(Path(run_dir) / name)
    return written
