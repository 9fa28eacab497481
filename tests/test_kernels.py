"""Fast kernels against the reference evaluator, and exact 5-card counts (RULES section 9)."""

import itertools
import multiprocessing
import zlib
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evaluator import reference
from evaluator.card_words import PREFETCH_AHEAD as AHEAD
from evaluator.cards import make_card
from evaluator.deal import deal_cards, split_deal
from evaluator.fast import FastEvaluator
from evaluator.games import PRESETS, RANKINGS, Category, Game, game
from evaluator.tables import distinct_present
from tests.strategies import deals, suit_permutations

VARIANTS = [
    *PRESETS.values(),
    *(game("pls7").variant(ranking=r) for r in ("trips_over_straight", "skip_over_flush", "both")),
    *(game("pls7").variant(hole_use=h) for h in ("1-3", "2-2")),
    *(game("pls7").variant(low=q) for q in (6, 8, "none")),
]
HANDS = 10_000


def random_hands(g: Game, n: int, seed: int):
    rng = np.random.default_rng(seed)
    cards = np.argsort(rng.random((n, 52)), axis=1)[:, : g.hole_cards + g.board_cards].astype(np.uint8)
    return np.ascontiguousarray(cards[:, None, : g.hole_cards]), np.ascontiguousarray(cards[:, g.hole_cards :])


def stable_seed(name: str) -> int:
    """A seed from a game's name that is the same in every Python process (``hash`` of a str
    is salted per process, so a failure seeded with it could not be reproduced)."""
    return zlib.crc32(name.encode())


def _reference_rows(args):
    g, hole, board = args
    out = []
    for h, b in zip(hole.tolist(), board.tolist()):
        s = reference.showdown(g, h[0], b)
        out.append((s.high.strength, s.low.strength if s.low else 0, sum(1 << c for c in s.present)))
    return out


@pytest.fixture(scope="module")
def pool():
    # Spawned, not forked: a forked worker inherits the coverage tracer of a `--cov` run and traces
    # every line of the reference for data it never saves.
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as executor:
        yield executor


@pytest.mark.parametrize("g", VARIANTS, ids=lambda g: g.name)
def test_fast_equals_reference(g, pool):
    """On 10,000 random hands the fast high, low and present equal the reference exactly
    (``high_low`` too, whose one-hand-per-board loop is its own)."""
    hole, board = random_hands(g, HANDS, seed=stable_seed(g.name))
    high, low, present = FastEvaluator(g).high_low_present(hole, board)
    for got, want in zip(FastEvaluator(g).high_low(hole, board), (high, low)):
        assert np.array_equal(got, want)
    chunks = [(g, hole[i : i + 2000], board[i : i + 2000]) for i in range(0, HANDS, 2000)]
    expected = np.array([row for rows in pool.map(_reference_rows, chunks) for row in rows])
    assert np.array_equal(high[:, 0], expected[:, 0])
    assert np.array_equal(low[:, 0], expected[:, 1])
    assert np.array_equal(present[:, 0], expected[:, 2])
    # The order of random pairs agrees (strengths are compared, never their values).
    a, b = high[0::2, 0], high[1::2, 0]
    assert np.array_equal(np.sign(a.astype(np.int64) - b), np.sign(expected[0::2, 0] - expected[1::2, 0]))


@pytest.mark.parametrize(
    "g, path",
    [
        (game("pls7"), "tables"),
        (game("plo8"), "split"),
        (game("pls7-2"), "split"),
        (game("pls7").variant(hole_use="0-2"), "split"),
        (game("plo5-8"), "split"),
        (game("plo8").variant(hole_use="0-4"), "tables"),
    ],
    ids=lambda x: getattr(x, "name", x),
)
def test_fast_paths_agree_with_the_subset_kernel(g, path):
    """The table and split paths equal the plain subset kernel on 20,000 hands of 3 players,
    and on the same hands one per board."""
    rng = np.random.default_rng(7)
    cards = np.argsort(rng.random((20_000, 52)), axis=1)[:, : 3 * g.hole_cards + 5].astype(np.uint8)
    hole = np.ascontiguousarray(cards[:, : 3 * g.hole_cards].reshape(-1, 3, g.hole_cards))
    board = np.ascontiguousarray(cards[:, 3 * g.hole_cards :])
    fast = FastEvaluator(g)
    assert fast.path == path
    expected = fast._run_subsets(hole, board)
    for got, want in zip(fast.high_low_present(hole, board), expected):
        assert np.array_equal(got, want)
    for got, want in zip(fast.high_low(hole, board), expected[:2]):
        assert np.array_equal(got, want)
    low_only = fast.low(hole, board)
    assert low_only is None if path != "tables" else np.array_equal(low_only, expected[1])
    one_each = hole.reshape(-1, 1, g.hole_cards), np.repeat(board, 3, axis=0)
    for got, want in zip(fast.high_low(*one_each), expected[:2]):
        assert np.array_equal(got, want.reshape(-1, 1))


