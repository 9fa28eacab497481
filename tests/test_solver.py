"""The solver against slow references and closed forms (open_spiel and the LP have their own files).

- Values and best responses of the kernels (sorted sweeps, card removal, hi-lo halves, chance
  nodes) equal ``tests/solver_reference.py``'s walk over every pair of hands and every card,
  under random strategies, in every game; payoffs sum to the pot.
- Deals folded by suit symmetry give the same solve as the unfolded tree.
- A polarized bettor against a bluff-catcher: the defence 1 / (1 + s) and the bluffs s / (1 + 2s)
  of the bets, for s = 0.5, 1, 2.
- A hi-lo river where one player holds the nut low against a range without a low: half the pot.
- The tree: pot-limit caps, all-in, raises; bad input is one line.
"""

from __future__ import annotations

import numpy as np
import pytest

from engine.betting import NO_LIMIT, POT_LIMIT
from evaluator.cards import parse_cards
from evaluator.errors import SampyongError
from evaluator.games import game
from evaluator.ranges import parse_range
from solver.betting import Spot, parse_sizes
from solver.dcfr import State, solve
from solver.kernels import AVERAGE, BEST
from solver.poker import poker_problem
from tests.solver_reference import Reference, random_strategies, unfolded_sums


def problem_of(
    name, board, oop, ip, pot=100, stack=100, bets="75%", raises="", max_raises=1, fold_suits=True, betting=None
):
    g = game(name)
    spot = Spot(
        tuple(parse_cards(board)),
        pot,
        stack,
        parse_sizes(bets),
        parse_sizes(raises, raises=True),
        max_raises,
        betting or (NO_LIMIT if name == "holdem" else POT_LIMIT),
    )
    return g, poker_problem(g, spot, (parse_range(oop, g), parse_range(ip, g)), fold_suits)


SPOTS = [  # game, board, oop, ip, bets, raises: asymmetric ranges, so no deal is folded
    ("holdem", "Qs Jh 2h 8d 3c", "AsAh,QcQd,7c2d,KhTh,9c9d", "KsKd,JcJd,Th9h,AcKc,8s8h", "75%, allin", "pot"),
    ("holdem", "Qs Jh 2h 8d", "AsAh,QcQd,KhTh", "KsKd,Th9h,8s8h", "50%", ""),
    ("plo8", "As 2d 7c Kh 9s", "Ac3c4d5d,KdKcQhJh,3h4h6c8c", "AdKs3s5s,QsQdJcJs,4c5c6d8d", "pot", "pot"),
    ("pls7", "Ks 7d 2c 9h 4s", "As3c5d,KhKd2h,7c7h8s", "Ad2s3h,9c9s6d,QsJsTs", "75%", "pot"),
    ("pls7", "Ks 7d 2c 9h", "As3c5d,KhKd2h", "Ad2s3h,QsJsTs", "pot", ""),
]


@pytest.mark.parametrize("spot", SPOTS, ids=[f"{s[0]}-{len(s[1].split())}" for s in SPOTS])
def test_values_and_best_responses_equal_the_reference(spot):
    name, board, oop, ip, bets, raises = spot
    g, problem = problem_of(name, board, oop, ip, bets=bets, raises=raises)
    assert len(problem.tree.maps) == 1
    state = State(problem)
    for p, sums in enumerate(random_strategies(problem, seed=7)):
        state.strat[p][...] = sums
    strategies = [state.average_strategy(p) for p in range(2)]
    reference = Reference(g, problem, strategies)
    for p in range(2):
        assert state.value(AVERAGE, p) == pytest.approx(reference.expected(p), abs=1e-4)
        assert state.value(BEST, p) == pytest.approx(reference.best_response(p), abs=1e-4)
    assert state.value(AVERAGE, 0) + state.value(AVERAGE, 1) == pytest.approx(problem.tree.pot, abs=1e-4)


def test_suit_folding_changes_no_number():
    """The folded tree's solution, played on the unfolded tree of the same spot (each folded
    deal through the one it stands for), has the same values and best responses. Two solves
    would not do: DCFR's regret matching turns last-bit differences between the trees into
    different strategies within a few iterations."""
    args = ("holdem", "Qs Js 8s 2h", "AA,KK,QJs,T9s", "QQ,JJ,AK,98s")  # diamonds and clubs alike
    kwargs = dict(bets="50%", raises="pot", stack=150)
    _, folded = problem_of(*args, **kwargs)
    _, full = problem_of(*args, fold_suits=False, **kwargs)
    assert len(folded.tree.maps) > 1 and folded.tree.nodes < full.tree.nodes
    a, history = solve(folded, iterations=30, check_every=10)
    b = State(full)
    for p, sums in enumerate(unfolded_sums(folded, a.strat, full)):
        b.strat[p][...] = sums
    for mode in (AVERAGE, BEST):
        for p in range(2):
            assert a.value(mode, p) == pytest.approx(b.value(mode, p), rel=1e-5, abs=1e-5)
    assert b.exploitability() == pytest.approx(history[-1].exploitability, abs=1e-4)


