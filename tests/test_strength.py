"""Hand strength as policies see it: a fair sample of the exact equity against random hands."""

import functools
import itertools

import numpy as np
import pytest

from engine.ranking import HandRanking
from engine.strength import strength
from evaluator.cards import parse_cards
from evaluator.fast import fast_evaluator
from evaluator.games import game
from evaluator.settle import share_unit
from evaluator.settle_kernels import pot_shares


def exact_equity(g, hole, board) -> float:
    """The hand's mean pot share against every possible opponent hand on a full board."""
    deck = [c for c in range(52) if c not in set(hole) | set(board)]
    others = np.array(list(itertools.combinations(deck, g.hole_cards)), np.uint8)
    holes = np.empty((len(others), 2, g.hole_cards), np.uint8)
    holes[:, 0] = hole
    holes[:, 1] = others
    boards = np.tile(np.array(board, np.uint8), (len(others), 1))
    high, low = fast_evaluator(g).high_low(holes, boards)
    unit = share_unit(2)
    hp, lp = np.empty(high.shape, np.int64), np.empty(high.shape, np.int64)
    pot_shares(high, low, unit, hp, lp)
    return float((hp[:, 0] + lp[:, 0]).mean() / unit)


@pytest.mark.parametrize(
    "name, hole, board",
    [
        ("holdem", "As Kd", "Ah 7c 2s Kh 9d"),
        ("pls7", "As 2c 5h", "3d 4s 9c Kh Qd"),
        ("plo8", "As 2s 3d Kd", "4c 5c Jh Qs 9d"),
    ],
)
def test_river_strength_is_a_fair_sample_of_the_exact_equity(name, hole, board):
    """On the river against one random hand, 20,000 samples land within 4 SE of the exact equity
    (every opponent hand enumerated), for ten different hand keys."""
    g = game(name)
    hole, board = parse_cards(hole), parse_cards(board)
    exact = exact_equity(g, hole, board)
    for key in range(10):
        value = strength(g, hole, board, opponents=1, samples=20_000, hand_key=key, seat=3)
        assert abs(value - exact) <= 4 * 0.5 / np.sqrt(20_000) + 1e-9, (key, value, exact)


def test_strength_never_deals_the_known_cards_and_depends_on_its_stream():
    """A board-less strength draws only unseen cards (a made straight flush on the flop wins every
    sample), and different seats or keys give different samples of the same question."""
    g = game("holdem")
    nuts = strength(g, parse_cards("9s 8s"), parse_cards("7s 6s 5s"), opponents=3, samples=500, hand_key=7, seat=0)
    assert nuts > 0.99
    values = {
        strength(g, parse_cards("Ts 9h"), [], opponents=2, samples=300, hand_key=k, seat=s)
        for k in range(3)
        for s in range(3)
    }
    assert len(values) == 9


def test_first_seat_totals_equal_pot_shares():
    """The first seat's summed shares equal ``evaluator.settle_kernels.pot_shares`` row by row, ties and lows included."""
    from engine.strength import _first_seat_totals

    rng = np.random.default_rng(4)
    for players in (2, 3, 6):
        high = rng.integers(1, 4, size=(4000, players)).astype(np.uint32)
        low = (rng.integers(0, 3, size=(4000, players)) * rng.integers(0, 2, size=(4000, 1))).astype(np.uint32)
        unit = share_unit(players)
        hp, lp = np.empty(high.shape, np.int64), np.empty(high.shape, np.int64)
        pot_shares(high, low, unit, hp, lp)
        totals = np.empty(40, np.int64)
        _first_seat_totals(high, low, unit, 100, totals)
        assert totals.tolist() == (hp[:, 0] + lp[:, 0]).reshape(40, 100).sum(axis=1).tolist()


# --- The sample stream: SplitMix64 seeds, xoshiro256** deals (evaluator.deal._deal) ---------------

_MASK64 = (1 << 64) - 1


