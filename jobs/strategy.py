"""The rule book's two claims about play, answered under equilibrium (``sampyong run strategy``).

Three sweeps of ``run solve`` (``jobs.solve``) over PLS7 boards, each board solved under the
base ranking and under the reversed order the claim is about, paired:

- *Turn action* (RULES: straight above trips "keeps the action on the turn between a player
  holding trips and one holding a straight draw; reversed, the draw's river equity is zero and
  it has no price to call a turn bet"). Turn spots where the out-of-position range is every
  hand holding trips on the board (``made:three_of_a_kind``) and the in-position range every
  pure straight draw (``draw:straight``: high card to two pair now, a straight with some river),
  under ``base`` and ``trips_over_straight``. Measured: how the draw answers the turn's first
  bet (call, raise, fold), how often the turn is bet and raised, the pot entering the river
  and each side's EV.
- *Turn action inside mixed ranges*: turn spots of the top 15 % against the top 15 % (the base
  game's heads-up ranking: not ranges built from any policy's preflop and flop play), solved
  for the whole ranges and read (``--focus``) on the pairs where the out-of-position player
  holds trips and the other a straight draw.
- *Chops* (RULES: flush above skip straight although skip is slightly rarer, "because the
  reverse raises chops from 7.05 % to 8.20 %", measured 6-handed with everyone showing down).
  River spots of the top 30 % against the top 30 % under ``base`` and ``skip_over_flush``: the
  high chop rate at showdown under equilibrium play, beside the same ranges' rate with no folds.

Beside the verdicts, every built-in policy's exploitability in the three spots (``solver.policies``),
and which is closest to equilibrium. The boards are drawn uniformly (turn boards of the first
spot: the first draws on which both rules pick a hand), the same under both orders; every
figure is a mean over boards with its standard error over boards, and each verdict a paired
difference. The report says that the verdicts depend on no invented player but do depend on the
spot templates, and prints them.
"""

from __future__ import annotations

import hashlib
import math
from pathlib import Path

import numpy as np
import polars as pl

from jobs import STUDIES
from jobs.common import SE_LEGEND, markdown, table
from jobs.solve import POLICY, board_mean, statistic_words, template_lines
from pipeline.aggregate import number, percent, points
from pipeline.plan import RunConfig
from pipeline.runner import execute_all
from pipeline.store import atomic_write
from pipeline.study import SEED, Option

NAME = "strategy"
DESCRIPTION = "the rule book's turn-action and chop claims under equilibrium play (solved PLS7 spots, paired)"
OPTIONS = (
    Option(
        "deals",
        "Boards each sweep solves (the turn sweep takes about a minute a board on one core).",
        default="24",
        aliases=("--boards",),
    ),
    SEED,
)
TURN = {
    "street": "turn",
    "oop": "made:three_of_a_kind",
    "ip": "draw:straight",
    "pot": "100",
    "stack": "400",
    "bets": "turn: 50%, 100%; river: 75%, pot",
    "raises": "100%",
    "max_raises": "1",
    "target": "0.5",
    "iterations": "300",
    "variants": "ranking=trips_over_straight",
}
MIXED_TOP = 15  # % of the hands in each range of the mixed turn spot
MIXED = {**TURN, "oop": f"{MIXED_TOP}%", "ip": f"{MIXED_TOP}%", "focus": "oop:made:three_of_a_kind;ip:draw:straight"}
RIVER = {
    "street": "river",
    "oop": "30%",
    "ip": "30%",
    "pot": "100",
    "stack": "400",
    "bets": "75%, pot",
    "raises": "100%",
    "max_raises": "1",
    "target": "0.3",
    "iterations": "300",
    "variants": "ranking=skip_over_flush",
}
RULEBOOK_CHOPS = (0.0705, 0.0820)  # RULES: the 6-handed high chop rate, everyone showing down, base and reversed


def runs(config: RunConfig) -> list[RunConfig]:
    """The three sweeps: turn action (trips against draws, then inside top-N % ranges), then chops."""
    study = STUDIES["solve"]
    out = []
    for options in (TURN, MIXED, RIVER):
        run = RunConfig(
            job="solve",
            game="pls7",
            deals=config.deals,
            shard_deals=1,
            players=2,
            seed=config.seed,
            options=tuple(sorted(options.items())),
        )
        study.validate(run)
        out.append(study.configure(run))
    return out


