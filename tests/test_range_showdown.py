"""The range-against-range showdown kernel against a brute force over every pair and every board,
in every game; pokerkit's Omaha hands for PLO8; threads, blocks and suit folding change no sum."""

import itertools
import math

import numpy as np
import pokerkit
import pytest

import evaluator.range_showdown as showdown_module
from evaluator.cards import format_cards, parse_cards
from evaluator.games import game
from evaluator.range_showdown import showdown, spot
from tests.equity_reference import brute_force_equity

GAMES = ["holdem", "plo", "plo8", "pls7", "pls", "pls7-2", "plo5-8"]


def _random_case(rng, g, players, board_cards, sizes):
    """A board and per player a few distinct hands with whole or fractional weights, drawn from
    overlapping windows of the deck, so that some hands of different players share cards (and
    at least one deal has none in common)."""
    while True:
        case = _draw_case(rng, g, players, board_cards, sizes)
        if any(len(set().union(*map(set, pick))) == players * g.hole_cards for pick in itertools.product(*case[2])):
            return case


def _draw_case(rng, g, players, board_cards, sizes):
    deck = rng.permutation(52)
    board = sorted(deck[:board_cards].tolist())
    rest = deck[board_cards:]
    texts, hands, weights = [], [], []
    for p in range(players):
        picked = set()
        while len(picked) < sizes[p]:
            window = rest[p * g.hole_cards : (p + 3) * g.hole_cards + 2]  # overlapping: some hands share cards
            picked.add(tuple(sorted(rng.choice(window, g.hole_cards, replace=False).tolist())))
        combos = sorted(picked)
        w = rng.choice([1.0, 0.5, 0.25, 0.3], size=len(combos)) if p % 2 else np.ones(len(combos))
        texts.append(
            ", ".join(format_cards(c).replace(" ", "") + ("" if x == 1 else f"@{100 * x:g}") for c, x in zip(combos, w))
        )
        hands.append(np.array(combos, np.uint8))
        weights.append(np.asarray(w, np.float64))
    return board, texts, hands, weights


def _figures(result):
    unit, weight = result.unit, result.totals[0, 6]
    return [
        {
            "equity": t[0] / unit / weight,
            "high": t[1] / unit / weight,
            "low": t[2] / unit / weight,
            "win": t[3] / weight,
            "tie": t[4] / weight,
            "scoop": t[5] / weight,
        }
        for t in result.totals
    ]


@pytest.mark.parametrize("game_name", GAMES)
@pytest.mark.parametrize("players, board_cards, sizes", [(2, 5, (9, 7)), (2, 4, (5, 4)), (3, 4, (3, 2, 3))])
def test_sums_equal_a_brute_force_over_every_pair_and_board(game_name, players, board_cards, sizes):
    """Random small ranges with whole and fractional weights on a random turn or river: every sum
    of the kernel (share, high, low, wins, ties, scoops) equals the brute force over every
    card-disjoint pair or tuple of hands and every completion of the board."""
    g = game(game_name)
    rng = np.random.default_rng([players, board_cards, GAMES.index(game_name)])
    for _ in range(3):
        board, texts, hands, weights = _random_case(rng, g, players, board_cards, sizes)
        result = showdown(g, spot(g, hands, weights, board, []), threads=1)
        want = brute_force_equity(g, texts, board=format_cards(board))
        for got, expected in zip(_figures(result), want):
            for field, value in expected.items():
                assert got[field] == pytest.approx(value, abs=1e-12), (texts, field)


@pytest.mark.parametrize("game_name", ["holdem", "pls7", "plo8"])
def test_each_hand_against_the_whole_other_range_equals_a_brute_force(game_name):
    """Heads-up on a river (no suit symmetry: the solver's case), each hand's own sums against
    the other range, weighted by the other range only, equal the brute force of that hand alone
    against the range; cards shared with the other hand are left out."""
    g = game(game_name)
    rng = np.random.default_rng(7)
    board, texts, hands, weights = _random_case(rng, g, 2, 5, (6, 8))
    result = showdown(g, spot(g, hands, weights, board, []), threads=1)
    assert result.per_hand is not None
    for i, hand in enumerate(hands[0]):
        want = brute_force_equity(g, [format_cards(hand), texts[1]], board=format_cards(board))[0]
        row = result.per_hand[0][i]
        if row[6] == 0:
            continue  # the hand shares a card with every hand of the other range
        assert row[0] / 4 / row[6] == pytest.approx(want["equity"], abs=1e-12)
        assert row[3] / row[6] == pytest.approx(want["win"], abs=1e-12)


