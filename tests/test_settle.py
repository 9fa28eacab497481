"""Pot settlement in whole chips (RULES section 6)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evaluator import settle as settle_module
from evaluator.errors import SampyongError
from evaluator.settle import clockwise_from_button, settle, share_unit, side_pots, split_pot

ALL = [0, 1, 2]


def test_scoop():
    """One player with the best high and the only low wins everything."""
    assert split_pot(100, highs=[9, 5, 3], lows=[7, 0, 0], eligible=ALL, button=0) == [100, 0, 0]


def test_no_low_high_takes_all():
    """Without a qualifying low the best high takes the whole pot."""
    assert split_pot(100, highs=[1, 5, 3], lows=[0, 0, 0], eligible=ALL, button=0) == [0, 100, 0]


def test_split_high_and_low():
    """With a low the pot is halved; an odd chip goes to the high half."""
    assert split_pot(101, highs=[9, 5, 3], lows=[0, 7, 0], eligible=ALL, button=0) == [51, 50, 0]


def test_three_way_tied_low():
    """Three tied lows share the low half; the chips that do not divide go to the high winner."""
    # high half 50 to seat 3; low half 50 / 3 = 16 each, 2 odd chips to the high winner.
    assert split_pot(100, highs=[1, 2, 3, 9], lows=[5, 5, 5, 0], eligible=[0, 1, 2, 3], button=0) == [16, 16, 16, 52]


def test_quartering():
    """Two tied lows each get a quarter of the pot."""
    assert split_pot(100, highs=[9, 1, 1], lows=[0, 5, 5], eligible=ALL, button=0) == [50, 25, 25]


def test_tied_high_odd_chip_goes_first_clockwise_from_button():
    """A tied high's odd chip goes to the tied winner first clockwise from the button."""
    highs, lows = [9, 9, 9, 1], [0, 0, 0, 0]
    assert split_pot(100, highs, lows, eligible=[0, 1, 2, 3], button=0) == [33, 34, 33, 0]
    assert split_pot(100, highs, lows, eligible=[0, 1, 2, 3], button=1) == [33, 33, 34, 0]
    assert split_pot(100, highs, lows, eligible=[0, 1, 2, 3], button=2) == [34, 33, 33, 0]


def test_side_pot_layers_rulebook_example():
    """Contributions 50, 100, 200, 200 give pots 200 (4 players), 150 (3), 200 (2)."""
    assert side_pots([50, 100, 200, 200], [False] * 4) == [(200, (0, 1, 2, 3)), (150, (1, 2, 3)), (200, (2, 3))]


def test_side_pots_settled_smallest_first():
    """The short stack with the best hand wins only the main pot; the rest goes down the layers."""
    won = settle(highs=[9, 8, 7, 1], lows=[0, 0, 0, 0], contributions=[50, 100, 200, 200], button=0)
    assert won == [200, 150, 200, 0]
    assert sum(won) == 550


def test_folded_player_contributes_but_cannot_win():
    """A folded player's chips stay in the pot; the player wins nothing."""
    won = settle(highs=[9, 5, 3], lows=[0, 0, 0], contributions=[30, 100, 100], button=0, folded=[True, False, False])
    assert won == [0, 230, 0]


def test_bad_settlement_input():
    """Mismatched seats or a button outside the table are clear errors."""
    with pytest.raises(SampyongError):
        settle([1, 2], [0], [10, 10], button=0)
    with pytest.raises(SampyongError, match="button"):
        settle([1, 2], [0, 0], [10, 10], button=5)


def test_a_layer_only_folded_players_reached_joins_the_layer_below():
    """A folded player's excess over everyone still in (here 100 chips above the 100 of the last
    two) joins the last pot formed, with that pot's contenders: two pots, the top one 250."""
    assert side_pots([200, 100, 50, 100], [True, False, False, False]) == [(200, (1, 2, 3)), (250, (1, 3))]
    won = settle(
        highs=[9, 5, 7, 3],
        lows=[0] * 4,
        contributions=[200, 100, 50, 100],
        button=0,
        folded=[True, False, False, False],
    )
    assert won == [0, 250, 200, 0]


