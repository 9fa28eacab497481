"""The equity calculator: known hold'em numbers, exact results against a reference brute force,
Monte Carlo against exact, bad input."""

import itertools
import json
import statistics
from fractions import Fraction

import eval7
import numpy as np
import pytest
from typer.testing import CliRunner

import evaluator.equity
import evaluator.range_showdown
from evaluator import reference
from evaluator.cards import format_cards, make_card, parse_cards
from evaluator.equity import equity
from evaluator.errors import SampyongError
from evaluator.games import game
from sampyong.cli import app
from tests.equity_reference import brute_force_equity


def test_aces_against_kings_specific_suits():
    """As Ah against Kd Kc preflop: 81.26 % (exact)."""
    result = equity("holdem", ["As Ah", "Kd Kc"])
    assert result["exact"] and result["samples"] == 1_712_304
    assert round(100 * result["hands"][0]["equity"], 2) == 81.26
    assert sum(h["equity"] for h in result["hands"]) == pytest.approx(1.0, abs=1e-12)


def test_aces_against_kings_averaged_over_suits():
    """AA against KK averaged over every suit combination: 81.95 %."""
    aces = [format_cards(c) for c in itertools.combinations([make_card(12, s) for s in range(4)], 2)]
    kings = [format_cards(c) for c in itertools.combinations([make_card(11, s) for s in range(4)], 2)]
    values = [equity("holdem", [a, k])["hands"][0]["equity"] for a in aces for k in kings]
    assert round(100 * sum(values) / len(values), 2) == 81.95


@pytest.mark.parametrize(
    "game, hands, board",
    [("holdem", ["As Ah", "Kd Kc"], "Qs 7d 2c"), ("pls7", ["As 2h 3d", "Kd Kc Qs", "7c 8c 9c"], "4s 5h Td")],
)
def test_exact_and_monte_carlo_agree(game, hands, board):
    """Sampled equity lies within 4 standard errors of the exact value."""
    exact = equity(game, hands, board=board)
    sampled = equity(game, hands, board=board, exact=False, samples=100_000, seed=3)
    assert exact["exact"] and not sampled["exact"]
    for e, s in zip(exact["hands"], sampled["hands"]):
        assert abs(e["equity"] - s["equity"]) <= 4 * s["equity_se"]


# --- brute force with the reference evaluator --------------------------------------------


def _reference_parts(g, holes, board):
    """Each hand's (high part, low part) of the pot by the reference evaluator and RULES
    section 6: halves when some hand has a low, tied winners of a half share it equally."""
    shows = [reference.showdown(g, hole, board) for hole in holes]
    highs = [s.high.strength for s in shows]
    lows = [s.low.strength if s.low else 0 for s in shows]
    high_winners = [p for p, h in enumerate(highs) if h == max(highs)]
    low_winners = [p for p, lo in enumerate(lows) if lo and lo == max(lows)]
    high_pot = Fraction(1, 2) if low_winners else Fraction(1)
    return [
        (
            high_pot / len(high_winners) if p in high_winners else Fraction(0),
            Fraction(1, 2) / len(low_winners) if p in low_winners else Fraction(0),
        )
        for p in range(len(holes))
    ]


def _stats(parts_per_deal):
    """Per hand: the mean of equity, win (whole pot), tie (part of it), high and low parts,
    and the population standard deviation of the per-deal share."""
    out = []
    for p in range(len(parts_per_deal[0])):
        high = [d[p][0] for d in parts_per_deal]
        low = [d[p][1] for d in parts_per_deal]
        share = [h + lo for h, lo in zip(high, low)]
        n = len(share)
        out.append(
            {
                "equity": sum(share) / n,
                "win": Fraction(sum(s == 1 for s in share), n),
                "tie": Fraction(sum(0 < s < 1 for s in share), n),
                "high": sum(high) / n,
                "low": sum(low) / n,
                "sd": statistics.pstdev([float(s) for s in share]),
            }
        )
    return out


def _unseen(*texts):
    seen = set(parse_cards(" ".join(t for t in texts if t)))
    return [c for c in range(52) if c not in seen]