@pytest.mark.parametrize("s", [0.5, 1.0, 2.0])
def test_polarized_bettor_against_a_bluff_catcher(s):
    # Kings full (value) and 7-6 / 5-3 high (air) bet into aces up, which beat only the air; no
    # hand of one range shares a card with the other's, so every deal is possible.
    value, air, catcher = "KcKd,KcKh,KdKh", "7c6c,7h6h,5d3d", "AcAh,AdAh,AcAd"
    g, problem = problem_of(
        "holdem", "Ks 8d 4c 2s 2h", f"{value},{air}", catcher, stack=400, bets=f"{100 * s:g}%", raises=""
    )
    state, history = solve(problem, iterations=3000, target=0.005, check_every=100)
    tree = problem.tree
    bet = tree.find([tree.actions(0)[1]])
    assert tree.actions(0)[1] == f"bet {round(100 * s)}"
    bets = state.average_strategy(0)[problem.slot[0] + 1]
    hands = [tuple(h) for h in problem.hands[0].tolist()]
    is_air = np.array([h in {tuple(sorted(parse_cards(x))) for x in air.split(",")} for h in hands])
    bluffs = bets[is_air].sum() / bets.sum()
    defend = state.average_strategy(1)[problem.slot[bet] + 1].mean()  # "call" is the second action
    assert bluffs == pytest.approx(s / (1 + 2 * s), abs=0.005)
    assert defend == pytest.approx(1 / (1 + s), abs=0.005)


def test_nut_low_against_a_high_only_range_gets_half_the_pot():
    # oop: A-3 for the nut low and a pair of nines; ip: trips and no low. Any bet is called and
    # returns half of itself, a fold loses the pot: oop's equilibrium value is half the pot.
    g, problem = problem_of("plo8", "Kh Qs 7d 4c 2s", "Ac3d9h9c", "KcKdJhTh,KsKd8h8c", bets="pot", raises="pot")
    state, _ = solve(problem, iterations=200)
    assert state.value(AVERAGE, 0) == pytest.approx(50.0, abs=0.05)
    assert state.exploitability() < 0.1


def test_pot_limit_caps_bets_and_raises_at_the_pot():
    _, problem = problem_of(
        "pls7",
        "Ks 7d 2c 9h 4s",
        "As3c5d",
        "Ad2s3h",
        pot=100,
        stack=1000,
        bets="75%, 150%, allin",
        raises="pot, allin",
        max_raises=2,
    )
    tree = problem.tree
    assert tree.actions(0) == ("check", "bet 75", "bet 100")  # 150 % and all-in are capped at the pot
    assert tree.actions(tree.find("bet 100")) == ("fold", "call", "raise 400")  # call 100, then the pot of 300
    # The pot of 1,300 after the call is more than the 1,000 stack: all-in.
    assert tree.actions(tree.find("bet 100, raise 400")) == ("fold", "call", "allin 1000")
    assert tree.actions(tree.find("bet 100, raise 400, allin 1000")) == ("fold", "call")


def test_no_limit_allin_and_the_last_raise():
    _, problem = problem_of(
        "holdem", "Qs Jh 2h 8d 3c", "AsAh", "KsKd", pot=100, stack=100, bets="75%, allin", raises="pot"
    )
    tree = problem.tree
    assert tree.actions(0) == ("check", "bet 75", "allin 100")
    assert tree.actions(tree.find("bet 75")) == ("fold", "call", "allin 100")  # a pot raise is more than 25 behind
    assert tree.actions(tree.find("allin 100")) == ("fold", "call")


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(board="Ks 7d 2c 9h", oop="KsKd", ip="AA"), "no hand left"),
        (dict(board="Ks Ks 2c 9h", oop="AA", ip="QQ"), "twice"),
        (dict(board="Ks 7d 2c 9h", oop="AA", ip="QQ", bets=";"), "give no bet size"),
        (dict(board="Ks 7d 2c 9h", oop="AA", ip="QQ", bets="12"), "bad size"),
        (dict(board="Ks 7d 2c 9h", oop="AA", ip="QQ", stack=0), "stack"),
        (dict(board="Ks 7d", oop="AA", ip="QQ"), "3, 4 or 5 cards"),
        (dict(board="Ks 7d 2c 9h", oop="AsAh", ip="AsAd"), "every pair shares a card"),
    ],
)
def test_bad_spots_are_one_line_errors(kwargs, message):
    from sampyong.solutions import solve as api_solve

    with pytest.raises(SampyongError, match=message):
        api_solve(game="holdem", **kwargs)


