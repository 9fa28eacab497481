"""Fit a policy to real records: the play of one policy at every seat that gives the records'
statistics.

``sampyong fit RECORDS`` reads the records' statistics at their most common table (game and
players dealt in): the share of hands that see a flop, the players there, the share that reach a
showdown, VPIP, PFR, three-bet and the aggression factor of each street (``TARGETS``), each
with its standard error. Every one is read by ``engine.records``' one reader, the same that
counts the fast engine's simulated hands, so a policy's own records give exactly its figures
(``tests/test_fit.py``).

The search is CMA-ES (the ``cma`` package, as in ``engine.tune``) over the knobs of a
``thresholds`` policy scaled to [0, 1] (``KNOBS``), from several starts (by default the
built-in policies tight, loose, regular and station), keeping the best. Every trial plays the
same deals with the same strength samples (``engine.tune.Deals``: common random numbers), so two
trials differ only by their policies, never by their luck. How many hands a trial plays: a pilot
run of each start measures each statistic's standard error, and trials play enough hands that it
falls below a quarter of the statistic's tolerance (``TOLERANCE``; ``hands_needed``), the records
themselves a pilot too (the play the search aims for has their spread per hand). The
objective is the sum over the targets of the squared miss, each in units of the standard error
of the difference (the records' and a trial's), at most half the tolerance (``scales``). The best policy of each start is then played on
fresh deals: the figures reported, their standard errors, the residuals and the verdict come from
those, never from the deals the search tuned to.

>>> [round(x, 6) for x in ratio_se(np.array([1, 0, 1, 1]), np.array([1, 1, 1, 1]))]  # three hands of four: 0.75 ± 0.22
[0.75, 0.216506]
"""

from __future__ import annotations

import dataclasses
import math
from collections import Counter

import numpy as np

from engine.betting import Betting
from engine.fast_replay import replay_batch
from engine.phh import Status, replay, setup_of
from engine.policy import Policy, tables_toml
from engine.ranking import HandRanking
from engine.record_files import in_bulk, load_paths
from engine.records import PFR, SHOWDOWN, STATS, VPIP
from engine.table import BIG_BLIND, Table
from engine.tune import KNOBS as TUNED_KNOBS
from engine.tune import Deals, policy_at, vector_of
from evaluator.errors import SampyongError
from evaluator.games import Game

# The figures, each a ratio of two sums over hands: a hand's counts (``COUNTS``) of the hand as a
# whole and of its seats' statistics (``engine.records.STATS``, summed over the seats).
HAND_COUNTS = ("hands", "flop_hands", "players_at_flop", "showdown_hands", "seats")
COUNTS = (*HAND_COUNTS, *STATS)
RATIOS = {
    "flop": ("flop_hands", "hands"),  # hands that see a flop
    "players": ("players_at_flop", "flop_hands"),  # players at the flop, of the hands that see one
    "showdown": ("showdown_hands", "hands"),  # hands that reach a showdown
    "vpip": ("vpip", "seats"),  # seats that put chips in preflop by choice
    "pfr": ("pfr", "seats"),  # seats that raise preflop
    "three_bet": ("three_bet", "three_bet_chance"),  # re-raises, of the seats facing one raise
    "af_flop": ("aggressive_flop", "calls_flop"),  # bets and raises per call, street by street
    "af_turn": ("aggressive_turn", "calls_turn"),
    "af_river": ("aggressive_river", "calls_river"),
    "wtsd": ("showdown", "flop"),  # seats at showdown, of the seats that saw the flop
    "af": ("aggressive", "calls"),  # over every street
    "cbet": ("cbet", "cbet_chance"),  # the preflop raiser's flop bets, of its chances
}
TARGETS = ("flop", "players", "showdown", "vpip", "pfr", "three_bet", "af_flop", "af_turn", "af_river")
REPORTED = (*TARGETS, "wtsd", "af", "cbet")
# How far from the records a fitted figure may land: two points of a share, a tenth of a player
# at the flop, half a bet per call.
TOLERANCE = {name: 0.5 if name.startswith("af") else 0.1 if name == "players" else 0.02 for name in RATIOS}
LABELS = {
    "flop": "flop seen",
    "players": "players at the flop",
    "showdown": "reached showdown",
    "vpip": "VPIP",
    "pfr": "PFR",
    "three_bet": "three-bet",
    "af_flop": "aggression, flop",
    "af_turn": "aggression, turn",
    "af_river": "aggression, river",
    "wtsd": "went to showdown",
    "af": "aggression factor",
    "cbet": "continuation bet",
}
MIN_HANDS = 200  # fewer usable records than this say too little to fit to
PILOT_HANDS = 4000  # a pilot run's hands, per start
HANDS_AT_LEAST, HANDS_AT_MOST = 2000, 100_000  # a trial's hands, whatever the pilot says
MISSING = 1e4  # the objective's charge for a figure a trial cannot show (a ratio of nothing)

