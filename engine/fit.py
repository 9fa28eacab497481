"""Fit a policy to real records: VPIP, PFR, how often hands see a flop and with how many
players, how often players who saw the flop go to showdown (WTSD), and the aggression factor.

``sampyong fit RECORDS [--game G]`` reads the records' figures (``engine.records``: the hands
that replay through the engine), then searches the policy's preflop opening, calling and
re-raising shares and its postflop betting and calling so that play by the fast engine at the
records' table size gives the same figures (coordinate search on common random deals; each trial
plays ``--hands`` hands), and prints the fitted policy as TOML.

Every figure is counted the same way from records and from simulated play, so a policy's own
recorded hands give the figures its play gives (``tests/test_fit.py``).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from engine.betting import default_betting
from engine.chance import CHECK_CALL, RAISE
from engine.fast import DEAL
from engine.phh import Status, load_paths, replay
from engine.player import deal_hands
from engine.policy import Policy, tables_toml
from engine.records import figures as hand_figures
from engine.records import seat_stats
from engine.table import BIG_BLIND, Table
from evaluator.errors import SampyongError
from evaluator.games import Game

TARGETS = ("vpip", "pfr", "flop", "players", "wtsd", "af")
# What a miss of one unit weighs: a percentage point of a share as much as 0.05 players at the
# flop and 0.1 of the aggression factor.
SCALE = {"vpip": 0.01, "pfr": 0.01, "flop": 0.01, "players": 0.05, "wtsd": 0.01, "af": 0.1}
MIN_HANDS = 200  # fewer usable records than this say too little to fit to


@dataclasses.dataclass(frozen=True)
class Figures:
    """What a policy is fitted to, over ``hands`` hands.

    Parameters:
        vpip: share of seats that put chips in preflop by choice.
        pfr: share of seats that raise preflop.
        flop: share of hands that see a flop.
        players: mean players at the flop (of the hands that see one).
        wtsd: share of the seats that saw the flop which go to showdown.
        af: postflop bets and raises per postflop call (the aggression factor).
        hands: how many hands.
        showdown: share of hands that reach a showdown (reported, not fitted).
    """

    vpip: float
    pfr: float
    flop: float
    players: float
    wtsd: float
    af: float
    hands: int
    showdown: float = 0.0
    seat_vpip: tuple[float, ...] = ()  # per seat (PHH order: the small blind first), when counted
    seat_pfr: tuple[float, ...] = ()

    def distance(self, target: Figures, targets=TARGETS) -> float:
        """The squared misses of ``targets``, each in units of ``SCALE``."""
        return sum(((getattr(self, t) - getattr(target, t)) / SCALE[t]) ** 2 for t in targets)


@dataclasses.dataclass
class _Tally:
    """The counts behind ``Figures``, added hand by hand."""

    hands: int = 0
    seats: int = 0
    vpip: int = 0
    pfr: int = 0
    flops: int = 0
    at_flop: int = 0
    showdowns: int = 0
    showdown_hands: int = 0
    aggressive: int = 0
    calls: int = 0
    seat_vpip: list[int] = dataclasses.field(default_factory=list)  # per seat, at one table size
    seat_pfr: list[int] = dataclasses.field(default_factory=list)

    def figures(self) -> Figures:
        ratio = lambda a, b: a / b if b else 0.0  # noqa: E731
        return Figures(vpip=ratio(self.vpip, self.seats), pfr=ratio(self.pfr, self.seats), flop=ratio(self.flops, self.hands),
                       players=ratio(self.at_flop, self.flops), wtsd=ratio(self.showdowns, self.at_flop),
                       af=ratio(self.aggressive, self.calls), hands=self.hands,
                       showdown=ratio(self.showdown_hands, self.hands),
                       seat_vpip=tuple(ratio(v, self.hands) for v in self.seat_vpip),
                       seat_pfr=tuple(ratio(v, self.hands) for v in self.seat_pfr))


def record_figures(paths, game: Game | None = None) -> tuple[Figures, Game, int]:
    """The figures of the records in ``paths`` that replay through the engine, of ``game`` (by
    default the game most of them play), with that game and the most common number of players
    dealt in (the per-seat VPIP and PFR are of the hands at that table size);
    ``SampyongError`` when fewer than ``MIN_HANDS`` hands are usable."""
    tallies: dict[Game, _Tally] = {}
    sizes: dict[Game, dict[int, int]] = {}
    per_seat: dict[tuple[Game, int], _Tally] = {}
    for record in load_paths(paths):
        result = replay(record)
        if result.status not in (Status.MATCH, Status.NO_RECORD) or (game is not None and result.hand.game != game):
            continue
        hand = result.hand
        tally = tallies.setdefault(hand.game, _Tally())
        sizes.setdefault(hand.game, {}).setdefault(hand.seats, 0)
        sizes[hand.game][hand.seats] += 1
        shown, stats = hand_figures(hand), seat_stats(hand)
        tally.hands += 1
        tally.seats += hand.seats
        tally.vpip += sum(s["vpip"] for s in stats)
        tally.pfr += sum(s["pfr"] for s in stats)
        if shown.reached >= 1:
            tally.flops += 1
            tally.at_flop += shown.players_at[1]
        tally.showdowns += sum(s["showdown"] for s in stats)
        tally.showdown_hands += shown.reached == 4
        tally.aggressive += sum(s["aggressive"] for s in stats)
        tally.calls += sum(s["calls"] for s in stats)
        seats = per_seat.setdefault((hand.game, hand.seats), _Tally(seat_vpip=[0] * hand.seats, seat_pfr=[0] * hand.seats))
        seats.hands += 1
        for s, stat in enumerate(stats):
            seats.seat_vpip[s] += stat["vpip"]
            seats.seat_pfr[s] += stat["pfr"]
    chosen = game if game is not None else max(tallies, key=lambda g: tallies[g].hands, default=None)
    usable = tallies[chosen].hands if chosen in tallies else 0
    if usable < MIN_HANDS:
        which = f" of {chosen.name}" if chosen is not None else ""
        raise SampyongError(f"{usable} usable records{which}: fitting needs at least {MIN_HANDS}")
    seats = max(sizes[chosen], key=lambda n: (sizes[chosen][n], n))
    table = per_seat[(chosen, seats)]
    figures = dataclasses.replace(tallies[chosen].figures(), seat_vpip=tuple(v / table.hands for v in table.seat_vpip),
                                  seat_pfr=tuple(v / table.hands for v in table.seat_pfr))
    return figures, chosen, seats


def play_figures(game: Game, policy: Policy | tuple[Policy, ...], players: int, hands: int, seed: int, ranks) -> Figures:
    """The figures of ``hands`` hands of ``policy`` at every seat (or one policy per seat; 100 big
    blinds, blinds 1/2), played by the fast engine; ``ranks`` is the game's ``engine.ranking.HandRanking``."""
    policies = policy if isinstance(policy, tuple) else (policy,) * players
    table = Table(game, default_betting(game), policies, (100 * BIG_BLIND,) * players)
    cards, keys = deal_hands(np.random.default_rng(seed), hands, players, game)
    played = table.play(cards, keys, ranks.ranks(cards[:, : players * game.hole_cards].reshape(hands, players, -1)),
                        keep_actions=True, ranking=ranks)
    return played_figures(played)


