"""Solved spots swept over boards: one spot template solved (DCFR, ``solver``) on many boards,
under each rule variant, paired.

The template is everything but the board: the street (``turn`` or ``river``), the pot and the
stack, the bet and raise sizes, the two ranges (in the range grammar; ``N%`` by the base game's
ranking, so every variant solves the same combos), the target and the iteration cap. A shard is
one board, drawn uniformly from its own random stream (``ShardSpec.generator``), so every board
has the same weight and a mean over boards, with its standard error over boards, estimates the
spot's figure on a random board. Each board is solved under every variant (``--variants``: the
base game first, then ``;``-separated knob lists as ``run variants`` takes them), on one thread,
so a shard gives the same bytes on any worker.

Per board and variant (table ``boards``): the board's texture (``jobs.textures``' features), the
iterations run and the exploitability reached (% of the pot), each player's EV (chips won from
the pot minus chips put in, the two summing to the pot), and how the spot plays under the
average strategies (``solver.outcomes``: per street dealt, bet, raise, call, fold, checked
through; showdown, pot and stack at showdown, pot entering the river; the high chop rate at
showdown and with no folds), the same figures given the hands ``--focus`` names (columns
``focus_...``: how trips and straight draws play inside wider ranges), and the exploitability of each policy of ``--policies`` playing
both seats of the spot (``solver.policies``: column ``policy_NAME``, % of the pot). Table ``root``: the first decision's action frequencies by the
acting hand's category. The summaries: ``summary`` (each figure's mean over boards ± SE),
``differences`` (each variant minus the base, board by board, ± the SE of the paired
differences) and ``root_summary``; ``strata``, the classes boards were drawn from (``--draw``).

``--draw texture:pairing,suit`` draws the boards by class instead (stratified sampling): the
classes of the named ``run textures`` features over every board of the street, each given
boards in proportion to its share of all boards (at least two, so each has an SE), each board
drawn uniformly among its class's; every mean over boards weighs a class's mean by its share,
and its SE is the stratified one. With a range rule the boards on which a rule picks no hand
are redrawn within the class, as they are redrawn when drawing uniformly.

A shard returns one row per board and variant: its columns are all keys (no counts), so the
sum over shards keeps them as they are.
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pyarrow as pa

from engine.betting import default_betting
from evaluator.cards import format_cards
from evaluator.errors import SampyongError
from evaluator.games import Category
from jobs import textures
from jobs.common import GAME_OPTIONS, SE_LEGEND, Study, game_of, markdown, report_header, section, table
from jobs.hand_ranking import ranking_from, strength_runs
from jobs.variants import parse_variants
from pipeline.aggregate import number, percent, points
from pipeline.plan import RunConfig, ShardSpec
from pipeline.study import SEED, Option

STREET_CARDS = {"turn": 4, "river": 5}
OPTIONS = (
    *GAME_OPTIONS,
    Option("deals", "Boards to solve, one shard each (see --draw).", default="16", aliases=("--boards",)),
    SEED,
    Option(
        "draw",
        "How boards are drawn: uniform (every board alike), or texture:FEATURES, stratified by the classes "
        "of run textures' features (a comma list of pairing, suit, straight, skip, low): each class gets boards "
        "in proportion to its share of all boards, at least two, and the means weigh each class by its share.",
        default="uniform",
    ),
    Option("street", "The spot's street: turn or river.", default="river"),
    Option(
        "oop",
        "The out-of-position range: range grammar (N% by the base game's ranking) or a rule read on each "
        "board, made:CATEGORY (made:three_of_a_kind) or draw:CATEGORY (draw:straight: high card to two pair now, "
        "the category with a card to come).",
        default="30%",
    ),
    Option("ip", "The in-position range.", default="30%"),
    Option("pot", "Chips in the pot as the street begins.", int, default=100),
    Option("stack", "Chips behind each player.", int, default=400),
    Option("bets", 'Bet sizes per street: "turn: 50%, 100%; river: 75%, allin".', default="75%, allin"),
    Option("raises", 'Raise sizes per street ("100%", "2.5x"; "" for none).', default="100%"),
    Option("max_raises", "Raises a street allows after its first bet.", int, default=1),
    Option("target", "Stop a board's solve at this exploitability, % of the pot.", default="0.3"),
    Option("iterations", "At most this many DCFR iterations a board.", int, default=500),
    Option(
        "variants",
        'Rule variants solved on the same boards, ";" between variants: '
        '"ranking=trips_over_straight;low=8" (the base game always first).',
        default="base",
    ),
    Option(
        "focus",
        'Some hands of the ranges, measured apart as well: "oop:made:three_of_a_kind;ip:draw:straight" '
        "(a range rule per player, read on each board in the base game): every figure of the play again, given "
        "that each player so named holds such a hand (columns focus_...; focus_share, the share of the pairs).",
        default="",
    ),
    Option(
        "policies",
        "Policies whose exploitability is measured in every solved spot, each playing both seats "
        "(solver.policies): built-in names or TOML files, comma separated; all: every built-in; none: no policy.",
        default="all",
    ),
)
DEFAULTS = {o.name: o.default for o in OPTIONS}
FIGURES = ("exploitability", "ev_oop", "ev_ip")  # per board and variant, besides the play's
PROBABILITIES = ("showdown", "fold", "hi_chop", "hi_chop_no_folds")
STREET_RATES = ("_dealt", "_bet", "_raise", "_call", "_fold", "_checked_through", "_vs_bet")
TEXT_COLUMNS = ("board", "variant", "pairing", "suit", "straight", "skip", "low", "stratum")
POLICY = "policy_"  # a policy's exploitability (% of the pot) is the column POLICY + its name
FOCUS = "focus_"  # a figure of the play given the --focus hands is the column FOCUS + the figure


def option(config: RunConfig, name: str):
    """An option of the run, as given or by its declared default, in its declared type."""
    value = config.option(name, DEFAULTS[name])
    kind = next(o.kind for o in OPTIONS if o.name == name)
    return kind(value) if kind is int else value


def variants(config: RunConfig) -> list[tuple[str, object]]:
    """``(name, game)`` of each variant, the base first."""
    return parse_variants(game_of(config), option(config, "variants"))


def settings_of(config: RunConfig, board: str, game):
    from solver.solution import Settings

    target = option(config, "target")
    return Settings(
        game=config.game,
        board=board,
        oop=option(config, "oop"),
        ip=option(config, "ip"),
        pot=option(config, "pot"),
        stack=option(config, "stack"),
        bets=option(config, "bets"),
        raises=option(config, "raises"),
        max_raises=option(config, "max_raises"),
        betting=default_betting(game).kind,
        target=float(target) if target else None,
        iterations=option(config, "iterations"),
    )


def policies_of(config: RunConfig) -> list:
    """The policies ``--policies`` names, loaded (``SampyongError`` for one that cannot be measured)."""
    from engine.policy import builtin_names, load_policy

    text = option(config, "policies").strip()
    specs = builtin_names() if text == "all" else [] if text in ("", "none") else [s.strip() for s in text.split(",")]
    found = [load_policy(spec) for spec in specs if spec]
    names = [p.name for p in found]
    if len(set(names)) != len(names):
        raise SampyongError(f"two policies have the same name in {text!r}: {', '.join(names)}")
    for policy in found:
        if policy.style == "random-legal":
            raise SampyongError(f"policy {policy.name} is random-legal, the tests' driver: it has no play to measure")
    return found


def focus_rules(config: RunConfig) -> dict[int, str]:
    """``--focus`` as {player: rule} (0 out of position); ``SampyongError`` for a bad one."""
    from solver.poker import is_board_rule, rule_category

    out: dict[int, str] = {}
    for part in option(config, "focus").split(";"):
        if not part.strip():
            continue
        who, _, rule = part.strip().partition(":")
        if who.strip().lower() not in ("oop", "ip") or not is_board_rule(rule):
            raise SampyongError(
                f"bad focus {part.strip()!r}: write oop:RULE or ip:RULE, RULE made:CATEGORY or draw:CATEGORY"
            )
        rule_category(rule)
        out[("oop", "ip").index(who.strip().lower())] = rule.strip()
    return out


def focus_hands(config: RunConfig, base, board: tuple[int, ...], problem) -> list[np.ndarray] | None:
    """Per player, which of its hands ``--focus`` keeps (all of them for a player it does not
    name; none when its rule picks no hand on this board); None without a focus."""
    from evaluator.isomorphism import card_masks
    from solver.poker import board_range

    rules = focus_rules(config)
    if not rules:
        return None
    kept = [np.ones(n, np.float64) for n in problem.n_hands]
    for p, rule in rules.items():
        try:
            picked = card_masks(np.array(board_range(base, rule, board).combos, np.int64))
        except SampyongError as error:
            if "picks no hand" not in str(error):
                raise
            picked = np.zeros(0, np.int64)
        kept[p] = np.isin(card_masks(problem.hands[p]), picked).astype(np.float64)
    return kept


def _uses_ranking(config: RunConfig) -> bool:
    return "%" in option(config, "oop") + option(config, "ip")


def validate(config: RunConfig) -> None:
    street = option(config, "street")
    if street not in STREET_CARDS:
        raise SampyongError(f"street {street!r}: the sweep solves turn or river spots")
    from evaluator.ranges import parse_range
    from solver.betting import parse_sizes
    from solver.poker import is_board_rule, rule_category

    base = game_of(config)
    for text in (option(config, "oop"), option(config, "ip")):
        if is_board_rule(text):
            rule_category(text)
        else:  # the grammar checked now, the top N % in the shard (by the base game's ranking)
            parse_range(text, base, lambda percent: {tuple(range(base.hole_cards))})
    parse_sizes(option(config, "bets"))
    parse_sizes(option(config, "raises"), raises=True)
    found = variants(config)
    if len({g.hole_cards for _, g in found}) != 1:
        raise SampyongError("variants must deal the same number of hole cards")
    try:
        target = option(config, "target")
        if target and float(target) <= 0:
            raise ValueError
    except ValueError:
        raise SampyongError(f"the target is a positive % of the pot, not {option(config, 'target')!r}") from None
    if option(config, "iterations") < 1:
        raise SampyongError("iterations must be at least 1")
    policies_of(config)
    focus_rules(config)
    strata_of(config)


def configure(config: RunConfig) -> RunConfig:
    import dataclasses

    return dataclasses.replace(config, shard_deals=1, players=2)


def upstream(config: RunConfig) -> list:
    """The base game's ranking run, when a range is written as a top N %."""
    return strength_runs(game_of(config)) if _uses_ranking(config) else []