def _splitmix64(x: int) -> int:
    """SplitMix64's output for state ``x`` (Steele, Lea and Flood 2014), on plain Python integers."""
    z = (x + 0x9E3779B97F4A7C15) & _MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return z ^ (z >> 31)


def _stream_state(hand_key: int, seat: int, street: int, opponents: int) -> list[int]:
    """xoshiro256**'s state for a request: SplitMix64 over (hand key, seat, street, opponents),
    then four more outputs, the first made odd."""
    z = _splitmix64(hand_key)
    for word in (seat, street, opponents):
        z = _splitmix64(z ^ word)
    state = []
    for _ in range(4):
        z = _splitmix64(z)
        state.append(z)
    state[0] |= 1
    return state


def _reference_samples(cards, hand_keys, request, hole_cards, board_cards, samples, opponents):
    """``(hole, board)`` of one request as documented: the seat's cards, then opponents' hands and
    the rest of the board dealt from the unseen cards (ascending) by xoshiro256** seeded from
    SplitMix64 over (hand key, seat, street, opponents), the first state word made odd."""
    from evaluator.deal import _deal

    hand, seat, street, known = (int(v) for v in request)
    seats_cards = cards.shape[1] - board_cards
    mine = [int(c) for c in cards[hand, seat * hole_cards : (seat + 1) * hole_cards]]
    shown = [int(c) for c in cards[hand, seats_cards : seats_cards + known]]
    deck = np.array([c for c in range(52) if c not in set(mine) | set(shown)], np.uint8)
    state = _stream_state(int(hand_keys[hand]), seat, street, opponents)
    out = np.empty((samples, opponents * hole_cards + board_cards - known), np.uint8)
    _deal(np.array(state, np.uint64), deck, out)
    hole = np.empty((samples, 1 + opponents, hole_cards), np.uint8)
    hole[:, 0] = mine
    hole[:, 1:] = out[:, : opponents * hole_cards].reshape(samples, opponents, hole_cards)
    board = np.empty((samples, board_cards), np.uint8)
    board[:, :known] = shown
    board[:, known:] = out[:, opponents * hole_cards :]
    return hole, board


@functools.cache
def _bounds_checked_draw_samples():
    """``engine.strength._draw_samples`` compiled from its source with numba's index checks on."""
    from numba import njit

    from engine.strength import _draw_samples

    return njit(boundscheck=True)(_draw_samples.py_func)


def test_splitmix_is_the_published_splitmix64():
    """``_splitmix`` returns SplitMix64's output word for any 64-bit state, as computed on plain integers."""
    from engine.strength import _splitmix

    assert _splitmix64(0) == 0xE220A8397B1DCDAF  # the published first output from seed 0
    rng = np.random.default_rng(11)
    states = [0, 1, 7, 0x9E3779B97F4A7C15, _MASK64, _MASK64 - 0x9E3779B97F4A7C14, 1 << 63, (1 << 30) - 1]
    states += [int(x) for x in rng.integers(0, 1 << 64, size=200, dtype=np.uint64)]
    for x in states:
        assert int(_splitmix(np.uint64(x))) == _splitmix64(x), hex(x)