@pytest.mark.untraced
@pytest.mark.parametrize(
    "game_name, hands, board, dead",
    [
        ("pls7", ["As 2h 3d", "Kd Kc Qs", "7c 8c 9c"], "4s 5h Td", ""),  # flop: 780 turn-river pairs
        ("pls7-2", ["As 2h 3d", "Kd Kc Qs", "7c 8c 9c", "4c 4d 6h"], "5s 8h Jd 6c", ""),  # at least two hole cards
        ("plo8", ["As 2c Kh Kd", "Ad 3s 8h 8c"], "7s 4h Qc", "Js"),  # flop, a dead card
        ("holdem", ["As Ah", "Kd Kc", "Jh Th"], "Qs 7d 2c", "9h 8h"),  # three-way, two dead cards
    ],
)
def test_exact_equals_a_reference_brute_force(game_name, hands, board, dead):
    """Exact equity, win, tie, high and low of every hand equal a brute force over every board
    completion with the reference evaluator and the rule book's split."""
    g = game(game_name)
    result = equity(game_name, hands, board=board, dead=dead)
    board_cards = parse_cards(board)
    completions = list(itertools.combinations(_unseen(*hands, board, dead), g.board_cards - len(board_cards)))
    assert result["exact"] and result["samples"] == len(completions)
    holes = [parse_cards(h) for h in hands]
    expected = _stats([_reference_parts(g, holes, board_cards + list(rest)) for rest in completions])
    for got, want in zip(result["hands"], expected):
        for field in ("equity", "win", "tie", "high", "low"):
            assert got[field] == pytest.approx(float(want[field]), abs=1e-12), (got["hand"], field)
        assert got["equity_se"] == 0


@pytest.mark.untraced
@pytest.mark.parametrize(
    "game_name, hero, board, dead",
    [
        # hold'em river: the random hand is one of C(45, 2) = 990
        ("holdem", "As Ah", "Kd Qc 7h 7s 2d", ""),
        # PLS7 river with 20 dead cards: the random hand is one of C(24, 3) = 2,024
        ("pls7", "As 2h 3d", "4s 5h Td Kc 7c", "2s 2d 2c 3s 3h 3c 6s 6h 6d 6c 8s 8h 8d 8c 9s 9h 9d 9c Js Jh"),
    ],
)
def test_monte_carlo_random_hand_within_4_se_of_a_brute_force(game_name, hero, board, dead):
    """Against a random hand, sampled equity, win, tie, high and low lie within 4 standard
    errors of the exact values by a brute force over every hand with the reference evaluator,
    and the reported SE is the exact per-deal spread over the square root of the samples."""
    g = game(game_name)
    samples = 20_000
    result = equity(game_name, [hero, "random"], board=board, dead=dead, samples=samples, seed=7, exact=False)
    assert not result["exact"] and result["samples"] == samples
    hero_cards, board_cards = parse_cards(hero), parse_cards(board)
    parts = [
        _reference_parts(g, [hero_cards, list(other)], board_cards)
        for other in itertools.combinations(_unseen(hero, board, dead), g.hole_cards)
    ]
    expected = _stats(parts)
    for p, (got, want) in enumerate(zip(result["hands"], expected)):
        per_deal = {
            "equity": [float(d[p][0] + d[p][1]) for d in parts],
            "win": [float(d[p][0] + d[p][1] == 1) for d in parts],
            "tie": [float(0 < d[p][0] + d[p][1] < 1) for d in parts],
            "high": [float(d[p][0]) for d in parts],
            "low": [float(d[p][1]) for d in parts],
        }
        for field, values in per_deal.items():
            se = statistics.pstdev(values) / samples**0.5
            assert abs(got[field] - float(want[field])) <= 4 * se + 1e-12, (got["hand"], field)
        assert got["equity_se"] == pytest.approx(want["sd"] / samples**0.5, rel=0.1)