def inputs(config: RunConfig, tables: list):
    return ranking_from(game_of(config), tables) if tables else None


def strata_features(config: RunConfig) -> tuple[str, ...]:
    """The texture features ``--draw`` stratifies by (none for ``uniform``)."""
    text = option(config, "draw").strip().lower()
    if text == "uniform":
        return ()
    kind, _, listed = text.partition(":")
    features = tuple(f.strip() for f in listed.split(",") if f.strip())
    unknown = [f for f in features if f not in textures.FEATURES]
    if kind != "texture" or not features or unknown:
        raise SampyongError(
            f"bad draw {option(config, 'draw')!r}: write uniform or texture:FEATURES, FEATURES a comma "
            f"list of {', '.join(textures.FEATURES)}"
        )
    return features


class Strata:
    """The boards of a street cut into classes by some texture features: every board (sorted
    cards), each one's class, each class's label and share of all boards, and how many of the
    sweep's boards each class gets (in proportion to its share, at least two, largest
    remainders first)."""

    def __init__(self, game, cards: int, features: tuple[str, ...], boards: int):
        import itertools

        every = np.array(list(itertools.combinations(range(52), cards)), np.uint8)
        skips = textures.SKIPS if game.ranking.has_skips else textures.SKIPS[:0]
        ids = textures.textures_of(every, textures.STRAIGHTS, skips, game.low or 0)
        unique, inverse = np.unique(ids, return_inverse=True)
        keys = [tuple(textures.labels(int(t))[f] for f in features) for t in unique]
        order = {"pairing": textures.PAIRING, "suit": textures.SUIT}
        self.labels = sorted(
            set(keys), key=lambda k: [order.get(f, textures.NEED).index(v) for f, v in zip(features, k)]
        )
        key_class = np.array([self.labels.index(k) for k in keys], np.int64)
        self.every, self.of = every, key_class[inverse]
        counts = np.bincount(self.of, minlength=len(self.labels))
        self.shares = counts / counts.sum()
        k = len(self.labels)
        if boards < 2 * k:
            raise SampyongError(
                f"--draw texture:{','.join(features)} has {k} classes of {cards}-card boards: "
                f"use at least {2 * k} boards (two a class), or fewer features"
            )
        extra = (boards - 2 * k) * self.shares
        self.boards = 2 + np.floor(extra).astype(np.int64)
        for c in np.argsort(-(extra - np.floor(extra)), kind="stable")[: boards - int(self.boards.sum())]:
            self.boards[c] += 1
        self.features = features

    def label(self, c: int) -> str:
        return ", ".join(f"{f} {v}" for f, v in zip(self.features, self.labels[c]))

    def of_shard(self, index: int) -> int:
        """The class of the sweep's board ``index``: the classes in order, each its count of boards."""
        return int(np.searchsorted(np.cumsum(self.boards), index, side="right"))