def test_the_cli_writes_the_run_folder_and_the_api_gives_the_same_strategy(tmp_path):
    import json
    import subprocess
    import sys

    import polars as pl

    import sampyong as sy

    spot = dict(
        game="pls7",
        board="Ks 7d 2c 9h 4s",
        oop="AA*,KK*,A23",
        ip="QQ*,A45,T98",
        pot=100,
        stack=200,
        bets="75%, pot",
        raises="pot",
        target=0.5,
        iterations=300,
    )
    args = [sys.executable, "-m", "sampyong", "solve", "--out", str(tmp_path / "run"), "--json", "--threads", "1"]
    for key, value in spot.items():
        args += [f"--{key.replace('_', '-')}", str(value)]
    done = subprocess.run(args, capture_output=True, text=True, check=True)
    summary = json.loads(done.stdout)
    assert summary["exploitability"] <= 0.5
    folder = tmp_path / "run"
    assert {p.name for p in folder.iterdir()} == {
        "settings.toml",
        "strategy.parquet",
        "state.npz",
        "exploitability.parquet",
        "exploitability.png",
        "report.md",
    }
    assert "Exploitability" in (folder / "report.md").read_text()
    solution = sy.solve(**spot, threads=2)
    assert solution.exploitability == summary["exploitability"]  # the same on any thread count
    saved = pl.read_parquet(folder / "strategy.parquet").filter(pl.col("node") == 0)
    root = solution.strategy("")
    assert saved["frequency"].to_list() == pytest.approx(root["frequency"].to_list(), abs=1e-6)
    page = solution.grid("", tmp_path / "grid.html")
    classes = solution.by_class("")
    assert (tmp_path / "grid.html").read_text() == page and classes["class"][0] in page
    assert (
        classes["share"].sum() == pytest.approx(1.0) and "## Root by hand class" in (folder / "report.md").read_text()
    )
    loaded = sy.load_solution(folder)
    assert loaded.ev("oop") == pytest.approx(solution.ev("oop"), abs=1e-6)
    bad = subprocess.run(
        [*args[:4], "--board", "Ks Ks 2c 9h", "--oop", "AA*", "--ip", "QQ*", "--out", str(tmp_path / "bad")],
        capture_output=True,
        text=True,
    )
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1 and not (tmp_path / "bad").exists()


@pytest.mark.slow
def test_the_readme_spot_gives_the_readme_figures(tmp_path):
    """The README's `sampyong solve --board "Ks 7d 2c 9h" --oop 30% --ip 30%`, as a new user runs
    it: the exploitability, iterations and EVs the README quotes, and the run folder."""
    import json
    import subprocess
    import sys

    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "sampyong",
            "solve",
            "--board",
            "Ks 7d 2c 9h",
            "--oop",
            "30%",
            "--ip",
            "30%",
            "--out",
            str(tmp_path / "spot"),
            "--json",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    summary = json.loads(done.stdout)
    assert (summary["iterations"], round(summary["exploitability"], 3)) == (80, 0.279)
    assert (round(summary["ev_oop"], 2), round(summary["ev_ip"], 2)) == (46.14, 53.86)
    assert "| high card, low | 8.1 % | 32.7 % | 47.7 % | 19.6 % |" in (tmp_path / "spot" / "report.md").read_text()


@pytest.mark.untraced
@pytest.mark.parametrize("spot", SPOTS, ids=[f"{s[0]}-{len(s[1].split())}" for s in SPOTS])
def test_how_the_spot_plays_equals_the_reference_walk(spot):
    """Node probabilities and tied showdowns equal a walk pair by pair and card by card, under
    random strategies; the terminals' probabilities sum to 1; each street is opened or checked
    through as often as it is played."""
    from solver.outcomes import node_probabilities, outcomes

    name, board, oop, ip, bets, raises = spot
    g, problem = problem_of(name, board, oop, ip, bets=bets, raises=raises)
    state = State(problem)
    for p, sums in enumerate(random_strategies(problem, seed=11)):
        state.strat[p][...] = sums
    reference = Reference(g, problem, [state.average_strategy(p) for p in range(2)])
    reached, tied = reference.probabilities()
    prob, _, _ = node_probabilities(problem, state)
    np.testing.assert_allclose(prob, reached, atol=1e-6)
    tree = problem.tree
    play = outcomes(problem, state)
    showdown = reached[tree.kind == 3].sum()
    assert play["showdown"] == pytest.approx(showdown, abs=1e-6)
    assert play["fold"] == pytest.approx(reached[tree.kind == 2].sum(), abs=1e-6)
    assert play["showdown"] + play["fold"] == pytest.approx(1.0, abs=1e-6)
    assert play["hi_chop"] == pytest.approx(tied.sum() / showdown, abs=1e-6)
    street = {5: "river", 4: "turn"}[len(board.split())]
    assert play[f"{street}_bet"] + play[f"{street}_checked_through"] == pytest.approx(1.0, abs=1e-6)
    uniform = State(problem)  # no strategy sums: every hand plays every action alike
    no_folds = Reference(g, problem, [uniform.average_strategy(p) for p in range(2)])
    pairs = list(no_folds.pairs())
    norm = sum(w for _, _, w in pairs)
    if street == "river":
        expected = sum(w * no_folds.high_tie(0, i, j) for i, j, w in pairs) / norm
    else:
        expected = 0.0
        river_of = {}
        for k in np.nonzero(tree.kind == 1)[0][:1]:
            for c in range(52):
                if c not in tree.boards[0]:
                    river_of[c] = no_folds.child_for(int(k), c)
        for i, j, w in pairs:
            cards = no_folds.unseen(0, i, j)
            expected += (
                w * sum(no_folds.high_tie(_showdown_under(tree, river_of[c]), i, j) for c in cards) / len(cards) / norm
            )
    assert play["hi_chop_no_folds"] == pytest.approx(expected, abs=1e-9)


