"""The reference hand engine, rule by rule: the numbers are worked out by hand in each test."""

import dataclasses

import pytest

from engine.betting import NO_LIMIT, POT_LIMIT, fixed_limit
from engine.hand import Hand, IllegalAction, Legal
from evaluator.errors import SampyongError
from evaluator.games import game

HOLDEM, PLO, PLO8 = game("holdem"), game("plo"), game("plo8")


def play(hand: Hand, *moves) -> None:
    """Apply moves: "f", "c" (check/call), or an int (raise to)."""
    for move in moves:
        if move == "f":
            hand.fold()
        elif move == "c":
            hand.check_call()
        else:
            hand.raise_to(move)


def test_rule_96_short_all_in_does_not_reopen_the_betting():
    """Flop: p1 bets 100, p2 is all-in for 150 (a raise of 50, short of 100); p3, who has not
    acted, may raise (to at least 250); after p3 calls, p1 may only call 50 or fold."""
    hand = Hand(HOLDEM, NO_LIMIT, stacks=[1000, 152, 1000], blinds=[1, 2, 0])
    play(hand, "c", "c", "c")  # p3 calls 2, p1 completes, p2 checks
    hand.deal_board("Ad 7s 4h")
    play(hand, 100, 150)
    assert hand.actor == 2 and hand.legal() == Legal(fold=True, call=150, min_raise_to=250, max_raise_to=998)
    play(hand, "c")
    assert hand.actor == 0 and hand.legal() == Legal(fold=True, call=50, min_raise_to=None, max_raise_to=None)


def test_rule_96a_short_all_ins_adding_up_to_a_full_raise_reopen():
    """500 / 1000 / 1300 / 1700: the two short all-ins add 700, more than the full raise of 500,
    so the player who raised to 1000 may re-raise, to at least 2200."""
    hand = Hand(HOLDEM, NO_LIMIT, stacks=[5000, 5000, 1400, 1800], blinds=[50, 100, 0, 0])
    play(hand, "c", "c", "c", "c")  # everyone in for 100
    hand.deal_board("Ad 7s 4h")
    play(hand, 500, 1000, 1300, 1700, "c")  # p3 and p4 all-in; p1 calls
    assert hand.actor == 1
    assert hand.legal() == Legal(fold=True, call=700, min_raise_to=2200, max_raise_to=4900)


def test_rule_96a_short_all_ins_short_of_a_full_raise_do_not_reopen():
    """500 / 1000 / 1300 / 1400: the short all-ins add 400, less than 500, so the player who
    raised to 1000 may only call or fold (the bettor of 500 faced a full raise and may raise)."""
    hand = Hand(HOLDEM, NO_LIMIT, stacks=[5000, 5000, 1400, 1500], blinds=[50, 100, 0, 0])
    play(hand, "c", "c", "c", "c")
    hand.deal_board("Ad 7s 4h")
    play(hand, 500, 1000, 1300, 1400)
    assert hand.actor == 0 and hand.legal().min_raise_to == 1900
    play(hand, "c")
    assert hand.legal() == Legal(fold=True, call=400, min_raise_to=None, max_raise_to=None)


def test_pot_limit_first_and_third_raise():
    """Blinds 1/2: the first raise is to at most 7 (call 2, pot 5, raise 5); after raises to 7
    and 24 the small blind's pot raise is to 81 (call 23 makes the pot 57)."""
    hand = Hand(PLO, POT_LIMIT, stacks=[1000] * 4, blinds=[1, 2, 0, 0])
    assert hand.actor == 2 and hand.legal() == Legal(fold=True, call=2, min_raise_to=4, max_raise_to=7)
    play(hand, 7)
    assert hand.legal().max_raise_to == 24 and hand.legal().min_raise_to == 12
    play(hand, 24)
    assert hand.actor == 0 and hand.legal() == Legal(fold=True, call=23, min_raise_to=41, max_raise_to=81)
    with pytest.raises(IllegalAction, match="41 through 81, not 82"):
        hand.raise_to(82)


