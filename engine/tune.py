"""Tune a policy by self-play: the best response within the policy family, again and again.

``sampyong tune --game pls7 --players 6 --start pro-like [--field pro-like] [--rounds K]`` searches
every knob of a ``thresholds`` policy file (``KNOBS``: the preflop shares, limping and the
opening size; the postflop betting threshold, calling factor and bet size; the start policy
keeps its hand-strength samples and its ``ranges``, the model it reads hands with) for the policy that
wins most against the field. A candidate is scored by a **duplicate match** on common deals
(``score``): it sits at one seat and the field at the others, every deal played once with the
candidate at each seat, so the luck of the cards cancels and every candidate meets the same
hands. The search is CMA-ES (the ``cma`` package) over the knobs scaled to [0, 1], its seed
fixed, so a rerun gives the same policy.

The best response is then scored again on fresh deals (the search's own deals flatter it), and
made the field of the next round, until it gains less than ``margin`` big blinds per 100 hands
plus two standard errors, or the rounds run out. The last round's gain is how far the tuned
policy is from one its own players could not improve on, within the family.

>>> from engine.policy import builtin
>>> policy = policy_at(builtin("regular"), vector_of(builtin("regular")))
>>> policy.preflop.open_late, policy.postflop.call_factor
(0.35, 1.0)
"""

from __future__ import annotations

import dataclasses

import numpy as np

from engine.betting import Betting
from engine.player import deal_hands
from engine.policy import Policy, tables_toml  # builtin: the doctest
from engine.ranking import HandRanking
from engine.table import BIG_BLIND, Table
from evaluator.errors import SampyongError
from evaluator.games import Game

# Every knob a thresholds policy has but its sample count, with the range searched.
KNOBS = (
    ("preflop", "open_early", 0.0, 1.0),
    ("preflop", "open_late", 0.0, 1.0),
    ("preflop", "call", 0.0, 1.0),
    ("preflop", "overcall", 0.0, 1.0),
    ("preflop", "reraise", 0.0, 1.0),
    ("preflop", "call_reraised", 0.0, 1.0),
    ("preflop", "limp", 0.0, 1.0),
    ("preflop", "open_size", 0.25, 2.0),
    ("postflop", "bet", 0.0, 1.0),
    ("postflop", "call_factor", 0.0, 4.0),
    ("postflop", "bet_size", 0.25, 2.0),
)


def vector_of(policy: Policy, knobs=KNOBS) -> np.ndarray:
    """The policy's ``knobs`` (``(section, knob, low, high)``) scaled to [0, 1] (limping is 0 or 1)."""
    values = [
        float(policy.postflop.resolved(knob) if section == "postflop" else getattr(policy.preflop, knob))
        for section, knob, _, _ in knobs
    ]
    return np.array([min(max((v - low) / (high - low), 0.0), 1.0) for v, (_, _, low, high) in zip(values, knobs)])


def policy_at(start: Policy, x, knobs=KNOBS) -> Policy:
    """``start`` with its ``knobs`` set from ``x`` in [0, 1] (rounded to 4 decimals; limping above 0.5)."""
    changes = {"preflop": {}, "postflop": {}}
    for value, (section, knob, low, high) in zip(np.clip(np.asarray(x, np.float64), 0.0, 1.0), knobs):
        changes[section][knob] = bool(value > 0.5) if knob == "limp" else round(low + float(value) * (high - low), 4)
    return dataclasses.replace(
        start,
        style="thresholds",
        preflop=dataclasses.replace(start.preflop, **changes["preflop"]),
        postflop=dataclasses.replace(start.postflop, **changes["postflop"]),
    )


@dataclasses.dataclass(frozen=True)
class Deals:
    """Common deals a match is played on: the cards, the strength keys, each seat's percentile
    and the ranking they come from."""

    cards: np.ndarray
    keys: np.ndarray
    ranks: np.ndarray
    ranking: HandRanking

    @classmethod
    def dealt(cls, game: Game, players: int, hands: int, seed, ranking: HandRanking) -> Deals:
        cards, keys = deal_hands(np.random.default_rng(seed), hands, players, game)
        hole = cards[:, : players * game.hole_cards].reshape(hands, players, game.hole_cards)
        return cls(cards, keys, ranking.ranks(hole), ranking)


