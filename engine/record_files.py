"""The hands of record files, whatever wrote them: PHH (``engine.phh``) read as written, a poker
site's hand histories (``engine.sites``) converted as read, so that ``replay``, ``run records``
and ``fit`` take a user's hand-history folder as it is. Apart from ``engine.phh`` because the
site converters are themselves built on it."""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator
from pathlib import Path

from engine import phh
from evaluator.errors import SampyongError

SITE_SUFFIXES = (".txt", ".xml")  # a folder's poker-site hand histories, converted as read (``engine.sites``)


@contextlib.contextmanager
def in_bulk() -> Iterator[None]:
    """Python's cycle collector paused while records are read and replayed in bulk. A shard's
    thousands of records are a million small dicts and lists: every collection the allocations
    set off walks all of them again, some 40 % of a records shard's time, and they hold no
    cycle to collect (TOML's tables and arrays are trees, freed by their counts)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def record_files(paths) -> list[Path]:
    """The record files of ``paths`` (files, or folders searched for ``.phh``, ``.phhs`` and site hand
    histories, ``.txt`` and ``.xml``), in order; ``SampyongError`` for a path that does not exist."""
    files = []
    for path in paths:
        path = Path(path)
        if path.is_dir():
            files += sorted(p for p in path.rglob("*") if p.suffix in (".phh", ".phhs", *SITE_SUFFIXES) and p.is_file())
        elif path.is_file():
            files.append(path)
        else:
            raise SampyongError(f"cannot read {path}: no such file or folder")
    return files


def load_file(file: Path, data: bytes | None = None) -> list[phh.Record]:
    """The hands of one PHH file (``data``: its bytes, when the caller has read them), or of a poker
    site's hand-history file, converted by ``engine.sites`` (the hands it converts: each replays to
    the site's finishing stacks); ``SampyongError`` when it cannot be read or is neither."""
    try:
        if data is None:
            with open(file, "rb") as handle:  # bytes, then decoded: a third faster than Path.read_text on small files
                data = handle.read()
    except OSError as error:
        raise SampyongError(f"cannot read {file}: {getattr(error, 'strerror', None) or error}") from None
    try:
        return phh.loads(data.decode("utf-8"), str(file))
    except (UnicodeDecodeError, SampyongError) as error:
        if Path(file).suffix in (".phh", ".phhs"):
            if isinstance(error, UnicodeDecodeError):
                raise SampyongError(f"cannot read {file}: {error}") from None
            raise
        from engine import sites  # on first need: a folder of PHH never imports the converters

        text = sites.decode(data)
        if sites.detect(text) is None:
            raise SampyongError(
                f"{file}: not a PHH file nor a hand history of a known site ({', '.join(sites.MODULES)})"
            ) from None
        converted = sites.read_text(text, str(file))
        return [phh.Record(fields, str(file), number) for number, fields in enumerate(converted.records, 1)]


def load_paths(paths) -> Iterator[phh.Record]:
    """Every hand in ``paths`` (files, or folders searched for ``.phh`` and ``.phhs``), in order."""
    for file in record_files(paths):
        yield from load_file(file)