def test_pot_limit_bet_on_the_flop_is_the_pot():
    """After a limped pot of 8 (four players at 2), the first flop bet is 2 to 8."""
    hand = Hand(PLO, POT_LIMIT, stacks=[1000] * 4, blinds=[1, 2, 0, 0])
    play(hand, "c", "c", "c", "c")
    hand.deal_board("Ad 7s 4h")
    assert hand.actor == 0 and hand.legal() == Legal(fold=False, call=0, min_raise_to=2, max_raise_to=8)


def test_heads_up_button_posts_small_blind_and_acts_first_preflop_only():
    """Heads-up the button (seat 1) posts the small blind and acts first preflop; seat 0 acts first after."""
    hand = Hand(HOLDEM, NO_LIMIT, stacks=[100, 100], blinds=[1, 2])
    assert hand.bets == [2, 1] and hand.actor == 1
    play(hand, "c")
    assert hand.actor == 0 and hand.legal() == Legal(fold=False, call=0, min_raise_to=4, max_raise_to=100)
    play(hand, "c")
    hand.deal_board("Ad 7s 4h")
    assert hand.actor == 0


def test_uncalled_bet_is_returned():
    """All-in for 500 against 200 behind: 300 comes back before the showdown; the winner of the
    400 pot then has 400 and the loser keeps the 300 returned."""
    hand = Hand(HOLDEM, NO_LIMIT, stacks=[500, 200], blinds=[0, 0], min_bet=2)
    hand.deal_hole(0, "7c 2d")
    hand.deal_hole(1, "As Ah")
    play(hand, 500)  # with no blinds seat 0 opens
    assert hand.legal() == Legal(fold=True, call=200, min_raise_to=None, max_raise_to=None)
    play(hand, "c")
    assert hand.stacks == [300, 0] and hand.contributed == [200, 200]
    for cards in ("Ks Qd 9h", "8c", "3s"):
        hand.deal_board(cards)
    assert hand.finishing_stacks == [300, 400]


def test_no_raise_when_every_opponent_is_all_in():
    """Facing two all-in players, the last player may only call or fold."""
    hand = Hand(HOLDEM, NO_LIMIT, stacks=[50, 100, 1000], blinds=[0, 0, 0], min_bet=2)
    play(hand, 50, 100)
    assert hand.actor == 2 and hand.legal() == Legal(fold=True, call=100, min_raise_to=None, max_raise_to=None)


def test_three_way_all_in_side_pots_hi_lo_and_quartering():
    """Omaha hi-lo, stacks 50/100/200 all-in: the main pot of 150 goes 75 to the full house and
    37 + 37 to the two tied wheels (the odd chip to the high winner), the side pot of 100 is
    split 50/50 between the full house and the wheel, and 100 uncalled goes back."""
    hand = Hand(PLO8, NO_LIMIT, stacks=[50, 100, 200], blinds=[0, 0, 0], min_bet=2)
    for seat, cards in enumerate(("4c 5c Qh Qs", "4d 5d Jh Js", "Kh 3c 9c 9d")):
        hand.deal_hole(seat, cards)
    play(hand, 50, 100, "c")
    for cards in ("As 2d 3h", "Kc", "Kd"):
        hand.deal_board(cards)
    assert hand.winnings == [37, 87, 226 - 100]
    assert hand.finishing_stacks == [37, 87, 226]
    assert sum(hand.finishing_stacks) == 350


def test_fixed_limit_cap_of_four_bets_lifts_heads_up():
    """Fixed limit 2/4: four bets and raises a round with three players in; none left, the cap is gone heads-up."""
    hand = Hand(HOLDEM, fixed_limit(2, 4), stacks=[1000] * 3, blinds=[1, 2, 0])
    play(hand, 4, 6, 8, 10)  # button, small blind, big blind, button: four raises
    assert hand.actor == 0 and hand.legal() == Legal(fold=True, call=4, min_raise_to=None, max_raise_to=None)
    play(hand, "c", "f")
    hand.deal_board("Ad 7s 4h")
    play(hand, 2, 4, 6, 8, 10)  # heads-up: a fifth bet is fine
    assert hand.legal() == Legal(fold=True, call=2, min_raise_to=12, max_raise_to=12)


