"""The rule book's two claims about play, answered under equilibrium (``sampyong run strategy``).

Two sweeps of ``run solve`` (``jobs.solve``) over PLS7 boards, each board solved under the base
ranking and under the reversed order the claim is about, paired:

- *Turn action* (RULES: straight above trips "keeps the action on the turn between a player
  holding trips and one holding a straight draw; reversed, the draw's river equity is zero and
  it has no price to call a turn bet"). Turn spots where the out-of-position range is every
  hand holding trips on the board (``made:three_of_a_kind``) and the in-position range every
  pure straight draw (``draw:straight``: high card to two pair now, a straight with some river),
  under ``base`` and ``trips_over_straight``. Measured: how the draw answers the turn's first
  bet (call, raise, fold), how often the turn is bet and raised, the pot entering the river
  and each side's EV.
- *Chops* (RULES: flush above skip straight although skip is slightly rarer, "because the
  reverse raises chops from 7.05 % to 8.20 %", measured 6-handed with everyone showing down).
  River spots of the top 30 % against the top 30 % under ``base`` and ``skip_over_flush``: the
  high chop rate at showdown under equilibrium play, beside the same ranges' rate with no folds.

The boards are drawn uniformly (turn boards: the first draws on which both rules pick a hand),
the same under both orders; every figure is a mean over boards with its standard error over
boards, and each verdict a paired difference. The report says that the verdicts depend on no
invented player but do depend on the spot templates, and prints them.
"""

from __future__ import annotations

import hashlib
import math
from pathlib import Path

import numpy as np
import polars as pl

from jobs import STUDIES
from jobs.common import SE_LEGEND, markdown, table
from jobs.solve import POLICY, _mean_se, statistic_words, template_lines
from pipeline.aggregate import number, percent, points
from pipeline.plan import RunConfig
from pipeline.runner import execute_all
from pipeline.store import atomic_write
from pipeline.study import SEED, Option

NAME = "strategy"
DESCRIPTION = "the rule book's turn-action and chop claims under equilibrium play (solved PLS7 spots, paired)"
OPTIONS = (
    Option("deals", "Boards each sweep solves (the turn sweep takes about a minute a board on one core).",
           default="24", aliases=("--boards",)),
    SEED,
)
TURN = {"street": "turn", "oop": "made:three_of_a_kind", "ip": "draw:straight", "pot": "100", "stack": "400",
        "bets": "turn: 50%, 100%; river: 75%, pot", "raises": "100%", "max_raises": "1", "target": "0.5",
        "iterations": "300", "variants": "ranking=trips_over_straight"}
RIVER = {"street": "river", "oop": "30%", "ip": "30%", "pot": "100", "stack": "400", "bets": "75%, pot",
         "raises": "100%", "max_raises": "1", "target": "0.3", "iterations": "300", "variants": "ranking=skip_over_flush"}
RULEBOOK_CHOPS = (0.0705, 0.0820)  # RULES: the 6-handed high chop rate, everyone showing down, base and reversed


def runs(config: RunConfig) -> list[RunConfig]:
    """The two sweeps: turn action, then chops."""
    study = STUDIES["solve"]
    out = []
    for options in (TURN, RIVER):
        run = RunConfig(job="solve", game="pls7", deals=config.deals, shard_deals=1, players=2, seed=config.seed,
                        options=tuple(sorted(options.items())))
        study.validate(run)
        out.append(study.configure(run))
    return out


def run_campaign(config: RunConfig, backend, out: Path, *, resume: bool, quiet: bool) -> Path:
    """Run both sweeps as one job graph and write the verdicts; the report's folder."""
    configs = runs(config)
    digest = hashlib.sha256("".join(c.run_id for c in configs).encode()).hexdigest()[:12]
    report_dir = Path(out) / NAME / digest
    turn_dir, river_dir = execute_all([(STUDIES["solve"], c) for c in configs], backend, out, resume=resume, quiet=quiet)
    write_report(configs, turn_dir, river_dir, report_dir)
    return report_dir


