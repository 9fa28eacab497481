"""A solved spot: the average strategies, their values, and the run folder they are saved to.

The folder holds ``settings.toml`` (everything that decides the tree and the ranges),
``strategy.parquet`` (every decision of the spot's first street: combo, action, frequency, EV),
``state.npz`` (the average-strategy sums of every node, for ``load``), ``exploitability.parquet``
(each check of the solve), ``report.md`` and ``exploitability.png``.
"""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import tempfile
import tomllib
from pathlib import Path

import numpy as np

from evaluator.cards import class_name, format_cards
from evaluator.errors import SampyongError
from evaluator.games import Category
from solver.dcfr import Problem, Progress, State
from solver.kernels import AVERAGE
from solver.tree import CHANCE, DECISION, KIND_NAMES

SETTINGS_KEYS = (
    "game",
    "board",
    "oop",
    "ip",
    "pot",
    "stack",
    "bets",
    "raises",
    "max_raises",
    "betting",
    "target",
    "iterations",
)


@dataclasses.dataclass(frozen=True)
class Settings:
    """What a solve was asked: the spot, the ranges as written, the stopping rule."""

    game: str
    board: str
    oop: str
    ip: str
    pot: int
    stack: int
    bets: str
    raises: str
    max_raises: int
    betting: str
    target: float | None
    iterations: int

    def toml(self) -> str:
        lines = []
        for key in SETTINGS_KEYS:
            value = getattr(self, key)
            if value is not None:
                lines.append(f"{key} = {json.dumps(value)}")
        return "\n".join(lines) + "\n"


