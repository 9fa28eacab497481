"""Playing (``sampyong policies``, ``tune``; ``sy.play``): the policies listed, one hand
played by the reference engine, a policy tuned by self-play."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import TYPE_CHECKING, Any

from evaluator.errors import SampyongError
from sampyong.rankings import ranking

if TYPE_CHECKING:
    import polars as pl


def policies(name: str | None = None) -> pl.DataFrame:
    """The built-in player policies, or the one ``name`` gives (built-in or a ``.toml`` file,
    checked): ``name, style, description, toml`` (the policy's file as written).

    >>> policies("station").select("name", "style").row(0)
    ('station', 'thresholds')
    """
    import polars as pl

    from engine.policy import builtin_names, builtin_text, load_policy

    names = builtin_names() if name is None else [name]
    rows = []
    for known in names:
        policy = load_policy(known)
        text = builtin_text(known) if known in builtin_names() else Path(known).read_text(encoding="utf-8")
        rows.append({"name": policy.name, "style": policy.style, "description": policy.description, "toml": text})
    return pl.DataFrame(
        rows, schema={"name": pl.String, "style": pl.String, "description": pl.String, "toml": pl.String}
    )


def play(
    game: str = "pls7",
    *,
    players: int = 6,
    policy: str | None = None,
    stacks: str | None = None,
    betting: str | None = None,
    seed: int = 0,
):
    """One hand dealt from ``seed`` and played by the reference engine at the table ``sampyong run
    play`` sets with the same options; the finished ``engine.hand.Hand``, with its ``actions``
    (PHH notation), ``board``, ``hole`` cards, ``pot`` and ``finishing_stacks``.

    >>> hand = play("holdem", players=2, policy="station", seed=3)
    >>> hand.done, sum(hand.finishing_stacks) == sum(hand.starting_stacks)
    (True, True)
    >>> hand.actions[:2]
    ['d dh p1 ...', 'd dh p2 ...']
    """
    import numpy as np

    from engine.player import deal_hands
    from engine.table import Table
    from evaluator.games import game as preset

    rules = preset(game)
    table = Table.from_options(rules, players, policy=policy, stacks=stacks, betting=betting)
    cards, keys = deal_hands(np.random.default_rng(seed), 1, table.seats, rules)
    percentile = ranking(rules) if table.needs_ranking else (lambda hole: 0.5)
    return table.play_hand(cards[0], keys[0], percentile)


@dataclasses.dataclass(frozen=True)
class Tuned:
    """A policy tuned by self-play (``sy.tune``).

    Parameters:
        policy: the tuned ``engine.policy.Policy``.
        rounds: each round (``engine.tune.Round``): the best response's gain against the field in
            big blinds per 100 hands, ± its standard error, on fresh deals.
        toml: the policy as a TOML file, the rounds in comments.
        converged: whether the last best response gained less than the margin + 2 SE.

    >>> tuned = tune("holdem", players=2, start="regular", rounds=1, trials=4, hands=200)
    >>> tuned.policy.name, tuned.frame.columns
    ('tuned-holdem', ['round', 'gain', 'gain_se', 'search_gain', 'trials'])
    """

    policy: Any
    rounds: tuple
    toml: str
    converged: bool

    @property
    def frame(self) -> pl.DataFrame:
        """A row per round: ``round, gain, gain_se, search_gain, trials``."""
        import polars as pl

        return pl.DataFrame(
            [dataclasses.asdict(r) for r in self.rounds],
            schema={
                "round": pl.Int64,
                "gain": pl.Float64,
                "gain_se": pl.Float64,
                "search_gain": pl.Float64,
                "trials": pl.Int64,
            },
        )


def tune(
    game: str = "pls7",
    *,
    players: int = 6,
    start: str = "pro-like",
    field: str | None = None,
    rounds: int = 3,
    trials: int = 60,
    hands: str | int = "4k",
    seed: int = 0,
    margin: float = 1.0,
    name: str | None = None,
    log=None,
) -> Tuned:
    """Tune a policy by self-play (``sampyong tune``): from ``start``, each round searches every knob
    for the best response to the field (``field``, default ``start``; then the last best
    response) by CMA-ES, each of ``trials`` candidates scored by a duplicate match on ``hands``
    common deals, until the best response gains less than ``margin`` bb/100 + 2 SE on fresh
    deals or ``rounds`` run out (``engine.tune``). The same arguments give the same policy.
    ``log(line)`` hears each round.

    >>> tune("holdem", players=2, rounds=0)
    Traceback (most recent call last):
    ...
    evaluator.errors.SampyongError: rounds must be at least 1, not 0
    """
    from engine.betting import default_betting
    from engine.policy import load_policy
    from engine.tune import tune as tune_policy
    from engine.tune import tuned_toml
    from evaluator.games import game as preset
    from pipeline.counts import parse_count

    rules = preset(game)
    rules.check_players(players)
    if not 2 <= rules.hole_cards <= 4:
        raise SampyongError(
            f"tune ranks starting hands by the heads-up grid, which covers games of 2 to 4 hole cards; "
            f"{rules.name} has {rules.hole_cards}"
        )
    if rounds < 1:
        raise SampyongError(f"rounds must be at least 1, not {rounds}")
    if margin < 0:
        raise SampyongError(f"the margin cannot be negative, not {margin}")
    if trials < 4:
        raise SampyongError(f"tuning needs at least 4 trials a round, not {trials}")
    deals = parse_count(str(hands), "hand count", at_most=10**7)
    label = name or f"tuned-{rules.name}"
    begin = dataclasses.replace(
        load_policy(start), name=label, description=f"tuned by self-play at {rules.name}, {players} players"
    )
    opponents = load_policy(field) if field else begin
    policy, history = tune_policy(
        rules,
        default_betting(rules),
        begin,
        opponents,
        players,
        ranking(rules),
        hands=deals,
        trials=trials,
        rounds=rounds,
        margin=margin,
        seed=seed,
        log=log or (lambda line: None),
    )
    policy = dataclasses.replace(policy, name=label, description=begin.description)
    last = history[-1]
    return Tuned(
        policy,
        tuple(history),
        tuned_toml(policy, history, rules, players, margin),
        last.gain < margin + 2 * last.gain_se,
    )