_STRATA: dict = {}


def strata_of(config: RunConfig) -> Strata | None:
    """The run's ``Strata`` (made once per process), None for uniform draws."""
    features = strata_features(config)
    if not features:
        return None
    key = (config.game, config.ranking, config.low, option(config, "street"), features, config.deals)
    if key not in _STRATA:
        _STRATA[key] = Strata(game_of(config), STREET_CARDS[option(config, "street")], features, config.deals)
    return _STRATA[key]


def board_of(config: RunConfig, shard: ShardSpec, base) -> tuple[int, ...]:
    """The shard's board: ``street`` cards drawn uniformly from its own stream, sorted (or with
    ``--draw texture:...`` uniformly among the boards of the shard's class); with a range read
    on the board (``made:``, ``draw:``), the first draw on which both pick a hand."""
    from solver.poker import board_range, is_board_rule

    rng = shard.generator()
    rules = [text for text in (option(config, "oop"), option(config, "ip")) if is_board_rule(text)]
    strata = strata_of(config)
    members = None if strata is None else np.nonzero(strata.of == strata.of_shard(shard.index))[0]
    for _ in range(1000):
        if members is None:
            board = tuple(sorted(int(c) for c in rng.choice(52, STREET_CARDS[option(config, "street")], replace=False)))
        else:
            board = tuple(int(c) for c in strata.every[members[rng.integers(len(members))]])
        try:
            for text in rules:
                board_range(base, text, board)
        except SampyongError as error:
            if "picks no hand" in str(error):
                continue
            raise
        return board
    where = "" if strata is None else f" of class {strata.label(strata.of_shard(shard.index))}"
    raise SampyongError(f"in 1,000 boards{where} the range rules {' and '.join(rules)} never both picked a hand")


