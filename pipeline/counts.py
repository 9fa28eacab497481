"""Human counts on the command line: ``1e6``, ``200M``, ``1_000_000``, ``2.5k``.

>>> [parse_count(t) for t in ("1e6", "200M", "1_000_000", "2.5k", "1G")]
[1000000, 200000000, 1000000, 2500, 1000000000]
>>> parse_count("1e30", "deal count", at_most=10**15)
Traceback (most recent call last):
...
evaluator.errors.SampyongError: bad deal count '1e30': at most 1,000,000,000,000,000
"""

from __future__ import annotations

import re
from decimal import Decimal

from evaluator.errors import SampyongError

_SUFFIX = {"": 1, "k": 10**3, "m": 10**6, "g": 10**9, "b": 10**9}
_COUNT = re.compile(r"^\s*([0-9][0-9_]*(?:\.[0-9]+)?(?:e[0-9]{1,4})?)\s*([kmgb]?)\s*$", re.IGNORECASE)


def parse_count(text: str | int, what: str = "count", at_most: int | None = None) -> int:
    """Read a positive whole number from text like ``1e6``, ``200M`` or ``1_000_000``.

    The text is read exactly (no float rounding); ``k``, ``M``, ``G`` (or ``B``) multiply by a
    thousand, a million, a billion, in either case.

    >>> parse_count("2.5e3"), parse_count(7)
    (2500, 7)

    Parameters:
        text: the text, or an int taken as it is.
        what: what the number is, for the error message (``deal count``).
        at_most: the largest value allowed (None: no limit).

    Returns the number. Raises ``SampyongError`` if the text is not such a number, is not whole, is
    not positive or is over ``at_most``; the message names ``what`` and the text.
    """
    if isinstance(text, int):
        value = text
    else:
        match = _COUNT.match(str(text))
        if not match:
            raise SampyongError(f"bad {what} {text!r}: write a positive number like 1e6, 200M or 1_000_000")
        number = Decimal(match.group(1).replace("_", "")) * _SUFFIX[match.group(2).lower()]
        if number != number.to_integral_value():
            raise SampyongError(f"bad {what} {text!r}: must be a whole number")
        value = int(number)
    if value <= 0:
        raise SampyongError(f"bad {what} {text!r}: must be positive")
    if at_most is not None and value > at_most:
        raise SampyongError(f"bad {what} {text!r}: at most {at_most:,}")
    return value