@pytest.mark.parametrize(
    "highs, lows, contributions, folded",
    [
        ([5, 1], [0, 0, 0], [10, 10, 10], [False] * 3),  # fewer highs than lows
        ([5, 1], [0, 0], [10, 10, 10], [False] * 3),  # fewer lows than contributions
        ([5, 1, 3], [0, 0, 0], [10, 10, 10], [False] * 2),  # fewer folds than seats
    ],
)
def test_every_list_must_name_the_same_seats(highs, lows, contributions, folded):
    """Highs, lows, contributions and folds of different lengths are refused, whichever is short."""
    with pytest.raises(SampyongError, match="same seats"):
        settle(highs, lows, contributions, button=0, folded=folded)


def test_the_button_is_any_seat_of_the_table():
    """Every seat may hold the button (the odd chip follows it); -1 and the table size may not."""
    for button, odd_chip_to in ((0, 1), (1, 2), (2, 1)):
        won = settle(highs=[5, 9, 9], lows=[0, 0, 0], contributions=[11, 12, 12], button=button)
        assert won[odd_chip_to] == 18 and sum(won) == 35
    for button in (-1, 3):
        with pytest.raises(SampyongError, match="button"):
            settle([5, 9, 9], [0, 0, 0], [11, 12, 12], button=button)


# --- Tests that kill the surviving mutants of `bash tests/mutants.sh evaluator/settle.py` -------


def test_folded_excess_above_everyone_joins_the_last_pot():
    """A folded player's chips above every live player's join the last pot, whatever came before
    (line 69: every index, operator and field of the merge)."""
    assert side_pots([10, 20, 50, 50, 100], [False] * 4 + [True]) == [
        (50, (0, 1, 2, 3)),
        (40, (1, 2, 3)),
        (140, (2, 3)),
    ]
    assert side_pots([100, 50, 50], [True, False, False]) == [(200, (1, 2))]


def test_zero_contributions_make_no_pot():
    """A seat that put nothing in is in no layer (line 62: `c > 0`)."""
    assert side_pots([0, 50, 50], [False] * 3) == [(100, (1, 2))]


def test_any_negative_contribution_is_refused():
    """Line 60: `c < 0`, -1 included."""
    with pytest.raises(SampyongError, match="negative"):
        side_pots([-1, 5], [False, False])


def test_everyone_folded_is_refused():
    """Line 75: the check reads the first pot's contenders, not its chips."""
    with pytest.raises(SampyongError, match="folded"):
        side_pots([10, 10], [True, True])


def test_no_contender_or_no_chips_pays_nobody():
    """Line 38: `pot <= 0 or not eligible` (a negative pot; chips with nobody eligible)."""
    assert split_pot(-3, highs=[9, 5], lows=[0, 0], eligible=[0, 1], button=0) == [0, 0]
    assert split_pot(100, highs=[9, 5], lows=[0, 0], eligible=[], button=0) == [0, 0]


def test_weakest_low_still_qualifies():
    """Any low above 0 qualifies, 1 included (line 43: `best_low > 0`)."""
    assert split_pot(100, highs=[9, 5], lows=[0, 1], eligible=[0, 1], button=0) == [50, 50]


def test_clockwise_order_on_an_odd_table():
    """Line 25: the seat order is by distance modulo the table size (5 seats: `&` would put 3
    before 2), and with it the tied high's odd chip."""
    assert clockwise_from_button([0, 1, 2, 3, 4], button=0, table_size=5) == [1, 2, 3, 4, 0]
    assert split_pot(101, highs=[1, 1, 9, 9, 1], lows=[0] * 5, eligible=list(range(5)), button=0) == [0, 0, 51, 50, 0]


def test_every_seat_list_must_have_the_same_length():
    """Each length mismatch is refused, whichever list is longer (line 89, all six)."""
    for highs, lows, contributions, folded in [
        ([1], [0, 0], [10, 10], [False] * 2),
        ([1, 2, 3], [0, 0], [10, 10], [False] * 2),
        ([1, 2], [0, 0], [10], [False]),
        ([1, 2], [0, 0], [10, 10, 10], [False] * 3),
        ([1, 2], [0, 0], [10, 10], [False]),
        ([1, 2], [0, 0], [10, 10], [False] * 3),
    ]:
        with pytest.raises(SampyongError, match="same seats"):
            settle(highs, lows, contributions, button=0, folded=folded)