def paired(boards: pl.DataFrame, variant: str, column: str) -> dict[str, float]:
    """``column``'s mean under the base and under ``variant`` and their board-by-board difference, each ± SE over boards."""
    base = boards.filter(pl.col("variant") == "base").sort("board_index")
    other = boards.filter(pl.col("variant") == variant).sort("board_index")
    if not base["board_index"].equals(other["board_index"]):
        raise ValueError("the sweep's variants were not solved on the same boards")
    a = base[column].cast(pl.Float64).to_numpy()
    b = other[column].cast(pl.Float64).to_numpy()
    keep = ~(np.isnan(a) | np.isnan(b))
    a, b = a[keep], b[keep]
    n = len(a)

    def se(x):
        return float(x.std(ddof=1) / math.sqrt(n)) if n > 1 else math.nan

    return {"base": float(a.mean()), "base_se": se(a), "variant": float(b.mean()), "variant_se": se(b),
            "difference": float((b - a).mean()), "difference_se": se(b - a), "boards": n}


def _with_continue(boards: pl.DataFrame) -> pl.DataFrame:
    return boards.with_columns((pl.col("turn_ip_call_vs_bet") + pl.col("turn_ip_raise_vs_bet")).alias("turn_ip_continue_vs_bet"))


TURN_FIGURES = ("turn_ip_continue_vs_bet", "turn_ip_call_vs_bet", "turn_ip_raise_vs_bet", "turn_bet", "turn_raise",
                "pot_river", "ev_oop", "ev_ip", "exploitability")
CHOP_FIGURES = ("hi_chop", "hi_chop_no_folds", "showdown", "river_bet", "exploitability")
FIGURE_WORDS = {"turn_ip_continue_vs_bet": "turn: the draw calls or raises the first bet",
                "turn_ip_call_vs_bet": "turn: the draw calls the first bet",
                "turn_ip_raise_vs_bet": "turn: the draw raises the first bet",
                "ev_oop": "EV of the trips (chips)", "ev_ip": "EV of the draw (chips)"}
RATES = {"turn_ip_continue_vs_bet", "turn_ip_call_vs_bet", "turn_ip_raise_vs_bet", "turn_bet", "turn_raise",
         "hi_chop", "hi_chop_no_folds", "showdown", "river_bet"}


def figure_table(boards: pl.DataFrame, variant: str, figures: tuple[str, ...]) -> pl.DataFrame:
    rows = []
    for figure in figures:
        found = paired(boards, variant, figure)
        rate = figure in RATES
        show = percent if rate else number
        rows.append({"figure": FIGURE_WORDS.get(figure, statistic_words(figure)),
                     "base": show(found["base"], found["base_se"]),
                     variant.removeprefix("ranking="): show(found["variant"], found["variant_se"]),
                     "difference": (points if rate else number)(found["difference"], found["difference_se"]),
                     "boards": found["boards"]})
    return pl.DataFrame(rows)


def policy_table(turn: pl.DataFrame, river: pl.DataFrame) -> pl.DataFrame:
    """Each policy's exploitability (% of the pot, both seats) in the two spots under each
    order, mean ± SE over boards, closest to equilibrium first (by the turn and river bases'
    mean); the solver's own reached figure first."""
    columns = ["exploitability"] + sorted((c for c in turn.columns if c.startswith(POLICY)),
                                          key=lambda c: _mean(turn, "base", c) + _mean(river, "base", c))
    rows = []
    for column in columns:
        name = column.removeprefix(POLICY)
        row = {"policy": "equilibrium (DCFR, as reached)" if column == "exploitability" else name}
        for label, frame, variant in (("turn, base", turn, "ranking=trips_over_straight"),
                                      ("river, base", river, "ranking=skip_over_flush")):
            found = paired(frame, variant, column)
            row[label] = number(found["base"], found["base_se"])
            row[label.replace("base", variant.removeprefix("ranking="))] = number(found["variant"], found["variant_se"])
        row["what it is"] = "the solver's average strategies" if column == "exploitability" else _description(name)
        rows.append(row)
    return pl.DataFrame(rows)


def _description(name: str) -> str:
    from engine.policy import builtin, builtin_names

    return builtin(name).description if name in builtin_names() else "from a policy file"


def _mean(boards: pl.DataFrame, variant: str, column: str) -> float:
    return float(boards.filter(pl.col("variant") == variant)[column].mean())