@pytest.mark.parametrize("n", [0, 1, AHEAD - 1, AHEAD, AHEAD + 1, 2 * AHEAD + 3])
@pytest.mark.parametrize("name", ["pls7", "holdem", "pls7-2", "plo8"])
def test_any_batch_length_gives_the_same_hands(name, n):
    """A batch shorter or longer than the prefetch distance of the pipelined loops (free use of
    8 cards, the hole table of restricted use) gives the same highs and lows as the same hands at the
    head of a longer batch."""
    g = game(name)
    hole, board = random_hands(g, 100, seed=3)
    fast = FastEvaluator(g)
    long_high, long_low = fast.high_low(hole, board)
    high, low = fast.high_low(hole[:n], board[:n])
    assert np.array_equal(high, long_high[:n]) and np.array_equal(low, long_low[:n])


@pytest.mark.parametrize("players", [1, 3])
@pytest.mark.parametrize("name", ["pls7", "holdem", "plo8"])
def test_views_of_one_deal_array_give_the_same_hands(name, players):
    """Hole and board as views of one dealt array (the jobs' layout, compiled apart from
    contiguous arrays) give the same highs, lows and categories as contiguous copies."""
    g = game(name)
    hole, board = split_deal(
        deal_cards(np.random.default_rng(4), 3000, players * g.hole_cards + 5), players, g.hole_cards
    )
    fast = FastEvaluator(g)
    contiguous = np.ascontiguousarray(hole), np.ascontiguousarray(board)
    for got, want in zip(fast.high_low(hole, board), fast.high_low(*contiguous)):
        assert np.array_equal(got, want)
    for got, want in zip(fast.high_low_present(hole, board), fast.high_low_present(*contiguous)):
        assert np.array_equal(got, want)


@pytest.mark.parametrize(
    "g", [game("holdem"), game("holdem").variant(low=8), game("pls7"), game("pls")], ids=lambda g: g.name
)
def test_one_hand_per_deal_is_read_from_the_deal_rows_only_when_the_views_are_all_of_them(g):
    """``split_deal``'s views of a deal array's rows, all or some, are read as those rows (one
    array, the fast one-player kernel); every other pair of views is read as given, and every
    way gives each hand its own strengths (each kernel loop: 7 cards with and without a low,
    8 cards prefetched)."""
    from evaluator.fast import ROWS_FROM, _deal_rows

    pool = g.hole_cards + g.board_cards
    cards = deal_cards(np.random.default_rng(9), ROWS_FROM + 1000, pool)
    fast = FastEvaluator(g)
    hole, board = split_deal(cards, 1, g.hole_cards)
    assert _deal_rows(hole, board).base is cards and np.array_equal(_deal_rows(hole, board), cards)
    assert np.array_equal(_deal_rows(hole[700:2900], board[700:2900]), cards[700:2900])
    # Columns of the same array that are not hole then board: a board one column early
    # (overlapping the hole), and the hole after the board.
    assert _deal_rows(hole, cards[:, g.hole_cards - 1 : pool - 1]) is None
    swapped = cards[:, g.board_cards :].reshape(-1, 1, g.hole_cards), cards[:, : g.board_cards]
    cases = [
        (hole, board),
        (hole[500:], board[500:]),  # some of the rows, still enough for the rows kernel
        (hole[::2], board[::2]),  # every other row
        (np.ascontiguousarray(hole), np.ascontiguousarray(board)),
        swapped,
    ]
    assert [_deal_rows(*case) is not None for case in cases] == [True, True, False, False, False]
    for case_hole, case_board in cases:
        high, low = fast.high_low(case_hole, case_board)
        pools = np.concatenate([case_hole[:, 0], case_board], axis=1)
        flushed = (np.stack([(pools & 3) == suit for suit in range(4)]).sum(axis=2) >= 5).any(axis=0)
        for i in sorted(set(range(0, len(high), 97)) | set(np.flatnonzero(flushed).tolist())):  # every flush
            h, b = case_hole[i, 0].tolist(), case_board[i].tolist()
            assert high[i, 0] == reference.best_high(g, h, b).strength
            want_low = reference.best_low(g, h, b)
            assert low[i, 0] == (want_low.strength if want_low else 0)