def test_fixed_limit_bets_are_the_small_then_the_big_bet():
    """Fixed limit 2/4: raises go up by 2 preflop and on the flop, by 4 on the turn."""
    hand = Hand(HOLDEM, fixed_limit(2, 4), stacks=[1000] * 2, blinds=[1, 2])
    assert hand.legal() == Legal(fold=True, call=1, min_raise_to=4, max_raise_to=4)
    play(hand, "c", "c")
    hand.deal_board("Ad 7s 4h")
    play(hand, "c", "c")
    hand.deal_board("2c")
    assert hand.legal() == Legal(fold=False, call=0, min_raise_to=4, max_raise_to=4)


def test_antes_are_dead_money_in_the_main_pot():
    """A big-blind ante of 100 is dead money that both players contest (WSOP 2023 hand 31: a tie splits 300 in two)."""
    hand = Hand(PLO, POT_LIMIT, stacks=[1000, 1000, 1000], blinds=[50, 100, 0], antes=[0, 100, 0])
    for seat, cards in enumerate(("Js Th Td 6d", "Ad Ts Tc 8h", "Kh Jc 7h 7d")):
        hand.deal_hole(seat, cards)
    play(hand, "f", "c", "c")
    for cards in ("3c 2d Kc", "Qh", "8c"):
        hand.deal_board(cards)
        play(hand, "c", "c")
    assert hand.finishing_stacks == [1050, 950, 1000]


def test_pots_list_the_antes_own_pot_first_then_each_layer_smallest_first():
    """``Hand.pots()`` is public (the table shows it): p1 is all-in for its ante alone, p2 all-in
    for 15 of bets, p3 and p4 bet 25. The antes (20) are a pot of their own that all four contest,
    listed first, then the layers 45 (p2-p4) and 20 (p3, p4); before the bets are collected the
    antes alone."""
    hand = Hand(HOLDEM, NO_LIMIT, stacks=[5, 20, 100, 100], blinds=[1, 2, 0, 0], antes=[5, 5, 5, 5])
    play(hand, 25, "c", "c")
    assert hand.pots() == [(20, (0, 1, 2, 3)), (45, (1, 2, 3)), (20, (2, 3))]
    assert hand.pots(collected=True) == [(20, (0, 1, 2, 3))]


def test_collected_pots_keep_the_earlier_streets_chips_and_leave_this_streets_bet_out():
    """After three calls of 2 preflop, a flop bet of 4 is not yet collected: the collected pot is
    the 6 of the streets before, contested by all three; the pots as they stand add the 4."""
    hand = Hand(HOLDEM, NO_LIMIT, stacks=[100, 100, 100], blinds=[1, 2, 0])
    play(hand, "c", "c", "c")
    hand.deal_board("3c 2d Kc")
    play(hand, 4)
    assert hand.pots(collected=True) == [(6, (0, 1, 2))]
    assert sum(chips for chips, _ in hand.pots()) == 10


def test_illegal_actions_name_the_rule():
    """Folding when a check is free, raising below the minimum, and acting when nobody is to act are refused."""
    hand = Hand(HOLDEM, NO_LIMIT, stacks=[100, 100], blinds=[1, 2])
    play(hand, "c")
    with pytest.raises(IllegalAction, match="may check"):
        hand.fold()
    with pytest.raises(IllegalAction, match="4 through 100, not 3"):
        hand.raise_to(3)
    play(hand, "c")
    with pytest.raises(IllegalAction, match="no player is to act"):
        hand.check_call()
    with pytest.raises(IllegalAction, match="dealt twice"):
        hand.deal_hole(0, "As Ah") or hand.deal_hole(1, "As Kd")


def test_straddle_acts_as_the_big_blind():
    """Blinds 1/2 and a straddle of 4: the seat after the straddle acts first, calls 4 or raises to at least 8."""
    hand = Hand(HOLDEM, NO_LIMIT, stacks=[100] * 5, blinds=[1, 2, 4, 0, 0])
    assert hand.actor == 3 and hand.legal() == Legal(fold=True, call=4, min_raise_to=8, max_raise_to=100)
    play(hand, "c", "c", "c", "c")
    assert hand.actor == 2 and hand.legal() == Legal(fold=False, call=0, min_raise_to=8, max_raise_to=100)


def test_min_bet_is_one_chip_without_blinds_or_min_bet():
    """With no blinds and no min_bet the smallest bet is one chip."""
    hand = Hand(HOLDEM, NO_LIMIT, stacks=[100, 100], blinds=[0, 0])
    assert hand.min_bet == 1
    assert hand.actor == 0 and hand.legal() == Legal(fold=False, call=0, min_raise_to=1, max_raise_to=100)


