"""The solver core against open_spiel on Kuhn and Leduc poker.

Our core solves each game from its own tree (Kuhn's written by hand, Leduc's built by walking
open_spiel's states, so both play the same game); the average strategy is then turned into an
open_spiel ``TabularPolicy`` and judged by open_spiel's own code:

- Kuhn: player 0's value is the published -1/18 and open_spiel's exploitability is near 0.
- Leduc: open_spiel's exploitability of our policy is below 1e-3 chips, our exploitability
  (``State.exploitability``, % of the pot) equals open_spiel's in chips, and player 0's value
  is the published -0.0856, ours and open_spiel's of our policy alike.
- Strategies far from equilibrium (uniform, and the first iteration's): open_spiel finds them
  exploitable and our best responses give the same exploitability as its, so the agreement
  above is not an artefact of both being near 0.

Units: our payoffs are the pot share minus chips put in after the antes; open_spiel's returns
are those minus the ante (1 chip in both games). Our exploitability is in % of the starting pot
(2 chips); open_spiel's ``exploitability`` is nash_conv / 2, in chips.
"""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
from open_spiel.python import policy  # noqa: E402
from open_spiel.python.algorithms import expected_game_score, exploitability  # noqa: E402

from solver.dcfr import Problem, State, solve  # noqa: E402
from solver.kernels import AVERAGE  # noqa: E402
from solver.tree import CHANCE, DECISION, FOLD, SHOWDOWN, Node, Tree  # noqa: E402

ANTE = 1
LEDUC_DECK = 6
POT = 2  # both antes
KUHN_VALUE = -1 / 18  # player 0's value of Kuhn poker
LEDUC_VALUE = -0.0856  # player 0's value of Leduc poker (-0.08560)
KUHN_ITERATIONS = 1000  # open_spiel's exploitability 1.8e-4
LEDUC_ITERATIONS = 500  # 5.1e-4 (300: 1.2e-3, 400: 7.5e-4)


def kuhn_problem() -> Problem:
    """Kuhn poker (J=0, Q=1, K=2): each node's children in the order of open_spiel's actions
    (0 = pass/check/fold, 1 = bet/call)."""
    sd = lambda c: Node(SHOWDOWN, contributed=c)  # noqa: E731
    root = Node(
        DECISION,
        player=0,
        children=[
            (
                "check",
                Node(
                    DECISION,
                    player=1,
                    children=[
                        ("check", sd((0, 0))),
                        (
                            "bet 1",
                            Node(
                                DECISION,
                                player=0,
                                contributed=(0, 1),
                                children=[("fold", Node(FOLD, player=0, contributed=(0, 1))), ("call", sd((1, 1)))],
                            ),
                        ),
                    ],
                ),
            ),
            (
                "bet 1",
                Node(
                    DECISION,
                    player=1,
                    contributed=(1, 0),
                    children=[("fold", Node(FOLD, player=1, contributed=(1, 0))), ("call", sd((1, 1)))],
                ),
            ),
        ],
    )
    tree = Tree.of(root, pot=POT, boards=[()])
    hands = [np.arange(3).reshape(3, 1)] * 2
    strengths = lambda boards: [(np.tile(np.arange(3), (len(boards), 1)), None)] * 2  # noqa: E731
    return Problem(tree, hands, [np.ones(3)] * 2, strengths, deck=3)


