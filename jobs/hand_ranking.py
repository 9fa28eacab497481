"""Starting hands in the order of a game's exact heads-up grid, for ranges such as ``15%``.

The first use runs the exact grid study (``sampyong run grid --exact``: about 10 s for
hold'em and 75 s for a three-card game on 2 cores) into the cache folder; later uses read its
table. A class's strength is its hi-lo equity where the game has a low, else its high equity.
"""

from __future__ import annotations

import functools

import polars as pl

from evaluator.cards import iso_classes
from evaluator.errors import SampyongError
from evaluator.games import Game
from evaluator.ranges import top_percent
from evaluator.tables import cache_dir
from pipeline.plan import RunConfig


def _grid_config(game: Game) -> RunConfig:
    base = game.name.split("[")[0]
    knobs = {"hole_use": "-".join(map(str, game.hole_use)), "ranking": game.ranking.name,
             "low": str(game.low) if game.low is not None else "none"}
    return RunConfig(job="grid", game=base, deals=1, shard_deals=1, players=2, seed=0, **knobs)


@functools.lru_cache(maxsize=8)
def class_strengths(game: Game, quiet: bool = True) -> list[tuple[list[tuple[int, ...]], float]]:
    """Each starting-hand class of ``game``: its hands (sorted card tuples) and its equity
    against one random hand over all boards. ``SampyongError`` for a game the grid does not cover."""
    from jobs.grid import STUDY
    from pipeline.backends import RayBackend
    from pipeline.runner import execute

    if game.hole_cards not in (2, 3):
        raise SampyongError(f"top-% ranges need the exact grid, which covers 2- and 3-card games; {game.name} has {game.hole_cards}")
    config = _grid_config(game)
    STUDY.validate(config)
    config = STUDY.configure(config)
    table = cache_dir() / "grids" / "grid" / config.run_id / "tables" / "grid.parquet"
    if not table.is_file():
        execute(STUDY, config, RayBackend(), cache_dir() / "grids", quiet=quiet)
    grid = pl.read_parquet(table)
    key = "equity_hilo" if "equity_hilo" in grid.columns else "equity_high"
    hands, class_of, _ = iso_classes(game.hole_cards)
    members: list[list[tuple[int, ...]]] = [[] for _ in range(grid.height)]
    for hand, cls in zip(hands.tolist(), class_of.tolist()):
        members[cls].append(tuple(hand))
    return list(zip(members, grid[key].to_list()))


def top_provider(game: Game, quiet: bool = True):
    """A ``top(percent)`` for ``evaluator.ranges.parse_range``: the top N % of ``game``'s hands."""

    def top(percent: float) -> set[tuple[int, ...]]:
        return top_percent(class_strengths(game, quiet), percent)

    return top