def test_board_is_due_only_between_betting_rounds():
    """Board cards are due, and may be dealt, only between betting rounds and before the river is bet: the next street's count, all known."""
    hand = Hand(HOLDEM, NO_LIMIT, stacks=[100] * 3, blinds=[1, 2, 0])
    assert hand.board_due == 0 and not hand.showdown_due
    with pytest.raises(IllegalAction, match="^no board cards are due now$"):
        hand.deal_board("Ad 7s 4h")
    play(hand, "c", "c", "c")
    assert hand.actor is None and hand.board_due == 3 and not hand.showdown_due
    with pytest.raises(IllegalAction, match=r"^the flop needs 3 known card\(s\)$"):
        hand.deal_board("Ad 7s")
    with pytest.raises(IllegalAction, match=r"^the flop needs 3 known card\(s\)$"):
        hand.deal_board("?? ?? ??")
    assert hand.board == [] and hand.board_due == 3
    hand.deal_board("Ad 7s 4h")
    assert hand.board_due == 0
    play(hand, "c", "c", "c")
    assert hand.board_due == 1
    hand.deal_board("Kc")
    play(hand, "c", "c", "c")
    hand.deal_board("2d")
    assert hand.board_due == 0 and hand.street == 3 and not hand.showdown_due
    play(hand, "c", "c", "c")  # the river is checked down; the hole cards are unknown
    assert hand.actor is None and hand.board_due == 0 and hand.showdown_due and not hand.done


def test_showdown_shows_and_mucks():
    """At showdown (records: auto_showdown off) each live player shows the cards dealt or mucks (a bare ``sm``), not before the betting is over; the pot is settled once every live player has shown."""
    hand = Hand(HOLDEM, NO_LIMIT, stacks=[100] * 3, blinds=[1, 2, 0], auto_showdown=False)
    hand.deal_hole(2, "7h 2c")
    with pytest.raises(IllegalAction, match="^p1 cannot show now: the betting is not over$"):
        hand.show(0, "As Ah")
    play(hand, "c", "c", "c")
    for cards in ("Ad 7s 4h", "Kc", "2d"):
        hand.deal_board(cards)
        play(hand, "c", "c", "c")
    assert hand.showdown_due
    with pytest.raises(IllegalAction, match="^cannot settle: the cards of p1, p2 are unknown$"):
        hand.finish_showdown()
    with pytest.raises(IllegalAction, match="^p1 must show 2 cards$"):
        hand.show(0, "????")
    with pytest.raises(IllegalAction, match="^p3 shows Kd Kc but was dealt 7h 2c$"):
        hand.show(2, "Kd Kc")
    hand.show(1)  # p2 mucks
    assert hand.mucked == [False, True, False] and hand.actions[-1] == "p2 sm" and hand.showdown_due
    hand.show(0, "As Ah")
    assert hand.showed == [True, False, False] and hand.hole[0] == hand._cards("As Ah", check=False)
    assert hand.actions[-1] == "p1 sm AsAh" and not hand.done
    hand.show(2, "2c 7h")  # the dealt cards in any order
    assert hand.actions[-1] == "p3 sm 2c7h"
    assert hand.done and not hand.showdown_due and hand.winnings == [6, 0, 0]
    with pytest.raises(IllegalAction, match="^p2 has no hand to show$"):
        hand.show(1, "Kd Kc")


def test_repr_and_html_of_an_unfinished_hand():
    """The repr names the game, seats, pot, actions and street; the HTML lists every seat as p1.. with its cards, chips and folds."""
    hand = Hand(HOLDEM, NO_LIMIT, stacks=[100, 200, 300], blinds=[1, 2, 0])
    hand.deal_hole(0, "As Ah")
    hand.deal_hole(2, "????")
    play(hand, "c", "f")
    assert repr(hand) == "<Hand holdem, 3 seats, pot 5, 4 actions, street 0>"
    assert hand._repr_html_() == (
        "<p>&lt;Hand holdem, 3 seats, pot 5, 4 actions, street 0&gt;; board (none)</p>"
        "<table><tr><th>seat</th><th>hole</th><th>stack</th><th>put in</th><th>won</th><th></th></tr>"
        "<tr><td>p1</td><td>AsAh</td><td>100</td><td>1</td><td>0</td><td>folded</td></tr>"
        "<tr><td>p2</td><td>????</td><td>200</td><td>2</td><td>0</td><td></td></tr>"
        "<tr><td>p3</td><td>????</td><td>300</td><td>2</td><td>0</td><td></td></tr></table>"
        "<p>d dh p1 AsAh, d dh p3 ????, p3 cc, p1 f</p>"
    )