def solve_board(config: RunConfig, board: tuple[int, ...], game, ranking):
    """The ``Solution`` of the template on ``board`` in ``game`` (one thread), the ranges read
    in the base game."""
    import time

    from solver.dcfr import solve
    from solver.poker import settings_problem
    from solver.solution import Solution

    settings = settings_of(config, format_cards(board), game)
    top = None if ranking is None else ranking.top
    problem = settings_problem(game, settings, top, range_game=game_of(config))
    start = time.perf_counter()
    state, history = solve(problem, settings.iterations, settings.target, threads=1)
    return Solution(settings, game, problem, state, history, time.perf_counter() - start)


def run_shard(config: RunConfig, shard: ShardSpec, inputs=None) -> dict[str, pa.Table]:
    from solver.outcomes import outcomes, pair_mass
    from solver.policies import exploitabilities

    base = game_of(config)
    policies = policies_of(config)
    if _uses_ranking(config) and inputs is None:
        raise SampyongError("a shard needs the base game's ranking with its task")
    board = board_of(config, shard, base)
    skips = textures.SKIPS if base.ranking.has_skips else textures.SKIPS[:0]
    texture = textures._labels(textures.texture_of(np.array(board, np.int64), textures.STRAIGHTS, skips, base.low or 0))
    strata = strata_of(config)
    stratum = 0 if strata is None else strata.of_shard(shard.index)
    rows, root = [], []
    for name, g in variants(config):
        solution = solve_board(config, board, g, inputs)
        row = {
            "board_index": shard.index,
            "board": format_cards(board),
            "variant": name,
            **dict(zip(("pairing", "suit", "straight", "skip", "low"), texture)),
            "stratum": "every board" if strata is None else strata.label(stratum),
            "stratum_share": 1.0 if strata is None else float(strata.shares[stratum]),
            "iterations": solution.iterations,
            "exploitability": solution.exploitability,
            "ev_oop": solution.ev("oop"),
            "ev_ip": solution.ev("ip"),
            **outcomes(solution.problem, solution.state),
        }
        row["stack_showdown"] = option(config, "stack") - row["paid_showdown"]
        only = focus_hands(config, base, board, solution.problem)
        if only is not None:
            row[f"{FOCUS}share"] = pair_mass(solution.problem, only) / solution.problem.pairs
            row.update(
                {f"{FOCUS}{key}": value for key, value in outcomes(solution.problem, solution.state, only).items()}
            )
            row[f"{FOCUS}stack_showdown"] = option(config, "stack") - row[f"{FOCUS}paid_showdown"]
        for policy, value in exploitabilities(g, solution.problem, policies).items():
            row[f"{POLICY}{policy}"] = value
        rows.append(row)
        by_category = solution.by_category()
        for record in by_category.iter_rows(named=True):
            for action in solution.tree.actions(0):
                rank = int(Category[record["category"].split(",")[0].replace(" ", "_")])
                root.append(
                    {
                        "board_index": shard.index,
                        "variant": name,
                        "category": record["category"],
                        "rank": rank,
                        "share": record["share"],
                        "action": action,
                        "frequency": record[action],
                    }
                )
    # NaN (a line never played) is written as null; every shard's columns have the same types
    rows = [{k: None if isinstance(v, float) and math.isnan(v) else v for k, v in row.items()} for row in rows]
    schema = pa.schema(
        [
            (
                k,
                pa.int32()
                if k in ("board_index", "iterations")
                else pa.string()
                if k in TEXT_COLUMNS
                else pa.float64(),
            )
            for k in rows[0]
        ]
    )
    boards = pa.Table.from_pylist(rows, schema=schema)
    root_table = pa.Table.from_pylist(root)
    root_table = root_table.set_column(0, "board_index", pa.array(root_table["board_index"].to_pylist(), pa.int32()))
    return {"boards": boards, "root": root_table}