# A bluff above half the equity a hand may have would bet most hands as bluffs: no play of the
# records' kind, and a flat stretch (every bluff above ``bet`` bets everything) the search would roam.
RANGES = {"bet": (0.0, 1.0), "bluff": (0.0, 0.5), "call_factor": (0.0, 6.0)}
# The knobs searched, with their ranges (``engine.tune``'s form): every knob of a thresholds
# policy but its hand-strength samples and its ``ranges``, which the start keeps, the turn's own
# thresholds (the turn plays as the flop; the river has its own) and limping (yes or no: the
# search tries both, ``search``).
KNOBS = (
    *(knob for knob in TUNED_KNOBS if knob[0] == "preflop" and knob[1] != "limp"),  # the tuner's, in its order
    *(
        ("postflop", f"{name}{street}", *RANGES[name])
        for name in ("bet", "bluff", "call_factor")
        for street in ("", "_river")
    ),
    ("postflop", "bet_size", 0.25, 2.0),
)
STARTS = ("tight", "loose", "regular", "station")


def ratio_se(numerator: np.ndarray, denominator: np.ndarray) -> tuple[float, float]:
    """The ratio of two sums over hands and its standard error (the delta method, hands
    independent); NaN for a ratio of nothing."""
    below = float(denominator.sum())
    if below == 0:
        return math.nan, math.nan
    ratio = float(numerator.sum()) / below
    return ratio, float(np.sqrt(((numerator - ratio * denominator) ** 2).sum())) / below


@dataclasses.dataclass(frozen=True)
class Figures:
    """What a policy is fitted to, over ``hands`` hands: each of ``RATIOS``' figures and its
    standard error, and each seat's VPIP and PFR (PHH order: the small blind first).

    >>> counts = hand_counts(np.array([1, 4]), np.array([[3, 2, 0, 0, 0], [3, 3, 3, 3, 2]]), np.zeros((2, 3, len(STATS)), int))
    >>> figures = figures_of(counts)
    >>> figures["flop"], figures["players"], figures["showdown"], figures.hands
    (1.0, 2.5, 0.5, 2)
    """

    values: dict
    se: dict
    hands: int
    seat_vpip: tuple[float, ...] = ()
    seat_pfr: tuple[float, ...] = ()

    def __getitem__(self, name: str) -> float:
        return self.values[name]


def hand_counts(reached: np.ndarray, players_at: np.ndarray, stats: np.ndarray) -> np.ndarray:
    """Per hand, its ``COUNTS`` (``int64[hands, COUNTS]``), from the last street it reached, the
    players at each street's start (``engine.records.HandFigures``) and its seats' ``STATS``
    (``[hand, seat, STATS]``)."""
    n, seats = stats.shape[:2]
    flop = reached >= 1
    return np.column_stack(
        [
            np.ones(n),
            flop,
            np.where(flop, players_at[:, 1], 0),
            reached == SHOWDOWN,
            np.full(n, seats),
            stats.sum(axis=1),
        ]
    ).astype(np.int64)