def closest_policy(turn: pl.DataFrame, river: pl.DataFrame) -> str:
    """The verdict on the policies: which is closest to equilibrium in each spot (base order),
    and its lead over the next, paired over boards."""
    parts = []
    for spot, frame in (("turn", turn), ("river", river)):
        base = frame.filter(pl.col("variant") == "base")
        columns = sorted((c for c in frame.columns if c.startswith(POLICY)), key=lambda c: _mean(frame, "base", c))
        if not columns:
            return "- **The policies against equilibrium:** no policy was measured."
        text = f"in the {spot} spot **{columns[0].removeprefix(POLICY)}**, {number(*_mean_se(base[columns[0]].to_numpy()))} % of the pot"
        if len(columns) > 1:
            lead = _mean_se((base[columns[1]] - base[columns[0]]).to_numpy())
            text += f" ({number(*lead)} points below the next, {columns[1].removeprefix(POLICY)})"
        solver = _mean_se(base["exploitability"].to_numpy())
        text += f", against {number(*solver)} % for the solver's strategies"
        parts.append(text)
    return ("- **The policies against equilibrium:** each built-in policy playing both seats, the closest to "
            "equilibrium is " + "; ".join(parts) + ".")


def verdicts(turn: pl.DataFrame, river: pl.DataFrame) -> list[str]:
    """The two verdicts in words, each with its figure and SE."""
    action = paired(turn, "ranking=trips_over_straight", "turn_ip_continue_vs_bet")
    pot = paired(turn, "ranking=trips_over_straight", "pot_river")
    kept = action["difference"] < -2 * action["difference_se"]
    chops = paired(river, "ranking=skip_over_flush", "hi_chop")
    raised = chops["difference"] > 2 * chops["difference_se"]
    return [
        f"- **Straight above trips keeps the turn action: {'yes' if kept else 'not shown'}.** Facing the turn's "
        f"first bet, the straight draw calls or raises {percent(action['base'], action['base_se'])} of the time with "
        f"straight above trips and {percent(action['variant'], action['variant_se'])} with trips above straight "
        f"(difference {points(action['difference'], action['difference_se'])}, over {action['boards']} boards); the pot "
        f"entering the river is {number(pot['base'], pot['base_se'])} chips against {number(pot['variant'], pot['variant_se'])}.",
        f"- **Skip straight above flush raises chops: {'yes' if raised else 'not shown'}.** Under equilibrium play the "
        f"high is chopped at {percent(chops['base'], chops['base_se'])} of heads-up river showdowns with flush above skip "
        f"straight and {percent(chops['variant'], chops['variant_se'])} with skip above flush (difference "
        f"{points(chops['difference'], chops['difference_se'])}, over {chops['boards']} boards), beside the rule book's "
        f"{100 * RULEBOOK_CHOPS[0]:.2f} % and {100 * RULEBOOK_CHOPS[1]:.2f} % measured six-handed with everyone showing down.",
        closest_policy(turn, river),
        "",
        "A verdict holds when the paired difference is more than two standard errors in the claimed direction. These "
        "verdicts depend on no invented player, but they do depend on the spot templates (bet sizes, ranges), "
        "printed below.",
    ]


def write_report(configs: list[RunConfig], turn_dir: Path, river_dir: Path, report_dir: Path) -> None:
    turn = _with_continue(pl.read_parquet(turn_dir / "tables" / "boards.parquet"))
    river = pl.read_parquet(river_dir / "tables" / "boards.parquet")
    lines = [
        "# The rule book's claims about play, under equilibrium (PLS7)", "",
        "Each board solved by DCFR (`sampyong run solve`) under the base ranking and under the reversed order, "
        "the same boards under both; figures are means over boards ± one standard error over boards, "
        "differences paired board by board. " + SE_LEGEND, "",
        "## Verdicts", "", *verdicts(turn, river), "",
        "## Turn action: trips against a straight draw", "",
        table(figure_table(turn, "ranking=trips_over_straight", TURN_FIGURES)),
        "Spot template:", "", *template_lines(configs[0]), "", f"Sweep: `{turn_dir}`", "",
        "## Chops at a river showdown", "",
        table(figure_table(river, "ranking=skip_over_flush", CHOP_FIGURES)),
        "Spot template:", "", *template_lines(configs[1]), "", f"Sweep: `{river_dir}`", "",
        "## The policies against equilibrium", "",
        "Each built-in policy's exploitability when it plays both seats of the solved spot (% of the starting pot, "
        "mean over boards ± SE): what a best response wins from it, averaged over the two seats, as the solver "
        "measures its own strategies. The policies act on their exact strength against any hand and on the "
        "tree's sizes nearest theirs (`solver.policies`). Closest to equilibrium first.", "",
        table(policy_table(turn, river)),
    ]
    report_dir.mkdir(parents=True, exist_ok=True)
    atomic_write(report_dir / "report.md", lambda tmp: Path(tmp).write_text(markdown(lines), encoding="utf-8"))