def prepare(config: RunConfig, ranking=None) -> None:
    """Compile the kernels on a tiny spot (two hands a side) before the sweep's boards, which
    take seconds to minutes each."""
    import dataclasses

    from solver.dcfr import solve
    from solver.outcomes import outcomes
    from solver.poker import settings_problem

    g = game_of(config)
    hands = {2: ("AA", "KK"), 3: ("AAA", "KKK"), 4: ("AAKK", "QQJJ")}.get(g.hole_cards)
    if hands is None:
        return
    board = (0, 5, 10, 15, 20)[: STREET_CARDS[option(config, "street")]]  # 2s 3h 4d 5c 7s: no ace, king or queen
    tiny = dataclasses.replace(settings_of(config, format_cards(board), g), oop=hands[0], ip=hands[1])
    problem = settings_problem(g, tiny)
    state, _ = solve(problem, 2, None, threads=1)
    outcomes(problem, state)


def _statistics(frame: pl.DataFrame) -> list[str]:
    keys = {
        "board_index",
        "board",
        "variant",
        "pairing",
        "suit",
        "straight",
        "skip",
        "low",
        "iterations",
        "stratum",
        "stratum_share",
    }
    return [c for c in frame.columns if c not in keys]


def _mean_se(values: np.ndarray) -> tuple[float, float]:
    values = values[~np.isnan(values)]
    if len(values) == 0:
        return math.nan, math.nan
    se = float(values.std(ddof=1) / math.sqrt(len(values))) if len(values) > 1 else math.nan
    return float(values.mean()), se


def board_mean(frame: pl.DataFrame, values) -> tuple[float, float]:
    """The mean over ``frame``'s boards of ``values`` (one a board; NaN: none on that board) ±
    its standard error. Drawn uniformly: the plain mean and SE. Drawn by class (``--draw
    texture:...``): each class's mean weighed by its share of all boards, over the classes with
    a value, and the SE sqrt(sum of w_c^2 s_c^2 / n_c), NaN when a class has a single value."""
    values = np.asarray(values, np.float64)
    if "stratum" not in frame.columns or frame["stratum"].n_unique() == 1:
        return _mean_se(values)
    keep = ~np.isnan(values)
    strata, shares = frame["stratum"].to_numpy()[keep], frame["stratum_share"].to_numpy()[keep]
    values = values[keep]
    if not len(values):
        return math.nan, math.nan
    classes = sorted(set(strata.tolist()))
    weights = np.array([shares[strata == c][0] for c in classes])
    weights = weights / weights.sum()
    means = np.array([values[strata == c].mean() for c in classes])
    counts = np.array([(strata == c).sum() for c in classes])
    spreads = np.array([values[strata == c].var(ddof=1) if n > 1 else math.nan for c, n in zip(classes, counts)])
    return float(weights @ means), float(np.sqrt((weights**2 * spreads / counts).sum()))