def test_cli_json():
    """--json prints the documented object with As Ah winning 42 of 44 rivers against Kd Kc on Qs 7d 2c 3h."""
    # Counted by hand: only Ks and Kh make the kings a set, and no river makes a straight or a
    # flush (the board is rainbow and A-2-3 needs both 4 and 5).
    result = CliRunner().invoke(
        app, ["equity", "As Ah", "Kd Kc", "--game", "holdem", "--board", "Qs 7d 2c 3h", "--json"]
    )
    data = json.loads(result.stdout)
    assert data["exact"] is True and data["samples"] == 44 and data["board"] == "Qs 7d 2c 3h"
    assert set(data["hands"][0]) >= {"hand", "equity", "win", "tie", "equity_se"}
    aces, kings = data["hands"]
    assert (aces["hand"], kings["hand"]) == ("As Ah", "Kd Kc")
    for hand, won in ((aces, 42), (kings, 2)):
        assert hand["equity"] == pytest.approx(won / 44) and hand["win"] == pytest.approx(won / 44)
        assert hand["high"] == pytest.approx(won / 44) and hand["tie"] == hand["low"] == hand["equity_se"] == 0


def test_cli_samples_force_sampling_and_threads_change_nothing():
    """--samples samples even what enumerates at once; --threads 1 and 2 print the same exact
    answer; --exact enumerates what the budget would sample (a hand against a random hand
    before the flop, 0.5 s or so)."""

    def run(*args):
        result = CliRunner().invoke(app, ["equity", *args, "--game", "holdem", "--json"])
        assert result.exit_code == 0, result.stderr
        return json.loads(result.stdout)

    sampled = run("As Ah", "Kd Kc", "--board", "Qs 7d 2c 3h", "--samples", "1000")
    assert not sampled["exact"] and sampled["samples"] == 1000
    one, two = (run("AA, KQs", "KK, JTs", "--board", "Qs 7d 2c", "--threads", t) for t in ("1", "2"))
    assert one == two and one["exact"]
    assert run("As Ah", "random", "--exact")["hands"][0]["equity"] == pytest.approx(0.8520, abs=1e-4)


@pytest.mark.parametrize(
    "args, message",
    [
        (["As Ah"], "at least two hands"),
        (["As Ah", "As Kc"], "listed twice"),
        (["As Ah", "Kd"], "needs 2 hole cards"),
        (["As Ah", "Kd Kc", "--board", "2c 3c"], "board takes"),
        (["As Ah", "Kd Kq"], "is not a hand"),  # Kx is a suit variable: Kd Kx is a range
        (["As Ah", "Kd Kc", "--samples", "0"], "must be positive"),
        (["As Ah", "Kd Kc", "--samples", "1000", "--exact"], "not both"),
        (["As Ah", "Kd Kc", "--threads", "0"], "at least 1"),
        (["As Ah", "random", "random", "random", "--exact"], "too large"),
        (["AsAh, AsAd", "As Kd"], "never fit together"),
    ],
)
def test_bad_input(args, message):
    """Bad hands, boards and counts: one line, exit 2."""
    result = CliRunner().invoke(app, ["equity", *args, "--game", "holdem"])
    assert result.exit_code == 2 and message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_exact_refused_when_too_large():
    """Asking for exact where the work is over EXACT_LIMIT (a hand against three random hands
    before the flop) is a clear error."""
    with pytest.raises(SampyongError, match="too large"):
        equity("holdem", ["As Ah", "random", "random", "random"], exact=True)


def test_a_deck_too_short_for_the_hands_still_to_deal_is_refused():
    """Seven cards left for a random hand and a whole board deal exactly; six do not. The check
    counts the hands still to deal (a range or ``random``), not the fixed ones."""
    out = [c for c in (r + s for r in "23456789TJQKA" for s in "cdhs") if c not in ("As", "Ah")]
    answer = equity("holdem", ["As Ah", "random"], dead=" ".join(out[:43]))
    assert answer["exact"] and answer["samples"] == 21  # seven cards: the hand's two, then the board's five
    with pytest.raises(SampyongError, match="not enough cards"):
        equity("holdem", ["As Ah", "random"], dead=" ".join(out[:44]))


