"""Everleaf Gaming (and Partouche, on its software) hand histories, 2009 to 2012: PartyPoker's
grammar (``engine.sites.party``) but for a few spellings, rewritten into it before it reads them.

``Everleaf Gaming Game #ID`` then ``***** Hand history for game #ID *****`` (Partouche: ``***
Historique des Mains pour la partie ID ***``); ``Blinds $0.01/$0.02 NL Hold'em - DATE - TIME``
(the blinds named; a limit game writes its bets: ``$0.50/$1 Omaha Hi/Lo``); seats ``Seat N: NAME
(  $ 25 USD )`` (``( new player )``: no stack); ``NAME: posts small blind [$ 0.25 USD]`` and
``NAME: bets [...]`` with a colon, other verbs without; ``NAME wins $ X USD from main pot`` and
``NAME wins  high|low ($ X USD) from main pot``.
"""

from __future__ import annotations

import re

from engine.sites import party
from engine.sites.model import SiteHand, split_at

HEADER = re.compile(
    r"^(?:\*{5} Hand history for game #|\*{3} Historique des Mains pour la partie )(?P<id>\d+) \*+\s*$", re.M
)
_LEAD = re.compile(r"^(?:Everleaf Gaming.*Game #\d+|Partouche Poker.*)\s*$", re.M)
_COLON = re.compile(
    r"^(.+?): (posts|bets|calls|raises|folds|checks|shows|mucks|wins|is all-In|does not show|doesn't show)\b"
)
_DATE = re.compile(r"(\d{4})/(\d{2})/(\d{2}) - (\d{1,2}:\d{2}:\d{2})")


def split(text: str) -> list[tuple[int, str]]:
    return split_at(text, HEADER, _LEAD)


def parse(text: str) -> SiteHand:
    lines = [line.strip() for line in text.split("\n")]
    out = []
    for line in lines:
        header = HEADER.match(line)
        if header:
            out.append(f"***** Hand History for Game {header.group('id')} *****")
            continue
        if _LEAD.match(line):
            continue
        line = re.sub(r"^Blinds\s+(\S+\s*/\s*\S+)\s+", r"\1 Blinds ", line)  # the blinds named, as 888 writes them
        line = _COLON.sub(r"\1 \2", line)
        line = re.sub(r" wins\s+(?:high|low)\s+\(([^)]*)\)", r" wins \1", line)
        out.append(line)
    h = party.parse("\n".join(out))
    h.site = "Everleaf"
    date = _DATE.search(text)
    if date:
        h.time = f"{date.group(1)}/{date.group(2)}/{date.group(3)} {date.group(4)}"
    return h