def test_threads_and_blocks_change_no_sum(monkeypatch):
    """Fractional weights, boards cut into blocks of a few boards: one thread and two give
    bit-identical sums, and so do blocks of another size."""
    g = game("pls7")
    rng = np.random.default_rng(3)
    board, _, hands, weights = _random_case(rng, g, 2, 3, (12, 10))
    s = spot(g, hands, [w * 0.37 for w in weights], board, [])
    monkeypatch.setattr(showdown_module, "BLOCK_EVALUATIONS", 22 * 50)
    one, two = showdown(g, s, threads=1), showdown(g, s, threads=2)
    assert np.array_equal(one.totals, two.totals)
    assert all(np.array_equal(a, b) for a, b in zip(one.per_hand, two.per_hand))


def test_folding_suit_symmetric_boards_changes_no_sum(monkeypatch):
    """Ranges that every suit permutation keeps (AA, 72o against KK, QJs) on a board it keeps too:
    the rivers are folded by suit and give the same whole-number sums as every river one by one."""
    g = game("holdem")
    from evaluator.ranges import parse_range

    ranges = [parse_range(t, g) for t in ("AA, 72o", "KK, QJs")]
    hands = [np.array(r.combos, np.uint8) for r in ranges]
    weights = [np.ones(r.size) for r in ranges]
    board = parse_cards("2c 2d 2h 2s")  # the four deuces: every suit permutation keeps this board
    s = spot(g, hands, weights, board, [])
    folded = showdown(g, s, threads=1)
    assert folded.evaluated < folded.boards and folded.per_hand is None
    monkeypatch.setattr(showdown_module, "symmetries", lambda *args: np.arange(52)[None, :])
    plain = showdown(g, spot(g, hands, weights, board, []), threads=1)
    assert plain.evaluated == plain.boards
    assert np.array_equal(folded.totals, plain.totals)


def _pokerkit_shares(hero, villain, board):
    """Hero's pot share and scoop in PLO8 with pokerkit's Omaha hands (high and eight-or-better)."""
    hole = [format_cards(h).replace(" ", "") for h in (hero, villain)]
    text = format_cards(board).replace(" ", "")
    highs = [pokerkit.OmahaHoldemHand.from_game(h, text) for h in hole]
    lows = []
    for h in hole:
        try:
            lows.append(pokerkit.OmahaEightOrBetterLowHand.from_game(h, text))
        except ValueError:
            lows.append(None)
    high = 1.0 if highs[0] > highs[1] else 0.5 if highs[0] == highs[1] else 0.0
    if lows[0] is None and lows[1] is None:
        return high, False
    if lows[1] is None:
        low = 1.0
    elif lows[0] is None:
        low = 0.0
    else:
        low = 1.0 if lows[0] > lows[1] else 0.5 if lows[0] == lows[1] else 0.0
    share = (high + low) / 2
    return share, share == 1.0


def test_plo8_equals_a_brute_force_over_pokerkits_omaha_hands():
    """PLO8 range against range on a turn: the kernel's equity and scoops equal a brute force
    whose hands are pokerkit's (exactly two hole cards, eight-or-better lows)."""
    g = game("plo8")
    rng = np.random.default_rng(11)
    board, _, hands, weights = _random_case(rng, g, 2, 4, (4, 4))
    result = _figures(showdown(g, spot(g, hands, [np.ones(len(h)) for h in hands], board, []), threads=1))[0]
    share = scoops = deals = 0.0
    for a, b in itertools.product(hands[0].tolist(), hands[1].tolist()):
        if set(a) & set(b):
            continue
        for river in set(range(52)) - set(board) - set(a) - set(b):
            s, scooped = _pokerkit_shares(a, b, board + [river])
            share, scoops, deals = share + s, scoops + scooped, deals + 1
    assert deals > 0 and math.isclose(result["equity"], share / deals, abs_tol=1e-12)
    assert math.isclose(result["scoop"], scoops / deals, abs_tol=1e-12)


