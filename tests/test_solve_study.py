"""``run solve``: a spot template solved on many boards, under variants, paired.

- A small sweep is bit-identical on the serial backend and on Ray with 2 workers, and a rerun
  after shards are lost recomputes them to the same bytes.
- Variants are solved on the same boards (each board index has one board under every variant),
  and the differences table is the mean and SE of the board-by-board differences.
- A board's row is what ``sy.solve`` gives on that board (exploitability, EVs, the play), and
  its policies' exploitabilities are ``solver.policies``' on that solution.
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest

from evaluator.errors import SampyongError
from pipeline.backends import SerialBackend
from pipeline.plan import RunConfig
from tests.helpers import execute

OPTIONS = (
    ("bets", "75%"),
    ("ip", "QQ+,AK,T9s,87s,22"),
    ("iterations", "60"),
    ("oop", "JJ+,AQ+,KQs,65s,33"),
    ("raises", ""),
    ("stack", "200"),
    ("target", "0.5"),
    ("variants", "ranking=standard;low=8"),
)


def config_of(deals=3, street="river", **changes):
    options = dict(OPTIONS, street=street, **changes)
    return RunConfig(
        job="solve",
        game="holdem",
        deals=deals,
        shard_deals=1,
        players=2,
        seed=5,
        options=tuple(sorted(options.items())),
    )


def tables(run):
    return {p.name: p.read_bytes() for p in sorted((run / "tables").glob("*.csv"))}


@pytest.fixture(scope="module")
def serial_run(tmp_path_factory):
    return execute(config_of(), SerialBackend(), tmp_path_factory.mktemp("serial"), quiet=True)


def test_serial_and_ray_write_the_same_bytes_and_a_lost_shard_comes_back_the_same(serial_run, ray_session, tmp_path):
    from pipeline.backends import RayBackend

    ray = execute(config_of(), RayBackend(workers=2), tmp_path / "ray", quiet=True)
    assert tables(serial_run) == tables(ray) and len(tables(ray)) == 5
    for lost in (ray / "shards").rglob("shard-000001.parquet"):
        lost.unlink()
    again = execute(config_of(), RayBackend(workers=2), tmp_path / "ray", quiet=True)
    assert tables(again) == tables(serial_run)


def test_variants_are_paired_on_the_same_boards(serial_run):
    boards = pl.read_parquet(serial_run / "tables" / "boards.parquet")
    # holdem's "standard" ranking is its own: that variant drops out as the base; low=8 stays
    assert boards["variant"].unique(maintain_order=True).to_list() == ["base", "low=8"]
    per_index = boards.group_by("board_index").agg(pl.col("board").n_unique(), pl.len())
    assert per_index["board"].to_list() == [1] * 3 and per_index["len"].to_list() == [2] * 3
    assert boards["board"].n_unique() == 3
    differences = pl.read_parquet(serial_run / "tables" / "differences.parquet")
    for statistic in ("ev_oop", "river_bet", "hi_chop"):
        base = boards.filter(pl.col("variant") == "base").sort("board_index")[statistic].to_numpy()
        other = boards.filter(pl.col("variant") == "low=8").sort("board_index")[statistic].to_numpy()
        row = differences.filter(pl.col("statistic") == statistic).row(0, named=True)
        assert row["difference"] == pytest.approx((other - base).mean())
        assert row["difference_se"] == pytest.approx((other - base).std(ddof=1) / math.sqrt(3))


def test_a_board_row_is_the_solve_of_that_board(serial_run):
    import sampyong as sy

    boards = pl.read_parquet(serial_run / "tables" / "boards.parquet").filter(pl.col("variant") == "base")
    row = boards.row(0, named=True)
    options = dict(OPTIONS)
    solution = sy.solve(
        game="holdem",
        board=row["board"],
        oop=options["oop"],
        ip=options["ip"],
        pot=100,
        stack=200,
        bets="75%",
        raises="",
        target=0.5,
        iterations=60,
    )
    assert solution.exploitability == row["exploitability"]
    assert solution.ev("ip") == row["ev_ip"]
    assert row["showdown"] + row["fold"] == pytest.approx(1.0)
    assert row["ev_oop"] + row["ev_ip"] == pytest.approx(100.0)
    assert row["stack_showdown"] == pytest.approx(200 - row["paid_showdown"])
    from engine.policy import builtin, builtin_names
    from solver.policies import exploitabilities

    assert sorted(c.removeprefix("policy_") for c in boards.columns if c.startswith("policy_")) == builtin_names()
    found = exploitabilities(solution.game, solution.problem, [builtin("tight"), builtin("station")])
    assert (row["policy_tight"], row["policy_station"]) == (found["tight"], found["station"])
    assert row["policy_tight"] > row["exploitability"]


def test_a_turn_sweep_deals_the_river(tmp_path):
    run = execute(config_of(deals=1, street="turn", variants="base"), SerialBackend(), tmp_path, quiet=True)
    row = pl.read_parquet(run / "tables" / "boards.parquet").row(0, named=True)
    assert len(row["board"].split()) == 4
    assert 0 < row["river_dealt"] <= 1 and row["pot_river"] >= 100
    assert row["turn_bet"] + row["turn_checked_through"] == pytest.approx(1.0)
    assert not np.isnan(row["hi_chop_no_folds"])
    assert "The spot template" in (run / "report.md").read_text()


def test_the_focus_figures_are_the_play_given_the_focus_hands(tmp_path):
    import sampyong as sy
    from evaluator.games import game
    from evaluator.isomorphism import card_masks
    from solver.outcomes import outcomes, pair_mass
    from solver.poker import board_range

    config = config_of(deals=2, variants="base", focus="ip:made:one_pair", policies="none")
    run = execute(config, SerialBackend(), tmp_path, quiet=True)
    boards = pl.read_parquet(run / "tables" / "boards.parquet")
    assert not [c for c in boards.columns if c.startswith("policy_")]
    for row in boards.iter_rows(named=True):
        options = dict(OPTIONS)
        solution = sy.solve(
            game="holdem",
            board=row["board"],
            oop=options["oop"],
            ip=options["ip"],
            pot=100,
            stack=200,
            bets="75%",
            raises="",
            target=0.5,
            iterations=60,
        )
        problem = solution.problem
        picked = card_masks(np.array(board_range(game("holdem"), "made:one_pair", solution.tree.boards[0]).combos))
        only = [np.ones(problem.n_hands[0]), np.isin(card_masks(problem.hands[1]), picked).astype(float)]
        assert 0 < row["focus_share"] < 1 and row["focus_share"] == pair_mass(problem, only) / problem.pairs
        play = outcomes(problem, solution.state, only)
        assert (row["focus_river_bet"], row["focus_showdown"]) == (play["river_bet"], play["showdown"])
        assert row["focus_river_bet"] != row["river_bet"]


def test_classes_of_boards_have_their_counted_shares_and_proportional_boards():
    from math import comb

    from evaluator.games import game
    from jobs.solve import Strata

    turn = Strata(game("pls7"), 4, ("pairing", "suit"), 24)
    share = dict(zip(turn.labels, turn.shares))
    assert share["none", "4"] == pytest.approx(4 * comb(13, 4) / comb(52, 4), abs=1e-15)  # four of a suit
    no_pair = comb(13, 4) * 4**4 / comb(52, 4)
    assert sum(v for (pairing, _), v in share.items() if pairing == "none") == pytest.approx(no_pair, abs=1e-15)
    assert share["trips+", "<=2"] == pytest.approx((13 * comb(4, 3) * 48 + 13) / comb(52, 4), abs=1e-15)
    assert turn.boards.sum() == 24 and turn.boards.min() == 2
    assert np.argmax(turn.boards) == np.argmax(turn.shares)
    assert [turn.of_shard(i) for i in range(24)] == np.repeat(np.arange(len(turn.labels)), turn.boards).tolist()
    with pytest.raises(SampyongError, match="use at least 14 boards"):
        Strata(game("pls7"), 4, ("pairing", "suit"), 13)


def test_a_sweep_drawn_by_class_weighs_each_class_by_its_share(tmp_path):
    """Stratified by pairing, the mean of "the board is unpaired" is exactly the share of
    unpaired boards, with no error; every board is of its class."""
    from jobs.solve import board_mean

    config = config_of(deals=8, variants="base", draw="texture:pairing", policies="none")
    run = execute(config, SerialBackend(), tmp_path, quiet=True)
    boards = pl.read_parquet(run / "tables" / "boards.parquet")
    assert (boards["stratum"] == "pairing " + boards["pairing"]).all()
    unpaired = (boards["pairing"] == "none").cast(pl.Float64).to_numpy()
    strata = pl.read_parquet(run / "tables" / "strata.parquet")
    exact = strata.filter(pl.col("stratum") == "pairing none")["share"][0]
    assert board_mean(boards, unpaired) == (pytest.approx(exact, abs=1e-12), 0.0)
    assert strata["boards"].sum() == 8 and strata["share"].sum() == pytest.approx(1.0)
    summary = (
        pl.read_parquet(run / "tables" / "summary.parquet").filter(pl.col("statistic") == "showdown").row(0, named=True)
    )
    mean, se = board_mean(boards, boards["showdown"].to_numpy())
    by_class = boards.group_by("stratum").agg(pl.col("showdown").mean(), pl.col("stratum_share").first())
    assert (
        summary["mean"]
        == pytest.approx(mean)
        == pytest.approx((by_class["showdown"] * by_class["stratum_share"]).sum())
    )
    assert "Boards by class" in (run / "report.md").read_text()
    again = execute(config, SerialBackend(), tmp_path / "again", quiet=True)
    assert tables(again) == tables(run)


def test_the_mean_over_uniform_boards_is_the_plain_mean():
    from jobs.solve import board_mean

    frame = pl.DataFrame({"stratum": ["every board"] * 4, "stratum_share": [1.0] * 4})
    values = np.array([1.0, 2.0, np.nan, 4.0])
    assert board_mean(frame, values) == (pytest.approx(7 / 3), pytest.approx(np.std([1, 2, 4], ddof=1) / np.sqrt(3)))
    two = pl.DataFrame({"stratum": ["a", "a", "b", "b", "b"], "stratum_share": [0.25, 0.25, 0.75, 0.75, 0.75]})
    mean, se = board_mean(two, np.array([1.0, 3.0, 10.0, 12.0, 14.0]))
    assert mean == pytest.approx(0.25 * 2 + 0.75 * 12)
    assert se == pytest.approx(np.sqrt(0.25**2 * 2.0 / 2 + 0.75**2 * 4.0 / 3))


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"street": "flop"}, "turn or river"),
        ({"target": "-1"}, "positive"),
        ({"variants": "hole_use=2-2;bogus=1"}, "bad variant"),
        ({"oop": "ZZ"}, "bad range"),
        ({"ip": "made:bogus"}, "bad range rule"),
        ({"bets": "12q"}, "bad size"),
        ({"policies": "tight,bogus"}, "unknown policy 'bogus'"),
        ({"policies": "tight,tight"}, "same name"),
        ({"focus": "villain:made:flush"}, "bad focus"),
        ({"draw": "texture:colour"}, "bad draw"),
        ({"draw": "texture:pairing,suit,straight"}, "use at least"),
        ({"focus": "ip:made:flushes"}, "bad range rule"),
    ],
)
def test_bad_sweeps_are_one_line_errors(changes, message):
    from jobs import STUDIES

    with pytest.raises(SampyongError, match=message):
        STUDIES["solve"].validate(config_of(**changes))


@pytest.mark.untraced
@pytest.mark.parametrize("name, board", [("holdem", "Ks 7d 8c 9h"), ("pls7", "Ks 7d 8c 9h")])
def test_range_rules_pick_the_hands_the_reference_evaluator_names(name, board):
    """made:three_of_a_kind and draw:straight against the reference evaluator, hand by hand
    (hold'em: every hand; PLS7: every hand holding a board rank or a 3 to 6, and the rest sampled)."""
    import itertools

    from evaluator.cards import parse_cards
    from evaluator.games import Category, game
    from evaluator.reference import showdown
    from solver.poker import board_range

    g, cards = game(name), tuple(parse_cards(board))
    made = set(board_range(g, "made:three_of_a_kind", cards).combos)
    draws = set(board_range(g, "draw:straight", cards).combos)
    hands = [h for h in itertools.combinations(range(52), g.hole_cards) if not set(h) & set(cards)]
    if len(hands) > 3000:
        rng = np.random.default_rng(3)
        picked = [sorted(s)[i] for s in (made, draws) for i in rng.choice(len(s), 100, replace=False)]
        hands = [hands[i] for i in rng.choice(len(hands), 300, replace=False)] + picked
    drawing = {Category.high_card, Category.one_pair, Category.two_pair}
    for hand in hands:
        now = showdown(g, hand, cards).high.category
        assert (hand in made) == (now == Category.three_of_a_kind), hand
        hits = any(
            showdown(g, hand, (*cards, c)).high.category == Category.straight
            for c in range(52)
            if c not in cards and c not in hand
        )
        assert (hand in draws) == (now in drawing and hits), hand


def test_range_rules_never_evaluate_a_hand_with_a_card_of_the_board(monkeypatch):
    """A pool holding a card twice has no row in the evaluator's tables: the kernels, which do
    not check bounds, read past them (seen as a worker's segfault in a sweep)."""
    from evaluator.cards import parse_cards
    from evaluator.games import game
    from solver import poker

    real = poker.categories
    seen = []

    def checked(g, hands, board):
        assert not np.isin(hands, board).any(), board
        seen.append(len(board))
        return real(g, hands, board)

    monkeypatch.setattr(poker, "categories", checked)
    poker.board_range(game("pls7"), "draw:straight", tuple(parse_cards("Ks 7d 8c 9h")))
    assert seen.count(5) == 48


def test_sy_run_solve_gives_the_study_tables(tmp_path):
    import sampyong as sy

    run = sy.run(
        "solve",
        game="holdem",
        boards=1,
        oop="AA,KK,72o",
        ip="QQ,JTs",
        stack=100,
        bets="75%",
        raises="",
        iterations=20,
        backend="serial",
        out=tmp_path,
        quiet=True,
    )
    assert run.tables["boards"]["variant"].to_list() == ["base"]