def test_voluntary_counts_preflop_calls_and_raises_only():
    """A seat is voluntary for calling or raising preflop; the big blind's free check, and a call on the flop, do not count."""
    hand = Hand(HOLDEM, NO_LIMIT, stacks=[100] * 3, blinds=[1, 2, 0])
    play(hand, "c", "c", "c")  # the button calls, the small blind completes, the big blind checks
    assert hand.voluntary == {0, 2}
    hand.deal_board("Ad 7s 4h")
    play(hand, 4, "c", "f")  # p1 bets 4, the big blind calls, p3 folds
    assert hand.voluntary == {0, 2}


def test_all_in_raises_only_when_the_whole_stack_is_a_legal_raise():
    """No-limit: all_in raises the whole stack (the blind included); pot-limit, where the stack is over the pot, it only calls."""
    hand = Hand(HOLDEM, NO_LIMIT, stacks=[100, 100], blinds=[1, 2])
    hand.all_in()  # the button, in for its small blind of 1
    assert hand.bets == [2, 100] and hand.actions == ["p2 cbr 100"]
    hand.all_in()
    assert hand.bets == [100, 100] and hand.actions[-1] == "p1 cc"
    hand = Hand(PLO, POT_LIMIT, stacks=[100, 100], blinds=[1, 2])
    hand.all_in()
    assert hand.bets == [2, 2] and hand.actions == ["p2 cc"]


def test_seat_out_of_range_is_refused():
    """A seat number outside the table is refused by name, above the table as below it."""
    hand = Hand(HOLDEM, NO_LIMIT, stacks=[100] * 3, blinds=[1, 2, 0])
    for seat in (3, 5, -1):
        with pytest.raises(IllegalAction, match=f"^there is no p{seat + 1} at this table of 3$"):
            hand.deal_hole(seat, "As Ah")
    play(hand, "f", "f")
    with pytest.raises(IllegalAction, match="^there is no p6 at this table of 3$"):
        hand.show(5, "As Ah")


def test_unknown_cards_are_all_question_marks():
    """Hole cards written ``????`` are dealt unknown; a partly unknown hand such as ``As ??`` is an error."""
    hand = Hand(HOLDEM, NO_LIMIT, stacks=[100] * 3, blinds=[1, 2, 0])
    hand.deal_hole(0, "????")
    hand.deal_hole(1, "?? ??")
    assert hand.hole[:2] == [None, None] and hand.actions == ["d dh p1 ????", "d dh p2 ????"]
    with pytest.raises(SampyongError, match="bad card '\\?\\?'"):
        hand.deal_hole(2, "As ??")
    assert hand.hole[2] is None


def test_legal_is_an_immutable_hashable_value():
    """A ``Legal`` is a frozen value: it hashes like an equal one and cannot be changed."""
    legal = Legal(fold=True, call=2, min_raise_to=4, max_raise_to=100)
    assert hash(legal) == hash(Legal(fold=True, call=2, min_raise_to=4, max_raise_to=100))
    with pytest.raises(dataclasses.FrozenInstanceError):
        legal.call = 3


def test_a_blind_and_an_ante_per_seat_are_required():
    """Fewer or more blinds than seats, or fewer antes, are refused by name."""
    message = "^a hand needs two or more seats, with a blind and an ante per seat$"
    for blinds, antes in (([1, 2], None), ([1, 2, 0, 0], None), ([1, 2, 0], [0, 1])):
        with pytest.raises(SampyongError, match=message):
            Hand(HOLDEM, NO_LIMIT, stacks=[100] * 3, blinds=blinds, antes=antes)