def run_campaign(
    config: RunConfig, backend, out: Path, *, resume: bool, quiet: bool, upstream_out: Path | None = None
) -> Path:
    """Run the sweeps as one job graph and write the verdicts; the report's folder."""
    configs = runs(config)
    digest = hashlib.sha256("".join(c.run_id for c in configs).encode()).hexdigest()[:12]
    report_dir = Path(out) / NAME / digest
    dirs = execute_all(
        [(STUDIES["solve"], c) for c in configs], backend, out, resume=resume, quiet=quiet, upstream_out=upstream_out
    )
    write_report(configs, dirs, report_dir)
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

    return {
        "base": float(a.mean()),
        "base_se": se(a),
        "variant": float(b.mean()),
        "variant_se": se(b),
        "difference": float((b - a).mean()),
        "difference_se": se(b - a),
        "boards": n,
    }


def _with_continue(boards: pl.DataFrame) -> pl.DataFrame:
    """``turn_ip_continue_vs_bet`` (call or raise), for the focus hands as well when there are some."""
    prefixes = [p for p in ("", "focus_") if f"{p}turn_ip_call_vs_bet" in boards.columns]
    return boards.with_columns(
        *[
            (pl.col(f"{p}turn_ip_call_vs_bet") + pl.col(f"{p}turn_ip_raise_vs_bet")).alias(
                f"{p}turn_ip_continue_vs_bet"
            )
            for p in prefixes
        ]
    )


TURN_FIGURES = (
    "turn_ip_continue_vs_bet",
    "turn_ip_call_vs_bet",
    "turn_ip_raise_vs_bet",
    "turn_bet",
    "turn_raise",
    "pot_river",
    "ev_oop",
    "ev_ip",
    "exploitability",
)
MIXED_FIGURES = (
    "focus_turn_ip_continue_vs_bet",
    "focus_turn_ip_call_vs_bet",
    "focus_turn_ip_raise_vs_bet",
    "focus_turn_bet",
    "focus_turn_raise",
    "focus_pot_river",
    "focus_share",
    "turn_ip_continue_vs_bet",
    "turn_bet",
    "pot_river",
    "ev_oop",
    "ev_ip",
    "exploitability",
)
CHOP_FIGURES = ("hi_chop", "hi_chop_no_folds", "showdown", "river_bet", "exploitability")
FIGURE_WORDS = {
    "turn_ip_continue_vs_bet": "turn: the draw calls or raises the first bet",
    "turn_ip_call_vs_bet": "turn: the draw calls the first bet",
    "turn_ip_raise_vs_bet": "turn: the draw raises the first bet",
    "ev_oop": "EV of the trips (chips)",
    "ev_ip": "EV of the draw (chips)",
    "focus_turn_ip_continue_vs_bet": "trips v a draw: the draw calls or raises the turn's first bet",
    "focus_turn_ip_call_vs_bet": "trips v a draw: the draw calls the first bet",
    "focus_turn_ip_raise_vs_bet": "trips v a draw: the draw raises the first bet",
    "focus_turn_bet": "trips v a draw: the turn is bet",
    "focus_turn_raise": "trips v a draw: the turn is raised",
    "focus_pot_river": "trips v a draw: pot as the river is dealt (chips)",
    "focus_share": "trips v a draw: share of all pairs",
}
MIXED_WORDS = {
    **FIGURE_WORDS,
    "turn_ip_continue_vs_bet": "turn: the in-position range calls or raises the first bet",
    "ev_oop": "EV out of position (chips)",
    "ev_ip": "EV in position (chips)",
}
RATES = {
    "turn_ip_continue_vs_bet",
    "turn_ip_call_vs_bet",
    "turn_ip_raise_vs_bet",
    "turn_bet",
    "turn_raise",
    "hi_chop",
    "hi_chop_no_folds",
    "showdown",
    "river_bet",
    "focus_turn_ip_continue_vs_bet",
    "focus_turn_ip_call_vs_bet",
    "focus_turn_ip_raise_vs_bet",
    "focus_turn_bet",
    "focus_turn_raise",
    "focus_share",
}