def test_button_anywhere_on_the_table_and_nowhere_else():
    """Seats 0..n-1 may hold the button, -1 and n may not (line 91, all four)."""
    assert settle(highs=[1, 9], lows=[0, 0], contributions=[10, 10], button=1) == [0, 20]
    for button in (-1, 2):
        with pytest.raises(SampyongError, match="button"):
            settle([1, 2], [0, 0], [10, 10], button=button)


def test_share_unit_is_the_smallest_unit():
    """2 x lcm(1..players): every split of a pot or a half divides it, and no larger unit is used
    (the int64 sums of squared shares in evaluator.equity stay far from overflow). Line 102."""
    assert [share_unit(n) for n in range(1, 10)] == [2, 4, 12, 24, 120, 120, 840, 1680, 5040]


def _shares_flags(high_winners, low_winners, both):
    """The six showdown flags recounted from exact shares: ``high_winners`` seats win the high,
    ``low_winners`` the low (0: no low), the first ``both`` of each being the same seats."""
    from fractions import Fraction

    high = set(range(high_winners))
    low = set(range(high_winners - both, high_winners - both + low_winners))
    halves = [(Fraction(1, 2), high), (Fraction(1, 2), low)] if low else [(Fraction(1), high)]
    seats = high | low
    shares = [sum((part / len(w) for part, w in halves if s in w), Fraction(0)) for s in sorted(seats)]
    return (
        len(high) > 1,
        bool(low),
        len(low) > 1,
        Fraction(1) in shares,
        Fraction(1, 4) in shares,
        bool(low) and low != high,
    )


def test_showdown_flags_equal_exact_shares_up_to_eleven_players():
    """Every showdown a table of up to 11 seats (plo) can have: the kernel's flags equal the
    flags recounted from each player's exact share. 4 high and 4 low winners, none in both
    (8 players), get 1/8 each: not quartered; with one in both (7 players) that one has
    1/8 + 1/8 = 1/4; 4 winners of both with a fifth low winner have 9/40 and 1/10 (lines 154)."""
    from evaluator.settle_kernels import showdown_flags

    checked = 0
    for high_winners in range(1, 12):
        for low_winners in range(0, 12):
            for both in range(0, min(high_winners, low_winners) + 1):
                if high_winners + low_winners - both > 11:
                    continue
                got = tuple(bool(f) for f in showdown_flags(high_winners, low_winners, both))
                assert got == _shares_flags(high_winners, low_winners, both), (high_winners, low_winners, both)
                checked += 1
    assert checked > 300
    assert not showdown_flags(4, 4, 0)[4]
    assert showdown_flags(4, 4, 1)[4]
    assert showdown_flags(3, 6, 1)[4]
    assert not showdown_flags(4, 5, 4)[4]


def test_flags_among_large_tables_equal_exact_shares():
    """``flags_among`` on 5 to 11 seats where a quarter share hinges on the overlap of the two
    halves' winners: 4 + 4 disjoint winners (no quarter), 4 + 4 sharing one (a quarter), 3 + 6
    sharing one (a quarter), 4 of both plus a fifth low (no quarter)."""
    import numpy as np

    from evaluator.settle_kernels import flags_among

    cases = [
        ([9, 9, 9, 9, 1, 1, 1, 1], [0, 0, 0, 0, 7, 7, 7, 7], (4, 4, 0)),
        ([9, 9, 9, 9, 1, 1, 1], [0, 0, 0, 7, 7, 7, 7], (4, 4, 1)),
        ([9, 9, 9, 1, 1, 1, 1, 1], [0, 0, 7, 7, 7, 7, 7, 7], (3, 6, 1)),
        ([9, 9, 9, 9, 1], [7, 7, 7, 7, 7], (4, 5, 4)),
        ([9, 9, 9, 9, 1, 1, 1, 1, 1, 2, 2], [0, 0, 0, 5, 5, 5, 5, 5, 5, 3, 0], (4, 6, 1)),
    ]
    for highs, lows, counts in cases:
        mask = np.ones(len(highs), np.bool_)
        got = tuple(bool(f) for f in flags_among(np.array(highs, np.uint32), np.array(lows, np.uint32), mask))
        assert got == _shares_flags(*counts), (highs, lows)