def figures_of(counts: np.ndarray, stats: np.ndarray | None = None) -> Figures:
    """The figures of hands with these ``COUNTS`` (and, given their ``STATS`` per seat, each seat's
    VPIP and PFR)."""
    values, se = {}, {}
    for name, (top, bottom) in RATIOS.items():
        values[name], se[name] = ratio_se(counts[:, COUNTS.index(top)], counts[:, COUNTS.index(bottom)])
    seats = () if stats is None else tuple(range(stats.shape[1]))
    return Figures(
        values,
        se,
        len(counts),
        tuple(float(stats[:, s, VPIP].mean()) for s in seats),
        tuple(float(stats[:, s, PFR].mean()) for s in seats),
    )


@dataclasses.dataclass(frozen=True)
class Records:
    """The records' table a policy is fitted to: its statistics, the game and betting, the players
    dealt in, the median stack in big blinds (to half a big blind, as ``run records --against``
    plays them) and the hands of other tables left out."""

    figures: Figures
    game: Game
    betting: Betting
    seats: int
    stack_bb: float
    other_hands: int

    @property
    def hands(self) -> int:
        return self.figures.hands

    def table(self, policy: Policy | tuple[Policy, ...]) -> Table:
        """This table with ``policy`` at every seat (or one per seat), blinds 1 and 2."""
        policies = policy if isinstance(policy, tuple) else (policy,) * self.seats
        return Table(self.game, self.betting, policies, (int(round(self.stack_bb * BIG_BLIND)),) * self.seats)


