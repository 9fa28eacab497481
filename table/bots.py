"""The bots a table server may seat: which policies, and the ranking they read.

>>> Bots().names()
['showdown']
>>> Bots().policy("../etc/passwd")
Traceback (most recent call last):
...
evaluator.errors.SampyongError: unknown bot policy '../etc/passwd'; this server's: showdown
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from engine.policy import Policy, builtin, builtin_names, load_policy
from evaluator.errors import SampyongError

NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")


@dataclasses.dataclass(frozen=True)
class Bots:
    """What a server's bots may play: the built-in policies and the ``.toml`` files of ``folder``,
    by name (no other path: a table's creator cannot make the server read its files).

    Parameters:
        ranking_of: ``game -> percentile(hole)`` for policies that read preflop percentiles
            (``thresholds``); without it only the others can be seated.
        folder: a folder of policy files the operator offers, or None.
    """

    ranking_of: object = None
    folder: Path | None = None

    def names(self) -> list[str]:
        files = sorted(f.stem for f in self.folder.glob("*.toml")) if self.folder else []
        return [n for n in builtin_names() if self.ranking_of or builtin(n).style != "thresholds"] + files

    def policy(self, name) -> Policy:
        """The policy called ``name`` (``SampyongError`` for any other name, or one this server
        cannot play for want of a ranking)."""
        file = self.folder / f"{name}.toml" if self.folder and isinstance(name, str) else None
        if isinstance(name, str) and NAME.fullmatch(name) and name in builtin_names():
            policy = builtin(name)
        elif file is not None and NAME.fullmatch(name) and file.is_file():
            policy = load_policy(str(file))
        else:
            raise SampyongError(f"unknown bot policy {name!r}; this server's: {', '.join(self.names())}")
        if policy.style == "thresholds" and self.ranking_of is None:
            raise SampyongError(f"policy {name!r} reads preflop percentiles, and this server has no ranking")
        return policy

    def percentile(self, policy: Policy, game):
        """What ``policy`` reads a starting hand's strength with, in ``game``."""
        return self.ranking_of(game) if policy.style == "thresholds" else (lambda hole: 0.5)