def summarize(counts: dict[str, pl.DataFrame], config: RunConfig, ranking=None) -> dict[str, pl.DataFrame]:
    names = [name for name, _ in variants(config)]
    order = {name: i for i, name in enumerate(names)}
    boards = counts["boards"].with_columns(
        pl.col("variant").replace_strict(order, return_dtype=pl.Int32).alias("_order")
    )
    boards = boards.sort("board_index", "_order").drop("_order")
    statistics = _statistics(boards)
    summary, differences = [], []
    base = boards.filter(pl.col("variant") == names[0]).sort("board_index")
    for name in names:
        rows = boards.filter(pl.col("variant") == name).sort("board_index")
        for statistic in statistics:
            mean, se = board_mean(rows, rows[statistic].to_numpy().astype(np.float64))
            summary.append(
                {"variant": name, "statistic": statistic, "mean": mean, "mean_se": se, "boards": rows.height}
            )
            if name != names[0]:
                if not rows["board_index"].equals(base["board_index"]):
                    raise SampyongError("the variants were not solved on the same boards")
                diff, diff_se = board_mean(
                    rows, rows[statistic].to_numpy().astype(np.float64) - base[statistic].to_numpy()
                )
                differences.append(
                    {
                        "variant": name,
                        "statistic": statistic,
                        "difference": diff,
                        "difference_se": diff_se,
                        "boards": rows.height,
                    }
                )
    root = counts["root"]
    n_boards = base.height
    if "stratum" in base.columns and base["stratum"].n_unique() > 1:  # a board weighs its class's share over its boards
        per_class = base.group_by("stratum").agg(pl.len().alias("_n"), pl.col("stratum_share").first().alias("_p"))
        total = float(per_class["_p"].sum())
        weights = base.join(per_class, on="stratum").select(
            "board_index", (pl.col("_p") / total / pl.col("_n") * n_boards).alias("_w")
        )
        root = root.join(weights, on="board_index").with_columns(pl.col("share") * pl.col("_w")).drop("_w")
    actions = list(dict.fromkeys(root["action"].to_list()))
    long = (
        root.with_columns((pl.col("share") * pl.col("frequency")).alias("_mass"))
        .group_by("variant", "rank", "category", "action")
        .agg(
            (pl.col("share").sum() / n_boards).alias("share"),
            (pl.col("_mass").sum() / pl.col("share").sum()).alias("frequency"),
        )
    )
    root_summary = (
        long.pivot(on="action", index=["variant", "rank", "category", "share"], values="frequency")
        .with_columns(pl.col("variant").replace_strict(order, return_dtype=pl.Int32).alias("_order"))
        .sort(["_order", "rank", "category"], descending=[False, True, False])
        .select("variant", "category", "share", *actions)
    )
    schema = {
        "variant": pl.String,
        "statistic": pl.String,
        "difference": pl.Float64,
        "difference_se": pl.Float64,
        "boards": pl.Int64,
    }
    strata = base.group_by("stratum", maintain_order=True).agg(
        pl.col("stratum_share").first().alias("share"), pl.len().alias("boards")
    )
    return {
        "boards": boards,
        "summary": pl.DataFrame(summary),
        "differences": pl.DataFrame(differences, schema=schema),
        "root_summary": root_summary,
        "strata": strata.sort("share", descending=True),
    }


WORDS = {
    "exploitability": "exploitability reached (% of the pot)",
    "ev_oop": "EV out of position (chips)",
    "ev_ip": "EV in position (chips)",
    "showdown": "reaches a showdown",
    "fold": "someone folds",
    "pot_showdown": "pot at showdown (chips)",
    "paid_showdown": "chips each put in, given a showdown",
    "stack_showdown": "stack behind at showdown (chips)",
    "pot_river": "pot as the river is dealt (chips)",
    "hi_chop": "high chopped at showdown",
    "hi_chop_no_folds": "high chopped if every pair showed down",
}


