"""``grid.html``: one self-contained page to explore a grid run (no network: the script and the
style are inline, the data is a JSON island).

Hold'em shows the familiar 13x13 (pairs on the diagonal, suited above it, offsuit below);
three-card games show one panel per top card, a cell per pair of lower ranks, and inside each
cell one box per suit pattern (``aab``: the two highest cards suited), 1,755 boxes in all.
The page colours the boxes by the column a person picks, shows every number on hover, finds a
class by name (``AKQ aab``) or by cards (``As Ks Qh``), highlights the top N % with a slider
and prints that range in ``evaluator.ranges`` syntax, and highlights a range typed in.
"""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl

from evaluator.errors import SampyongError
from pipeline.store import RunStore, atomic_write
from solver.grid_page import COLOR_STOPS, PAGE

RATE_COLUMNS = ("equity_high", "equity_hilo", "equity", "win", "tie", "scoop")


def color(value: float, low: float, high: float) -> tuple[int, int, int]:
    """The colour of ``value`` on the scale from ``low`` to ``high`` (the page's formula).

    >>> color(0.0, 0.0, 1.0), color(1.0, 0.0, 1.0), color(0.5, 0.0, 1.0)
    ((68, 1, 84), (253, 231, 37), (33, 145, 140))
    """
    t = 0.0 if high <= low else min(max((value - low) / (high - low), 0.0), 1.0)
    x = t * (len(COLOR_STOPS) - 1)
    i = min(int(x), len(COLOR_STOPS) - 2)
    f = x - i
    a, b = COLOR_STOPS[i], COLOR_STOPS[i + 1]
    return tuple(round(a[k] + (b[k] - a[k]) * f) for k in range(3))


def grid_data(grid: pl.DataFrame, config) -> dict:
    """The page's data: the game, the rate columns, and per class its numbers (rates as fractions)."""
    if {"win", "tie", "lose"} <= set(grid.columns):  # exact grids count deals: show rates
        total = (pl.col("win") + pl.col("tie") + pl.col("lose")).cast(pl.Float64)
        grid = grid.with_columns((pl.col("win") / total).alias("win"), (pl.col("tie") / total).alias("tie"))
    columns = [c for c in RATE_COLUMNS if c in grid.columns]
    shown = ["class", "example", "combos", *columns, *[c for c in grid.columns if c.endswith("_se") or c == "hands"]]
    rows = grid.select([c for c in dict.fromkeys(shown) if c in grid.columns]).to_dicts()
    hole = len(rows[0]["example"].split())
    return {
        "game": config.game,
        "players": config.players,
        "hole_cards": hole,
        "columns": columns,
        "classes": rows,
        "stops": COLOR_STOPS,
        "title": f"{config.game}: {config.players}-handed grid ({config.run_id})",
    }


def grid_page(tables: dict, config, inputs=None, options=None) -> str:
    """``grid.html`` of a grid run, from its ``grid`` table: the grid study's extra output."""
    data = grid_data(tables["grid"], config)
    return PAGE.replace("__TITLE__", data["title"]).replace("__DATA__", json.dumps(data).replace("</", "<\\/"))


def write_grid_view(run_dir: Path) -> Path:
    """Write ``RUN_DIR/grid.html`` from the run's ``tables/grid.parquet``; return its path."""
    config = RunStore.read_config(run_dir)
    table = Path(run_dir) / "tables" / "grid.parquet"
    if config.job != "grid" or not table.is_file():
        raise SampyongError(f"{run_dir} has no tables/grid.parquet: a finished grid run has")
    page = grid_page({"grid": pl.read_parquet(table)}, config)
    path = Path(run_dir) / "grid.html"
    atomic_write(path, lambda tmp: tmp.write_text(page, encoding="utf-8"))
    return path
