"""The fit's face: ``sy.fit`` returns a ``Fit``, the policy with its report (``sampyong fit`` is the
CLI over it): the records' statistics, the fitted policy's on fresh deals with standard errors,
the residual per statistic and the verdict, the fit from every start side by side, and how each
start's search converged (a figure)."""

from __future__ import annotations

import contextlib
import dataclasses
import math
import os
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import polars as pl

from engine.fit import LABELS, REPORTED, TOLERANCE, Fitted, policy_toml, seat_residuals
from sampyong.examples import _example_records  # noqa: F401  (the doctests' records)


@dataclasses.dataclass(frozen=True)
class Fit:
    """A policy fitted to hand records (``sy.fit``).

    Parameters:
        fitted: the search (``engine.fit.Fitted``): the records' table and statistics, the hands a
            trial played, each start's search and its policy's figures on fresh deals.
        name: the fitted policy's name.
        seats: with ``positions``, one policy per seat (the small blind first), each seat's
            preflop play fitted to that seat's VPIP and PFR; ``seats_reached`` their figures.

    >>> fitted = fit(_example_records(200), start="regular", hands=2000, trials=12, targets="vpip,pfr", workers=1)
    >>> fitted.starts["start"].to_list(), fitted.report().startswith("# Fit of a policy to 200 records")
    (['regular'], True)
    """

    fitted: Fitted
    name: str = "fitted"
    seats: tuple = ()
    seats_reached: Any = None

    def policy_of(self, start: str | None = None):
        """The policy fitted from ``start`` (default: the best start), named and described."""
        search = next(s for s in self.fitted.searches if s.start == start) if start else self.fitted.best
        records = self.fitted.records
        suffix = "" if start is None else f"-from-{start}"
        return dataclasses.replace(
            search.policy,
            name=self.name + suffix,
            description=(
                f"fitted to {records.hands:,} records of {records.game.name}, {records.seats} players, from {search.start}"
            ),
        )

    @property
    def policy(self):
        """The best start's policy."""
        return self.policy_of()

    @property
    def target(self):
        """The records' statistics (``engine.fit.Figures``)."""
        return self.fitted.records.figures

    @property
    def reached(self):
        """The fitted policy's statistics on fresh deals."""
        return self.fitted.check

    @property
    def targets(self) -> tuple[str, ...]:
        return self.fitted.targets

    def toml(self, start: str | None = None) -> str:
        """The fitted policy (of ``start``, default the best) as a TOML file (``sampyong policies``
        reads it back), the records' figures and its own in comments."""
        rows = [(r["figure"], r["records"], r["fitted"]) for r in self.fitted.residuals(start)]
        check = self.fitted.checks[start or self.fitted.best.start]
        return policy_toml(
            self.policy_of(start),
            rows,
            f"fitted to {self.fitted.records.hands:,} records; its figures on {check.hands:,} fresh hands",
        )

    def seat_toml(self, seat: int) -> str:
        """Seat ``seat``'s fitted policy as a TOML file, its VPIP and PFR in comments."""
        target, reached = self.target, self.seats_reached
        rows = [(t, getattr(target, f"seat_{t}")[seat], getattr(reached, f"seat_{t}")[seat]) for t in ("vpip", "pfr")]
        return policy_toml(
            self.seats[seat], rows, f"seat {seat}, fitted to its VPIP and PFR in {target.hands:,} records"
        )

    @property
    def seat_frame(self) -> pl.DataFrame:
        """``seat, figure, records, fitted, residual``: each seat's VPIP and PFR (empty without positions)."""
        rows = seat_residuals(self.target, self.seats_reached) if self.seats else []
        return pl.DataFrame(
            rows,
            orient="row",
            schema={
                "seat": pl.Int64,
                "figure": pl.String,
                "records": pl.Float64,
                "fitted": pl.Float64,
                "residual": pl.Float64,
            },
        )

    @property
    def frame(self) -> pl.DataFrame:
        """Per statistic (the fitted ones first): the records' value and SE, the best policy's on fresh
        deals and its SE, the residual, the tolerance, whether it was fitted, whether it is within."""
        return _frame(self.fitted.residuals())

    @property
    def starts(self) -> pl.DataFrame:
        """Per start: the distance reached on the search's deals, the trials, why the search stopped,
        and on fresh deals whether every fitted statistic is within its tolerance and the largest
        miss in tolerances."""
        rows = []
        for search in self.fitted.searches:
            residuals = [r for r in self.fitted.residuals(search.start) if r["fitted_to"]]
            worst = max(residuals, key=lambda r: abs(r["in_tolerances"]))
            rows.append(
                {
                    "start": search.start,
                    "distance": search.distance,
                    "trials": search.trials,
                    "within": all(r["within"] for r in residuals),
                    "worst": worst["figure"],
                    "worst_in_tolerances": worst["in_tolerances"],
                    "stopped": search.stop,
                }
            )
        return pl.DataFrame(rows)

    @property
    def by_start(self) -> pl.DataFrame:
        """Each reported statistic: the records', then each start's fit on fresh deals."""
        rows = []
        for name in REPORTED:
            row = {"figure": name, "records": self.target[name]}
            row.update({s.start: self.fitted.checks[s.start][name] for s in self.fitted.searches})
            rows.append(row)
        return pl.DataFrame(rows)

    def agreement(self, names=None) -> dict[str, float]:
        """Per fitted statistic (or each of ``names``), the largest difference between two starts'
        fits (fresh deals)."""
        checks = list(self.fitted.checks.values())
        return {name: max(c[name] for c in checks) - min(c[name] for c in checks) for name in names or self.targets}

    def agree(self, names=None) -> bool:
        """Whether the fits from every start agree with each other within the tolerances, on every
        fitted statistic (or each of ``names``)."""
        return all(spread <= TOLERANCE[name] for name, spread in self.agreement(names).items())

    def verdict(self) -> str:
        """One sentence: within the tolerances or not, and by how much."""
        rows = [r for r in self.fitted.residuals() if r["fitted_to"]]
        outside = [r for r in rows if not r["within"]]
        worst = max(rows, key=lambda r: abs(r["in_tolerances"]))
        if not outside:
            return (
                f"within tolerance: every fitted statistic lands within its tolerance, the closest call "
                f"{_label(worst['figure'])} at {abs(worst['in_tolerances']):.2f} of it"
            )
        return "not within tolerance: " + ", ".join(
            f"{_label(r['figure'])} misses by {_amount(r['figure'], r['residual'])} "
            f"({abs(r['in_tolerances']):.1f} tolerances)"
            for r in outside
        )

    def _agreement_sentence(self) -> str:
        if len(self.fitted.searches) < 2:
            return "One start: nothing to agree with."
        apart = {n: v for n, v in self.agreement().items() if abs(v) > TOLERANCE[n]}
        if not apart:
            return f"The fits from all {len(self.fitted.searches)} starts agree with each other within the tolerances."
        return (
            f"The fits from the {len(self.fitted.searches)} starts agree within the tolerances but on "
            + ", ".join(f"{_label(n)} ({_amount(n, v)} apart)" for n, v in apart.items())
            + "."
        )

    def figure(self):
        """The convergence of each start's search: the best distance after each trial (log scale)."""
        from matplotlib.figure import Figure

        figure = Figure(figsize=(8, 4.5), dpi=90)
        axes = figure.add_subplot()
        for search in self.fitted.searches:
            axes.plot(range(1, search.trials + 1), search.history, label=f"from {search.start}")
        axes.set_yscale("log")
        axes.set_xlabel("trial")
        axes.set_ylabel("distance to the records (sum of squared misses in SEs)")
        axes.set_title(f"Fit to {self.fitted.records.hands:,} records: convergence from each start")
        axes.axhline(len(self.targets), color="grey", linestyle=":", linewidth=1, label="one SE a statistic")
        axes.legend()
        figure.tight_layout()
        return figure

    def report(self, figure_file: str | None = "convergence.png") -> str:
        """The fit report as Markdown (``figure_file``: the convergence figure beside it)."""
        fitted, records = self.fitted, self.fitted.records
        figures = self.frame
        lines = [
            f"# Fit of a policy to {records.hands:,} records",
            "",
            f"{records.game.name}, {records.seats} players dealt in, {records.betting.kind}, {records.stack_bb:g} big blinds "
            f"deep (the records' median stack), blinds 1 and 2"
            + (
                f"; {records.other_hands:,} records of other tables or that do not replay left out"
                if records.other_hands
                else ""
            )
            + ".",
            "",
            f"**Verdict: {self.verdict()}.** " + self._agreement_sentence(),
            "",
            f"Every trial of the search played the same {fitted.hands:,} deals (common random numbers: trials differ by "
            f"their policies only), chosen from pilot runs of every start and the records themselves so that each fitted "
            f"statistic's standard error in a trial is below a quarter of its tolerance ({_pilot_line(fitted)}). The figures below are each start's best policy on "
            f"{fitted.check.hands:,} fresh deals, never the deals it was tuned to; ± one standard error.",
            "",
            "## The fitted policy against the records",
            "",
            _markdown(
                figures.select(
                    "figure",
                    "records",
                    "records_se",
                    "fitted",
                    "fitted_se",
                    "residual",
                    "tolerance",
                    "fitted_to",
                    "within",
                )
            ),
            "",
            "## From every start",
            "",
            _markdown(self.starts),
            "",
            _markdown(self.by_start),
            "",
            "Largest difference between two starts: "
            + ", ".join(f"{_label(n)} {_amount(n, v)}" for n, v in self.agreement().items())
            + ".",
        ]
        if figure_file:
            lines += ["", f"![convergence]({figure_file})"]
        lines += ["", "## The fitted policy", "", "```toml", self.toml().rstrip(), "```"]
        return "\n".join(lines) + "\n"

    def save(self, folder: str | Path) -> Path:
        """Write the report (``report.md``, ``convergence.png``), the statistics (``fit.csv``,
        ``starts.csv``) and the policy of every start (``NAME.toml`` the best, ``NAME-from-START.toml``)
        to ``folder``, each file whole or not at all; return the folder."""
        from pipeline.store import atomic_write

        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        atomic_write(folder / "convergence.png", lambda tmp: self.figure().savefig(tmp, format="png"))
        atomic_write(folder / "fit.csv", lambda tmp: self.frame.write_csv(tmp))
        atomic_write(folder / "starts.csv", lambda tmp: self.starts.write_csv(tmp))
        atomic_write(folder / f"{self.name}.toml", lambda tmp: tmp.write_text(self.toml(), encoding="utf-8"))
        for search in self.fitted.searches:
            atomic_write(
                folder / f"{self.name}-from-{search.start}.toml",
                lambda tmp, start=search.start: tmp.write_text(self.toml(start), encoding="utf-8"),
            )
        atomic_write(folder / "report.md", lambda tmp: tmp.write_text(self.report(), encoding="utf-8"))
        return folder


