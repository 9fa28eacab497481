"""The reference hand engine: one hand played the way a dealer runs it, in plain Python.

Seats are numbered 0..n-1 in PHH order: seat 0 is first left of the button and the button is
the last seat. Blinds and straddles are posted by seat (heads-up the button, seat 1, posts
the small blind and seat 0 the big blind, as PHH writes it). Amounts are integers in the
table's smallest unit; a raise is written as the street total it raises **to**.

The hand moves by three kinds of steps: the dealer deals (``deal_hole``, ``deal_board``),
the player to act acts (``fold``, ``check_call``, ``raise_to``), and at showdown players
show or muck (``show``). ``legal()`` says what the player to act may do; every step checks
itself and raises ``IllegalAction`` naming the rule it breaks.

>>> from evaluator.games import game
>>> from engine.betting import NO_LIMIT
>>> hand = Hand(game("holdem"), NO_LIMIT, stacks=[200, 200, 200], blinds=[1, 2, 0])
>>> hand.deal_hole(0, "As Ah"); hand.deal_hole(1, "Kd Kc"); hand.deal_hole(2, "7h 2c")
>>> hand.actor, hand.legal()
(2, Legal(fold=True, call=2, min_raise_to=4, max_raise_to=200))
>>> hand.raise_to(6); hand.fold(); hand.check_call()
>>> hand.board_due
3
>>> hand.deal_board("Ad 7s 4h"); hand.raise_to(10); hand.fold()
>>> hand.done, hand.finishing_stacks
(True, [199, 207, 194])
"""

from __future__ import annotations

import dataclasses

from engine import rounds
from engine.betting import Betting
from evaluator import reference
from evaluator.cards import format_cards, parse_cards
from evaluator.errors import SampyongError
from evaluator.games import Game
from evaluator.settle import side_pots, split_pot

STREETS = ("preflop", "flop", "turn", "river")
BOARD_DEALS = (3, 1, 1)  # cards dealt before the flop, turn and river betting


class IllegalAction(SampyongError):
    """An action the rules do not allow at this point of the hand."""


@dataclasses.dataclass(frozen=True)
class Legal:
    """What the player to act may do.

    Parameters:
        fold: whether folding is allowed (only when facing a bet).
        call: chips the player adds to check (0) or call (all-in for less when short).
        min_raise_to, max_raise_to: the bounds of a bet or raise, as the street total, or None
            when the player may not bet or raise.
    """

    fold: bool
    call: int
    min_raise_to: int | None
    max_raise_to: int | None


