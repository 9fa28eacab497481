"""Poker sites' hand histories read into one hand model (``model``) and converted to PHH records
(``convert``), one small module per site format.

``read(path)`` decodes a file (a byte-order mark, UTF-16, UTF-8 or Windows-1252; any line
endings), finds its site from its text (or takes ``site``), cuts it into hands and converts each,
returning the records and the hands skipped with their reasons.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from engine.sites import (
    bovada,
    everleaf,
    fulltilt,
    ipoker,
    kingsclub,
    merge,
    microgaming,
    ongame,
    party,
    stars,
    winamax,
)
from engine.sites.convert import PARTIAL, Skip, convert
from evaluator.errors import SampyongError

# Site name -> module, in the order detection tries them (the first whose header is found wins).
MODULES = {
    "ipoker": ipoker,
    "merge": merge,
    "microgaming": microgaming,
    "winamax": winamax,
    "bovada": bovada,
    "fulltilt": fulltilt,
    "party": party,
    "everleaf": everleaf,
    "ongame": ongame,
    "stars": stars,
    "kingsclub": kingsclub,
}
SITE_NAMES = tuple(MODULES)


@dataclasses.dataclass(frozen=True)
class Skipped:
    """A hand not converted: where it is, its id, and why (``convert.REASONS``) in one line."""

    path: str
    line: int
    hand_id: str
    reason: str
    detail: str = ""

    def __str__(self) -> str:
        detail = f" ({self.detail})" if self.detail else ""
        return f"{self.path}:{self.line} hand {self.hand_id}: {self.reason}{detail}"


@dataclasses.dataclass
class FileResult:
    """One site file converted: its site, the PHH fields of each hand converted, and the hands skipped."""

    path: str
    site: str
    records: list[dict]
    skipped: list[Skipped]


def decode(data: bytes) -> str:
    """A site file's text: UTF-8 or UTF-16 by their byte-order marks, else UTF-8, else
    Windows-1252; line endings made ``\\n``.

    >>> decode(b"\\xef\\xbb\\xbfA\\r\\nB"), decode("é".encode("utf-16")), decode(b"\\x80 5")
    ('A\\nB', 'é', '€ 5')
    """
    if data.startswith(b"\xef\xbb\xbf"):
        text = data[3:].decode("utf-8", errors="replace")
    elif data.startswith((b"\xff\xfe", b"\xfe\xff")):
        text = data.decode("utf-16", errors="replace")
    else:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            text = data.decode("cp1252", errors="replace")
    return text.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "").replace("\ufeff", "")


def detect(text: str) -> str | None:
    """The site whose hand header the text holds, or None."""
    for name, module in MODULES.items():
        if module.split(text):
            return name
    return None


def read(path: str | Path, site: str | None = None) -> FileResult:
    """Convert every hand of one site file (``SampyongError`` if it cannot be read, or no site's
    hands are found in it)."""
    path = Path(path)
    try:
        text = decode(path.read_bytes())
    except OSError as error:
        raise SampyongError(f"cannot read {path}: {error.strerror}") from None
    return read_text(text, str(path), site)


def read_text(text: str, path: str = "<text>", site: str | None = None) -> FileResult:
    """Convert every hand of a site file's text (see ``read``)."""
    if site is not None and site not in MODULES:
        raise SampyongError(f"unknown site {site!r}; choose one of {', '.join(MODULES)}")
    name = site or detect(text)
    if name is None:
        raise SampyongError(f"{path}: no hand of a known site ({', '.join(MODULES)}) found")
    module = MODULES[name]
    result = FileResult(path, name, [], [])
    for line, chunk in module.split(text):
        hand_id = "?"
        try:
            hand = module.parse(chunk)
            hand_id = hand.hand_id
            result.records.append(convert(hand))
        except Skip as skip:
            result.skipped.append(Skipped(path, line, hand_id, skip.reason, skip.detail))
        except (ValueError, KeyError, IndexError, AttributeError, TypeError, ArithmeticError) as error:
            result.skipped.append(Skipped(path, line, hand_id or _first_id(chunk), PARTIAL, f"unreadable: {error}"))
    return result


def _first_id(chunk: str) -> str:
    match = re.search(r"#\s*([\w-]+)", chunk)
    return match.group(1) if match else "?"
