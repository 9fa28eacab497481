"""Fit a policy to real records: how often hands see a flop, with how many players, and how
often they reach a showdown.

``sampyong fit RECORDS --game holdem`` reads the records' three figures, then searches the
policy's preflop opening and calling shares and its postflop calling looseness so that
six-handed play through the reference engine gives the same figures (coordinate search on
common random deals; each trial plays ``--hands`` hands), and prints the fitted policy as TOML.

A hand reaches showdown when two or more players are left after the last betting round (they
may then show or muck); the players at the flop are those who did not fold before it.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from engine.betting import default_betting
from engine.phh import load_paths, replay
from engine.table import BIG_BLIND, Table
from engine.player import deal_hands
from engine.policy import Policy, Postflop, Preflop
from evaluator.errors import SampyongError
from evaluator.games import Game


@dataclasses.dataclass(frozen=True)
class Figures:
    """Share of hands that see a flop, mean players at the flop, share that reach a showdown."""

    flop: float
    players: float
    showdown: float
    hands: int

    def distance(self, target: Figures) -> float:
        """Squared misses, a percentage point weighing as much as 0.05 players."""
        return ((self.flop - target.flop) / 0.01) ** 2 + ((self.players - target.players) / 0.05) ** 2 + (
            (self.showdown - target.showdown) / 0.01) ** 2


def _figures(boards: list[int], at_flop: list[int], showdowns: list[bool]) -> Figures:
    n = len(boards)
    flops = [p for b, p in zip(boards, at_flop) if b >= 3]
    return Figures(len(flops) / n, sum(flops) / len(flops) if flops else 0.0, sum(showdowns) / n, n)


def _players_at_flop(actions: list[str], seats: int) -> int:
    live = set(range(seats))
    for action in actions:
        if action.startswith("d db"):
            break
        if action.endswith(" f"):
            live.discard(int(action.split()[0][1:]) - 1)
    return len(live)


def record_figures(paths) -> Figures:
    """The figures of every record in ``paths`` that the engine replays (``SampyongError`` if none)."""
    boards, at_flop, showdowns = [], [], []
    for record in load_paths(paths):
        result = replay(record)
        if result.hand is None:
            continue
        hand = result.hand
        boards.append(len(hand.board))
        at_flop.append(_players_at_flop(hand.actions, hand.seats))
        showdowns.append(sum(not f for f in hand.folded) > 1)
    if not boards:
        raise SampyongError("no record the engine can replay")
    return _figures(boards, at_flop, showdowns)


def play_figures(game: Game, policy: Policy, players: int, hands: int, seed: int, ranks) -> Figures:
    """The figures of ``hands`` hands of ``policy`` at every seat (100 big blinds, blinds 1/2),
    played by the fast engine; ``ranks`` is the game's ``engine.ranking.HandRanking``."""
    table = Table(game, default_betting(game), (policy,) * players, (100 * BIG_BLIND,) * players)
    cards, keys = deal_hands(np.random.default_rng(seed), hands, players, game)
    played = table.play(cards, keys, ranks.ranks(cards[:, : players * game.hole_cards].reshape(hands, players, -1)))
    return Figures(flop=float((played.reached >= 1).mean()), players=float(played.players_at[played.reached >= 1, 1].mean()),
                   showdown=float((played.reached == 4).mean()), hands=hands)


KNOBS = (("preflop", "open_early"), ("preflop", "open_late"), ("preflop", "call"), ("preflop", "overcall"),
         ("postflop", "call_factor"), ("postflop", "bet"))


def _with(policy: Policy, section: str, knob: str, value: float) -> Policy:
    part = getattr(policy, section)
    return dataclasses.replace(policy, **{section: dataclasses.replace(part, **{knob: value})})


def fit_policy(target: Figures, game: Game, start: Policy, players: int, hands: int, seed: int, ranks,
               rounds: int = 3, log=lambda message: None) -> tuple[Policy, Figures]:
    """Coordinate search: each round tries each knob a step up and down (steps halve each round)
    and keeps what brings the figures closer to ``target``; the same deals every trial."""
    best, best_figures = start, play_figures(game, start, players, hands, seed, ranks)
    step = 0.08
    for _ in range(rounds):
        for section, knob in KNOBS:
            for direction in (1, -1):
                scale = 5 if knob == "call_factor" else 1  # call_factor runs over 0..6, the shares over 0..1
                value = getattr(getattr(best, section), knob) + direction * step * scale
                value = min(max(value, 0.0), 1.0 if knob != "call_factor" else 6.0)
                trial = _with(best, section, knob, round(value, 4))
                figures = play_figures(game, trial, players, hands, seed, ranks)
                if figures.distance(target) < best_figures.distance(target):
                    best, best_figures = trial, figures
                    log(f"{section}.{knob} = {value:.3f}: flop {figures.flop:.3f}, players {figures.players:.2f}, showdown {figures.showdown:.3f}")
        step /= 2
    return best, best_figures


def policy_toml(policy: Policy, target: Figures, reached: Figures) -> str:
    """The fitted policy as a TOML file, with the figures it was fitted to in a comment."""
    pre, post = policy.preflop, policy.postflop
    return "\n".join([
        f'name = "{policy.name}"',
        f'description = "{policy.description}"',
        f"# fitted to {target.hands:,} records: flop {target.flop:.3f}, players at the flop {target.players:.2f}, "
        f"showdown {target.showdown:.3f}; the fit gives {reached.flop:.3f}, {reached.players:.2f}, {reached.showdown:.3f}",
        "",
        "[preflop]",
        *[f"{f.name} = {str(getattr(pre, f.name)).lower() if isinstance(getattr(pre, f.name), bool) else getattr(pre, f.name)}"
          for f in dataclasses.fields(Preflop)],
        "",
        "[postflop]",
        *[f"{f.name} = {getattr(post, f.name)}" for f in dataclasses.fields(Postflop)],
        "",
    ])