def _frame(rows: list[dict]) -> pl.DataFrame:
    return pl.DataFrame(sorted(rows, key=lambda r: not r["fitted_to"])).drop("in_tolerances")


def _label(name: str) -> str:
    return LABELS.get(name, name)


def _amount(name: str, value: float) -> str:
    """A difference of ``name``: percentage points of a share, else a plain number."""
    if name == "players" or name.startswith("af"):
        return f"{value:+.2f}"
    return f"{100 * value:+.1f} pp"


def _pilot_line(fitted: Fitted) -> str:
    """Each fitted statistic's standard error in a trial: at the worst pilot (a start or the records),
    and at the fitted policy; against a quarter of its tolerance."""

    def trial_se(figures, name) -> float:
        return figures.se[name] * math.sqrt(figures.hands / fitted.hands)

    pilots = [*fitted.pilots.values(), fitted.records.figures]
    return ", ".join(
        f"{_label(n)} {max(trial_se(p, n) for p in pilots if math.isfinite(p.se[n])):.4f} at the worst "
        f"pilot, {trial_se(fitted.check, n):.4f} fitted, against {TOLERANCE[n] / 4:g}"
        for n in fitted.targets
    )


def _markdown(frame: pl.DataFrame) -> str:
    """A plain Markdown table: shares and their errors as they are, four decimals."""

    def cell(value) -> str:
        if isinstance(value, bool):
            return "yes" if value else "no"
        if isinstance(value, float):
            return "–" if value != value else f"{value:.4f}"
        return str(value)

    rows = [" | ".join(frame.columns)] + [" | ".join("---" for _ in frame.columns)]
    rows += [" | ".join(cell(v) for v in row) for row in frame.iter_rows()]
    return "\n".join(f"| {r} |" for r in rows)