def statistic_words(statistic: str) -> str:
    if statistic in WORDS:
        return WORDS[statistic]
    if statistic.startswith(POLICY):
        return f"exploitability of policy {statistic.removeprefix(POLICY)} (% of the pot)"
    if statistic == f"{FOCUS}share":
        return "focus: share of the pairs"
    if statistic.startswith(FOCUS):
        return f"focus: {statistic_words(statistic.removeprefix(FOCUS))}"
    street, _, action = statistic.partition("_")
    return f"{street}: {action.replace('_', ' ')}"


def _is_probability(statistic: str) -> bool:
    statistic = statistic.removeprefix(FOCUS)
    return (
        statistic == "share"
        or statistic in PROBABILITIES
        or statistic.startswith(("flop_", "turn_", "river_"))
        and statistic.endswith(STREET_RATES)
    )


def _cell(column: str, difference: bool, statistics: list[str]):
    by_words = {statistic_words(s): s for s in statistics}

    def write(value, row):
        se = row.get(f"{column}_se")
        if _is_probability(by_words[row["figure"]]):
            return points(value, se) if difference else percent(value, se)
        return number(value, se)

    return write


def markdown_tables(name: str, frame: pl.DataFrame, config: RunConfig) -> str:
    if name in ("summary", "differences"):
        column = "mean" if name == "summary" else "difference"
        shown = frame.with_columns(
            pl.col("statistic").map_elements(statistic_words, return_dtype=pl.String).alias("figure")
        )
        cell = _cell(column, name == "differences", frame["statistic"].to_list())
        return table(shown.select("variant", "figure", column, f"{column}_se", "boards"), {column: cell})
    if name == "strata":
        return table(frame, {"share": "percent"})
    if name == "root_summary":
        return table(frame, {c: "percent" for c in frame.columns if c not in ("variant", "category")})
    return table(frame)


def template_lines(config: RunConfig) -> list[str]:
    """The spot template, printed with every verdict that rests on it."""
    return [f"- game: {game_of(config).name}"] + [
        f"- {o.name.replace('_', ' ')}: `{option(config, o.name)}`"
        if option(config, o.name) != ""
        else f"- {o.name.replace('_', ' ')}: none"
        for o in OPTIONS
        if o.name not in ("game", "hole_use", "ranking", "low", "deals", "seed")
    ]


def report(tables: dict[str, pl.DataFrame], config: RunConfig, figure_files: list[str], ranking=None) -> str:
    boards = tables["boards"]["board_index"].n_unique()
    return markdown(
        [
            *report_header(
                f"Solved spots over boards: {game_of(config).name}, {option(config, 'street')}",
                f"{boards} boards drawn uniformly (seed {config.seed}), each solved by DCFR under every variant "
                "and read under the average strategies (exact over the ranges and the cards to come; the standard "
                "errors are over boards). These figures depend on no invented player, but they do depend on the "
                "spot template below (bet sizes, ranges).",
                figure_files,
            ),
            "## The spot template",
            "",
            *template_lines(config),
            "",
            *(
                []
                if tables["strata"].height < 2
                else section(
                    "Boards by class",
                    markdown_tables("strata", tables["strata"], config),
                    "The boards were drawn by class (--draw): each class's share of all boards, and the boards solved in it; "
                    "the means weigh each class by its share.",
                )
            ),
            *section(
                "Means over boards",
                markdown_tables("summary", tables["summary"], config),
                "Each figure's mean over the boards ± its standard error over boards. " + SE_LEGEND,
            ),
            *(
                []
                if tables["differences"].is_empty()
                else section(
                    "Each variant minus the base, board by board",
                    markdown_tables("differences", tables["differences"], config),
                    "Paired differences (percentage points for rates) ± the standard error of the differences over boards.",
                )
            ),
            *section(
                "The first decision by category",
                markdown_tables("root_summary", tables["root_summary"], config),
                "The out-of-position player's first action frequencies by its hand's category on the board, "
                "averaged over boards (weighted by the category's share of the range); share: the category's "
                "share of the range, over boards.",
            ),
        ]
    )


STUDY = Study(
    name="solve",
    description="one solved spot template (DCFR) on many boards, under rule variants, paired",
    tables=("boards", "root"),
    run_shard=run_shard,
    summarize=summarize,
    report=report,
    options=OPTIONS,
    validate=validate,
    configure=configure,
    prepare=prepare,
    upstream=upstream,
    inputs=inputs,
    markdown=markdown_tables,
)
