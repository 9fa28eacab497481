"""``sy.replay`` (``sampyong replay``): hand records replayed through the engine, every action
checked legal and the finishing stacks compared with the record's."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import TYPE_CHECKING

from sampyong.examples import _example_record  # noqa: F401  (the doctests' record)

if TYPE_CHECKING:
    import polars as pl


@dataclasses.dataclass(frozen=True)
class Replays:
    """Hand records replayed through the engine (``sy.replay``).

    Parameters:
        results: one ``engine.phh.Replay`` per hand, in the order read: its ``record``,
            ``status`` (match, differ, illegal, skipped, no_record), ``finishing_stacks``,
            ``expected``, ``message``, the replayed ``hand`` and its writer's ``departures``
            from the rule book (``engine.departures``).

    >>> replay(_example_record()).frame.select("status", "variant").row(0)
    ('match', 'NT')
    """

    results: tuple

    @property
    def ok(self) -> bool:
        """No hand differs from its record or is illegal."""
        return not any(r.status.is_problem for r in self.results)

    @property
    def summary(self) -> str:
        """One line: hands, and how many match, differ, are illegal or are skipped (``engine.phh.summary``)."""
        from engine.phh import summary

        return summary(self.results)

    @property
    def frame(self) -> pl.DataFrame:
        """A row per hand: ``path, index, variant, status, message, departures`` (a list of kinds)."""
        import polars as pl

        columns = ("path", "index", "variant", "status", "message", "departures")
        return pl.DataFrame(
            [{key: r.as_json()[key] for key in columns} for r in self.results],
            schema={
                "path": pl.String,
                "index": pl.Int64,
                "variant": pl.String,
                "status": pl.String,
                "message": pl.String,
                "departures": pl.List(pl.String),
            },
        )

    def _repr_html_(self) -> str:
        return f"<p>{self.summary}</p>" + self.frame._repr_html_()


def replay(paths: str | Path | list) -> Replays:
    """Replay hand records (PHH files, ``.phhs``, or folders searched for them) through the engine
    (``sampyong replay``): is every action legal, and do the finishing stacks equal the record's?
    ``SampyongError`` when a path cannot be read or a file is not PHH.

    >>> result = replay(_example_record())
    >>> result.ok, result.summary
    (True, '1 hands: 1 match, 0 differ, 0 illegal, 0 skipped')
    """
    from engine.phh import replay as replay_one
    from engine.record_files import in_bulk, load_paths

    paths = [paths] if isinstance(paths, (str, Path)) else list(paths)
    with in_bulk():
        return Replays(tuple(replay_one(record) for record in load_paths([Path(p) for p in paths])))