@pytest.mark.parametrize("name, opponents", [("holdem", 1), ("holdem", 3), ("pls7", 2), ("plo8", 1)])
def test_draw_samples_follow_each_requests_own_stream(name, opponents):
    """``_draw_samples`` fills each request's rows with the seat's cards, the known board and the deal of
    the request's SplitMix64/xoshiro256** stream, exactly, and does the same compiled with bounds checks
    (it never indexes past an array)."""
    from engine.strength import _draw_samples

    g = game(name)
    rng = np.random.default_rng(opponents)
    seats = 4
    cards = np.array([rng.permutation(52)[: seats * g.hole_cards + g.board_cards] for _ in range(3)], np.uint8)
    hand_keys = np.array([3, 0xDEADBEEFCAFEF00D, 2**64 - 2], np.uint64)
    # (hand, seat, street, board cards known): every street, seats and hands other than 0
    requests = np.array([[0, 0, 0, 0], [1, 2, 1, 3], [2, 3, 2, 4], [1, 1, 3, 5], [2, 0, 1, 3], [0, 3, 3, 5]], np.int64)
    samples = 6
    for kernel in (_draw_samples, _bounds_checked_draw_samples()):
        hole = np.zeros((len(requests) * samples, 1 + opponents, g.hole_cards), np.uint8)
        board = np.zeros((len(requests) * samples, g.board_cards), np.uint8)
        kernel(requests, cards, hand_keys, g.hole_cards, g.board_cards, samples, opponents, hole, board)
        for r, request in enumerate(requests):
            want_hole, want_board = _reference_samples(
                cards, hand_keys, request, g.hole_cards, g.board_cards, samples, opponents
            )
            rows = slice(r * samples, (r + 1) * samples)
            assert hole[rows].tolist() == want_hole.tolist(), (kernel, request)
            assert board[rows].tolist() == want_board.tolist(), (kernel, request)


def test_strength_asks_its_seat_street_and_known_board():
    """``strength()`` answers the request (its hand key, seat, street of the board's length, cards known) that
    ``strengths()`` answers for the same cards dealt in any batch."""
    from engine.strength import strengths

    g = game("holdem")
    rng = np.random.default_rng(5)
    cards = np.array([rng.permutation(52)[: 6 * 2 + 5] for _ in range(2)], np.uint8)
    keys = np.array([99, 12345], np.uint64)
    for seat in (0, 4):
        for street, known in ((0, 0), (1, 3), (2, 4), (3, 5)):
            batch = strengths(g, cards, keys, np.array([[0, 5, 1, 3], [1, seat, street, known]], np.int64), 2, 64)
            hole = cards[1, seat * 2 : seat * 2 + 2].tolist()
            alone = strength(
                g, hole, cards[1, 12 : 12 + known].tolist(), opponents=2, samples=64, hand_key=12345, seat=seat
            )
            assert alone == batch[1], (seat, street)


# --- Pot shares in exact units -----------------------------------------------------------------------


def test_strength_counts_shares_in_units_of_every_opponent_count():
    """With the steel wheel on board in hold'em hi-lo, a 6s 7s scoops the high and ties the wheel low with
    every opponent: exactly 1/2 + 1/(2 (opponents + 1)), for every opponent count a table allows."""
    from fractions import Fraction

    g = game("holdem").variant(low=8)
    hole, board = parse_cards("6s 7s"), parse_cards("As 2s 3s 4s 5s")
    for opponents in range(1, g.max_players):
        value = strength(g, hole, board, opponents=opponents, samples=3, hand_key=opponents, seat=1)
        assert value == float(Fraction(1, 2) + Fraction(1, 2 * (opponents + 1))), opponents


# --- Against ranges: opponents' hands from what their preflop actions allow (engine.reads) --------


def _ranked(hole_cards: int, best: list[str]) -> HandRanking:
    """A ranking whose strongest hands are the classes of ``best`` (holdem names such as ``AA``,
    ``72o``), in that order; every other class after them."""
    from evaluator.cards import hand_classes

    names = hand_classes(hole_cards)[2]
    strengths = np.zeros(len(names))
    for k, name in enumerate(best):
        strengths[names.index(name)] = len(best) - k
    return HandRanking.from_strengths(hole_cards, strengths)


def _range_draws(g, cards, keys, requests, caps, ranking, samples, opponents, checked=False):
    from numba import njit

    from engine.strength import _draw_range_samples

    kernel = njit(boundscheck=True)(_draw_range_samples.py_func) if checked else _draw_range_samples
    hole = np.zeros((len(requests) * samples, 1 + opponents, g.hole_cards), np.uint8)
    board = np.zeros((len(requests) * samples, g.board_cards), np.uint8)
    kernel(
        np.asarray(requests, np.int64),
        np.asarray(caps, np.float64),
        cards,
        keys,
        g.hole_cards,
        g.board_cards,
        samples,
        opponents,
        *ranking.hands_in_order,
        hole,
        board,
    )
    return hole, board