def read_records(paths, game: Game | None = None) -> Records:
    """The records in ``paths`` that replay through the engine (``engine.fast_replay``, the
    reference for the others: a match, or a hand without finishing stacks), at the table most of
    them sit at of ``game`` (default: the game most of them play): players dealt in, then the
    betting structure; ``SampyongError`` when fewer than ``MIN_HANDS`` are usable."""
    with in_bulk():
        records = list(load_paths(paths))
        batch = replay_batch(records)
    for i in np.flatnonzero(~batch.matched):
        result = replay(records[i])
        if result.status in (Status.MATCH, Status.NO_RECORD) and result.hand is not None:
            batch.take(i, result.hand)
    usable = [i for i in np.flatnonzero(batch.matched) if game is None or batch.games[i] == game.name]
    setups = {i: setup_of(records[i]) for i in usable}
    games = Counter(setups[i].game for i in usable)
    chosen = game if game is not None else max(games, key=lambda g: (games[g], g.name), default=None)
    tables = Counter((len(setups[i].stacks), setups[i].betting) for i in usable if setups[i].game == chosen)
    if sum(tables.values()) < MIN_HANDS:
        which = f" of {chosen.name}" if chosen is not None else ""
        raise SampyongError(f"{sum(tables.values())} usable records{which}: fitting needs at least {MIN_HANDS}")
    (seats, betting), _ = max(tables.items(), key=lambda item: (item[1], item[0][0]))
    rows = np.array(
        [
            i
            for i in usable
            if setups[i].game == chosen and (len(setups[i].stacks), setups[i].betting) == (seats, betting)
        ]
    )
    stacks = sorted(sorted(setups[i].stacks)[seats // 2] / batch.blind[i] for i in rows)
    stats = batch.stats[rows, :seats]
    figures = figures_of(hand_counts(batch.reached[rows], batch.players_at[rows], stats), stats)
    return Records(
        figures,
        chosen,
        betting,
        int(seats),
        max(1.0, round(2 * stacks[len(stacks) // 2]) / 2),
        len(records) - len(rows),
    )


def play_figures(table: Table, deals: Deals) -> Figures:
    """The figures of ``deals`` played by the fast engine at ``table``."""
    played = table.play(deals.cards, deals.keys, deals.ranks, ranking=deals.ranking, keep_stats=True)
    return figures_of(hand_counts(played.reached, played.players_at, played.stats), played.stats)


def scales(target: Figures, trial: Figures, hands: int, targets=TARGETS) -> dict:
    """Each target's unit of miss: the standard error of the difference between the records' figure
    and a trial's of ``hands`` hands (``trial``'s error per hand), within a tenth and a half of its
    tolerance (where the records say little, such as the flop seen of 1,726 hands, ± 1.2 points
    against a tolerance of 2, a miss is still counted in half-tolerances: the fit aims within it)."""
    out = {}
    for name in targets:
        spread = trial.se[name] * math.sqrt(trial.hands / hands) if math.isfinite(trial.se[name]) else 0.0
        records = target.se[name] if math.isfinite(target.se[name]) else 0.0
        out[name] = min(max(math.hypot(records, spread), TOLERANCE[name] / 10), TOLERANCE[name] / 2)
    return out


def distance(reached: Figures, target: Figures, scale: dict, targets=TARGETS) -> float:
    """The sum of the squared misses of ``targets``, each in units of ``scale`` (``MISSING`` for a
    figure the play cannot show, such as an aggression factor without a call)."""
    total = 0.0
    for name in targets:
        value = reached[name]
        total += ((value - target[name]) / scale[name]) ** 2 if math.isfinite(value) else MISSING
    return total


def hands_needed(pilots: list[Figures], targets=TARGETS) -> int:
    """The hands a trial plays so that every target's standard error is below a quarter of its
    tolerance, by the largest of the ``pilots``' errors per hand (rounded up to a thousand, within
    ``HANDS_AT_LEAST`` and ``HANDS_AT_MOST``)."""
    need = max(
        [
            p.hands * (4 * p.se[name] / TOLERANCE[name]) ** 2
            for p in pilots
            for name in targets
            if math.isfinite(p.se[name])
        ]
        + [0]
    )
    return int(min(max(math.ceil(need / 1000) * 1000, HANDS_AT_LEAST), HANDS_AT_MOST))


@dataclasses.dataclass(frozen=True)
class Search:
    """One start's search: the best policy found, its figures and distance on the search's deals,
    the best distance after each trial, and why CMA-ES stopped."""

    start: str
    policy: Policy
    figures: Figures
    distance: float
    history: tuple[float, ...]
    stop: str

    @property
    def trials(self) -> int:
        return len(self.history)


PREFLOP_TARGETS = ("flop", "players", "vpip", "pfr", "three_bet")  # what preflop play alone decides
PREFLOP_KNOBS = (
    "open_early",
    "open_late",
    "call",
    "overcall",
    "reraise",
    "call_reraised",
)  # what decides it, and limping
# The search's stages: which knobs, at which first step, with what share of a start's trials.
STAGES = (("preflop", 0.2, 0.3), ("postflop", 0.25, 0.4), ("all", 0.05, 0.3))


def _preflop_only(policy: Policy) -> Policy:
    """``policy`` with a single hand-strength sample: its preflop play, and so every figure of
    ``PREFLOP_TARGETS``, is the same (preflop decisions read no strength), at a fraction of the cost."""
    return dataclasses.replace(policy, postflop=dataclasses.replace(policy.postflop, samples=1))


@dataclasses.dataclass(frozen=True)
class Trial:
    """Plays a policy at the records' table on the search's deals: what every trial runs (a
    picklable callable, so a process pool can run a generation's trials side by side)."""

    records: Records
    deals: Deals

    def __call__(self, policy: Policy) -> Figures:
        return play_figures(self.records.table(policy), self.deals)


def search(
    records: Records,
    start: Policy,
    deals: Deals,
    scale: dict,
    *,
    trials: int,
    seed: int,
    targets=TARGETS,
    knobs=KNOBS,
    step=lambda: None,
    map=map,
) -> Search:
    """CMA-ES from ``start`` over ``knobs`` in three stages (``STAGES``), at most ``trials`` trials in
    all (``step()`` after each), every trial on ``deals`` (``map(Trial, policies)`` plays a
    generation: a process pool's map runs them side by side):

    1. the preflop knobs on the figures preflop play alone decides, played with one strength
       sample (``_preflop_only``), once limping and once not (limping is yes or no: CMA-ES, which
       moves in small steps, would seldom cross from one to the other), the better kept;
    2. from the policy found, the postflop knobs (and the open size) on every target, once from
       the start's and once from the middle of their ranges (a restart: a start's postflop play
       may lie in another valley than the records', such as never bluffing on the flop);
    3. from each of the two, every knob together in smaller steps; the best met is kept.

    Returns the best policy met on every target (the start itself is the first trial) and the
    best distance after each trial."""
    trial = Trial(records, deals)
    preflop_targets = tuple(t for t in targets if t in PREFLOP_TARGETS)

    def judged(policies: list[Policy], preflop: bool) -> list[tuple[float, Policy, Figures]]:
        played = map(trial, [_preflop_only(p) if preflop else p for p in policies])
        return [
            (distance(f, records.figures, scale, preflop_targets if preflop else targets), p, f)
            for p, f in zip(policies, played)
        ]

    best = judged([start], False)[0]
    history = [best[0]]
    step()

    def tried(outcomes, preflop: bool) -> None:
        nonlocal best
        for outcome in outcomes:
            if not preflop:
                best = min(best, outcome, key=lambda b: b[0])
            history.append(best[0])
            step()

    bases, stops = [start], []
    for number, (stage, sigma, share) in enumerate(STAGES):
        chosen = tuple(k for k in knobs if stage == "all" or (k[1] in PREFLOP_KNOBS) == (stage == "preflop"))
        budget = int(trials * share) if number < len(STAGES) - 1 else trials - len(history)
        preflop = stage == "preflop"
        if not chosen or budget < 4 or (preflop and not preflop_targets):
            continue
        if preflop:  # limping and not, the better kept
            bases = [_with(bases[0], limp=limp) for limp in (bases[0].preflop.limp, not bases[0].preflop.limp)]
        elif stage == "postflop":  # from the start's postflop knobs and from the middle of their ranges
            bases = [bases[0], policy_at(bases[0], np.full(len(chosen), 0.5), chosen)]
        found = [
            _cma(
                b,
                chosen,
                sigma,
                budget // len(bases),
                seed + number,
                lambda ps, preflop=preflop: judged(ps, preflop),
                tried,
                preflop,
            )
            for b in bases
        ]
        stops.append(f"{stage}: " + " / ".join(stop for _, stop in found))
        if preflop:
            bases = [min(found, key=lambda f: f[0][0])[0][1]]
            best = min(best, judged(bases, False)[0], key=lambda b: b[0])  # the next stage starts from it
        else:  # both postflop runs go on to the last stage: each valley polished, the better kept
            bases = [outcome[1] for outcome, _ in found]
    return Search(start.name, best[1], best[2], best[0], tuple(history), "; ".join(stops))


def _with(policy: Policy, **preflop) -> Policy:
    return dataclasses.replace(policy, preflop=dataclasses.replace(policy.preflop, **preflop))


def _cma(base: Policy, knobs, sigma: float, budget: int, seed: int, judge, tried, preflop: bool):
    """CMA-ES (the ``cma`` package, its seed fixed) over ``knobs`` of ``base`` for at most ``budget``
    trials, each generation judged at once (``judge(policies)``: distance, policy, figures each)
    and told to ``tried``; the best outcome met and why it stopped."""
    import cma

    strategy = cma.CMAEvolutionStrategy(
        vector_of(base, knobs),
        sigma,
        {
            "seed": seed + 1,
            "bounds": [0, 1],
            "maxfevals": budget,
            "verbose": -9,
            "tolfun": 0.05,
            "tolx": 1e-3,
            "tolflatfitness": 3,
        },
    )
    best = (math.inf, base, None)
    while not strategy.stop():
        points = strategy.ask()
        outcomes = judge([policy_at(base, point, knobs) for point in points])
        tried(outcomes, preflop)
        best = min([best, *outcomes], key=lambda o: o[0])
        strategy.tell(points, [o[0] for o in outcomes])
    return best, ", ".join(str(key) for key in strategy.stop())


@dataclasses.dataclass(frozen=True)
class Fitted:
    """A fit: the records' table, the hands a trial played (``hands``, from the ``pilots``), each
    start's search and its best policy's figures on fresh deals (``checks``), and the best."""

    records: Records
    hands: int
    pilots: dict
    searches: tuple[Search, ...]
    checks: dict
    targets: tuple[str, ...]

    @property
    def best(self) -> Search:
        """The search that came closest (on the search's deals)."""
        return min(self.searches, key=lambda s: s.distance)

    @property
    def policy(self) -> Policy:
        return self.best.policy

    @property
    def check(self) -> Figures:
        """The best policy's figures on fresh deals."""
        return self.checks[self.best.start]

    def residuals(self, start: str | None = None) -> list[dict]:
        """Per reported figure: the records' value and SE, the fitted policy's (of ``start``, default
        the best) on fresh deals and its SE, the residual (fitted minus records), the tolerance,
        whether it is within it and the residual in tolerances (fitted figures only)."""
        checked = self.checks[start or self.best.start]
        target = self.records.figures
        rows = []
        for name in REPORTED:
            residual = checked[name] - target[name]
            rows.append(
                {
                    "figure": name,
                    "records": target[name],
                    "records_se": target.se[name],
                    "fitted": checked[name],
                    "fitted_se": checked.se[name],
                    "residual": residual,
                    "tolerance": TOLERANCE[name],
                    "fitted_to": name in self.targets,
                    "within": bool(abs(residual) <= TOLERANCE[name]),
                    "in_tolerances": residual / TOLERANCE[name],
                }
            )
        return rows

    def within(self, start: str | None = None, names=None) -> bool:
        """Whether every fitted figure (or every one of ``names``) is within its tolerance."""
        names = self.targets if names is None else names
        return all(row["within"] for row in self.residuals(start) if row["figure"] in names)


def fit(
    records: Records,
    starts: list[Policy],
    ranking: HandRanking,
    *,
    hands: int | None = None,
    trials: int = 300,
    seed: int = 1,
    targets=TARGETS,
    knobs=KNOBS,
    log=lambda line: None,
    progress=None,
    map=map,
) -> Fitted:
    """Fit a policy to ``records`` from each of ``starts`` (see the module): ``hands`` a trial
    (default: from a pilot run of each start), at most ``trials`` trials a start; ``progress(total)``
    gives a step function called after each trial (a progress bar), ``log(line)`` hears each stage,
    ``map`` plays each generation's trials (``search``; the same fit with any map)."""
    pilots = {}
    for number, start in enumerate(starts):
        deals = Deals.dealt(records.game, records.seats, PILOT_HANDS, (seed, 1, number), ranking)
        pilots[start.name] = play_figures(records.table(start), deals)
    # The records are a pilot too: the play the search aims for has their errors per hand.
    measured = [*pilots.values(), records.figures]
    chosen = hands or hands_needed(measured, targets)
    worst = max(
        measured,
        key=lambda p: max(
            [p.se[t] * math.sqrt(p.hands / chosen) / TOLERANCE[t] for t in targets if math.isfinite(p.se[t])] + [0.0]
        ),
    )
    log(
        f"{chosen:,} hands a trial{' (given)' if hands else ''}: trial standard errors at the worst pilot "
        + ", ".join(
            f"{t} {worst.se[t] * math.sqrt(worst.hands / chosen):.4f}" for t in targets if math.isfinite(worst.se[t])
        )
        + " (a quarter of the tolerance: "
        + ", ".join(f"{t} {TOLERANCE[t] / 4:g}" for t in targets)
        + ")"
    )
    deals = Deals.dealt(records.game, records.seats, chosen, (seed, 0), ranking)
    scale = scales(records.figures, worst, chosen, targets)
    step = progress(len(starts) * trials) if progress else (lambda: None)
    searches = []
    for start in starts:
        found = search(
            records, start, deals, scale, trials=trials, seed=seed, targets=targets, knobs=knobs, step=step, map=map
        )
        searches.append(found)
        log(f"from {start.name}: distance {found.distance:.2f} after {found.trials} trials ({found.stop})")
    fresh = Deals.dealt(records.game, records.seats, 4 * chosen, (seed, 2), ranking)
    checks = {s.start: play_figures(records.table(s.policy), fresh) for s in searches}
    return Fitted(records, chosen, pilots, tuple(searches), checks, tuple(targets))


SEAT_KNOBS = ("open_early", "open_late", "call", "overcall", "reraise", "call_reraised")


def seat_distance(reached: Figures, target: Figures, seat: int) -> float:
    """The squared misses of ``seat``'s VPIP and PFR, in units of their tolerance."""
    return sum(
        ((getattr(reached, f"seat_{t}")[seat] - getattr(target, f"seat_{t}")[seat]) / TOLERANCE[t]) ** 2
        for t in ("vpip", "pfr")
    )


def fit_positions(
    records: Records, policies: tuple[Policy, ...], deals: Deals, rounds: int = 4, log=lambda line: None
) -> tuple[tuple[Policy, ...], Figures]:
    """Each seat's preflop play searched for that seat's own VPIP and PFR in the records, the other
    seats' policies held, every trial on ``deals``: each round, per seat in turn, limping flipped,
    then each preflop share a step up and down (steps from 0.25, halving each round: a seat may
    move up to 0.47 from the table's fit, as a calling station's seat does at a table of regulars)."""
    target = records.figures
    best = tuple(policies)
    reached = play_figures(records.table(best), deals)
    step = 0.25
    for _ in range(rounds):
        for seat in range(records.seats):
            for knob, direction in [("limp", 0), *((knob, d) for knob in SEAT_KNOBS for d in (1, -1))]:
                now = getattr(best[seat].preflop, knob)
                value = (not now) if knob == "limp" else round(min(max(now + direction * step, 0.0), 1.0), 4)
                changed = dataclasses.replace(
                    best[seat], preflop=dataclasses.replace(best[seat].preflop, **{knob: value})
                )
                trial = best[:seat] + (changed,) + best[seat + 1 :]
                figures = play_figures(records.table(trial), deals)
                if seat_distance(figures, target, seat) < seat_distance(reached, target, seat):
                    best, reached = trial, figures
                    log(
                        f"seat {seat} preflop.{knob} = {value}: vpip {figures.seat_vpip[seat]:.3f}, "
                        f"pfr {figures.seat_pfr[seat]:.3f}"
                    )
        step /= 2
    return best, reached


def seat_residuals(target: Figures, reached: Figures) -> list[tuple[int, str, float, float, float]]:
    """Per seat and figure (VPIP, PFR): the records' value, the fitted seat's, and the residual."""
    return [
        (
            seat,
            t,
            getattr(target, f"seat_{t}")[seat],
            getattr(reached, f"seat_{t}")[seat],
            getattr(reached, f"seat_{t}")[seat] - getattr(target, f"seat_{t}")[seat],
        )
        for seat in range(len(reached.seat_vpip))
        for t in ("vpip", "pfr")
    ]


def policy_toml(policy: Policy, rows: list[tuple[str, float, float]], heading: str) -> str:
    """The fitted policy as a TOML file, ``heading`` and a table of ``rows`` (figure, records,
    fitted) in comments."""
    return "\n".join(
        [
            f'name = "{policy.name}"',
            f'description = "{policy.description}"',
            f"# {heading}",
            "# figure                records    fitted   residual",
            *[f"# {LABELS.get(t, t):20} {a:9.3f} {b:9.3f} {b - a:+10.3f}" for t, a, b in rows],
            "",
            *tables_toml(policy),
        ]
    )