FIXED_CASES = [
    # (game, hands, board, live cards besides the hands and board: the rest are dead)
    ("holdem", ["As Ah", "Kd Kc"], "", "Qs Qh Js Jh 9s 8s 7h 6h 2c 3c 4d 5d Td"),
    ("holdem", ["Ah Kh", "7h 2h", "Qc Jc"], "", "Th 9h 3h 4c 5c 6s 8d 9d Ts Js As"),
    ("holdem", ["Ah Kh", "7h 2h"], "Th 9h 3c", ""),
    ("pls7", ["As 2s 3s", "4h 5h 6h"], "", "7s 8s 9h Th 2c 3d 4c 5d 6c Kc Kd Ad Jh"),
    ("pls7", ["As 2s 3s", "Qd Qc 2h", "7h 8h 9h"], "4s 5h Td", ""),
    ("pls7", ["As 2s 3s", "4h 5h 6h", "Kd Qd Jd", "7c 8c 9c"], "Ts Js 2h", "Qs 3h 2d 3d 2c 3c 4s 5s 6s Kh"),
    ("pls", ["Ks Qs Js", "Ah Kh Qh"], "2s 3h 4d", "Ts 9s Th Jh 5d 6c 7c 8d"),
    ("pls7-2", ["As 2s 3h", "4h 5h 6d"], "7s 8s 9d", "9s Ts 7h 8h 2c 3c 4c"),
]


@pytest.mark.untraced
@pytest.mark.parametrize("game_name, hands, board, live", FIXED_CASES)
@pytest.mark.parametrize("knobs", [{}, {"ranking": "both"}, {"low": 8}])
def test_fixed_hands_counted_by_ranks_equal_a_brute_force(game_name, hands, board, live, knobs):
    """Fixed hands in a free-use game (boards counted by the ranks of their new cards, flushes
    dealt one by one): every figure equals the brute force over every completion, suited hands
    that reach flushes in one or two suits, one to four players, preflop to the turn, under
    other rankings and lows (the 2-3 hole-card game takes the split path and is checked too)."""
    g = game(game_name).variant(**knobs) if knobs else game(game_name)
    from evaluator.equity import equity

    named = (
        set(parse_cards(" ".join(hands)))
        | set(parse_cards(board) if board else [])
        | set(parse_cards(live) if live else [])
    )
    dead = format_cards(sorted(set(range(52)) - named)) if live else ""
    got = equity(g, hands, board=board, dead=dead, exact=True)
    want = brute_force_equity(g, hands, board=board, dead=dead)
    for have, expected in zip(got["hands"], want):
        for field, value in expected.items():
            assert have[field] == pytest.approx(value, abs=1e-12), (hands, field)


@pytest.mark.untraced
@pytest.mark.parametrize(
    "game_name, texts, board, dead",
    [
        ("holdem", ["AA, KQs@50, 72o", "KK, 76s, T9o@25"], "2c 2d 2h", ""),  # the suits of the deuces permute
        ("holdem", ["AK", "QQ", "JTs"], "", "2c 3c 4c 5c 6c 7c 8c 9c 2d 3d 4d 5d 6d 7d 8d 9d 2h 3h 4h 5h 6h"),
        ("pls7", ["AA2, A23@40", "K45, 345"], "9c 9d 9h 9s", ""),
        ("pls", ["AKQ", "JJ*@30"], "2s 3s 4h", "5c 6c 7c 8c 9c 5d 6d 7d 8d 9d 5h 6h 7h 8h 9h Tc Td Th Ts"),
    ],
)
def test_deals_folded_by_suit_equal_a_brute_force(monkeypatch, game_name, texts, board, dead):
    """Ranges that suit permutations keep, deal by deal: tuples equal up to those permutations
    counted once with their summed weights (fewer tuples than deals; folded however small the
    work), and every figure equal to the brute force over every tuple and board."""
    import evaluator.equity
    from evaluator.equity import _entry, _folded_deals, _spot, equity

    monkeypatch.setattr(evaluator.equity, "FOLD_FROM", 0)
    g = game(game_name)
    board_cards = parse_cards(board) if board else []
    dead_cards = parse_cards(dead) if dead else []
    s = _spot(g, texts, [_entry(g, t, None) for t in texts], board_cards, dead_cards)
    holes, weights = _folded_deals(s)
    _, _, every_weight = showdown_module.deals(s.hands, s.weights)
    assert len(s.symmetries) > 1 and len(holes) < len(every_weight)
    assert weights.sum() == pytest.approx(every_weight.sum(), abs=1e-9)
    got = equity(g, texts, board=board, dead=dead, exact=True)
    want = brute_force_equity(g, texts, board=board, dead=dead)
    for have, expected in zip(got["hands"], want):
        for field, value in expected.items():
            assert have[field] == pytest.approx(value, abs=1e-12), (texts, field)