# --- the exact/sampled choice, seeds, sample limits, ranges -------------------------------


def test_largest_seed_accepted_and_one_more_refused():
    """Every seed from 0 to 2**64 - 1 is accepted (2**63 and 2**64 - 1 included, same seed same
    result) and 2**64 or a negative seed is refused."""
    args = ("holdem", ["As Ah", "random"])
    kwargs = {"board": "Kd Qc 7h 7s 2d", "samples": 500, "exact": False}
    for seed in (2**63, 2**64 - 1):
        first = equity(*args, seed=seed, **kwargs)
        assert not first["exact"] and first["samples"] == 500
        assert first == equity(*args, seed=seed, **kwargs)
    for seed in (2**64, -1):
        with pytest.raises(SampyongError, match="bad seed"):
            equity(*args, seed=seed, **kwargs)


def test_hands_enumerated_exactly_up_to_the_budget_of_work(monkeypatch):
    """Hand against hand is enumerated when its work is at most EXACT_WORK and sampled one unit
    above it; ``exact=True`` insists up to EXACT_LIMIT. As Ah against Kd Kc on a turn is one deal
    whose rivers are counted by rank: 13 ranks, each evaluated for 2 players."""
    work = 1 * 13 * 2
    for budget, exact in ((work, True), (work - 1, False)):
        monkeypatch.setattr(evaluator.equity, "EXACT_WORK", budget)
        result = equity("holdem", ["As Ah", "Kd Kc"], board="Qs 7d 2c 3h", samples=1000)
        assert result["exact"] is exact and result["samples"] == (44 if exact else 1000)
    assert equity("holdem", ["As Ah", "Kd Kc"], board="Qs 7d 2c 3h", exact=True)["exact"]
    monkeypatch.setattr(evaluator.equity, "EXACT_LIMIT", work - 1)
    with pytest.raises(SampyongError, match="too large"):
        equity("holdem", ["As Ah", "Kd Kc"], board="Qs 7d 2c 3h", exact=True)


def test_ranges_enumerated_exactly_up_to_the_budget_of_work(monkeypatch):
    """A range against a hand is enumerated when its work is at most EXACT_WORK, sampled one
    above it: AA (6 hands) against Kd Kc on a turn of every suit (no suit symmetry) is 6 deals,
    each of 13 river ranks evaluated for 2 players; the samples of an exact answer are the 46
    rivers the kings leave."""
    work = 6 * 13 * 2
    for budget, exact in ((work, True), (work - 1, False)):
        monkeypatch.setattr(evaluator.equity, "EXACT_WORK", budget)
        result = equity("holdem", ["AA", "Kd Kc"], board="Qs 7d 2c 3h", samples=1000)
        assert result["exact"] is exact and result["samples"] == (46 if exact else 1000)


def test_sampling_without_a_count_deals_a_million():
    """With no sample count, the calculator deals 1M times, the default ``sy.equity`` documents."""
    from pipeline.counts import parse_count

    assert equity("holdem", ["As Ah", "random"], exact=False)["samples"] == parse_count("1M") == 1_000_000


def test_a_spot_whose_folded_work_fits_the_budget_is_enumerated(monkeypatch):
    """The budget is checked against the work folded by the spot's suit symmetries: a PLO turn
    whose boards, unfolded, are over EXACT_WORK but, folded, are within it, is enumerated (PLO
    has no deals path, so the showdown's work alone decides)."""
    hands, board = ["AA**", "QQ**"], "Kc Kd 7c 7d"
    g = game("plo")
    asked = evaluator.equity._hands(g, tuple(hands), None)
    s = evaluator.equity._spot(g, hands, asked.entries, parse_cards(board), [])
    folded, unfolded = evaluator.range_showdown.evaluations(s), evaluator.range_showdown.evaluations(s, folded=False)
    assert folded < unfolded  # clubs and diamonds swap, as do hearts and spades
    monkeypatch.setattr(evaluator.equity, "EXACT_WORK", int(folded))
    assert equity("plo", hands, board=board, samples=1000)["exact"]
    monkeypatch.setattr(evaluator.equity, "EXACT_WORK", int(folded) - 1)
    assert not equity("plo", hands, board=board, samples=1000)["exact"]