def played_figures(played) -> Figures:
    """The figures of a batch the fast engine played with ``keep_actions`` (``engine.fast.Played``)."""
    hands, seats = played.voluntary.shape
    flop = played.reached >= 1
    tally = _Tally(hands=hands, seats=hands * seats, vpip=int(played.voluntary.sum()), flops=int(flop.sum()),
                   at_flop=int(played.players_at[flop, 1].sum()),
                   showdowns=int(played.live[played.reached == 4].sum()), showdown_hands=int((played.reached == 4).sum()),
                   seat_vpip=played.voluntary.sum(axis=0).astype(int).tolist(), seat_pfr=[0] * seats)
    for h in range(hands):
        street, raised, raisers = 0, False, set()
        for seat, kind, _ in played.actions[h, : played.action_count[h]].tolist():
            if kind == DEAL:
                street, raised = street + 1, False
            elif kind == RAISE:
                if street == 0:
                    raisers.add(seat)
                else:
                    tally.aggressive += 1
                raised = True
            elif kind == CHECK_CALL and street > 0 and raised:
                tally.calls += 1
        tally.pfr += len(raisers)
        for seat in raisers:
            tally.seat_pfr[seat] += 1
    return tally.figures()


KNOBS = (("preflop", "open_early"), ("preflop", "open_late"), ("preflop", "call"), ("preflop", "overcall"),
         ("preflop", "reraise"), ("postflop", "call_factor"), ("postflop", "bet"))


def _with(policy: Policy, section: str, knob: str, value: float) -> Policy:
    part = getattr(policy, section)
    return dataclasses.replace(policy, **{section: dataclasses.replace(part, **{knob: value})})