def fit(
    records: str | Path | list,
    *,
    game: str | None = None,
    start: str | None = None,
    hands: str | int | None = None,
    trials: int = 2400,
    seed: int = 1,
    name: str = "fitted",
    targets: str | None = None,
    positions: bool = False,
    workers: int | None = None,
    log=None,
    progress=None,
) -> Fit:
    """Fit a policy to hand records (``sampyong fit``; ``engine.fit``): the flop seen, the players
    there, the showdowns reached, VPIP, PFR, three-bet and the aggression factor of each street
    (``targets``: a comma list of some of them), at the records' most common table of the game
    most of them play (or ``game``), by CMA-ES from each of ``start`` (a comma list of policies,
    built-in or ``.toml``; default tight, loose, regular and station), ``trials`` trials a start
    of ``hands`` hands each on the same deals (default: enough for standard errors below a
    quarter of the tolerances, from a pilot run), keeping the best; ``workers`` processes play each
    generation's trials side by side (default: one a core; the fit is the same with any number).
    ``log(line)`` hears each stage, ``progress(total)`` returns a function called after every
    trial. With ``positions``,
    each seat's preflop play is then fitted to that seat's own VPIP and PFR (``Fit.seats``).
    Fewer than 200 usable records is a ``SampyongError``.

    >>> fitted = fit(_example_records(200), start="regular", hands=2000, trials=12, targets="vpip,pfr")
    >>> fitted.policy.name, fitted.fitted.records.hands, fitted.frame["figure"].to_list()[:2]
    ('fitted', 200, ['vpip', 'pfr'])
    """
    import builtins

    from engine.fit import PILOT_HANDS, STARTS, TARGETS, fit_positions, read_records
    from engine.fit import fit as search
    from engine.policy import load_policy
    from engine.tune import Deals
    from evaluator.errors import SampyongError
    from evaluator.games import game as preset
    from pipeline.counts import parse_count
    from sampyong.rankings import ranking

    wanted = TARGETS if targets is None else tuple(t.strip() for t in targets.split(","))
    unknown = [t for t in wanted if t not in TARGETS]
    if unknown or not wanted:
        raise SampyongError(f"unknown target {unknown[0] if unknown else targets!r}; choose from {', '.join(TARGETS)}")
    if trials < 10:
        raise SampyongError(f"a fit needs at least 10 trials a start, not {trials}")
    per_trial = None if hands in (None, "auto") else parse_count(str(hands), "hand count", at_most=10**7)
    names = [n.strip() for n in (start or ",".join(STARTS)).split(",") if n.strip()]
    if not names or len(set(names)) != len(names):
        raise SampyongError(f"--start names no policy, or one twice: {start!r}")
    starts = [load_policy(n) for n in names]
    for policy in starts:
        if policy.style != "thresholds":
            raise SampyongError(f"policy {policy.name} is {policy.style}: a fit starts from a thresholds policy")
    chosen = None if game is None else preset(game)
    paths = [records] if isinstance(records, (str, Path)) else list(records)
    target = read_records([Path(p) for p in paths], chosen)
    if not 2 <= target.game.hole_cards <= 4:
        raise SampyongError(
            f"fit ranks starting hands by the heads-up grid, which covers games of 2 to 4 hole cards; "
            f"{target.game.name} has {target.game.hole_cards}"
        )
    log = log or (lambda line: None)
    shown = [t for t in wanted if math.isfinite(target.figures[t])]
    if not shown:
        raise SampyongError(f"the records show none of {', '.join(wanted)} (no flop, no call, no raise to re-raise)")
    if len(shown) < len(wanted):
        log(f"the records show no {', '.join(t for t in wanted if t not in shown)}: left out of the fit")
    log(
        f"records: {target.hands:,} hands of {target.game.name}, {target.seats} players, {target.stack_bb:g} big blinds: "
        + ", ".join(f"{t} {target.figures[t]:.3f} ± {target.figures.se[t]:.3f}" for t in shown)
    )
    ranks = ranking(target.game)
    workers = (os.cpu_count() or 1) if workers is None else workers
    if workers < 1:
        raise SampyongError(f"workers must be at least 1, not {workers}")
    with contextlib.ExitStack() as stack:
        play: Callable[..., Iterable] = map  # (trial, policies) -> their results
        if workers > 1:
            pool = stack.enter_context(ProcessPoolExecutor(workers))
            play = lambda trial, policies: list(pool.map(trial, policies, chunksize=-(-len(policies) // workers)))  # noqa: E731
        fitted = search(
            target,
            starts,
            ranks,
            hands=per_trial,
            trials=trials,
            seed=seed,
            targets=tuple(shown),
            log=log,
            progress=progress,
            map=play,
        )
    result = Fit(fitted, name)
    log(f"best from {fitted.best.start}: {result.verdict()}")
    if not positions:
        return result
    best = result.policy
    named = tuple(
        dataclasses.replace(best, name=f"{name}-seat{s}", description=f"seat {s} of {target.seats}, {best.description}")
        for s in builtins.range(target.seats)
    )
    deals = Deals.dealt(target.game, target.seats, max(fitted.hands, PILOT_HANDS), (seed, 3), ranks)
    seats, reached = fit_positions(target, named, deals, log=log)
    return dataclasses.replace(result, seats=seats, seats_reached=reached)