def test_board_deal_of_too_many_cards_is_refused():
    """Four cards for the flop are refused, and nothing is dealt."""
    hand = Hand(HOLDEM, NO_LIMIT, stacks=[100] * 3, blinds=[1, 2, 0])
    play(hand, "c", "c", "c")
    with pytest.raises(IllegalAction, match=r"^the flop needs 3 known card\(s\)$"):
        hand.deal_board("Ad 7s 4h Kc")
    assert hand.board == [] and hand.board_due == 3


def test_voluntary_counts_a_preflop_raise_but_not_a_flop_bet():
    """A raise preflop makes the raiser voluntary; a bet or raise on the flop by the big blind who checked does not."""
    hand = Hand(HOLDEM, NO_LIMIT, stacks=[100] * 3, blinds=[1, 2, 0])
    play(hand, 6, "f", "f")  # the button raises, both blinds fold
    assert hand.voluntary == {2}
    hand = Hand(HOLDEM, NO_LIMIT, stacks=[100] * 3, blinds=[1, 2, 0])
    play(hand, "c", "f", "c")  # the button calls, the small blind folds, the big blind checks
    hand.deal_board("Ad 7s 4h")
    play(hand, 4, 12, 24, "c")  # the big blind bets, the button raises, the big blind re-raises
    assert hand.voluntary == {2}


def test_show_checks_the_card_count_and_writes_the_seat():
    """At a records showdown too few or too many cards are refused; an empty string mucks (``p1 sm``); ``-`` shows the cards dealt (``p2 sm KdKc``)."""
    hand = Hand(HOLDEM, NO_LIMIT, stacks=[100] * 3, blinds=[1, 2, 0], auto_showdown=False)
    for seat, cards in enumerate(("As Ah", "Kd Kc", "7h 2c")):
        hand.deal_hole(seat, cards)
    play(hand, "c", "c", "c")
    for cards in ("Qd 8s 4h", "3c", "9d"):
        hand.deal_board(cards)
        play(hand, "c", "c", "c")
    assert hand.showdown_due and not any("sm" in a for a in hand.actions)
    with pytest.raises(IllegalAction, match="^p1 must show 2 cards$"):
        hand.show(0, "As")
    with pytest.raises(IllegalAction, match="^p1 must show 2 cards$"):
        hand.show(0, "As Ah Kd")
    hand.show(0, "")
    assert hand.mucked == [True, False, False] and hand.showed == [False, False, False]
    assert hand.actions[-1] == "p1 sm"
    hand.show(1, "-")
    assert hand.actions[-1] == "p2 sm KdKc" and hand.showed == [False, True, False]
    hand.show(2, "-")
    assert hand.actions[-1] == "p3 sm 7h2c" and hand.done and hand.winnings == [0, 6, 0]


def _checked_to_the_river(seats: int, holes) -> Hand:
    """A hand of ``seats`` players (blinds 1/2) checked and called to the river, the hole cards dealt."""
    hand = Hand(HOLDEM, NO_LIMIT, stacks=[100] * seats, blinds=[1, 2] + [0] * (seats - 2))
    for seat, cards in enumerate(holes):
        hand.deal_hole(seat, cards)
    play(hand, *["c"] * seats)
    for cards in ("Qd 8s 4h", "3c"):
        hand.deal_board(cards)
        play(hand, *["c"] * seats)
    hand.deal_board("9d")
    return hand


def test_auto_showdown_after_a_river_bet_starts_with_the_bettor():
    """Auto showdown: the river bettor (p2, then p3 in a second hand) shows first, then the others clockwise, once each."""
    holes = ("As Ah", "Kd Kc", "7h 2c")
    hand = _checked_to_the_river(3, holes)
    play(hand, "c", 10, "c", "c")
    assert hand.actions[-7:] == ["p1 cc", "p2 cbr 10", "p3 cc", "p1 cc", "p2 sm KdKc", "p3 sm 7h2c", "p1 sm AsAh"]
    assert hand.done and hand.finishing_stacks == [124, 88, 88]
    hand = _checked_to_the_river(3, holes)
    play(hand, "c", "c", 10, "c", "c")
    assert hand.actions[-3:] == ["p3 sm 7h2c", "p1 sm AsAh", "p2 sm KdKc"]
    assert sum(a.endswith(" sm AsAh") for a in hand.actions) == 1


