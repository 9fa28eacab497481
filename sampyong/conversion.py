"""``sy.convert`` (``sampyong convert``): poker sites' hand histories to PHH records, every hand
checked by the engine on the way (``engine.sites``, imported at first use: the light commands must not load the engine's
kernels)."""

from __future__ import annotations

import dataclasses
from collections import Counter
from pathlib import Path

from evaluator.errors import SampyongError

NOT_HISTORIES = (".hp", ".phh", ".phhs", ".md", ".json", ".toml", ".png", ".parquet", ".csv")


@dataclasses.dataclass(frozen=True)
class Conversion:
    """Site files converted (``sy.convert``).

    Parameters:
        files: one ``engine.sites.FileResult`` per file read: its site, the PHH fields of each
            hand converted, the hands skipped (``engine.sites.Skipped``: file, line, hand id, reason).
        written: the ``.phhs`` files written, one per input file with a hand converted.
        unread: files in which no known site's hands were found.

    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "h.txt"
    >>> _ = path.write_text(_EXAMPLE)
    >>> convert(path).table().row(0)
    ('stars', 1, 1, 1)
    """

    files: tuple
    written: tuple = ()
    unread: tuple = ()

    @property
    def converted(self) -> int:
        return sum(len(f.records) for f in self.files)

    @property
    def skipped(self) -> list:
        """Every hand skipped, in file order (``engine.sites.Skipped``: ``str()`` is its one line)."""
        return [s for f in self.files for s in f.skipped]

    @property
    def summary(self) -> str:
        """One line: hands, converted, skipped by reason.

        >>> Conversion(()).summary
        '0 hands: 0 converted, 0 skipped'
        """
        from engine.sites.convert import REASONS

        reasons = Counter(s.reason for s in self.skipped)
        hands = self.converted + len(self.skipped)
        line = f"{hands:,} hands: {self.converted:,} converted, {len(self.skipped):,} skipped"
        if reasons:
            line += " (" + ", ".join(f"{r} {reasons[r]:,}" for r in REASONS if reasons[r]) + ")"
        if self.unread:
            line += f"; {len(self.unread):,} file(s) with no hand of a known site"
        return line

    def table(self, by=lambda result: result.site):
        """A row per group of files (``by(file_result)``, default the site module): files, hands,
        converted, and a column per reason for a skip."""
        import polars as pl

        from engine.sites.convert import REASONS

        rows: dict = {}
        for result in self.files:
            row = rows.setdefault(by(result), {"files": 0, "hands": 0, "converted": 0, **dict.fromkeys(REASONS, 0)})
            row["files"] += 1
            row["hands"] += len(result.records) + len(result.skipped)
            row["converted"] += len(result.records)
            for skip in result.skipped:
                row[skip.reason] += 1
        frame = pl.DataFrame([{"site": key, **row} for key, row in rows.items()])
        return frame.select(
            [c for c in frame.columns if c in ("site", "files", "hands", "converted") or frame[c].sum()]
        )


def site_files(paths) -> list[Path]:
    """The files of ``paths`` (files, or folders searched for every file but records, statistics and
    documents); ``SampyongError`` for a path that does not exist."""
    files = []
    for path in map(Path, paths):
        if path.is_dir():
            files += sorted(
                p
                for p in path.rglob("*")
                if p.is_file() and p.suffix.lower() not in NOT_HISTORIES and not p.name.startswith(".")
            )
        elif path.is_file():
            files.append(path)
        else:
            raise SampyongError(f"cannot read {path}: no such file or folder")
    return files


def convert(paths, out: str | Path | None = None, site: str | None = None, strict: bool = False) -> Conversion:
    """Convert poker sites' hand histories (files, or folders of them) to PHH: each hand is played
    through the engine and kept only when its finishing stacks are the site's (less the rake the
    site took from the winners); the others are skipped, each with a one-line reason. With ``out``,
    each file's hands are written to ``OUT/<file name>.phhs`` (every file converted before one is
    written). ``site`` forces the site module (``engine.sites.SITE_NAMES``); ``strict`` makes the
    first skipped hand a ``SampyongError`` (exit 2), naming it.

    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = folder.joinpath("h.txt").write_text(_EXAMPLE)
    >>> result = convert(folder, out=folder / "phh")
    >>> result.summary, [p.name for p in result.written]
    ('1 hands: 1 converted, 0 skipped', ['h.txt.phhs'])
    >>> from engine import phh, record_files
    >>> phh.replay(record_files.load_paths([folder / "phh"]).__next__()).status.value
    'match'
    """
    from engine import phh, sites

    if site is not None and site not in sites.MODULES:
        raise SampyongError(f"unknown site {site!r}; choose one of {', '.join(sites.MODULES)}")
    files = site_files([paths] if isinstance(paths, (str, Path)) else list(paths))
    if not files:
        raise SampyongError("no files to convert")
    results, unread = [], []
    for file in files:
        try:
            data = file.read_bytes()
        except OSError as error:
            raise SampyongError(f"cannot read {file}: {error.strerror or error}") from None
        text = sites.decode(data)
        if site is None and sites.detect(text) is None:
            unread.append(file)
            continue
        result = sites.read_text(text, str(file), site)
        if strict and result.skipped:
            raise SampyongError(f"--strict: {result.skipped[0]}")
        results.append(result)
    if not results:
        raise SampyongError(f"no hand of a known site ({', '.join(sites.MODULES)}) in {len(files)} file(s)")
    written = []
    if out is not None:
        from pipeline.store import atomic_write

        out = Path(out)
        out.mkdir(parents=True, exist_ok=True)
        names: set[str] = set()
        for result in results:
            if not result.records:
                continue
            path = Path(result.path)
            name, parent = path.name, path.parent
            while name in names:  # two files of one name in different folders
                name, parent = f"{parent.name}-{name}", parent.parent
            names.add(name)
            text = "\n".join(f"[{i}]\n{phh.write_fields(fields)}" for i, fields in enumerate(result.records, 1))
            atomic_write(out / f"{name}.phhs", lambda tmp, text=text: tmp.write_text(text, encoding="utf-8"))
            written.append(out / f"{name}.phhs")
    return Conversion(tuple(results), tuple(written), tuple(unread))


_EXAMPLE = """PokerStars Hand #1:  Hold'em No Limit ($0.01/$0.02 USD) - 2020/01/01 10:00:00 ET
Table 'Example' 6-max Seat #1 is the button
Seat 1: Ann ($2 in chips)
Seat 2: Bo ($2 in chips)
Seat 3: Cy ($2 in chips)
Bo: posts small blind $0.01
Cy: posts big blind $0.02
*** HOLE CARDS ***
Ann: raises $0.04 to $0.06
Bo: folds
Cy: calls $0.04
*** FLOP *** [2c 7d Kh]
Cy: checks
Ann: bets $0.10
Cy: folds
Uncalled bet ($0.10) returned to Ann
Ann collected $0.13 from pot
*** SUMMARY ***
Total pot $0.13 | Rake $0
"""