def figure_table(boards: pl.DataFrame, variant: str, figures: tuple[str, ...], words=FIGURE_WORDS) -> pl.DataFrame:
    rows = []
    for figure in figures:
        found = paired(boards, variant, figure)
        rate = figure in RATES
        show = percent if rate else number
        rows.append(
            {
                "figure": words.get(figure, statistic_words(figure)),
                "base": show(found["base"], found["base_se"]),
                variant.removeprefix("ranking="): show(found["variant"], found["variant_se"]),
                "difference": (points if rate else number)(found["difference"], found["difference_se"]),
                "boards": found["boards"],
            }
        )
    return pl.DataFrame(rows)


SPOT_NAMES = ("turn: trips v a draw", f"turn: top {MIXED_TOP} % v top {MIXED_TOP} %", "river: top 30 % v top 30 %")
VARIANTS = ("ranking=trips_over_straight", "ranking=trips_over_straight", "ranking=skip_over_flush")


def policy_table(sweeps: list[pl.DataFrame]) -> pl.DataFrame:
    """Each policy's exploitability (% of the pot, both seats) in each sweep's spot under the
    base order, mean ± SE over boards, closest to equilibrium first (by the sum of the means);
    the solver's own reached figure first."""
    columns = ["exploitability"] + sorted(
        (c for c in sweeps[0].columns if c.startswith(POLICY)),
        key=lambda c: sum(_mean(frame, "base", c) for frame in sweeps),
    )
    rows = []
    for column in columns:
        name = column.removeprefix(POLICY)
        row = {"policy": "equilibrium (DCFR, as reached)" if column == "exploitability" else name}
        for spot, frame in zip(SPOT_NAMES, sweeps):
            base = frame.filter(pl.col("variant") == "base")
            row[spot] = number(*board_mean(base, base[column].to_numpy()))
        row["what it is"] = "the solver's average strategies" if column == "exploitability" else _description(name)
        rows.append(row)
    return pl.DataFrame(rows)


def _description(name: str) -> str:
    from engine.policy import builtin, builtin_names

    return builtin(name).description if name in builtin_names() else "from a policy file"


def _mean(boards: pl.DataFrame, variant: str, column: str) -> float:
    return float(boards.filter(pl.col("variant") == variant)[column].mean())


def closest_policy(sweeps: list[pl.DataFrame]) -> str:
    """The verdict on the policies: which is closest to equilibrium in each spot (base order),
    and its lead over the next, paired over boards."""
    parts = []
    for spot, frame in zip(SPOT_NAMES, sweeps):
        base = frame.filter(pl.col("variant") == "base")
        columns = sorted((c for c in frame.columns if c.startswith(POLICY)), key=lambda c: _mean(frame, "base", c))
        if not columns:
            return "- **The policies against equilibrium:** no policy was measured."
        text = f"{spot}, **{columns[0].removeprefix(POLICY)}** at {number(*board_mean(base, base[columns[0]].to_numpy()))} % of the pot"
        if len(columns) > 1:
            lead = board_mean(base, (base[columns[1]] - base[columns[0]]).to_numpy())
            text += f" ({number(*lead)} points below the next, {columns[1].removeprefix(POLICY)})"
        parts.append(
            text + f", the solver's strategies at {number(*board_mean(base, base['exploitability'].to_numpy()))} %"
        )
    return (
        "- **The policies against equilibrium:** each built-in policy playing both seats, the closest to "
        "equilibrium is, " + "; ".join(parts) + "."
    )


