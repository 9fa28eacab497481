"""The engine's policies in solved spots (``solver.policies``).

- The exact strength against any hand equals a pair-by-pair count with the reference evaluator
  (hold'em river), a card-by-card count over every opponent hand with the fast evaluator (PLS7
  and PLO8 turns) and the engine's own sampled strength within its error (every game).
- At every decision and for every hand the policy's action is the engine's (``engine.player``
  acting on a hand in the same state: pot, bet faced, sizes rebuilt from the path's labels).
- The exploitability is the reference walk's best responses against the policy; a closed form:
  a player who checks and calls everything, holding the nuts against a worse hand, is
  exploited by an all-in and a call, S / 2P of the pot.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from engine.hand import Legal
from engine.player import _postflop
from engine.policy import Policy, Postflop, builtin
from engine.strength import strength
from evaluator.cards import parse_cards
from evaluator.fast import fast_evaluator
from evaluator.games import game
from solver.policies import any_hand_strengths, exploitabilities, exploitability, policy_strategies, strengths
from solver.tree import CHANCE, DECISION
from tests.solver_reference import Reference, shares
from tests.test_solver import problem_of


def _counted(g, hole, board) -> float:
    """The hand's mean share over every opponent hand and every card to come, the fast evaluator
    scoring each deal and the shares counted here (RULES section 6, no odd chips)."""
    fast = fast_evaluator(g)
    dead = set(hole) | set(board)
    deck = [c for c in range(52) if c not in dead]
    total = count = 0.0
    for rest in itertools.combinations(deck, 5 - len(board)):
        left = [c for c in deck if c not in rest]
        others = np.array(list(itertools.combinations(left, g.hole_cards)), np.uint8)
        holes = np.empty((len(others), 2, g.hole_cards), np.uint8)
        holes[:, 0] = hole
        holes[:, 1] = others
        boards = np.tile(np.array(board + rest, np.uint8), (len(others), 1))
        high, low = (x.astype(np.int64) for x in fast.high_low(holes, boards))
        high_share = np.where(high[:, 0] > high[:, 1], 1.0, np.where(high[:, 0] == high[:, 1], 0.5, 0.0))
        low_share = np.where(low[:, 0] > low[:, 1], 1.0, np.where(low[:, 0] == low[:, 1], 0.5, 0.0))
        no_low = (low[:, 0] == 0) & (low[:, 1] == 0)
        total += np.where(no_low, high_share, 0.5 * high_share + 0.5 * low_share).sum()
        count += len(others)
    return total / count


@pytest.mark.untraced
def test_strength_against_any_hand_counts_every_deal():
    g = game("holdem")
    board = tuple(parse_cards("Qs Jh 2h 8d 3c"))
    hands = [tuple(parse_cards(h)) for h in ("As Ah", "Kh Th", "7c 2d", "Qh 3h")]
    exact = any_hand_strengths(g, np.array(hands), board)
    for hand, value in zip(hands, exact):
        deck = [c for c in range(52) if c not in hand + board]
        reference = np.mean([shares(g, hand, other, board) for other in itertools.combinations(deck, 2)])
        assert value == pytest.approx(reference, abs=1e-12)
    for name, board_text, hand_texts in (
        ("pls7", "Ks 7d 2c 9h", ("As 3c 5d", "Qs Js Ts")),
        ("plo8", "As 2d 7c Kh", ("Ac 3c 4d 5d", "Kd Kc Qh Jh")),
    ):
        g = game(name)
        board = tuple(parse_cards(board_text))
        hands = [tuple(parse_cards(h)) for h in hand_texts]
        exact = any_hand_strengths(g, np.array(hands), board)
        for hand, value in zip(hands, exact):
            assert value == pytest.approx(_counted(g, hand, board), abs=1e-12)


@pytest.mark.parametrize(
    "name, board_text, hand_text",
    [
        ("holdem", "Qs Jh 2h 8d", "Kh Th"),
        ("plo8", "As 2d 7c Kh 9s", "Ac 3c 4d 5d"),
        ("pls7", "Ks 7d 2c", "As 3c 5d"),
        ("pls7", "Ks 7d 2c 9h", "Qs Js Ts"),
    ],
)
def test_strength_is_the_engines_sampled_strength_without_its_noise(name, board_text, hand_text):
    g = game(name)
    board, hand = tuple(parse_cards(board_text)), tuple(parse_cards(hand_text))
    exact = any_hand_strengths(g, np.array([hand]), board)[0]
    sampled = strength(g, hand, board, opponents=1, samples=20_000, hand_key=11, seat=0)
    assert abs(sampled - exact) < 4.5 * 0.5 / np.sqrt(20_000)  # a share's spread is at most 1/2


def test_a_hand_on_the_board_has_no_strength():
    g = game("holdem")
    values = any_hand_strengths(
        g, np.array([parse_cards("Qs Ah"), parse_cards("Kd Kc")]), tuple(parse_cards("Qs Jh 2h"))
    )
    assert np.isnan(values[0]) and 0 < values[1] < 1


class _Hand:
    """What ``engine.player._postflop`` reads of a hand, and the action it takes."""

    def __init__(self, pot: int, max_bet: int):
        self.pot, self.max_bet, self.action = pot, max_bet, None
        self.street = 1  # solver.policies reads every street by the flop's thresholds (these policies have no others)

    def raise_to(self, amount):
        self.action = ("raise", amount)

    def check_call(self):
        self.action = ("check_call", None)

    def fold(self):
        self.action = ("fold", None)


def _state(tree, node: int) -> tuple[int, int, int]:
    """(pot, bet faced by the player to act, the opponent's street total) from the labels of the
    path alone: street totals reset when a card is dealt."""
    steps, k = [], node
    while k > 0:
        steps.append(k)
        k = int(tree.parent[k])
    pot, street, actor = tree.pot, [0, 0], 0
    for k in reversed(steps):
        parent = int(tree.parent[k])
        if tree.kind[parent] == CHANCE:
            pot, street = pot + sum(street), [0, 0]
            continue
        verb, _, amount = tree.labels[k].partition(" ")
        actor = int(tree.player[parent])
        if verb == "call":
            street[actor] = street[1 - actor]
        elif verb in ("bet", "raise", "allin"):
            street[actor] = int(amount)
    p = int(tree.player[node])
    return pot + sum(street), street[1 - p] - street[p], street[1 - p]


@pytest.mark.parametrize(
    "name, board, bets, raises, stack",
    [
        ("holdem", "Qs Jh 2h 8d", "33%, 75%, allin", "pot", 300),
        ("pls7", "Ks 7d 2c 9h 4s", "50%, pot", "2.5x, pot", 1000),
        ("plo8", "As 2d 7c Kh 9s", "pot", "pot", 150),
    ],
)
def test_every_decision_is_the_engines(name, board, bets, raises, stack):
    g, problem = problem_of(
        name,
        board,
        *{
            "holdem": ("AsAh,QcQd,7c2d,KhTh,9c9d", "KsKd,JcJd,Th9h,AcKc,8s8h"),
            "pls7": ("As3c5d,KhKd2h,7c7h8s", "Ad2s3h,9c9s6d,QsJsTs"),
            "plo8": ("Ac3c4d5d,KdKcQhJh,3h4h6c8c", "AdKs3s5s,QsQdJcJs,4c5c6d8d"),
        }[name],
        stack=stack,
        bets=bets,
        raises=raises,
        max_raises=2,
    )
    tree = problem.tree
    rng = np.random.default_rng(5)
    by_board = {b: tuple(rng.random(n) for n in problem.n_hands) for b in set(tree.board.tolist())}
    policies = [
        builtin("tight"),
        builtin("loose"),
        Policy("half", postflop=Postflop(bet=0.5, call_factor=0.6, bet_size=0.5)),
        Policy("overbet", postflop=Postflop(bet=0.3, call_factor=2.0, bet_size=3.0)),
    ]
    checked = 0
    for policy in policies:
        strategies = policy_strategies(problem, policy, by_board)
        for k in np.nonzero(tree.kind == DECISION)[0].tolist():
            p = int(tree.player[k])
            labels = tree.actions(k)
            pot, call, max_bet = _state(tree, k)
            sizes = sorted(int(label.split()[1]) for label in labels if label.split()[0] in ("bet", "raise", "allin"))
            legal = Legal(
                fold=call > 0,
                call=call,
                min_raise_to=sizes[0] if sizes else None,
                max_raise_to=sizes[-1] if sizes else None,
            )
            rows = strategies[p][problem.slot[k] : problem.slot[k] + len(labels)]
            for h in range(problem.n_hands[p]):
                hand = _Hand(pot, max_bet)
                _postflop(hand, p, policy, float(by_board[int(tree.board[k])][p][h]), legal)
                verb, amount = hand.action
                if verb == "raise":  # the tree's nearest size, the smaller on a tie
                    amount = min(sizes, key=lambda s: (abs(s - amount), s))
                    expected = next(a for a, label in enumerate(labels) if label.endswith(f" {amount}"))
                else:
                    expected = labels.index("fold" if verb == "fold" else "call" if call else "check")
                assert rows[:, h].tolist() == [float(a == expected) for a in range(len(labels))], (
                    policy.name,
                    tree.path(k),
                    h,
                )
                checked += 1
    assert checked > 50


def test_exploitability_is_the_reference_best_responses():
    g, problem = problem_of(
        "holdem",
        "Qs Jh 2h 8d 3c",
        "AsAh,QcQd,7c2d,KhTh,9c9d",
        "KsKd,JcJd,Th9h,AcKc,8s8h",
        bets="75%, allin",
        raises="pot",
        fold_suits=False,
    )
    for policy in (builtin("tight"), builtin("loose"), builtin("showdown")):
        strategies = policy_strategies(problem, policy, strengths(g, problem))
        reference = Reference(g, problem, [s.astype(np.float64) for s in strategies])
        expected = (
            100 * (reference.best_response(0) + reference.best_response(1) - problem.tree.pot) / 2 / problem.tree.pot
        )
        assert exploitability(problem, strategies) == pytest.approx(expected, abs=1e-4)


@pytest.mark.parametrize("pot, stack", [(100, 100), (100, 300), (60, 500)])
def test_a_calling_station_with_the_nuts_is_exploited_by_all_in_and_call(pot, stack):
    g, problem = problem_of("holdem", "Qs Jh 2h 8d 3c", "AhKh", "QcQd", pot=pot, stack=stack, bets="allin")
    figure = exploitabilities(g, problem, [builtin("showdown")])["showdown"]
    assert figure == pytest.approx(100 * stack / (2 * pot), abs=1e-4)


def test_random_legal_is_not_a_player_to_measure():
    from evaluator.errors import SampyongError

    g, problem = problem_of("holdem", "Qs Jh 2h 8d 3c", "AhKh", "QcQd")
    with pytest.raises(SampyongError, match="random-legal"):
        policy_strategies(problem, Policy("driver", style="random-legal"), {})