class Solution:
    """The answer of ``sy.solve``: strategies, values and the exploitability reached.

    Parameters:
        settings: the ``Settings`` solved.
        game: the ``Game``; problem: the solver's ``Problem``; state: its ``State`` after the solve.
        history: the exploitability checks made (``Progress``); seconds: the solve's time.
    """

    def __init__(
        self, settings: Settings, game, problem: Problem, state: State, history: list[Progress], seconds: float
    ):
        self.settings, self.game, self.problem, self.state = settings, game, problem, state
        self.history, self.seconds = history, seconds
        # Per player, per node: its row of counterfactual values, of the other's reach and of
        # its own reach (float64), for the first street's decisions and their children, and for
        # any other node asked for (a pass each time: whole arrays are nodes x hands).
        self._rows: dict[int, dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]]] = {0: {}, 1: {}}

    @property
    def tree(self):
        return self.problem.tree

    @property
    def iterations(self) -> int:
        return self.state.iterations

    @property
    def exploitability(self) -> float:
        """The exploitability of the average strategies, in % of the starting pot (exact)."""
        return self.history[-1].exploitability if self.history else self.state.exploitability()

    def ev(self, player: str | int) -> float:
        """A player's (``oop``/``ip`` or 0/1) expected chips won from the pot minus chips put in
        during the spot, both playing the average strategies; the two sum to the pot."""
        p = _player(player)
        values, _, _ = self._node_rows(p, [0])[0]
        return float(self.problem.weights[p] @ values) / self.problem.pairs

    def _node_rows(self, p: int, nodes: list[int]) -> dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """For ``p``'s hands at each of ``nodes``, both playing the average strategies: the
        counterfactual values, the other's reach (per its hands) and ``p``'s own reach."""
        rows = self._rows[p]
        missing = [k for k in nodes if k not in rows]
        if missing:
            if not rows:  # the first ask: the first street's decisions and their children too
                t = self.tree
                first = [k for k in range(t.nodes) if t.kind[k] == DECISION and _first_street(t, k)]
                missing = sorted(
                    set(missing)
                    | set(first)
                    | {int(t.first_child[k]) + a for k in first for a in range(int(t.children[k]))}
                )
            n, m = self.problem.n_hands[p], self.problem.n_hands[1 - p]
            self.state.run(AVERAGE, 1 - p)
            own = self.state.reach[missing, :n].astype(np.float64)
            self.state.run(AVERAGE, p)
            values = self.state.cfv[missing, :n].astype(np.float64)
            opponent = self.state.reach[missing, :m].astype(np.float64)
            for i, k in enumerate(missing):
                rows[k] = (values[i], opponent[i], own[i])
        return {k: rows[k] for k in nodes}

    def node(self, path: str | list[str] = "") -> int:
        return self.tree.find(path)

    def strategy(self, path: str | list[str] = ""):
        """The average strategy at the decision ``path`` leads to (``""``: the root): a polars
        frame, one row per combo and action: ``combo``, ``class``, ``action``, ``frequency``,
        ``ev`` (chips, of playing the action and the strategy after it), and ``weight`` (how
        much of the combo reaches the node: its range weight times its own actions on the way)."""
        import polars as pl

        node = self.node(path)
        tree, problem = self.tree, self.problem
        if tree.kind[node] != DECISION:
            raise SampyongError(f"{path or 'the root'} is a {KIND_NAMES[tree.kind[node]]} node, not a decision")
        p = int(tree.player[node])
        first = int(tree.first_child[node])
        count = int(tree.children[node])
        rows = self._node_rows(p, [node, *range(first, first + count)])
        frequencies = self.state.node_strategy(node)
        board = int(tree.board[node])
        live = problem.alive[p][board, : problem.alive_count[p, board]]
        against = problem.opponent_reach_total(p, rows[node][1])[live]
        own = rows[node][2]
        hands = problem.hands[p][live]
        combos = [format_cards(h) for h in hands]
        classes = [class_name(h) for h in hands]
        frames = []
        for a, label in enumerate(tree.actions(node)):
            with np.errstate(invalid="ignore", divide="ignore"):
                ev = np.where(against > 0, rows[first + a][0][live] / against, np.nan)
            frames.append(
                pl.DataFrame(
                    {
                        "combo": combos,
                        "class": classes,
                        "action": [label] * len(live),
                        "frequency": frequencies[a, live],
                        "ev": ev,
                        "weight": own[live],
                    }
                )
            )
        return pl.concat(frames)

    def by_category(self, path: str | list[str] = ""):
        """``strategy(path)`` summed over the acting player's combos by high category (and, in a
        hi-lo game, whether the combo holds a low on the node's board): each action's frequency
        weighted by reach, the share of the range reaching the node, and the EV of the node."""
        import polars as pl

        from solver.poker import categories

        node = self.node(path)
        frame = self.strategy(path)
        p = int(self.tree.player[node])
        board = self.tree.boards[int(self.tree.board[node])]
        live = self.problem.alive[p][
            int(self.tree.board[node]), : self.problem.alive_count[p, int(self.tree.board[node])]
        ]
        high, low = categories(self.game, self.problem.hands[p][live], board)
        names = [Category(int(c)).name.replace("_", " ") for c in high]
        if self.game.low is not None:
            names = [f"{n}, {'low' if has else 'no low'}" for n, has in zip(names, low)]
        count = len(self.tree.actions(node))
        frame = frame.with_columns(
            pl.Series("category", names * count), pl.Series("rank", np.tile(high, count).astype(np.int64))
        )
        out = _summary(frame, ["category", "rank"], self.tree.actions(node))
        return out.sort(["rank", "category"], descending=[True, False]).drop("rank")

    def by_class(self, path: str | list[str] = ""):
        """``strategy(path)`` summed over the hand classes (``AKs``, ``AKQ abb``): each class's
        share of the range reaching the node, each action's frequency weighted by reach, and
        the class's EV at the node in chips; strongest EV first."""
        out = _summary(self.strategy(path), ["class"], self.tree.actions(self.node(path)))
        return out.sort(["ev", "class"], descending=[True, False], nulls_last=True)

    def nodes(self):
        """Every node: ``node``, ``path``, ``kind``, ``player`` (``oop``/``ip``, decisions and
        folds), ``pot`` (chips in the middle) and ``actions``."""
        import polars as pl

        t = self.tree
        return pl.DataFrame(
            {
                "node": np.arange(t.nodes),
                "path": [t.path(k) for k in range(t.nodes)],
                "kind": [KIND_NAMES[k] for k in t.kind],
                "player": [("oop", "ip")[p] if p >= 0 else None for p in t.player],
                "pot": t.pot + t.contributed.sum(axis=1),
                "actions": [
                    ", ".join(t.actions(k)) if t.kind[k] != CHANCE else f"{t.children[k]} deals" for k in range(t.nodes)
                ],
            }
        )

    def grid(self, path: str | list[str] = "", file: str | Path | None = None) -> str:
        """An HTML page of the action frequencies at ``path`` by hand class, drawn by the equity
        grid viewer's page (each action a column to colour by); written to ``file`` if given."""
        import polars as pl

        from solver.grid_page import COLOR_STOPS, PAGE

        frame = self.strategy(path)
        actions = list(self.tree.actions(self.node(path)))
        weighted = frame.with_columns((pl.col("weight") * pl.col("frequency")).alias("w_freq"))
        table = weighted.group_by("class", "action").agg(
            pl.col("w_freq").sum(),
            pl.col("weight").sum(),
            pl.col("combo").first().alias("example"),
            pl.len().alias("combos"),
        )
        table = table.with_columns((pl.col("w_freq") / pl.col("weight")).fill_nan(0.0).alias("frequency"))
        wide = table.pivot(on="action", index=["class", "example", "combos"], values="frequency").fill_null(0.0)
        rows = wide.select("class", "example", "combos", *actions).to_dicts()
        title = f"{self.game.name}: {self.settings.board}, {self.tree.path(self.node(path)) or 'root'} (solved)"
        data = {
            "game": self.game.name,
            "players": 2,
            "hole_cards": self.game.hole_cards,
            "columns": actions,
            "classes": rows,
            "stops": COLOR_STOPS,
            "title": title,
        }
        page = PAGE.replace("__TITLE__", title).replace("__DATA__", json.dumps(data).replace("</", "<\\/"))
        if file is not None:
            Path(file).write_text(page)
        return page

    def report(self) -> str:
        """``report.md``: the spot, the exploitability reached, the EVs, and the root strategy
        (and each answer to a root bet) by category."""
        from solver.report import report

        return report(self)

    def save(self, folder: str | Path) -> Path:
        """Write the run folder (module docstring), whole or not at all: it is written beside
        ``folder`` and moved into place when complete."""
        import polars as pl

        folder = Path(folder)
        folder.parent.mkdir(parents=True, exist_ok=True)
        scratch = Path(tempfile.mkdtemp(prefix=f".{folder.name}.", dir=folder.parent))
        try:
            (scratch / "settings.toml").write_text(self.settings.toml())
            frames = []
            for k in range(self.tree.nodes):
                if self.tree.kind[k] == DECISION and _first_street(self.tree, k):
                    frames.append(
                        self.strategy(self.tree.path(k)).with_columns(
                            pl.lit(k).alias("node"),
                            pl.lit(self.tree.path(k)).alias("path"),
                            pl.lit(("oop", "ip")[int(self.tree.player[k])]).alias("player"),
                        )
                    )
            pl.concat(frames).select(
                "node", "path", "player", "combo", "class", "action", "frequency", "ev", "weight"
            ).write_parquet(scratch / "strategy.parquet")
            np.savez_compressed(
                scratch / "state.npz",
                strat0=self.state.strat[0],
                strat1=self.state.strat[1],
                iterations=self.state.iterations,
                seconds=self.seconds,
            )
            pl.DataFrame(
                {
                    "iteration": [h.iteration for h in self.history],
                    "exploitability": [h.exploitability for h in self.history],
                },
                schema={"iteration": pl.Int64, "exploitability": pl.Float64},
            ).write_parquet(scratch / "exploitability.parquet")
            _figure(self).savefig(scratch / "exploitability.png", dpi=110)
            (scratch / "report.md").write_text(self.report())
            if folder.exists():
                shutil.rmtree(folder)
            os.replace(scratch, folder)
        except BaseException:
            shutil.rmtree(scratch, ignore_errors=True)
            raise
        return folder