def verdicts(turn: pl.DataFrame, mixed: pl.DataFrame, river: pl.DataFrame) -> list[str]:
    """The verdicts in words, each with its figure and SE."""
    action = paired(turn, VARIANTS[0], "turn_ip_continue_vs_bet")
    pot = paired(turn, VARIANTS[0], "pot_river")
    kept = action["difference"] < -2 * action["difference_se"]
    inside = paired(mixed, VARIANTS[1], "focus_turn_ip_continue_vs_bet")
    mixed_base = mixed.filter(pl.col("variant") == "base")
    share = board_mean(mixed_base, mixed_base["focus_share"].to_numpy())
    kept_inside = inside["difference"] < -2 * inside["difference_se"]
    chops = paired(river, VARIANTS[2], "hi_chop")
    raised = chops["difference"] > 2 * chops["difference_se"]
    return [
        f"- **Straight above trips keeps the turn action: {'yes' if kept else 'not shown'}.** Facing the turn's "
        f"first bet, the straight draw calls or raises {percent(action['base'], action['base_se'])} of the time with "
        f"straight above trips and {percent(action['variant'], action['variant_se'])} with trips above straight "
        f"(difference {points(action['difference'], action['difference_se'])}, over {action['boards']} boards); the pot "
        f"entering the river is {number(pot['base'], pot['base_se'])} chips against {number(pot['variant'], pot['variant_se'])}.",
        f"- **The same inside top-{MIXED_TOP} % ranges: {'yes' if kept_inside else 'not shown'}.** Where trips face a straight "
        f"draw ({percent(*share)} of the pairs of the two ranges), the draw calls or raises the first turn bet "
        f"{percent(inside['base'], inside['base_se'])} of the time with straight above trips and "
        f"{percent(inside['variant'], inside['variant_se'])} with trips above straight (difference "
        f"{points(inside['difference'], inside['difference_se'])}, over the {inside['boards']} boards with such pairs).",
        f"- **Skip straight above flush raises chops: {'yes' if raised else 'not shown'}.** Under equilibrium play the "
        f"high is chopped at {percent(chops['base'], chops['base_se'])} of heads-up river showdowns with flush above skip "
        f"straight and {percent(chops['variant'], chops['variant_se'])} with skip above flush (difference "
        f"{points(chops['difference'], chops['difference_se'])}, over {chops['boards']} boards), beside the rule book's "
        f"{100 * RULEBOOK_CHOPS[0]:.2f} % and {100 * RULEBOOK_CHOPS[1]:.2f} % measured six-handed with everyone showing down.",
        closest_policy([turn, mixed, river]),
        "",
        "A verdict holds when the paired difference is more than two standard errors in the claimed direction. These "
        "verdicts depend on no invented player, but they do depend on the spot templates (bet sizes, ranges), "
        "printed below; the top-N % ranges are the base game's heads-up ranking, not ranges built from any "
        "policy's preflop and flop play.",
    ]


def write_report(configs: list[RunConfig], dirs: list[Path], report_dir: Path) -> None:
    turn, mixed, river = (_with_continue(pl.read_parquet(d / "tables" / "boards.parquet")) for d in dirs)
    lines = [
        "# The rule book's claims about play, under equilibrium (PLS7)",
        "",
        "Each board solved by DCFR (`sampyong run solve`) under the base ranking and under the reversed order, "
        "the same boards under both; figures are means over boards ± one standard error over boards, "
        "differences paired board by board. " + SE_LEGEND,
        "",
        "## Verdicts",
        "",
        *verdicts(turn, mixed, river),
        "",
        "## Turn action: trips against a straight draw",
        "",
        table(figure_table(turn, VARIANTS[0], TURN_FIGURES)),
        "Spot template:",
        "",
        *template_lines(configs[0]),
        "",
        f"Sweep: `{dirs[0]}`",
        "",
        f"## Turn action inside top-{MIXED_TOP} % ranges",
        "",
        "The pairs in which the out-of-position player holds trips and the other a straight draw, inside the two "
        "ranges' equilibrium (the strategies solved for the whole ranges); then the whole ranges' figures.",
        "",
        table(figure_table(mixed, VARIANTS[1], MIXED_FIGURES, MIXED_WORDS)),
        "Spot template:",
        "",
        *template_lines(configs[1]),
        "",
        f"Sweep: `{dirs[1]}`",
        "",
        "## Chops at a river showdown",
        "",
        table(figure_table(river, VARIANTS[2], CHOP_FIGURES)),
        "Spot template:",
        "",
        *template_lines(configs[2]),
        "",
        f"Sweep: `{dirs[2]}`",
        "",
        "## The policies against equilibrium",
        "",
        "Each built-in policy's exploitability when it plays both seats of the solved spot (% of the starting pot, "
        "base order, mean over boards ± SE): what a best response wins from it, averaged over the two seats, as the "
        "solver measures its own strategies. The policies act on their exact strength against any hand and on the "
        "tree's sizes nearest theirs (`solver.policies`); pro-like is the policy fitted to real play (the Pluribus "
        "records). Closest to equilibrium first.",
        "",
        table(policy_table([turn, mixed, river])),
    ]
    report_dir.mkdir(parents=True, exist_ok=True)
    atomic_write(report_dir / "report.md", lambda tmp: Path(tmp).write_text(markdown(lines), encoding="utf-8"))