@pytest.mark.untraced
def test_range_samples_hold_hands_in_their_ranges_and_never_a_card_twice():
    """Every sampled opponent hand is under its own cap, no card appears twice in a sample, and
    the seat's cards and the known board are the deal's (also compiled with bounds checks)."""
    from tests.test_fast_engine import crude_ranking

    g = game("pls7")
    ranking = crude_ranking(3)
    rng = np.random.default_rng(8)
    seats, samples, opponents = 5, 50, 3
    cards = np.array([rng.permutation(52)[: seats * 3 + 5] for _ in range(2)], np.uint8)
    keys = np.array([5, 2**63 + 11], np.uint64)
    requests = [[0, 1, 1, 3], [1, 4, 3, 5], [1, 0, 2, 4]]
    caps = [[0.05, 1.0, 0.3], [0.2, 0.02, 0.6], [1.0, 1.0, 0.1]]
    for checked in (False, True):
        hole, board = _range_draws(g, cards, keys, requests, caps, ranking, samples, opponents, checked)
        for r, (hand, seat, _, known) in enumerate(requests):
            rows = slice(r * samples, (r + 1) * samples)
            assert (hole[rows, 0] == cards[hand, seat * 3 : seat * 3 + 3]).all()
            assert (board[rows, :known] == cards[hand, seats * 3 : seats * 3 + known]).all()
            for o in range(opponents):
                assert (ranking.ranks(hole[rows, 1 + o]) < caps[r][o]).all(), (r, o)
            every = np.concatenate([hole[rows].reshape(samples, -1), board[rows]], axis=1)
            assert all(len(set(row)) == every.shape[1] for row in every.tolist())


def test_range_samples_are_uniform_over_the_hands_that_fit_together():
    """Opponent A holds AA or 72o, opponent B only AA: of the 78 ways they fit together (B's 6
    aces, then A's last AA or any of 12 72o), A holds aces in 6, whichever is drawn first; a
    sampler that dealt A first and B from what is left would give A aces in 6 of 18. Each of B's
    six AA combos comes up equally often."""
    g = game("holdem")
    ranking = _ranked(2, ["AA", "72o"])
    cards = np.array([parse_cards("3c 3d") + [0] * 7], np.uint8)
    samples = 30_000
    for caps, a in (([0.01, 0.004], 1), ([0.004, 0.01], 2)):
        hole, _ = _range_draws(g, cards, np.array([9], np.uint64), [[0, 0, 0, 0]], [caps], ranking, samples, 2)
        aces = (hole[:, 1 + (2 - a)] >> 2 == 12).all(axis=1)  # the AA-only opponent: always aces
        assert aces.all()
        share = (hole[:, a] >> 2 == 12).all(axis=1).mean()
        assert abs(share - 6 / 78) < 5 * np.sqrt(6 / 78 * 72 / 78 / samples), share
        combos = np.unique(np.sort(hole[:, 1 + (2 - a)], axis=1), axis=0, return_counts=True)[1]
        assert len(combos) == 6 and abs(combos / samples - 1 / 6).max() < 5 * np.sqrt(1 / 6 * 5 / 6 / samples)


