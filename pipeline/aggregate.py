"""Sum the shards' count tables with polars and write the job's tables and report.

Count columns are unsigned 64-bit; every other column is a key. The sum does not depend on the
order shards finished in, so tables are bit-identical for any backend or worker count.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from pipeline.store import RunStore, atomic_write
from pipeline.study import Study

_COUNT_TYPES = (pl.UInt64, pl.UInt32, pl.Int64)


def sum_counts(files: list[Path]) -> pl.DataFrame:
    """One frame: the key columns and every count column summed over ``files``."""
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
    """A Markdown table of ``frame``: its columns as headers, floats to 6 significant digits.

    >>> print(markdown_table(pl.DataFrame({"game": ["pls7"], "hi_chop": [0.0705123]})), end="")
    | game | hi_chop |
    |---|---|
    | pls7 | 0.0705123 |
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
    """``name.parquet`` (the data), ``name.csv`` and ``name.md`` (for people), each atomically."""
    directory.mkdir(parents=True, exist_ok=True)
    atomic_write(directory / f"{name}.parquet", frame.write_parquet)
    atomic_write(directory / f"{name}.csv", frame.write_csv)
    atomic_write(directory / f"{name}.md", lambda tmp: tmp.write_text(markdown_table(frame)))


def build_outputs(study: Study, store: RunStore, manifest: dict[int, dict]) -> dict[str, pl.DataFrame]:
    """Aggregate the finished shards of ``store`` (those in ``manifest``) into ``tables/``,
    ``figures/`` and ``report.md`` with ``study``'s summaries; return the summary tables."""
    counts = {name: sum_counts(files) for name, files in store.table_files(manifest).items()}
    tables = study.summarize(counts, store.config)
    for name, frame in tables.items():
        write_table(store.run_dir / "tables", name, frame)
    figures = study.figures(tables, store.run_dir / "figures", store.config)
    report = study.report(tables, store.config, figures)
    atomic_write(store.run_dir / "report.md", lambda tmp: tmp.write_text(report))
    return tables