def test_exact_ranges_go_by_deals_where_that_is_cheaper_and_both_paths_agree(monkeypatch):
    """Hold'em ranges on a flop, with the one-call small path declined: dealing the hands
    (``_deals_equity``) costs fewer evaluations than sweeping the boards, so it is taken up to
    DEALS_PLAYERS players; the boards' sweep (``range_showdown.showdown``) gives the same answer."""
    taken = []

    def spy(path, name):
        def call(*args, **kwargs):
            taken.append(name)
            return path(*args, **kwargs)

        return call

    monkeypatch.setattr(evaluator.equity, "_small_equity", lambda *args: None)
    monkeypatch.setattr(evaluator.equity, "_deals_equity", spy(evaluator.equity._deals_equity, "deals"))
    monkeypatch.setattr(evaluator.range_showdown, "showdown", spy(evaluator.range_showdown.showdown, "boards"))
    hands, board = ["AA, AKs", "KK, QJs", "TT"], "Qs 7d 2c"
    by_deals = equity("holdem", hands, board=board)
    monkeypatch.setattr(evaluator.equity, "DEALS_PLAYERS", len(hands) - 1)
    by_boards = equity("holdem", hands, board=board)
    assert taken == ["deals", "boards"]
    assert by_deals["exact"] and by_boards["exact"] and by_deals["samples"] == by_boards["samples"]
    for one, other in zip(by_deals["hands"], by_boards["hands"]):
        assert one.keys() == other.keys()
        for key, value in one.items():
            assert value == (pytest.approx(other[key], abs=1e-12) if isinstance(value, float) else other[key]), key


def test_range_against_a_random_hand_matches_a_brute_force():
    """A range against a random hand: enumerated (a random hand is every hand), its equity
    equal to a brute force with eval7; sampled, within 4 standard errors of it."""
    board = "Kd Qc 7h 7s 2d"
    enumerated = equity("holdem", ["AA", "random"], board=board)
    result = equity("holdem", ["AA", "random"], board=board, samples=20_000, seed=5, exact=False)
    assert enumerated["exact"] and not result["exact"] and result["samples"] == 20_000
    board_cards = [eval7.Card(c) for c in board.split()]
    aces = list(itertools.combinations(["As", "Ah", "Ad", "Ac"], 2))
    shares = []
    for hero in aces:
        rest = [c for c in _unseen(" ".join(hero), board)]
        hero_value = eval7.evaluate([eval7.Card(c) for c in hero] + board_cards)
        for other in itertools.combinations(format_cards(rest).split(), 2):
            villain = eval7.evaluate([eval7.Card(c) for c in other] + board_cards)
            shares.append(1.0 if hero_value > villain else 0.5 if hero_value == villain else 0.0)
    # Every AA hand leaves the same number of random hands, so each deal weighs the same.
    exact = statistics.fmean(shares)
    se = statistics.pstdev(shares) / 20_000**0.5
    assert abs(result["hands"][0]["equity"] - exact) <= 4 * se
    assert enumerated["hands"][0]["equity"] == pytest.approx(exact, abs=1e-12)
    assert result["hands"][0]["equity"] + result["hands"][1]["equity"] == pytest.approx(1.0)