def leduc_problem(game) -> Problem:
    """Leduc poker's tree read off open_spiel's states after one deal of the hole cards: a
    node's children are the state's legal actions in order; the public card's chance node has
    a child for each card of the deck (board ``1 + card``), each with the betting open_spiel
    plays after some public card (the betting does not depend on the card). Chips put in come
    from open_spiel's ``money`` (at a terminal it has been paid out: the parent's is used)."""
    start = game.new_initial_state()
    start.apply_action(0)
    start.apply_action(1)
    stack = list(start.money())

    def put_in(s):
        return tuple(stack[p] - m for p, m in enumerate(s.money()))

    def build(s, board):
        if s.is_chance_node():
            after = s.child(s.chance_outcomes()[0][0])
            return Node(
                CHANCE,
                board=board,
                contributed=put_in(s),
                symmetric=[[] for _ in range(LEDUC_DECK)],
                children=[(str(card), build(after, 1 + card)) for card in range(LEDUC_DECK)],
            )
        children = []
        for action in s.legal_actions():
            t = s.child(action)
            if not t.is_terminal():
                child = build(t, board)
            elif action == 0:  # a fold puts nothing in
                child = Node(FOLD, player=s.current_player(), board=board, contributed=put_in(s))
            else:  # a call that ends the hand
                child = Node(SHOWDOWN, board=board, contributed=(max(put_in(s)),) * 2)
            children.append((s.action_to_string(action), child))
        return Node(DECISION, player=s.current_player(), board=board, contributed=put_in(s), children=children)

    boards = [()] + [(card,) for card in range(LEDUC_DECK)]
    tree = Tree.of(build(start, 0), pot=POT, boards=boards)

    def strengths(boards):  # a pair with the public card beats any rank; else the higher rank
        rank = np.arange(LEDUC_DECK) // 2
        high = np.array([np.where(rank == b[0] // 2, 10 + rank, rank) for b in boards])
        return [(high, None)] * 2

    hands = [np.arange(LEDUC_DECK).reshape(-1, 1)] * 2
    return Problem(tree, hands, [np.ones(LEDUC_DECK)] * 2, strengths, deck=LEDUC_DECK)


def to_policy(game, problem: Problem, state: State) -> policy.TabularPolicy:
    """Our average strategy as open_spiel's policy: every history of the game walked, its
    betting (and public card) followed down our tree, the private card being the hand index."""
    tree = problem.tree
    strategies = [state.average_strategy(p) for p in range(2)]
    out = policy.TabularPolicy(game)
    seen: dict[str, np.ndarray] = {}

    def walk(s, node):
        if s.is_terminal():
            assert tree.kind[node] in (FOLD, SHOWDOWN)
            return
        if s.is_chance_node():
            dealt = len(s.history()) >= 2  # the hole cards are our ranges, not tree nodes
            assert dealt == (tree.kind[node] == CHANCE)
            for card, _ in s.chance_outcomes():
                walk(s.child(card), int(tree.first_child[node]) + card if dealt else node)
            return
        p, legal = s.current_player(), s.legal_actions()
        assert tree.kind[node] == DECISION and tree.player[node] == p and tree.children[node] == len(legal)
        slot = problem.slot[node]
        probs = strategies[p][slot : slot + len(legal), s.history()[p]]
        key = s.information_state_string()
        assert np.array_equal(seen.setdefault(key, probs), probs)  # one strategy per information state
        out.policy_for_key(key)[legal] = probs
        for i, action in enumerate(legal):
            walk(s.child(action), int(tree.first_child[node]) + i)

    walk(game.new_initial_state(), 0)
    assert len(seen) == len(out.state_lookup)  # every information state set
    return out


def chips(state: State) -> float:
    """Our exploitability (% of the pot) in chips."""
    return state.exploitability() / 100 * state.problem.tree.pot


def open_spiel_value(game, pol) -> float:
    return expected_game_score.policy_value(game.new_initial_state(), [pol, pol])[0]


def solved(problem: Problem, iterations: int) -> State:
    # One thread: the trees are tiny, and numba's thread hand-offs per level would dominate.
    return solve(problem, iterations=iterations, check_every=iterations, threads=1)[0]


@pytest.fixture(scope="module")
def games():
    """Per game: open_spiel's game and our problem for it."""
    return {
        "kuhn": (pyspiel.load_game("kuhn_poker"), kuhn_problem()),
        "leduc": (pyspiel.load_game("leduc_poker"), leduc_problem(pyspiel.load_game("leduc_poker"))),
    }


def test_kuhn_value_and_exploitability(games):
    game, problem = games["kuhn"]
    state = solved(problem, KUHN_ITERATIONS)
    pol = to_policy(game, problem, state)
    theirs = exploitability.exploitability(game, pol)
    assert theirs < 1e-3
    assert chips(state) == pytest.approx(theirs, abs=1e-6)
    assert state.value(AVERAGE, 0) - ANTE == pytest.approx(KUHN_VALUE, abs=1e-4)
    assert open_spiel_value(game, pol) == pytest.approx(state.value(AVERAGE, 0) - ANTE, abs=1e-6)


def test_leduc_tree_matches_open_spiel(games):
    """Every terminal of every deal pays what open_spiel pays (less the ante): folds by our
    contributions, showdowns by our contributions and strengths."""
    game, problem = games["leduc"]
    tree = problem.tree

    def walk(s, node):
        if s.is_terminal():
            c = tree.contributed[node]
            if tree.kind[node] == FOLD:
                ours = [POT + c[1 - p] if tree.player[node] == 1 - p else -c[p] for p in range(2)]
            else:
                assert tree.kind[node] == SHOWDOWN
                row = problem.sd_row[tree.board[node]]
                high = [problem.sd_high[p][row, s.history()[p]] for p in range(2)]
                share = [0.5 if high[0] == high[1] else float(high[p] > high[1 - p]) for p in range(2)]
                ours = [(POT + c.sum()) * share[p] - c[p] for p in range(2)]
            assert np.allclose(np.array(ours) - ANTE, s.returns())
            return
        if s.is_chance_node():
            dealt = len(s.history()) >= 2
            for card, _ in s.chance_outcomes():
                walk(s.child(card), int(tree.first_child[node]) + card if dealt else node)
            return
        for i, action in enumerate(s.legal_actions()):
            walk(s.child(action), int(tree.first_child[node]) + i)

    walk(game.new_initial_state(), 0)
    assert tree.board[tree.kind == SHOWDOWN].min() > 0  # no showdown before the public card


def test_leduc_solution(games):
    game, problem = games["leduc"]
    state = solved(problem, LEDUC_ITERATIONS)
    pol = to_policy(game, problem, state)
    theirs = exploitability.exploitability(game, pol)
    assert theirs < 1e-3
    assert chips(state) == pytest.approx(theirs, abs=1e-6)
    assert state.value(AVERAGE, 0) - ANTE == pytest.approx(LEDUC_VALUE, abs=1e-3)
    assert open_spiel_value(game, pol) == pytest.approx(state.value(AVERAGE, 0) - ANTE, abs=1e-6)


@pytest.mark.parametrize("name", ["kuhn", "leduc"])
@pytest.mark.parametrize("iterations", [0, 1], ids=["uniform", "one-iteration"])
def test_exploitable_strategies_agree(games, name, iterations):
    """Far from equilibrium our best responses and open_spiel's still give one exploitability
    (and one value): no sums yet is the uniform strategy, one iteration a lopsided one."""
    game, problem = games[name]
    state = solved(problem, 1) if iterations else State(problem)
    pol = to_policy(game, problem, state)
    theirs = exploitability.exploitability(game, pol)
    assert theirs > 0.1
    if not iterations:
        assert theirs == pytest.approx(exploitability.exploitability(game, policy.UniformRandomPolicy(game)), abs=1e-12)
    assert chips(state) == pytest.approx(theirs, abs=1e-6)
    assert open_spiel_value(game, pol) == pytest.approx(state.value(AVERAGE, 0) - ANTE, abs=1e-6)