def test_auto_showdown_after_a_checked_river_goes_clockwise_from_p1():
    """Auto showdown, five players check the river: they show p1 to p5 in order, and nobody else acts after."""
    holes = ("As Ah", "Kd Kc", "7h 2c", "Js Tc", "6d 5d")
    hand = _checked_to_the_river(5, holes)
    play(hand, "c", "c", "c", "c", "c")
    assert hand.actions[-5:] == ["p1 sm AsAh", "p2 sm KdKc", "p3 sm 7h2c", "p4 sm JsTc", "p5 sm 6d5d"]
    assert hand.actions[-6] == "p5 cc" and hand.done


def test_auto_showdown_heads_up_all_in_preflop_shows_once_before_the_board():
    """Heads-up all-in preflop: both show at once (the all-in raiser first), before the board, and never again."""
    hand = Hand(HOLDEM, NO_LIMIT, stacks=[100, 100], blinds=[1, 2])
    hand.deal_hole(0, "As Ah")
    hand.deal_hole(1, "Kd Kc")
    play(hand, 100, "c")
    assert hand.actions == ["d dh p1 AsAh", "d dh p2 KdKc", "p2 cbr 100", "p1 cc", "p2 sm KdKc", "p1 sm AsAh"]
    for cards in ("Qd 8s 4h", "3c", "9d"):
        hand.deal_board(cards)
    assert hand.actions[6:] == ["d db Qd8s4h", "d db 3c", "d db 9d"]
    assert hand.done and hand.finishing_stacks == [200, 0]


def test_auto_showdown_writes_nothing_when_all_fold_to_one():
    """Auto showdown: a hand won by folds writes no ``sm`` action, the winner's cards being known."""
    hand = Hand(HOLDEM, NO_LIMIT, stacks=[100, 100], blinds=[1, 2])
    hand.deal_hole(0, "As Ah")
    hand.deal_hole(1, "Kd Kc")
    play(hand, 6, "f")
    assert hand.actions == ["d dh p1 AsAh", "d dh p2 KdKc", "p2 cbr 6", "p1 f"]
    assert hand.done and hand.finishing_stacks == [98, 102]


def test_one_seat_extra_antes_and_negative_amounts_are_refused():
    """A table of one, more antes than seats, a stack, blind or ante of -1 and a minimum bet of -1 are each refused by name."""
    with pytest.raises(SampyongError, match="^a hand needs two or more seats"):
        Hand(HOLDEM, NO_LIMIT, stacks=[100], blinds=[1])
    with pytest.raises(SampyongError, match="^a hand needs two or more seats"):
        Hand(HOLDEM, NO_LIMIT, stacks=[100] * 3, blinds=[1, 2, 0], antes=[0, 0, 0, 0])
    for stacks, blinds, antes in (
        ([-1, 100, 100], [1, 2, 0], None),
        ([100] * 3, [-1, 2, 0], None),
        ([100] * 3, [1, 2, 0], [0, -1, 0]),
    ):
        with pytest.raises(SampyongError, match="^stacks, blinds and antes cannot be negative$"):
            Hand(HOLDEM, NO_LIMIT, stacks=stacks, blinds=blinds, antes=antes)
    with pytest.raises(SampyongError, match="^the minimum bet cannot be negative$"):
        Hand(HOLDEM, NO_LIMIT, stacks=[100] * 3, blinds=[1, 2, 0], min_bet=-1)


def test_hole_cards_are_exactly_the_games_count_blank_is_unknown():
    """Hold'em hole cards: one card or three are refused, a blank text deals them unknown (``????``)."""
    hand = Hand(HOLDEM, NO_LIMIT, stacks=[100] * 3, blinds=[1, 2, 0])
    with pytest.raises(IllegalAction, match="^p1 needs 2 hole cards, got 1$"):
        hand.deal_hole(0, "As")
    with pytest.raises(IllegalAction, match="^p1 needs 2 hole cards, got 3$"):
        hand.deal_hole(0, "As Ah Kd")
    hand.deal_hole(0, "")
    assert hand.hole[0] is None and hand.actions == ["d dh p1 ????"]


