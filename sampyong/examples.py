"""Scratch folders and a one-hand hold'em record, for the doctests and the tests."""

from __future__ import annotations

from pathlib import Path


def _scratch() -> Path:
    """A temporary folder for the doctests."""
    import tempfile

    return Path(tempfile.mkdtemp(prefix="sampyong-doctest-"))


def _example_records(count: int) -> Path:
    """``count`` copies of the one-hand hold'em record in a ``.phhs``, for the doctests."""
    text = _example_record().read_text(encoding="utf-8")
    path = _scratch() / "hands.phhs"
    path.write_text("\n".join(f"[{i}]\n{text}" for i in range(1, count + 1)), encoding="utf-8")
    return path


def _example_record() -> Path:
    """A one-hand hold'em record in a temporary folder, for the doctests."""
    path = _scratch() / "hand.phh"
    path.write_text(
        """variant = "NT"
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [200, 200]
actions = ["d dh p1 AsKs", "d dh p2 7h2d", "p2 cbr 6", "p1 f"]
finishing_stacks = [198, 202]
""",
        encoding="utf-8",
    )
    return path
