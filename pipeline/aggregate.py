"""Sum the shards' count tables with polars and write the study's tables, figures and report.

Count columns are unsigned 64-bit; every other column is a key. The sum does not depend on the
order shards finished in, so tables are bit-identical for any backend or worker count. Every
file is written through ``pipeline.store.atomic_write``; figures are saved here and nowhere
else (a study returns matplotlib figures, and no backend is ever switched).
"""

from __future__ import annotations

import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

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

    :param files: Parquet files of one table, each with the same columns.
    :return: One frame: the key columns and every count column summed (``UInt64``).
    :raises OSError: If a file is missing or cannot be read.
    :raises polars.exceptions.PolarsError: If a file is not Parquet or the files' schemas differ.
    """
    frame = pl.scan_parquet([str(f) for f in files])
    schema = frame.collect_schema()
    keys = [name for name, dtype in schema.items() if dtype not in _COUNT_TYPES]
    counts = [name for name in schema if name not in keys]
    return (
        frame.group_by(keys)
        .agg([pl.col(c).cast(pl.UInt64).sum() for c in counts])
        .sort(keys)
        .collect()
    )


def markdown_table(frame: pl.DataFrame) -> str:
    """Render ``frame`` as a Markdown table: its columns as headers, floats to 6 significant digits.

    >>> print(markdown_table(pl.DataFrame({"game": ["pls7"], "hi_chop": [0.0705123]})), end="")
    | game | hi_chop |
    |---|---|
    | pls7 | 0.0705123 |

    :param frame: The table; any column types (each cell is ``str()`` but floats).
    :return: The Markdown lines, each ending in a newline.
    :raises: Nothing.
    """

    def cell(value) -> str:
        if isinstance(value, float):
            return f"{value:.6g}"
        return str(value)

    header = "| " + " | ".join(frame.columns) + " |"
    rule = "|" + "|".join("---" for _ in frame.columns) + "|"
    rows = ["| " + " | ".join(cell(v) for v in row) + " |" for row in frame.iter_rows()]
    return "\n".join([header, rule, *rows]) + "\n"


def write_table(directory: Path, name: str, frame: pl.DataFrame) -> None:
    """Write ``name.parquet`` (the data), ``name.csv`` and ``name.md`` (for people), each atomically.

    >>> import tempfile
    >>> scratch = tempfile.TemporaryDirectory()
    >>> folder = Path(scratch.name) / "tables"
    >>> write_table(folder, "flips", pl.DataFrame({"side": ["heads"], "n": [7]}))
    >>> sorted(p.name for p in folder.iterdir()), (folder / "flips.csv").read_text()
    (['flips.csv', 'flips.md', 'flips.parquet'], 'side,n\\nheads,7\\n')
    >>> scratch.cleanup()

    :param directory: The folder, created if missing.
    :param name: The file name without its suffix.
    :param frame: The table.
    :return: None.
    :raises OSError: If the folder or a file cannot be written (no partial file is left).
    """
    directory.mkdir(parents=True, exist_ok=True)
    atomic_write(directory / f"{name}.parquet", frame.write_parquet)
    atomic_write(directory / f"{name}.csv", frame.write_csv)
    atomic_write(directory / f"{name}.md", lambda tmp: tmp.write_text(markdown_table(frame)))


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

    :param directory: The folder, created when there is a figure to save.
    :param figures: Name (a file name without ``.png``) to figure or PNG file.
    :return: The file names written (``NAME.png``), in the order of ``figures``.
    :raises ValueError: If a name is empty, holds a path separator or ends in ``.png``.
    :raises OSError: If the folder or a file cannot be written or a PNG to copy cannot be read
        (no partial file is left).
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


def build_outputs(study: Study, store: RunStore, manifest: dict[int, dict]) -> dict[str, pl.DataFrame]:
    """Aggregate a run's finished shards into ``tables/``, ``figures/`` and ``report.md``.

    The shards' count tables are summed (``sum_counts``) and handed to ``study.summarize``;
    each summary is written by ``write_table``, each of ``study.figures``' figures by
    ``write_figures``, and ``study.report``, given the figures' file names, becomes
    ``report.md``.

    :param study: The study the run belongs to.
    :param store: The run directory.
    :param manifest: The finished shards to sum (``RunStore.read_manifest`` or
        ``finished_shards``): shard index to manifest entry.
    :return: The summary tables by name, as written.
    :raises OSError: If a shard file is missing or a file cannot be written.
    :raises polars.exceptions.PolarsError: If a shard file is not Parquet.
    """
    counts = {name: sum_counts(files) for name, files in store.table_files(manifest).items()}
    tables = study.summarize(counts, store.config)
    for name, frame in tables.items():
        write_table(store.run_dir / "tables", name, frame)
    figures = write_figures(store.run_dir / "figures", study.figures(tables, store.config))
    report = study.report(tables, store.config, figures)
    atomic_write(store.run_dir / "report.md", lambda tmp: tmp.write_text(report))
    return tables