@pytest.mark.parametrize("name", list(PRESETS))
@pytest.mark.parametrize("players", [1, 3])
def test_high_alone_equals_the_high_of_high_low(name, players):
    """``FastEvaluator.high`` gives ``high_low``'s highs in every game, from the deal's views
    and from contiguous copies, in a fresh array or written into the ``out`` it is given."""
    g = game(name)
    hole, board = split_deal(
        deal_cards(np.random.default_rng(5), 3000, players * g.hole_cards + 5), players, g.hole_cards
    )
    fast = FastEvaluator(g)
    for h, b in ((hole, board), (np.ascontiguousarray(hole), np.ascontiguousarray(board))):
        want = fast.high_low(h, b)[0]
        assert np.array_equal(fast.high(h, b), want)
        out = np.zeros_like(want)
        assert fast.high(h, b, out=out) is out and np.array_equal(out, want)


@pytest.mark.parametrize("g", VARIANTS, ids=lambda g: g.name)
@pytest.mark.parametrize("players", [1, 3])
def test_high_ordinals_are_the_places_of_the_high_strengths(g, players):
    """``high_ordinals`` gives each hand's place in ``strength_of`` (which holds that strength):
    in every game and variant, one player per deal (from the deal's rows, enough hands for the
    rows kernel) or three on a shared board, in a fresh array or in the ``out`` it is given."""
    from evaluator.fast import ROWS_FROM

    n = ROWS_FROM + 1000
    hole, board = split_deal(
        deal_cards(np.random.default_rng(11), n, players * g.hole_cards + 5), players, g.hole_cards
    )
    fast = FastEvaluator(g)
    high = fast.high_low(hole, board)[0]
    ordinals = fast.high_ordinals(hole, board)
    assert ordinals.dtype == np.uint16 and ordinals.shape == (n, players)
    assert np.array_equal(fast.strength_of[ordinals], high)
    out = np.zeros((n, players), np.uint16)
    assert fast.high_ordinals(np.ascontiguousarray(hole), np.ascontiguousarray(board), out=out) is out
    assert np.array_equal(out, ordinals)


@pytest.mark.parametrize("ranking", list(RANKINGS))
def test_strength_of_holds_7462_distinct_five_card_hands_in_every_ranking(ranking):
    """Five cards fall in 7,462 classes of equal strength (Cactus Kev's count for hold'em): the
    6,175 unsuited rank multisets and the 1,287 suited rank sets, each its own class whatever
    the order of the categories, so ordinals run 1..7462 after 0 for no hand."""
    strength_of = FastEvaluator(Game("five", 1, (0, 1), RANKINGS[ranking], None, board_cards=4)).strength_of
    assert len(strength_of) == 7463 and strength_of[0] == 0
    assert np.all(np.diff(strength_of.astype(np.int64)) > 0)


@pytest.mark.parametrize(
    "wrong",
    [
        lambda dtype: np.empty((3000, 2), dtype),
        lambda dtype: np.empty((3000, 1), np.int64),
        lambda dtype: np.empty((3000, 2), dtype)[:, :1],
    ],
    ids=["shape", "dtype", "strided"],
)
def test_high_refuses_an_out_it_cannot_write_whole(wrong):
    """An ``out`` of another shape, another dtype or not C-contiguous is refused before any work,
    by ``high`` (uint32) and ``high_ordinals`` (uint16)."""
    fast = FastEvaluator(game("holdem"))
    hole, board = split_deal(deal_cards(np.random.default_rng(5), 3000, 7), 1, 2)
    with pytest.raises(ValueError, match="out must be"):
        fast.high(hole, board, out=wrong(np.uint32))
    with pytest.raises(ValueError, match="out must be"):
        fast.high_ordinals(hole, board, out=wrong(np.uint16))