def test_two_random_hands_on_a_flop_match_a_brute_force():
    """With two random hands on a flop (each random hand dealt its own cards after the board's
    two), sampled equity, win and tie lie within 4 standard errors of a brute force with eval7
    over every deal of an eight-card deck."""
    hero, board = "As Ah", "Kd Qc 7h"
    live = "Ks Qd 7c 7d Js Ts 2c 3d".split()
    dead = format_cards(sorted(set(_unseen(hero, board)) - set(parse_cards(" ".join(live)))))
    samples = 20_000
    result = equity("holdem", [hero, "random", "random"], board=board, dead=dead, samples=samples, seed=11, exact=False)
    assert not result["exact"] and result["samples"] == samples
    fixed = [eval7.Card(c) for c in board.split()]
    shares = []  # per deal, each hand's share of the pot
    for one in itertools.combinations(live, 2):
        left = [c for c in live if c not in one]
        for two in itertools.combinations(left, 2):
            for turn_river in itertools.combinations([c for c in left if c not in two], 2):
                full = fixed + [eval7.Card(c) for c in turn_river]
                values = [eval7.evaluate([eval7.Card(c) for c in h] + full) for h in (hero.split(), one, two)]
                best = [v == max(values) for v in values]
                shares.append([b / sum(best) for b in best])
    assert len(shares) == 28 * 15 * 6
    for p, got in enumerate(result["hands"]):
        share = [d[p] for d in shares]
        for field, values in (
            ("equity", share),
            ("win", [float(s == 1) for s in share]),
            ("tie", [float(0 < s < 1) for s in share]),
        ):
            se = statistics.pstdev(values) / samples**0.5
            assert abs(got[field] - statistics.fmean(values)) <= 4 * se + 1e-12, (p, field)