def score(
    game: Game,
    betting: Betting,
    candidate: Policy,
    field: Policy,
    players: int,
    deals: Deals,
    stack: int = 100 * BIG_BLIND,
) -> tuple[float, float]:
    """``candidate``'s result against ``field`` in big blinds per 100 hands, ± one standard error:
    every deal played once with the candidate at each seat and the field at the others, one
    sample per deal (its seats summed). The field against itself scores exactly 0."""
    per_deal = np.zeros(len(deals.keys), np.int64)
    for seat in range(players):
        policies = tuple(candidate if s == seat else field for s in range(players))
        played = Table(game, betting, policies, (stack,) * players).play(
            deals.cards, deals.keys, deals.ranks, ranking=deals.ranking
        )
        per_deal += played.finishing[:, seat] - stack
    scale = 100 / BIG_BLIND / players
    return float(per_deal.mean() * scale), float(per_deal.std() / np.sqrt(len(per_deal)) * scale)


@dataclasses.dataclass(frozen=True)
class Round:
    """One round of tuning: the best response's gain against the field, on fresh deals."""

    round: int
    gain: float
    gain_se: float
    search_gain: float  # on the search's own deals
    trials: int


def tune(
    game: Game,
    betting: Betting,
    start: Policy,
    field: Policy,
    players: int,
    ranking: HandRanking,
    *,
    hands: int = 4000,
    check_hands: int | None = None,
    trials: int = 60,
    rounds: int = 3,
    margin: float = 1.0,
    seed: int = 0,
    log=lambda line: None,
) -> tuple[Policy, list[Round]]:
    """The policy reached by ``rounds`` rounds of best response from ``field`` (see the module's
    docstring); each search scores ``trials`` candidates on ``hands`` deals, each best response is
    scored again on ``check_hands`` fresh deals (default: ``4 * hands``). Stops early when the
    best response gains less than ``margin`` + 2 standard errors; returns the last field and
    every round."""
    import cma

    if trials < 4:
        raise SampyongError(f"tuning needs at least 4 trials a round, not {trials}")
    check_hands = check_hands or 4 * hands
    history: list[Round] = []
    x = vector_of(start)
    for number in range(1, rounds + 1):
        search = Deals.dealt(game, players, hands, (seed, number, 0), ranking)
        strategy = cma.CMAEvolutionStrategy(
            x, 0.2, {"seed": seed * 1000 + number, "bounds": [0, 1], "maxfevals": trials, "verbose": -9}
        )
        best_x, best = x, score(game, betting, policy_at(start, x), field, players, search)[0]
        evaluated = 1
        while not strategy.stop():  # maxfevals: the search ends with the generation that reaches ``trials``
            candidates = strategy.ask()
            values = []
            for candidate in candidates:
                value = score(game, betting, policy_at(start, candidate), field, players, search)[0]
                values.append(-value)
                evaluated += 1
                if value > best:
                    best_x, best = np.array(candidate), value
            strategy.tell(candidates, values)
        response = policy_at(start, best_x)
        gain, gain_se = score(
            game, betting, response, field, players, Deals.dealt(game, players, check_hands, (seed, number, 1), ranking)
        )
        history.append(Round(number, gain, gain_se, best, evaluated))
        log(
            f"round {number}: best response {gain:+.2f} ± {gain_se:.2f} bb/100 against the field "
            f"({best:+.2f} on the search's deals, {evaluated} trials)"
        )
        if gain < margin + 2 * gain_se:
            break
        field, x = response, best_x
    return field, history


def tuned_toml(policy: Policy, history: list[Round], game: Game, players: int, margin: float) -> str:
    """The tuned policy as a TOML file, each round's gain in comments."""
    last = history[-1]
    converged = last.gain < margin + 2 * last.gain_se
    return "\n".join(
        [
            f'name = "{policy.name}"',
            f'description = "{policy.description}"',
            f"# tuned by self-play at {game.name}, {players} players: each round the best response to the field",
            "# round   gain (bb/100, fresh deals)   on the search's deals   trials",
            *[
                f"# {r.round:5}   {r.gain:+9.2f} ± {r.gain_se:5.2f}          {r.search_gain:+9.2f}            {r.trials:6}"
                for r in history
            ],
            f"# {'converged' if converged else 'not converged'}: the last best response gains {last.gain:+.2f} ± "
            f"{last.gain_se:.2f} bb/100 (margin {margin:g} + 2 SE)",
            "",
            *tables_toml(policy),
        ]
    )