@pytest.mark.parametrize("ordinals", [False, True], ids=["strengths", "ordinals"])
@pytest.mark.parametrize("name", ["holdem", "pls"])  # 7 and 8 cards (the prefetching loop)
def test_free_kernels_of_a_game_without_a_low_never_write_the_low(name, ordinals):
    """Compiled with bounds checks, the free-use kernels of a game without a low run on an empty
    low array (what ``FastEvaluator.high`` and ``high_ordinals`` hand them) without touching it,
    and write each hand's strength, or its ordinal."""
    from numba import njit

    from evaluator import free_kernels

    g = game(name)
    free = free_kernels.free_kernels(g.hole_cards, g.board_cards, g.ranking, g.low, ordinals=ordinals)
    fast = FastEvaluator(g)
    dtype, scale = (np.uint16, fast.strength_of) if ordinals else (np.uint32, np.arange(1 << 24, dtype=np.uint32))
    cards = deal_cards(np.random.default_rng(6), 500, 3 * g.hole_cards + 5)
    no_low = np.empty((0, 1), np.uint32)
    high = np.empty(500, dtype)
    rows = np.ascontiguousarray(cards[:, : g.hole_cards + 5])
    njit(boundscheck=True)(free.one_per_board.py_func)(rows.reshape(-1), high, no_low.reshape(-1))
    assert np.array_equal(scale[high], fast.high_low(rows[:, None, : g.hole_cards], rows[:, g.hole_cards :])[0][:, 0])
    hole, board = split_deal(cards, 3, g.hole_cards)
    high3 = np.empty((500, 3), dtype)
    njit(boundscheck=True)(free.shared_board.py_func)(
        np.ascontiguousarray(hole), np.ascontiguousarray(board), high3, no_low
    )
    assert np.array_equal(scale[high3], fast.high_low(hole, board)[0])


def _five_card_counts(ranking: str):
    g = Game("five", 1, (0, 1), RANKINGS[ranking], 7, board_cards=4)
    hands = np.array(list(itertools.combinations(range(52), 5)), np.uint8)
    fast = FastEvaluator(g)
    high, low = fast.high_low(np.ascontiguousarray(hands[:, None, :1]), np.ascontiguousarray(hands[:, 1:]))
    categories, counts = np.unique(fast.category(high[:, 0]), return_counts=True)
    return {Category(c).name: int(n) for c, n in zip(categories, counts)}, hands, high


def test_five_card_counts_pls_ranking():
    """All 2,598,960 five-card hands split into the 12 PLS categories as RULES section 9 says."""
    counts, _, _ = _five_card_counts("base")
    assert counts == {
        "royal_flush": 4,
        "skip_straight_flush": 24,
        "straight_flush": 36,
        "four_of_a_kind": 624,
        "full_house": 3744,
        "flush": 5084,
        "skip_straight": 6120,
        "straight": 10200,
        "three_of_a_kind": 54912,
        "two_pair": 123552,
        "one_pair": 1098240,
        "high_card": 1296420,
    }


def test_five_card_counts_standard_ranking():
    """The standard 9 categories: 40 straight flushes, 5,108 flushes, 1,302,540 high cards."""
    counts, _, _ = _five_card_counts("standard")
    assert counts == {
        "straight_flush": 40,
        "four_of_a_kind": 624,
        "full_house": 3744,
        "flush": 5108,
        "straight": 10200,
        "three_of_a_kind": 54912,
        "two_pair": 123552,
        "one_pair": 1098240,
        "high_card": 1302540,
    }


@pytest.mark.parametrize("ranking", ["base", "both"])
def test_distinct_present_is_the_category_of_five_unsuited_ranks(ranking):
    """By a mask of five ranks, distinct_present is the category bit the reference gives five
    unsuited cards of those ranks (high card, straight or skip straight); other masks are 0."""
    table = distinct_present(RANKINGS[ranking])
    for ranks in itertools.combinations(range(13), 5):
        cards = [make_card(r, 0) for r in ranks[:4]] + [make_card(ranks[4], 1)]
        category, _ = reference.classify5(cards, RANKINGS[ranking])
        assert table[sum(1 << r for r in ranks)] == 1 << category
    sizes = np.array([bin(m).count("1") for m in range(1 << 13)])
    assert not table[sizes != 5].any()


