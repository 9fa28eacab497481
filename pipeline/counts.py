"""Human counts on the command line: ``1e6``, ``200M``, ``1_000_000``, ``2.5k``.

>>> [parse_count(t) for t in ("1e6", "200M", "1_000_000", "2.5k", "1G")]
[1000000, 200000000, 1000000, 2500, 1000000000]
"""

from __future__ import annotations

import re

from evaluator.errors import SampyongError

_SUFFIX = {"": 1, "k": 10**3, "m": 10**6, "g": 10**9, "b": 10**9}
_COUNT = re.compile(r"^\s*([0-9][0-9_]*(?:\.[0-9]+)?(?:e[0-9]+)?)\s*([kmgb]?)\s*$", re.IGNORECASE)


def parse_count(text: str | int, what: str = "count") -> int:
    """A positive whole number from text; anything else is an error naming ``what``."""
    if isinstance(text, int):
        value = text
    else:
        match = _COUNT.match(str(text))
        if not match:
            raise SampyongError(f"bad {what} {text!r}: write a positive number like 1e6, 200M or 1_000_000")
        number = float(match.group(1).replace("_", "")) * _SUFFIX[match.group(2).lower()]
        if number != int(number):
            raise SampyongError(f"bad {what} {text!r}: must be a whole number")
        value = int(number)
    if value <= 0:
        raise SampyongError(f"bad {what} {text!r}: must be positive")
    return value