def fit_policy(target: Figures, game: Game, start: Policy, players: int, hands: int, seed: int, ranks,
               rounds: int = 3, log=lambda message: None, targets=TARGETS) -> tuple[Policy, Figures]:
    """Coordinate search: each round tries each knob a step up and down (steps halve each round)
    and keeps what brings ``targets`` closer to ``target``; the same deals every trial."""
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
                if figures.distance(target, targets) < best_figures.distance(target, targets):
                    best, best_figures = trial, figures
                    log(f"{section}.{knob} = {value:.3f}: " + ", ".join(f"{t} {getattr(figures, t):.3f}" for t in targets))
        step /= 2
    return best, best_figures


SEAT_KNOBS = (*(k for k in KNOBS if k[0] == "preflop"), ("preflop", "call_reraised"))
SEAT_TARGETS = ("vpip", "pfr")


def seat_distance(reached: Figures, target: Figures, seat: int) -> float:
    """The squared misses of ``seat``'s VPIP and PFR, in units of ``SCALE``."""
    return (((reached.seat_vpip[seat] - target.seat_vpip[seat]) / SCALE["vpip"]) ** 2
            + ((reached.seat_pfr[seat] - target.seat_pfr[seat]) / SCALE["pfr"]) ** 2)


def fit_positions(target: Figures, game: Game, policies: tuple[Policy, ...], hands: int, seed: int, ranks,
                  rounds: int = 3, log=lambda message: None, min_hands: int = MIN_HANDS) -> tuple[tuple[Policy, ...], Figures]:
    """Each seat's preflop play searched for that seat's own VPIP and PFR in the records, the other
    seats' policies held: each round, per seat in turn, limping flipped, then each preflop share
    a step up and down (steps from 0.16, halving each round: a seat may move further from the
    table's fit than the table from its start); seats are fitted when the records hold at least
    ``min_hands`` hands at this table size (every seat then does)."""
    players = len(policies)
    best = tuple(policies)
    reached = play_figures(game, best, players, hands, seed, ranks)
    if target.hands < min_hands or len(target.seat_vpip) != players:
        return best, reached
    step = 0.16
    for _ in range(rounds):
        for seat in range(players):
            for knob, direction in [("limp", 0), *((knob, d) for _, knob in SEAT_KNOBS for d in (1, -1))]:
                now = getattr(best[seat].preflop, knob)
                value = (not now) if knob == "limp" else round(min(max(now + direction * step, 0.0), 1.0), 4)
                trial = best[:seat] + (_with(best[seat], "preflop", knob, value),) + best[seat + 1:]
                figures = play_figures(game, trial, players, hands, seed, ranks)
                if seat_distance(figures, target, seat) < seat_distance(reached, target, seat):
                    best, reached = trial, figures
                    log(f"seat {seat} preflop.{knob} = {value}: vpip {figures.seat_vpip[seat]:.3f}, "
                        f"pfr {figures.seat_pfr[seat]:.3f}")
        step /= 2
    return best, reached


def seat_residuals(target: Figures, reached: Figures) -> list[tuple[int, str, float, float, float]]:
    """Per seat and figure (VPIP, PFR): the records' value, the fitted seat's, and the residual."""
    return [(seat, t, getattr(target, f"seat_{t}")[seat], getattr(reached, f"seat_{t}")[seat],
             getattr(reached, f"seat_{t}")[seat] - getattr(target, f"seat_{t}")[seat])
            for seat in range(len(reached.seat_vpip)) for t in SEAT_TARGETS]


def residuals(target: Figures, reached: Figures, targets=TARGETS) -> list[tuple[str, float, float, float]]:
    """Per figure: the records' value, the fitted policy's, and the residual (fitted minus target)."""
    return [(t, getattr(target, t), getattr(reached, t), getattr(reached, t) - getattr(target, t)) for t in targets]


def policy_toml(policy: Policy, target: Figures, reached: Figures, targets=TARGETS, seat: int | None = None) -> str:
    """The fitted policy as a TOML file, with the table of figures it was fitted to in comments
    (``seat``: a seat's policy, fitted to that seat's VPIP and PFR)."""
    rows = (residuals(target, reached, targets) if seat is None else
            [(t, a, b, r) for s, t, a, b, r in seat_residuals(target, reached) if s == seat])
    return "\n".join([
        f'name = "{policy.name}"',
        f'description = "{policy.description}"',
        f"# fitted to {target.hands:,} records{'' if seat is None else f', seat {seat}'}; {reached.hands:,} hands a trial",
        "# figure     records    fitted   residual",
        *[f"# {t:8} {a:9.3f} {b:9.3f} {b - a:+10.3f}" for t, a, b, _ in rows],
        "",
        *tables_toml(policy),
    ])