class Hand:
    """One hand of ``game`` under ``betting``.

    Parameters:
        game: the rules that build hands and split pots (``evaluator.games.Game``).
        betting: the betting structure (``engine.betting.Betting``).
        stacks: each seat's chips before the antes and blinds.
        blinds: each seat's blind or straddle (0 for none), in PHH order; heads-up the two
            amounts are posted by the other seat (seat 1, the button, posts ``blinds[0]``).
        antes: each seat's ante (dead money, posted before the blinds); heads-up swapped too.
        posts: each seat's live post out of the blind seats (a player joining or returning posts
            a big blind to be dealt in), by seat, never swapped: it counts toward the seat's
            first-round bet, so unraised it may check, but the order of play stays the
            blinds' (the opener sits left of the largest blind or straddle). A dead post is an
            ante.
        min_bet: the smallest bet (default: the largest blind), the minimum raise size too.
        auto_showdown: every live player shows (written as PHH ``sm`` actions) and the pot is
            settled as soon as the betting is over and every hole card is known (simulations);
            False waits for every live player to show or muck (records).

    Raises ``SampyongError`` for fewer than two seats or a negative amount or minimum bet.
    """

    def __init__(
        self,
        game: Game,
        betting: Betting,
        stacks,
        blinds,
        antes=None,
        min_bet: int | None = None,
        auto_showdown: bool = True,
        posts=None,
    ):
        n = len(stacks)
        antes = list(antes) if antes is not None else [0] * n
        posts = list(posts) if posts is not None else [0] * n
        blinds = list(blinds)
        if n < 2 or len(blinds) != n or len(antes) != n:
            raise SampyongError("a hand needs two or more seats, with a blind and an ante per seat")
        if any(x < 0 for x in [*stacks, *blinds, *antes]):
            raise SampyongError("stacks, blinds and antes cannot be negative")
        if len(posts) != n or any(x < 0 for x in posts):
            raise SampyongError("posts need one amount per seat, none negative")
        if min_bet is not None and min_bet < 0:
            raise SampyongError("the minimum bet cannot be negative")
        self.initial_blinds, self.initial_antes, self.initial_posts = (
            list(blinds),
            list(antes),
            posts,
        )  # as the record writes them
        if n == 2:  # heads-up: the button (seat 1) posts the small blind
            blinds, antes = blinds[::-1], antes[::-1]
        self.game = game
        self.betting = betting
        self.seats = n
        self.button = n - 1
        self.starting_stacks = list(stacks)
        self.stacks = list(stacks)
        self.min_bet = min_bet if min_bet else max(max(blinds), 1)
        self.structure = betting.encode(self.min_bet)
        self.contributed = [0] * n  # every chip put in this hand: antes and bets
        self.antes_paid = [0] * n  # dead money: it goes to the main pot, whoever paid it
        self.bets = [0] * n  # this street's bets
        self.folded = [False] * n
        self.mucked = [False] * n
        self.showed = [False] * n
        self.auto_showdown = auto_showdown
        self.hole: list[list[int] | None] = [None] * n
        self.board: list[int] = []
        self.street = 0
        self.winnings: list[int] | None = None
        self.actions: list[str] = []  # the hand so far in PHH notation
        self.voluntary: set[int] = set()  # seats that put chips in preflop by choice: a call or a raise
        for seat in range(n):
            self.antes_paid[seat] = rounds.pay(seat, antes[seat], self.stacks, self.contributed)
        for seat in range(n):
            rounds.put(seat, blinds[seat], self.stacks, self.contributed, self.bets)
        opener = rounds.preflop_opener(self.bets)  # the blinds' and straddles' order, not the posts'
        for seat in range(n):
            rounds.put(seat, posts[seat], self.stacks, self.contributed, self.bets)
        self.posted = list(self.bets)  # each seat's blind, straddle or live post as posted (all-in short included)
        self._begin_street(opener)

    # --- state ---------------------------------------------------------------------------
    @property
    def max_bet(self) -> int:
        return rounds.top_bet(self.bets)

    @property
    def out(self) -> list[bool]:
        """Whether each seat is out of the hand (folded or mucked)."""
        return [f or m for f, m in zip(self.folded, self.mucked)]

    @property
    def live(self) -> list[int]:
        """Seats still in the hand (not folded, not mucked)."""
        return [s for s in range(self.seats) if not self.folded[s] and not self.mucked[s]]

    @property
    def pot(self) -> int:
        """Every chip in the middle: earlier streets, antes and this street's bets."""
        return sum(self.contributed)

    @property
    def done(self) -> bool:
        return self.winnings is not None

    @property
    def finishing_stacks(self) -> list[int] | None:
        """Each seat's chips after the hand (None until it is over)."""
        if self.winnings is None:
            return None
        return [s + w for s, w in zip(self.stacks, self.winnings)]

    @property
    def board_due(self) -> int:
        """Board cards the dealer must deal now (0 when none are due)."""
        if self.done or self.actor is not None or len(self.live) < 2 or self.street >= 3:
            return 0
        return BOARD_DEALS[self.street] if len(self.board) == sum(BOARD_DEALS[: self.street]) else 0

    @property
    def showdown_due(self) -> bool:
        """Whether the betting is over and the hand waits for the players to show."""
        return not self.done and self.actor is None and len(self.live) >= 2 and self.street == 3

    def pots(self, collected: bool = False) -> list[tuple[int, tuple[int, ...]]]:
        """The pots as they stand, ``(chips, seats that contest it)``, the main pot first; with
        ``collected``, only the chips of the streets before this one (this street's bets are still
        in front of the players, and a bet not yet called is no side pot).

        The antes are dead money in the main pot, which every live seat contests; the bets
        form the side pots by contribution layers, smallest first (``evaluator.settle.form_pots``).
        """
        out = [self.folded[s] or self.mucked[s] for s in range(self.seats)]
        street = self.bets if collected else [0] * self.seats
        bets = [c - a - b for c, a, b in zip(self.contributed, self.antes_paid, street)]
        return side_pots(bets, out, dead=sum(self.antes_paid))

    def __repr__(self) -> str:
        state = "finished" if self.done else f"street {self.street}"
        return f"<Hand {self.game.name}, {self.seats} seats, pot {self.pot}, {len(self.actions)} actions, {state}>"

    def _repr_html_(self) -> str:
        """The hand in a notebook: board, each seat's cards and chips, and the actions (PHH)."""
        from html import escape

        won = self.winnings or [0] * self.seats
        rows = "".join(
            f"<tr><td>p{s + 1}</td><td>{escape(self._text(self.hole[s], self.game.hole_cards))}</td>"
            f"<td>{self.starting_stacks[s]}</td><td>{self.contributed[s]}</td><td>{won[s]}</td>"
            f"<td>{'folded' if self.folded[s] else ''}</td></tr>"
            for s in range(self.seats)
        )
        return (
            f"<p>{escape(repr(self))}; board {escape(format_cards(self.board)) or '(none)'}</p>"
            f"<table><tr><th>seat</th><th>hole</th><th>stack</th><th>put in</th><th>won</th><th></th></tr>{rows}</table>"
            f"<p>{escape(', '.join(self.actions))}</p>"
        )

    # --- the dealer ------------------------------------------------------------------------
    def deal_hole(self, seat: int, cards: str | list[int] | None) -> None:
        """Give ``seat`` its hole cards (None or ``????``: unknown, as records write hidden cards)."""
        self._check_seat(seat)
        if self.hole[seat] is not None:
            raise IllegalAction(f"p{seat + 1} already has hole cards")
        known = self._cards(cards)
        if known is not None and len(known) != self.game.hole_cards:
            raise IllegalAction(f"p{seat + 1} needs {self.game.hole_cards} hole cards, got {len(known)}")
        self.hole[seat] = known
        self.actions.append(f"d dh p{seat + 1} {self._text(known, self.game.hole_cards)}")

    def deal_board(self, cards: str | list[int]) -> None:
        """Deal the next board cards (3 for the flop, then 1 and 1)."""
        due = self.board_due
        known = self._cards(cards)
        if not due:
            raise IllegalAction("no board cards are due now")
        if known is None or len(known) != due:
            raise IllegalAction(f"the {STREETS[self.street + 1]} needs {due} known card(s)")
        self._check_unseen(known)
        self.board.extend(known)
        self.actions.append(f"d db {self._text(known, due)}")
        self.street += 1
        self._begin_street(opener=0)

    # --- the players -----------------------------------------------------------------------
    def legal(self, reopened: bool = False) -> Legal:
        """What the player to act may do (``IllegalAction`` when nobody is to act); with
        ``reopened``, as if the betting were reopened to the player (see ``raise_to``)."""
        seat = self._need_actor()
        low, high = self._raise_bounds(seat, reopened)
        return Legal(
            fold=rounds.may_fold(seat, self.bets),
            call=rounds.to_call(seat, self.stacks, self.bets),
            min_raise_to=low,
            max_raise_to=high,
        )

    def fold(self) -> None:
        seat = self._need_actor()
        if not self.legal().fold:
            raise IllegalAction(f"p{seat + 1} may check: folding is not an action here")
        self.folded[seat] = True
        self.actions.append(f"p{seat + 1} f")
        self._after_action(seat)

    def check_call(self) -> None:
        seat = self._need_actor()
        if rounds.check_call(seat, self.stacks, self.contributed, self.bets, self.acted_at) > 0 and self.street == 0:
            self.voluntary.add(seat)
        self.actions.append(f"p{seat + 1} cc")
        self._after_action(seat)

    def raise_to(self, amount: int, reopened: bool = False) -> None:
        """Bet or raise to ``amount``, this street's total for the player.

        ``reopened``: accept it as if the betting were reopened to the player though it already
        acted (a record whose writer let a short wager reopen the betting: ``engine.departures``);
        play itself never sets it."""
        seat = self._need_actor()
        low, high = self._raise_bounds(seat, reopened)
        if low is None:
            raise IllegalAction(f"p{seat + 1} may not bet or raise now")
        if not low <= amount <= high:
            raise IllegalAction(f"p{seat + 1} may raise to {low} through {high}, not {amount}")
        self.last_raise = rounds.raise_to(
            seat,
            amount,
            self.structure,
            self.street,
            self.last_raise,
            self.stacks,
            self.contributed,
            self.bets,
            self.acted_at,
        )
        self.raises += 1
        if self.street == 0:
            self.voluntary.add(seat)
        self.opener = seat
        self.actions.append(f"p{seat + 1} cbr {amount}")
        self._after_action(seat)

    def all_in(self) -> None:
        """Raise all-in when a raise is allowed and all-in is more than a call, else call."""
        legal = self.legal()
        if legal.max_raise_to is not None and legal.max_raise_to == self.stacks[self.actor] + self.bets[self.actor]:
            self.raise_to(legal.max_raise_to)
        else:
            self.check_call()

    def show(self, seat: int, cards: str | list[int] | None = None) -> None:
        """Once the betting is over: ``seat`` shows ``cards`` (its hole cards, or ``-`` as PHH writes
        the cards it was dealt; required when they were dealt face down as unknown), or mucks with
        ``cards`` None and gives up its claim to the pot."""
        self._check_seat(seat)
        if self.actor is not None:
            raise IllegalAction(f"p{seat + 1} cannot show now: the betting is not over")
        if seat not in self.live or self.showed[seat]:
            raise IllegalAction(f"p{seat + 1} has no hand to show")
        if isinstance(cards, str) and cards.strip() == "-":  # PHH: show the cards dealt
            if self.hole[seat] is None:
                raise IllegalAction(f"p{seat + 1} shows the cards dealt, but they were dealt unknown")
            cards = self.hole[seat]
        if cards is None or (isinstance(cards, str) and not cards.strip()):
            if self.done:
                raise IllegalAction(f"p{seat + 1} cannot muck: the pot is already settled")
            self.mucked[seat] = True
            self.actions.append(f"p{seat + 1} sm")
        else:
            shown = self._cards(cards, check=False)
            if shown is None or len(shown) != self.game.hole_cards:
                raise IllegalAction(f"p{seat + 1} must show {self.game.hole_cards} cards")
            if self.hole[seat] is not None and sorted(shown) != sorted(self.hole[seat]):
                raise IllegalAction(
                    f"p{seat + 1} shows {format_cards(shown)} but was dealt {format_cards(self.hole[seat])}"
                )
            if self.hole[seat] is None:
                self._check_unseen(shown)
            self.hole[seat] = shown
            self.showed[seat] = True
            self.actions.append(f"p{seat + 1} sm {self._text(shown, len(shown))}")
        if not self.done:
            self._maybe_settle()

    def finish_showdown(self) -> None:
        """Settle a hand whose betting is over, every live player showing what was dealt
        (``IllegalAction`` while cards are unknown or boards are still due)."""
        if self.done:
            return
        if not self.showdown_due:
            raise IllegalAction("the hand is not at showdown")
        unknown = [f"p{s + 1}" for s in self.live if self.hole[s] is None]
        if unknown:
            raise IllegalAction(f"cannot settle: the cards of {', '.join(unknown)} are unknown")
        self._settle()

    # --- internals -------------------------------------------------------------------------
    def _begin_street(self, opener: int) -> None:
        self.acted_at = [-1] * self.seats  # the bet level each seat last acted at (-1: not yet)
        self.last_raise = 0  # the size of the last full bet or raise this street
        self.raises = 0
        self.opener = (
            opener  # who shows first if the showdown follows this street: the last to bet or raise, else the opener
        )
        if self.street > 0:
            self.bets = [0] * self.seats
        self._next_actor(opener)

    def _next_actor(self, start: int) -> None:
        """The seat to act, the first from ``start`` that needs to (None: the round is over, and closed)."""
        actor = rounds.next_actor(start, self.out, self.stacks, self.bets, self.acted_at)
        self.actor = actor if actor >= 0 else None
        self._close_if_over()

    def _after_action(self, seat: int) -> None:
        self._next_actor(seat + 1)

    def _close_if_over(self) -> None:
        """At the end of a betting round: return an uncalled bet; settle when the hand is over."""
        if self.actor is not None:
            return
        rounds.return_uncalled(self.stacks, self.contributed, self.bets)
        if self.auto_showdown:
            self._show_down()
        self._maybe_settle()

    def _show_down(self) -> None:
        """Once no more betting can happen with two or more players in (the river's betting is over,
        or all but one are all-in, before the rest of the board), every live player shows, the
        last to bet or raise first, then clockwise; as PHH records (and pokerkit expects) it."""
        live = self.live
        if len(live) < 2 or any(self.showed[s] for s in live) or any(self.hole[s] is None for s in live):
            return
        if self.street < 3 and rounds.betting_may_go_on(self.out, self.stacks):
            return
        for seat in sorted(live, key=lambda s: (s - self.opener) % self.seats):
            self.showed[seat] = True
            self.actions.append(f"p{seat + 1} sm {self._text(self.hole[seat], self.game.hole_cards)}")

    def _maybe_settle(self) -> None:
        live = self.live
        if len(live) == 1:
            self.winnings = [0] * self.seats
            self.winnings[live[0]] = self.pot
            return
        if self.street < 3 or self.actor is not None:
            return
        if any(self.hole[s] is None for s in live):
            return  # waiting for the players to show
        if self.auto_showdown or all(self.showed[s] for s in live):
            self._settle()

    def _settle(self) -> None:
        """Split every pot (``pots``) among its seats by the game's high and low (RULES section 6)."""
        highs, lows = [0] * self.seats, [0] * self.seats
        for seat in self.live:
            shown = reference.showdown(self.game, self.hole[seat], self.board)
            highs[seat] = shown.high.strength
            lows[seat] = shown.low.strength if shown.low is not None else 0
        self.winnings = [0] * self.seats
        for chips, eligible in self.pots():
            for seat, amount in enumerate(split_pot(chips, highs, lows, eligible, self.button)):
                self.winnings[seat] += amount

    def _raise_bounds(self, seat: int, reopened: bool = False) -> tuple[int | None, int | None]:
        """The bounds of a bet or raise for ``seat`` (``engine.rounds.seat_raise_bounds``); with
        ``reopened``, as if it had not acted this round."""
        acted_at = list(self.acted_at)
        if reopened:
            acted_at[seat] = -1
        low, high = rounds.seat_raise_bounds(
            seat,
            self.structure,
            self.street,
            self.last_raise,
            self.raises,
            self.out,
            self.stacks,
            self.bets,
            acted_at,
            self.contributed,
        )
        return (None, None) if low < 0 else (int(low), int(high))

    def _need_actor(self) -> int:
        if self.actor is None:
            raise IllegalAction("no player is to act now")
        return self.actor

    def _check_seat(self, seat: int) -> None:
        if not 0 <= seat < self.seats:
            raise IllegalAction(f"there is no p{seat + 1} at this table of {self.seats}")

    def _cards(self, cards, check: bool = True) -> list[int] | None:
        if cards is None or (isinstance(cards, str) and set(cards.replace(" ", "")) <= {"?"}):
            return None
        known = parse_cards(cards) if isinstance(cards, str) else [int(c) for c in cards]
        if check:
            self._check_unseen(known)
        return known

    def _check_unseen(self, cards: list[int]) -> None:
        seen = set(self.board)
        for hole in self.hole:
            seen.update(hole or ())
        for card in cards:
            if card in seen:
                raise IllegalAction(f"card {format_cards([card])} is dealt twice")

    @staticmethod
    def _text(cards: list[int] | None, count: int) -> str:
        return "??" * count if cards is None else "".join(format_cards(cards).split())