def test_most_samples_is_what_64_bit_squared_shares_allow(monkeypatch):
    """Two hands' shares are counted in quarter pots (at most 4 per deal, 16 squared), so
    (2**63 - 1) // 16 = 2**59 - 1 samples are accepted and 2**59 refused; three hands' in
    twelfths, so (2**63 - 1) // 144."""

    class Accepted(Exception):
        pass

    def accepted(*args):
        raise Accepted  # the sample count passed; stop before dealing

    monkeypatch.setattr(evaluator.equity, "_sampled_hands", accepted)
    monkeypatch.setattr(evaluator.equity, "_sampled_ranges", accepted)
    for hands, most in ((["As Ah", "random"], 2**59 - 1), (["As Ah", "random", "random"], (2**63 - 1) // 144)):
        for entries in (hands, ["AA", *hands[1:]]):  # hands, and ranges
            with pytest.raises(Accepted):
                equity("holdem", entries, samples=most, exact=False)
            with pytest.raises(SampyongError, match=f"at most {most:,} samples"):
                equity("holdem", entries, samples=most + 1, exact=False)


def test_range_results_give_combos_and_hands_do_not():
    """A range's result gives its number of hands (``combos``: AA has 6) and a specific hand's
    none; every AA wins 42 of 44 rivers against Kd Kc on Qs 7d 2c 3h."""
    result = equity("holdem", ["AA", "Kd Kc"], board="Qs 7d 2c 3h")
    aces, kings = result["hands"]
    assert aces["hand"] == "AA" and aces["combos"] == 6
    assert kings["hand"] == "Kd Kc" and "combos" not in kings
    assert aces["equity"] == pytest.approx(42 / 44) and kings["equity"] == pytest.approx(2 / 44)
    assert all("combos" not in h for h in equity("holdem", ["As Ah", "Kd Kc"], board="Qs 7d 2c 3h")["hands"])


@pytest.mark.parametrize(
    "game_name, hands, board",
    [
        ("holdem", ["As Ah", "Kd Kc", "7c 2d"], "Qs 7d 2c"),
        ("pls7", ["As 2h 3d", "Kc Kd 4s"], "5h 6c 9d"),  # high and low
        (
            "holdem",
            ["As Ah", "Kd Kc", "Qs Qh", "Jd Jc", "Ts Th", "9d 9c", "8s 8h", "7d 7c", "6s 6h"],
            "2c 3c 4d",
        ),  # 9 seats
    ],
)
def test_numpy_and_numba_enumerate_to_the_same_answer(monkeypatch, game_name, hands, board):
    """A small exact enumeration of fixed hands reads the tables in numpy (``evaluator.vectorized``)
    in a process without numba; through the fixed-hands kernel, every figure of the answer is the same."""
    picked = []
    light_path, kernel_path = evaluator.equity._light_equity, evaluator.equity._deals_equity  # 9 seats: the sweep's

    def spy(path, name):
        def call(*args):
            answer = path(*args)
            if answer is not None:  # the small path declines spots it does not cover
                picked.append(name)
            return answer

        return call

    monkeypatch.setattr(evaluator.equity, "_light_equity", spy(light_path, "numpy"))
    monkeypatch.setattr(evaluator.equity, "_deals_equity", spy(kernel_path, "kernel"))
    monkeypatch.setattr(evaluator.equity, "_small_equity", spy(evaluator.equity._small_equity, "kernel"))
    monkeypatch.setattr(evaluator.range_showdown, "showdown", spy(evaluator.range_showdown.showdown, "kernel"))
    monkeypatch.setattr(evaluator.equity, "_numba_loaded", lambda: False)
    light = equity(game_name, hands, board=board)
    monkeypatch.setattr(evaluator.equity, "LIGHT_EVALUATIONS", 0)
    assert equity(game_name, hands, board=board) == light and light["exact"]
    assert picked == ["numpy", "kernel"]


@pytest.mark.parametrize("size, missing", [(5, 0), (5, 5), (9, 1), (12, 3), (20, 4)])
def test_boards_complete_the_board_with_every_subset_in_order(monkeypatch, size, missing):
    """``_boards`` yields the known board followed by each ``missing``-card subset of the rest, in
    itertools' order, in blocks of at most BATCH boards (7 here)."""
    monkeypatch.setattr(evaluator.equity, "BATCH", 7)
    board, rest = [50, 51], list(range(size))
    blocks = list(evaluator.equity._boards(np.array(board, np.uint8), np.array(rest, np.uint8), missing))
    assert all(0 < len(b) <= 7 for b in blocks)
    assert np.concatenate(blocks).tolist() == [board + list(c) for c in itertools.combinations(rest, missing)]


@pytest.mark.parametrize(
    "game_name, hands, board, dead",
    [
        ("holdem", ["As Ks", "Qd Qc"], "Qh 7s 2d 9c", ""),  # the turn OMPEval answers in 0.04 ms
        ("holdem", ["As Ah", "QQ+,AKs,JTs"], "Ks 7d 2c 3h 9s", ""),  # a river against a range
        ("holdem", ["AsQs, AhQh@50", "QQ, JsTs", "Jd Jc"], "Ks 7s 2c 3s", "4s"),  # weights, three-way, a flush to come
        ("holdem", ["Ad Kd", "random"], "Qd 7d 2c 3h 9s", ""),  # a river against every hand
        ("holdem", ["Ah Kh", "7c 7d"], "", "2s 3s"),  # preflop, dead cards
        ("pls7", ["KK*!KKK@50", "As 2h 3d"], "4s 5h Td Kc", "9c"),  # high and low, a weighted range
        ("pls", ["AsKsQs", "JJ*, TsTh9s"], "2s 3s 4d 5c", ""),
    ],
)
def test_small_spots_answer_as_the_general_path_and_the_brute_force(monkeypatch, game_name, hands, board, dead):
    """Small spots of free-use games take one kernel call (``_small_equity``); every figure equals
    the general path's (suits folded where the spot allows) and a brute force over every pair and
    board."""
    small_equity = evaluator.equity._small_equity
    taken = []
    with monkeypatch.context() as m:
        m.setattr(evaluator.equity, "_small_equity", lambda *args: taken.append(small_equity(*args)) or taken[-1])
        small = equity(game_name, hands, board=board, dead=dead, exact=True)
    assert taken and taken[0] is not None, "the small path answered"
    with monkeypatch.context() as m:
        m.setattr(evaluator.equity, "_small_equity", lambda *args: None)
        general = equity(game_name, hands, board=board, dead=dead, exact=True)
    assert small["samples"] == general["samples"] and small["exact"]
    expected = brute_force_equity(game_name, hands, board, dead)
    for got, want, brute in zip(small["hands"], general["hands"], expected):
        assert got.keys() == want.keys() and got["hand"] == want["hand"]
        for field in ("equity", "win", "tie", "high", "low", "scoop"):
            assert got[field] == pytest.approx(want[field], abs=1e-12), field
            assert got[field] == pytest.approx(brute[field], abs=1e-12), field