def test_range_strength_is_a_fair_sample_of_the_exact_range_equity():
    """On the river against two ranged opponents, 20,000 samples land within 4 SE of the equity
    calculator's exact answer for the same ranges (every combination of their hands enumerated)."""
    from evaluator.cards import format_cards
    from evaluator.equity import equity
    from tests.test_fast_engine import crude_ranking

    g = game("holdem")
    ranking = crude_ranking(2)
    hole, board = parse_cards("Qs Jh"), parse_cards("Ad Jc 8h 2s Kd")
    hands = np.array(list(itertools.combinations(range(52), 2)), np.uint8)
    caps = [0.15, 0.4]
    texts = [
        ",".join(format_cards(h.tolist()).replace(" ", "") for h in hands[ranking.ranks(hands) < cap]) for cap in caps
    ]
    exact = equity(g, [format_cards(hole), *texts], board=format_cards(board))
    assert exact["exact"]
    want = exact["hands"][0]["equity"]
    for key in range(4):
        value = strength(g, hole, board, opponents=2, samples=20_000, hand_key=key, seat=2, caps=caps, ranking=ranking)
        assert abs(value - want) <= 4 * 0.5 / np.sqrt(20_000), (key, value, want)
    random_hands = strength(
        g, hole, board, opponents=2, samples=20_000, hand_key=0, seat=2, caps=[1.0, 1.0], ranking=ranking
    )
    assert random_hands - want > 0.05  # the ranges hold more of the hands that beat a pair of jacks


def test_ranges_that_cannot_be_held_are_given_up_not_looped_on():
    """A cap no hand is under (0) gives any opponent hands at once, and ranges the seen cards
    empty (AA for opponents of a seat holding three aces, with the fourth on the board) after
    ``DRAWS`` draws, distinct cards still; strength against ranges needs the game's ranking."""
    from engine.strength import strengths
    from evaluator.errors import SampyongError
    from tests.test_fast_engine import crude_ranking

    g = game("plo")
    ranking = crude_ranking(4)
    cards = np.array([parse_cards("As Ks Qs Js") + [0] * 4 + parse_cards("2c 3d 4h 5s 6c")], np.uint8)
    hole, board = _range_draws(g, cards, np.array([1], np.uint64), [[0, 0, 1, 3]], [[0.0, 0.0]], ranking, 3, 2)
    every = np.concatenate([hole.reshape(3, -1), board], axis=1)
    assert all(len(set(row)) == 17 for row in every.tolist())
    holdem = game("holdem")
    cards = np.array([parse_cards("As Ah Ad Kc 2s 7h 9h")], np.uint8)  # the seat's AA, then a board of Ad Kc 2s
    hole, board = _range_draws(
        holdem, cards, np.array([1], np.uint64), [[0, 0, 1, 3]], [[0.004, 1.0]], _ranked(2, ["AA"]), 5, 2
    )
    every = np.concatenate([hole.reshape(5, -1), board], axis=1)
    assert all(len(set(row)) == 11 for row in every.tolist()) and not (hole[:, 1] >> 2 == 12).all(axis=1).any()
    with pytest.raises(SampyongError, match="ranking of 4-card"):
        strengths(g, cards, np.array([1], np.uint64), np.array([[0, 0, 1, 3]]), 2, 8, np.ones((1, 2)), None)
    with pytest.raises(SampyongError, match="ranking of 4-card"):
        strengths(g, cards, np.array([1], np.uint64), np.array([[0, 0, 1, 3]]), 2, 8, np.ones((1, 2)), crude_ranking(2))