@pytest.mark.parametrize("qualifier, expected", [(7, 21504), (8, 57344)])
def test_five_card_low_counts(qualifier, expected):
    """21,504 five-card hands make a 7-or-better low and 57,344 an 8-or-better low."""
    g = Game("five", 1, (0, 1), RANKINGS["base"], qualifier, board_cards=4)
    hands = np.array(list(itertools.combinations(range(52), 5)), np.uint8)
    _, low = FastEvaluator(g).high_low(np.ascontiguousarray(hands[:, None, :1]), np.ascontiguousarray(hands[:, 1:]))
    assert int((low > 0).sum()) == expected


def _strength(g, hole, board):
    fast = FastEvaluator(g)
    high, low, present = fast.high_low_present(np.array([[hole]], np.uint8), np.array([board], np.uint8))
    return int(high[0, 0]), int(low[0, 0]), int(present[0, 0])


@settings(max_examples=300, deadline=None)
@given(data=st.data(), perm=suit_permutations, g=st.sampled_from(VARIANTS))
def test_card_order_and_suit_names_never_matter(data, perm, g):
    """Shuffling the hole cards or board, or renaming suits, never changes a strength."""
    hole, board = data.draw(deals(g))
    base = _strength(g, hole, board)
    shuffled = _strength(g, hole[::-1], board[::-1])
    relabel = lambda cs: [(c >> 2) * 4 + perm[c & 3] for c in cs]  # noqa: E731 - tiny local helper
    assert base == shuffled == _strength(g, relabel(hole), relabel(board))


@pytest.mark.slow
@pytest.mark.parametrize("name", ["pls7", "pls", "holdem", "pls7-2", "plo8"])
def test_fast_equals_reference_million(name, pool, ci_size):
    """Slow: 1,000,000 random hands per preset (CI: 40,000; free use, and the split path with
    and without a low) equal the reference, and so does ``high_low`` (the pipelined loops)."""
    g = game(name)
    hole, board = random_hands(g, ci_size(full=1_000_000, ci=40_000), seed=11)
    high, low, present = FastEvaluator(g).high_low_present(hole, board)
    for got, want in zip(FastEvaluator(g).high_low(hole, board), (high, low)):
        assert np.array_equal(got, want)
    chunks = [(g, hole[i : i + 20000], board[i : i + 20000]) for i in range(0, len(board), 20000)]
    expected = np.array([row for rows in pool.map(_reference_rows, chunks) for row in rows])
    assert np.array_equal(high[:, 0], expected[:, 0])
    assert np.array_equal(low[:, 0], expected[:, 1])
    assert np.array_equal(present[:, 0], expected[:, 2])


@pytest.mark.parametrize("hole_use", ["0-3", "1-3", "2-3", "2-2"])
def test_rerank_equals_direct_evaluation(hole_use):
    """Another ranking's highs derived from the base high and present bits equal evaluating
    under that ranking, on 8 hands per board, for free and restricted hole use."""
    base = FastEvaluator(game("pls7").variant(hole_use=hole_use))
    hole, board = split_deal(deal_cards(np.random.default_rng(5), 4000, 8 * 3 + 5), 8, 3)
    high, _, present = base.high_low_present(hole, board)
    for ranking in ("trips_over_straight", "skip_over_flush", "both"):
        other = FastEvaluator(base.game.variant(ranking=ranking))
        assert np.array_equal(other.rerank(high, present, base, hole, board), other.high_low(hole, board)[0])


def test_rerank_refuses_other_rules():
    """Games that differ in more than the order of the categories cannot be reranked."""
    base, hole_rule = FastEvaluator(game("pls7")), FastEvaluator(game("pls7").variant(hole_use="2-3"))
    hole, board = random_hands(game("pls7"), 10, seed=1)
    high, _, present = base.high_low_present(hole, board)
    assert hole_rule.rerank(high, present, base, hole, board) is None
    assert FastEvaluator(game("holdem")).rerank(high, present, base, hole, board) is None