TIES = ("holdem", "Qs Jh 2h 8d 3c", "AhKc,AcKd,7c7d,9s9h,Kh2c", "AdKh,AsKs,6c6d,Th9c,Qc3d", "75%", "")  # AK against AK


@pytest.mark.untraced
@pytest.mark.parametrize("spot", SPOTS[:2] + SPOTS[3:4] + [TIES], ids=["holdem-5", "holdem-4", "pls7-5", "ties"])
def test_the_play_given_some_hands_is_the_reference_walk_over_those_pairs(spot):
    """``only``: the node probabilities and chops of the pairs in which each player holds a kept
    hand are the reference walk's over a copy of the problem whose ranges weigh only those."""
    import copy

    from solver.outcomes import node_probabilities, outcomes

    name, board, oop, ip, bets, raises = spot
    g, problem = problem_of(name, board, oop, ip, bets=bets, raises=raises)
    state = State(problem)
    for p, sums in enumerate(random_strategies(problem, seed=12)):
        state.strat[p][...] = sums
    only = [np.arange(problem.n_hands[0]) % 2 == 0, np.arange(problem.n_hands[1]) >= 1]
    kept = copy.copy(problem)
    kept.weights = tuple(problem.weights[p] * only[p] for p in range(2))
    reference = Reference(g, kept, [state.average_strategy(p) for p in range(2)])
    reached, tied = reference.probabilities()
    prob, _, _ = node_probabilities(problem, state, only)
    np.testing.assert_allclose(prob, reached, atol=1e-6)
    play = outcomes(problem, state, only)
    assert play["showdown"] == pytest.approx(reached[problem.tree.kind == 3].sum(), abs=1e-6)
    assert play["hi_chop"] == pytest.approx(tied.sum() / reached[problem.tree.kind == 3].sum(), abs=1e-6)
    assert play != outcomes(problem, state)
    if len(board.split()) == 5:
        pairs = list(reference.pairs())
        expected = sum(w * reference.high_tie(0, i, j) for i, j, w in pairs) / sum(w for _, _, w in pairs)
        assert play["hi_chop_no_folds"] == pytest.approx(expected, abs=1e-9)
    nobody = [np.zeros(problem.n_hands[0]), np.ones(problem.n_hands[1])]
    assert all(np.isnan(v) for v in outcomes(problem, state, nobody).values())


def _showdown_under(tree, node: int) -> int:
    """A showdown at or below ``node`` (on its board)."""
    while tree.kind[node] != 3:
        node = int(tree.first_child[node]) + int(tree.children[node]) - 1
    return node


def test_how_the_spot_plays_does_not_depend_on_suit_folding():
    """The folded tree's solution and the same played on the unfolded tree (as in
    ``test_suit_folding_changes_no_number``) play alike."""
    from solver.outcomes import outcomes

    args = ("holdem", "Qs Jh 2h 8h", "AA,KK,T9s,33", "AA,QQ,T9s,98s")
    _, folded = problem_of(*args, bets="50%")
    _, full = problem_of(*args, bets="50%", fold_suits=False)
    assert len(folded.tree.maps) > 1 and len(full.tree.maps) == 1
    state, _ = solve(folded, iterations=30)
    unfolded = State(full)
    for p, sums in enumerate(unfolded_sums(folded, state.strat, full)):
        unfolded.strat[p][...] = sums
    plays = [outcomes(folded, state), outcomes(full, unfolded)]
    assert plays[0].keys() == plays[1].keys()
    for key in plays[0]:
        assert plays[0][key] == pytest.approx(plays[1][key], rel=1e-5, abs=1e-7), key
