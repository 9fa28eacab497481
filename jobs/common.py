"""What the studies share: the game a run plays and the ``sampyong run`` options of a game."""

from __future__ import annotations

from evaluator.games import Game, resolve_game
from pipeline.plan import RunConfig
from pipeline.study import SAMPLING_OPTIONS

# The game and its knobs; a Monte Carlo study of a game also samples deals for some players.
GAME_OPTIONS = frozenset({"game", "hole_use", "ranking", "low"})
MONTE_CARLO_OPTIONS = GAME_OPTIONS | SAMPLING_OPTIONS | {"players"}


def game_of(config: RunConfig) -> Game:
    """The game a run plays: its preset turned by its knobs (``SampyongError`` if unknown).

    >>> game_of(RunConfig(job="showdown", game="pls7", deals=1, shard_deals=1, players=2, seed=0, low="8")).low
    8
    """
    return resolve_game(config.game, hole_use=config.hole_use, ranking=config.ranking, low=config.low)
