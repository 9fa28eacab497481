"""A table resolved once: the game, its betting, the blinds, the stacks and each seat's policy.

Play, fitting and record writing all start from a ``Table``, so each hand needs only its cards
(pokerkit's game objects hold their setup the same way). Blinds are 1 and 2 chips, the small
blind first in PHH seat order; stacks are in chips.

>>> from evaluator.games import game
>>> table = Table.from_options(game("pls7"), 6, policy="regular", stacks="50bb")
>>> table.seats, table.betting.kind, table.blinds, table.stacks[0], table.policies[0].name
(6, 'pot-limit', (1, 2, 0, 0, 0, 0), 100, 'regular')
>>> Table.from_options(game("holdem"), 3, policy="tight,loose").seats
Traceback (most recent call last):
...
evaluator.errors.SampyongError: --policy names 2 policies for 3 players: give one, or one per seat
"""

from __future__ import annotations

import dataclasses

import numpy as np

from engine.betting import Betting, default_betting, parse_betting
from engine.fast import Played, play_batch
from engine.hand import Hand
from engine.player import play_hand
from engine.policy import Policy, load_policy
from evaluator.errors import SampyongError
from evaluator.games import Game

BIG_BLIND = 2  # chips; the small blind is 1


@dataclasses.dataclass(frozen=True)
class Table:
    """Everything but the cards that decides how hands are played.

    Parameters:
        game: the rules (``evaluator.games.Game``).
        betting: the betting structure.
        policies: one per seat, in PHH seat order (the small blind first, the button last).
        stacks: each seat's chips at the start of every hand.
    """

    game: Game
    betting: Betting
    policies: tuple[Policy, ...]
    stacks: tuple[int, ...]

    @classmethod
    def from_options(
        cls, game: Game, players: int, policy: str | None = None, stacks: str | None = None, betting: str | None = None
    ) -> Table:
        """A table from ``sampyong run play``'s options: ``policy`` one name (or ``.toml`` file)
        for every seat or a comma list, one per seat (default ``regular``); ``stacks`` in big
        blinds (``100bb`` or ``100``, the default); ``betting`` a structure's name (default:
        the game's own). ``SampyongError`` for anything else."""
        game.check_players(players)
        names = [n.strip() for n in (policy or "regular").split(",")]
        if len(names) == 1:
            names *= players
        if len(names) != players:
            raise SampyongError(
                f"--policy names {len(names)} policies for {players} players: give one, or one per seat"
            )
        return cls(
            game,
            parse_betting(betting) if betting else default_betting(game),
            tuple(load_policy(n) for n in names),
            (stack_in_chips(stacks),) * players,
        )

    @property
    def seats(self) -> int:
        return len(self.stacks)

    @property
    def blinds(self) -> tuple[int, ...]:
        return (1, BIG_BLIND) + (0,) * (self.seats - 2)

    @property
    def needs_ranking(self) -> bool:
        """Whether some seat's policy reads preflop percentiles (a ``thresholds`` policy)."""
        return any(p.style == "thresholds" for p in self.policies)

    def play(self, cards: np.ndarray, keys: np.ndarray, ranks: np.ndarray, **options) -> Played:
        """Hands dealt by ``engine.player.deal_hands`` played by the fast engine (``ranks``: each
        seat's percentile; ``options``: ``play_batch``'s ``highs``, ``lows``, ``keep_actions`` and
        ``ranking``, the ``HandRanking`` the percentiles come from, which ``postflop.ranges`` reads)."""
        return play_batch(
            self.game,
            self.betting,
            list(self.policies),
            list(self.stacks),
            list(self.blinds),
            cards,
            keys,
            ranks,
            **options,
        )

    def play_hand(self, cards, key: int, percentile) -> Hand:
        """One dealt hand played by the reference engine (``percentile(hole)``: a hand's percentile)."""
        return play_hand(
            self.game, self.betting, list(self.policies), list(self.stacks), list(self.blinds), cards, key, percentile
        )


def stack_in_chips(text: str | None) -> int:
    """A stack given in big blinds (``100bb`` or ``100``; default 100) in chips.

    >>> stack_in_chips("40bb"), stack_in_chips(None), stack_in_chips("2.5")
    (80, 200, 5)
    """
    raw = text
    text = (text or "100bb").strip().lower().removesuffix("bb")
    try:
        value = float(text)
    except ValueError:
        raise SampyongError(f"bad --stacks {raw!r}: write big blinds, e.g. 100bb") from None
    if not 1 <= value <= 100_000 or value * BIG_BLIND != int(value * BIG_BLIND):
        raise SampyongError(f"bad --stacks {raw!r}: 1 to 100,000 big blinds, in whole chips (half big blinds)")
    return int(value * BIG_BLIND)