def test_show_of_other_cards_than_dealt_is_refused_either_way():
    """At a records showdown, showing cards other than those dealt is refused, lower or higher ones."""
    hand = Hand(HOLDEM, NO_LIMIT, stacks=[100] * 2, blinds=[1, 2], auto_showdown=False)
    hand.deal_hole(0, "Kd Kc")
    hand.deal_hole(1, "7h 7c")
    play(hand, "c", "c")
    for cards in ("Qd 8s 4h", "3c", "9d"):
        hand.deal_board(cards)
        play(hand, "c", "c")
    for other in ("2c 2d", "As Ah"):
        with pytest.raises(IllegalAction, match="^p1 shows .* but was dealt Kd Kc$"):
            hand.show(0, other)
    hand.show(0, "Kc Kd")
    assert hand.actions[-1] == "p1 sm KcKd"


def test_auto_showdown_with_one_player_covering_shows_before_the_board():
    """Heads-up, the short stack all-in preflop and called by the cover: both show at once, before
    the board, though the covering player keeps chips behind."""
    hand = Hand(HOLDEM, NO_LIMIT, stacks=[100, 50], blinds=[1, 2])
    hand.deal_hole(0, "As Ah")
    hand.deal_hole(1, "Kd Kc")
    play(hand, 50, "c")
    assert hand.actions[2:] == ["p2 cbr 50", "p1 cc", "p2 sm KdKc", "p1 sm AsAh"]
    assert hand.stacks == [50, 0] and hand.board_due == 3


def test_a_live_post_counts_toward_the_first_round_bet_but_keeps_the_order():
    """Blinds 1/2 at six seats, and a player joining in the fifth seat posts 2 live (as the sites
    play it: PokerStars hand 35824123646, the poster first to act, checks). The first to act is
    still left of the big blind; unraised, the poster may check (its post is its bet) and the big
    blind keeps its option; the post is in the pot from the start."""
    hand = Hand(HOLDEM, NO_LIMIT, stacks=[100] * 6, blinds=[1, 2, 0, 0, 0, 0], posts=[0, 0, 0, 0, 2, 0])
    assert hand.actor == 2 and hand.pot == 5 and hand.posted == [1, 2, 0, 0, 2, 0]
    play(hand, "f", "c")  # seat 3 folds, seat 4 calls 2
    assert hand.actor == 4 and hand.legal() == Legal(fold=False, call=0, min_raise_to=4, max_raise_to=100)
    play(hand, "c", "f", "c")  # the poster checks, the button folds, the small blind completes
    assert hand.actor == 1 and hand.legal() == Legal(fold=False, call=0, min_raise_to=4, max_raise_to=100)
    play(hand, "c")
    assert hand.board_due == 3 and hand.pot == 8 and hand.voluntary == {3, 0}


def test_a_live_post_facing_a_raise_calls_the_difference_and_a_folded_post_is_lost():
    """The same table: a raise to 6 leaves the poster 4 to call; a poster who folds loses its post."""
    hand = Hand(HOLDEM, NO_LIMIT, stacks=[100] * 6, blinds=[1, 2, 0, 0, 0, 0], posts=[0, 0, 0, 0, 2, 0])
    play(hand, 6, "f")
    assert hand.actor == 4 and hand.legal() == Legal(fold=True, call=4, min_raise_to=10, max_raise_to=100)
    play(hand, "f", "f", "f", "f")
    assert hand.done and hand.finishing_stacks == [99, 98, 105, 100, 98, 100]


def test_a_post_beside_the_big_blind_is_not_a_straddle():
    """A post in the seat left of the big blind (a tie with it) does not move the opener: the
    poster acts first, where a straddle would act last."""
    hand = Hand(HOLDEM, NO_LIMIT, stacks=[100] * 4, blinds=[1, 2, 0, 0], posts=[0, 0, 2, 0])
    assert hand.actor == 2 and hand.legal().call == 0
    straddled = Hand(HOLDEM, NO_LIMIT, stacks=[100] * 4, blinds=[1, 2, 2, 0])
    assert straddled.actor == 3


def test_posts_are_one_per_seat_none_negative():
    for posts in ([0, 0], [0, 0, -1]):
        with pytest.raises(SampyongError, match="^posts need one amount per seat, none negative$"):
            Hand(HOLDEM, NO_LIMIT, stacks=[100] * 3, blinds=[1, 2, 0], posts=posts)