@pytest.mark.parametrize("players", [2, 3, 6, 11])
def test_pot_shares_in_numpy_equal_the_kernel_and_exact_fractions(players):
    """``evaluator.settle.pot_shares`` (numpy, the calculator's) gives the numba kernel's shares on
    deals full of tied highs and lows, and each seat's share is its exact fraction of the pot."""
    from fractions import Fraction

    import numpy as np

    from evaluator.settle import pot_shares
    from evaluator.settle_kernels import pot_shares as kernel_pot_shares

    rng = np.random.default_rng(players)
    high = rng.integers(0, 3, (4000, players)).astype(np.uint32)
    low = np.where(rng.random((4000, players)) < 0.5, 0, rng.integers(1, 3, (4000, players))).astype(np.uint32)
    unit = share_unit(players)
    high_part, low_part = pot_shares(high, low, unit)
    want_high, want_low = np.empty((4000, players), np.int64), np.empty((4000, players), np.int64)
    kernel_pot_shares(high, low, unit, want_high, want_low)
    assert (high_part == want_high).all() and (low_part == want_low).all()
    for i in range(200):
        h, lo = high[i].tolist(), low[i].tolist()
        high_winners = [s for s in range(players) if h[s] == max(h)]
        low_winners = [s for s in range(players) if max(lo) > 0 and lo[s] == max(lo)]
        half = Fraction(1, 2) if low_winners else Fraction(1)
        for s in range(players):
            exact = half / len(high_winners) * (s in high_winners) + (
                Fraction(1, 2) / len(low_winners) if s in low_winners else 0
            )
            assert Fraction(int(high_part[i, s] + low_part[i, s]), unit) == exact
    assert (low_part > 0).any() and (low_part == 0).any() and ((high_part > 0).sum(axis=1) > 1).any()


# --- The two functions every engine settles with: form_pots and divide_pot ---------------------


def _pots_chip_by_chip(bets, out, dead):
    """The pots built one chip at a time, the obvious way: the k-th chip of every seat that put in
    k or more is contested by those of them still in; it goes into the last pot when that pot has
    the same contenders or it has none; the antes join the main pot when every seat still in
    contests it, else lead a pot of their own."""
    pots: list[tuple[int, tuple[int, ...]]] = []
    for k in range(1, max(bets, default=0) + 1):
        chips = sum(b >= k for b in bets)
        seats = tuple(s for s, b in enumerate(bets) if b >= k and not out[s])
        if pots and (not seats or seats == pots[-1][1]):
            pots[-1] = (pots[-1][0] + chips, pots[-1][1])
        else:
            pots.append((chips, seats))
    live = tuple(s for s in range(len(bets)) if not out[s])
    if pots and pots[0][1] == live:
        pots[0] = (pots[0][0] + dead, live)
    elif dead:
        pots.insert(0, (dead, live))
    return pots


# Bets from a few levels, so that several seats are all-in at the same level and at several levels.
_tables = st.integers(2, 9).flatmap(
    lambda n: st.tuples(
        st.lists(st.sampled_from([0, 1, 2, 3, 7, 10, 25, 40]), min_size=n, max_size=n),
        st.lists(st.booleans(), min_size=n, max_size=n),
        st.sampled_from([0, 0, 1, 9]),
    )
)


@given(_tables)
@settings(max_examples=400, deadline=None)
def test_form_pots_equals_the_pots_built_chip_by_chip(table):
    """``form_pots``, as Python and as the kernels' compiled copy, forms the pots built chip by
    chip, in the same order, from bets with all-ins at several levels, folded contributors and
    antes; ``side_pots`` gives the same list, or refuses when a pot has no contender."""
    from evaluator import settle_kernels

    bets, out, dead = table
    expected = _pots_chip_by_chip(bets, out, dead)
    for form_pots in (settle_module.form_pots, settle_kernels.form_pots):
        chips, contenders = form_pots(np.array(bets, np.int64), np.array(out, np.bool_), dead)
        assert [(int(c), tuple(np.flatnonzero(s).tolist())) for c, s in zip(chips, contenders)] == expected
    if all(seats for _, seats in expected):
        assert side_pots(bets, out, dead) == expected
    else:
        with pytest.raises(SampyongError, match="folded"):
            side_pots(bets, out, dead)