def _reference_range_samples(cards, hand_keys, request, cap_row, ranking, hole_cards, board_cards, samples):
    """``(hole, board)`` of one request against ranges as ``_draw_range_samples`` documents it,
    in plain Python: the unseen cards ascending; per sample, each opponent's hand drawn (Lemire's
    bounded draw on the high halves of xoshiro256** words) among the hands below its cap until
    it holds no seen card, the sample started again when two hands share a card, given up for
    any hands (a partial Fisher-Yates shuffle) after DRAWS draws or at once for an empty range;
    then the board's missing cards shuffled in after the opponents' cards. The deck's order
    carries from sample to sample."""
    import bisect

    from engine.strength import DRAWS
    from tests.test_deal import xoshiro_stream

    hand, seat, street, known = (int(v) for v in request)
    opponents = len(cap_row)
    seats_cards = cards.shape[1] - board_cards
    mine = [int(c) for c in cards[hand, seat * hole_cards : (seat + 1) * hole_cards]]
    shown = [int(c) for c in cards[hand, seats_cards : seats_cards + known]]
    seen = set(mine) | set(shown)
    deck = [c for c in range(52) if c not in seen]
    hands, percentiles = ranking.hands_in_order
    hands = hands.tolist()
    in_range = [bisect.bisect_left(percentiles.tolist(), cap) for cap in cap_row]
    words = xoshiro_stream(_stream_state(int(hand_keys[hand]), seat, street, opponents))

    def below(bound):
        threshold = (2**32 - bound) % bound
        while True:
            m = (next(words) >> 32) * bound
            if m & 0xFFFFFFFF >= threshold:
                return m >> 32

    def shuffle(start, count):
        for k in range(start, start + count):
            j = k + below(len(deck) - k)
            deck[j], deck[k] = deck[k], deck[j]

    held = opponents * hole_cards
    hole = np.empty((samples, 1 + opponents, hole_cards), np.uint8)
    board = np.empty((samples, board_cards), np.uint8)
    for s in range(samples):
        draws, fits, used = 0, False, set()
        while not fits and min(in_range) > 0 and draws < DRAWS:
            used, fits = set(), True
            for o in range(opponents):
                pick = 0
                while draws < DRAWS:
                    draws += 1
                    pick = below(in_range[o])
                    if not seen & set(hands[pick]):
                        break
                for card in hands[pick]:
                    fits &= card not in seen and card not in used
                    used.add(card)
                hole[s, 1 + o] = hands[pick]
                if not fits:
                    break
        if fits:  # each opponent's card, in deck order, swapped to the front
            front = 0
            for i, card in enumerate(deck):
                if card in used:
                    deck[i], deck[front] = deck[front], card
                    front += 1
        else:
            shuffle(0, held)
            hole[s, 1:] = np.array(deck[:held]).reshape(opponents, hole_cards)
        shuffle(held, board_cards - known)
        hole[s, 0] = mine
        board[s] = shown + deck[held : held + board_cards - known]
    return hole, board


@pytest.mark.parametrize("name", ["holdem", "pls7"])
def test_range_samples_follow_each_requests_own_stream(name):
    """``_draw_range_samples`` deals exactly what its plain-Python description deals, draw for
    draw, on every street (preflop, flop, turn, river), for ranges wide, narrow, empty, ones the
    seen cards leave almost nothing of and ones whose hands keep colliding."""
    from tests.test_fast_engine import crude_ranking

    g = game(name)
    ranking = _ranked(2, ["AA", "KK", "72o"]) if name == "holdem" else crude_ranking(3)
    rng = np.random.default_rng(4)
    seats, samples, opponents = 4, 5, 3
    cards = np.array([rng.permutation(52)[: seats * g.hole_cards + g.board_cards] for _ in range(2)], np.uint8)
    keys = np.array([17, 2**64 - 5], np.uint64)
    requests = [[0, 0, 0, 0], [1, 2, 1, 3], [0, 3, 2, 4], [1, 1, 3, 5], [0, 1, 1, 3], [1, 0, 2, 4]]
    # the last two rows: three opponents among a dozen hands (hold'em: AA and KK), who often
    # collide on a card before the last of them is drawn
    caps = [
        [1.0, 0.5, 0.3],
        [0.3, 1.0, 0.2],
        [0.05, 0.01, 1.0],
        [0.0, 0.6, 1.0],
        [0.006, 0.01, 0.01],
        [0.01, 0.01, 0.01],
    ]
    hole, board = _range_draws(g, cards, keys, requests, caps, ranking, samples, opponents)
    for r, request in enumerate(requests):
        want_hole, want_board = _reference_range_samples(
            cards, keys, request, caps[r], ranking, g.hole_cards, g.board_cards, samples
        )
        rows = slice(r * samples, (r + 1) * samples)
        assert hole[rows].tolist() == want_hole.tolist(), request
        assert board[rows].tolist() == want_board.tolist(), request