def read_settings(folder: str | Path) -> Settings:
    """The ``Settings`` of the solution saved in ``folder``."""
    folder = Path(folder)
    if not (folder / "settings.toml").is_file():
        raise SampyongError(f"{folder} holds no solution (no settings.toml)")
    return Settings(**({"target": None} | tomllib.loads((folder / "settings.toml").read_text())))


def restore(folder: str | Path, settings: Settings, game, problem: Problem) -> Solution:
    """The solution saved in ``folder`` on ``problem`` (rebuilt from its settings): the average
    strategies and the checks read back."""
    import polars as pl

    folder = Path(folder)
    state = State(problem)
    saved = np.load(folder / "state.npz")
    for p in range(2):
        if saved[f"strat{p}"].shape != state.strat[p].shape:
            raise SampyongError(f"{folder}: the saved strategy does not fit the tree its settings build")
        state.strat[p][...] = saved[f"strat{p}"]
    state.iterations = int(saved["iterations"])
    checks = pl.read_parquet(folder / "exploitability.parquet")
    history = [Progress(int(i), float(e)) for i, e in checks.iter_rows()]
    return Solution(settings, game, problem, state, history, float(saved["seconds"]))


def _summary(frame, keys: list[str], actions: tuple[str, ...]):
    """Rows of ``strategy`` grouped by ``keys``: ``share`` of the reaching weight, each action's
    reach-weighted frequency, and ``ev`` (the node's, reach-weighted)."""
    import polars as pl

    weighted = frame.with_columns(
        (pl.col("weight") * pl.col("frequency")).alias("w_freq"),
        (pl.col("weight") * pl.col("frequency") * pl.col("ev")).alias("w_ev"),
    )
    table = weighted.group_by(*keys, "action").agg(pl.col("w_freq").sum(), pl.col("w_ev").sum(), pl.col("weight").sum())
    table = table.with_columns((pl.col("w_freq") / pl.col("weight")).alias("frequency"))
    wide = table.pivot(on="action", index=keys, values="frequency")
    sizes = table.group_by(*keys).agg(
        pl.col("weight").first(), (pl.col("w_ev").sum() / pl.col("weight").first()).alias("ev")
    )
    total = sizes["weight"].sum()
    out = wide.join(sizes, on=keys).with_columns((pl.col("weight") / total).alias("share"))
    return out.select(*keys, "share", *actions, "ev")


def _player(player: str | int) -> int:
    names = {"oop": 0, "ip": 1, 0: 0, 1: 1}
    if player not in names:
        raise SampyongError(f"player is oop or ip, not {player!r}")
    return names[player]


def _first_street(tree, node: int) -> bool:
    """Whether no card is dealt between the root and ``node``."""
    while node > 0:
        node = int(tree.parent[node])
        if tree.kind[node] == CHANCE:
            return False
    return True


def _figure(solution: Solution):
    from matplotlib.figure import Figure

    figure = Figure(figsize=(7, 4), dpi=80)
    axes = figure.add_subplot()
    axes.plot([h.iteration for h in solution.history], [h.exploitability for h in solution.history], marker=".")
    axes.set_yscale("log")
    axes.set_xlabel("iteration")
    axes.set_ylabel("exploitability, % of the pot")
    axes.set_title(f"{solution.game.name} {solution.settings.board}: DCFR")
    axes.grid(True, which="both", alpha=0.3)
    return figure