def _divide_by_the_book(chips, highs, lows, contenders, button):
    """RULES 6.1-6.3 over lists: halves (the odd chip of halving to the high), ties sharing a
    half, every chip a half leaves over to the high winner first clockwise from the button; the
    odd chips told are those plus the halving chip when one high winner takes it."""
    n = len(highs)
    seats = [s for s in range(n) if contenders[s]]
    won = [0] * n
    if chips <= 0 or not seats:
        return won, 0, -1
    high = [s for s in seats if highs[s] == max(highs[t] for t in seats)]
    low = [s for s in seats if lows[s] > 0 and lows[s] == max(lows[t] for t in seats)]
    rest = 0
    for part, winners in [(chips - chips // 2, high), (chips // 2, low)] if low else [(chips, high)]:
        for s in winners:
            won[s] += part // len(winners)
        rest += part % len(winners)
    first = min(high, key=lambda s: (s - button - 1) % n)
    won[first] += rest
    return won, rest + (1 if low and len(high) == 1 and chips % 2 else 0), first


_showdowns = st.integers(2, 9).flatmap(
    lambda n: st.tuples(
        st.integers(-1, 101),
        st.lists(st.integers(1, 3), min_size=n, max_size=n),  # few strengths: ties at every size
        st.lists(st.integers(0, 2), min_size=n, max_size=n),
        st.lists(st.booleans(), min_size=n, max_size=n),
        st.integers(0, n - 1),
    )
)


@given(_showdowns)
@settings(max_examples=400, deadline=None)
def test_divide_pot_pays_by_the_book(showdown):
    """``divide_pot``, as Python and compiled, pays each seat, counts the odd chips and names
    their seat as the rule book's split over lists does, ties of every size included."""
    from evaluator import settle_kernels

    chips, highs, lows, contenders, button = showdown
    expected = _divide_by_the_book(chips, highs, lows, contenders, button)
    for divide_pot in (settle_module.divide_pot, settle_kernels.divide_pot):
        won, odd, seat = divide_pot(
            chips, np.array(highs, np.int64), np.array(lows, np.int64), np.array(contenders, np.bool_), button
        )
        assert (won.tolist(), int(odd), int(seat)) == expected
        assert won.sum() == (max(chips, 0) if any(contenders) else 0)


def test_settle_pots_pays_what_the_reference_pays():
    """The kernels' whole-hand settlement equals ``settle`` seat by seat, the antes' pot of its
    own included, and refuses a pot nobody contests as ``side_pots`` does."""
    from evaluator.settle_kernels import settle_pots

    highs, lows = np.array([9, 5, 7, 3]), np.array([0, 4, 6, 0])
    won, ok = settle_pots(np.array([0, 20, 50, 50]), np.array([False, False, False, True]), 8, highs, lows, 3)
    # antes 8 to all live seats (0 holds the best high; 2 the best low), 60 among 1 and 2, 60 to 2 alone
    assert ok and won.tolist() == [4, 0, 124, 0] and won.sum() == 128
    assert won.tolist() == [
        a + b
        for a, b in zip(
            split_pot(8, highs, lows, [0, 1, 2], 3),
            settle(highs, lows, [0, 20, 50, 50], 3, [False, False, False, True]),
        )
    ]
    assert not settle_pots(np.array([10, 10]), np.array([True, True]), 0, highs[:2], lows[:2], 1)[1]


def test_the_referee_takes_pots_up_to_2_to_the_62_chips():
    """``MAX_CHIPS`` is the referee's limit: a pot of 2**62 chips is split to the chip (halves of
    a hi-lo pot still fit in 64 bits), one chip more is refused."""
    from evaluator.referee import referee

    board, hands = "Ad 8c 5h Ks 2c", ["Kh Kd Qc Jd", "3c 4d 9h 9s"]  # trip kings; the wheel wins both halves
    paid = [p["chips"] for p in referee("plo8", board, hands, pot=2**62)["players"]]
    assert sum(paid) == 2**62 and paid[0] < paid[1]
    with pytest.raises(SampyongError, match=r"at most 2\*\*62 chips, got 4611686018427387905"):
        referee("plo8", board, hands, pot=2**62 + 1)
