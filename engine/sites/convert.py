"""A site hand (``engine.sites.model.SiteHand``) to a PHH record, played through the engine
on the way and checked against the site's own figures, or skipped with a one-line reason.

How: the forced bets become PHH antes (antes and dead blinds: dead money), blinds (the blinds
and straddles, in PHH seat order: first left of the button, the button last) and live posts out
of the blind seats (the user-defined ``_posts``, ``engine.hand.Hand``'s ``posts``); the actions
drive ``engine.hand.Hand`` through ``engine.phh.apply``, boards dealt as each street begins; at
showdown the players who showed (or collected) show, the others muck. The site's finishing
stacks are its own (where it writes them) or its own arithmetic (stack, less what it says each
player put in and got back, plus what it says each collected); the engine's must equal them but
for the rake, which comes only out of the chips of seats that won. The record written is then
replayed by ``engine.phh.replay`` and must match.

Where a site writes a fold before the player's turn (folding in advance), the fold is played
when the turn comes; a check or fold by a player already all-in decides nothing and is passed
over; a "raise" over the last opponent's all-in is a call, the rest uncalled.

A player who folds where checking is free (sites allow it) is played as a check, then a
fold when facing a bet, and a muck at showdown: the same chips move. Where the site's hand then
goes on as if the player were gone (it ends, or another is left to act against nobody), the hand
is skipped: the engine's rules have no such fold.
"""

from __future__ import annotations

import dataclasses
import datetime
import re
from decimal import Decimal

from engine import departures, phh
from engine.hand import IllegalAction
from engine.sites.model import BETTING, FORCED, PARTIAL, SiteHand
from evaluator.errors import SampyongError

# Why a hand is skipped: one short phrase each (the summary counts hands by it).
RUN_TWICE = "run more than once"
UNKNOWN_GAME = "a game the engine does not play"
CANCELLED = "cancelled hand"
CASH_OUT = "cash-out or insurance paid outside the pot"
ADDED = "money the site added to the pot"
NOT_SHOWN = "a winner's cards are not shown"
UNBALANCED = "the site's amounts do not add up"
DIFFERS = "the engine's finishing stacks differ from the site's"
ILLEGAL = "an action the engine's rules do not allow"
CAPPED = "a capped no-limit game"
ANTE_ALL_IN = "an ante all-in for less than the others' (the site splits antes into side pots)"
SHORT_BLIND = "a big blind all-in for less (the site has the others call the full big blind)"
REASONS = (
    RUN_TWICE,
    UNKNOWN_GAME,
    CANCELLED,
    PARTIAL,
    CASH_OUT,
    ADDED,
    CAPPED,
    ANTE_ALL_IN,
    SHORT_BLIND,
    NOT_SHOWN,
    UNBALANCED,
    ILLEGAL,
    DIFFERS,
)


class Skip(Exception):
    """A hand that is not converted: ``reason`` one of ``REASONS``, ``detail`` one line more."""

    def __init__(self, reason: str, detail: str = ""):
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason, self.detail = reason, detail


def _places(value: Decimal) -> int:
    exponent = value.normalize().as_tuple().exponent
    return max(0, -exponent) if isinstance(exponent, int) else 0


def convert(site_hand: SiteHand) -> dict:
    """The PHH fields of ``site_hand`` (``Skip`` when the engine cannot represent it, or its
    replay does not give the site's finishing stacks)."""
    h = site_hand
    if h.problem:
        reason, _, detail = h.problem.partition(": ")
        raise Skip(reason, detail)
    if h.game is None or h.betting is None:
        raise Skip(UNKNOWN_GAME, h.game_text.strip() or "no game named")
    names = []
    for act in h.acts:
        if act.name not in names:
            names.append(act.name)
    seated = {p.name: p for p in h.players}
    missing = [n for n in names if n not in seated]
    if missing:
        raise Skip(PARTIAL, f"{missing[0]!r} acts but has no seat")
    if len(names) < 2:
        raise Skip(PARTIAL, "fewer than two players in the hand")
    broke = [n for n in names if seated[n].stack <= 0]
    if broke:
        raise Skip(PARTIAL, f"{broke[0]} plays with no chips written (a stack the site did not know)")
    if h.button is None:
        raise Skip(PARTIAL, "no button")
    players = sorted((seated[n] for n in names), key=lambda p: ((p.seat - h.button - 1) % 10**6, p.seat))
    index = {p.name: i for i, p in enumerate(players)}
    n = len(players)

    amounts = (
        [p.stack for p in players] + [a.amount for a in h.acts] + list(h.collected.values()) + [h.rake or Decimal(0)]
    )
    amounts += [x for x in (h.small_bet, h.big_bet) if x is not None]
    unit = max(map(_places, amounts), default=0)

    def chips(value) -> int:
        return int(Decimal(value).scaleb(unit))

    def written(value: int):
        return phh.from_chips(value, unit)

    big = chips(h.small_bet if h.betting == "fixed-limit" and h.small_bet else h.big_bet or 0) or max(
        [chips(a.amount) for a in h.acts if a.verb in ("blind", "post", "straddle")], default=0
    )
    antes, blinds, posts = _forced(h, index, n, chips, big, unit)
    if n == 2:  # heads-up: PHH lists the button's blind first (engine.hand.Hand)
        antes, blinds = antes[::-1], blinds[::-1]
    fields = {"variant": phh.CODES[("plo5-8" if h.game == "plo5" else h.game, h.betting)]}
    fields["antes"] = [written(a) for a in antes]
    fields["blinds_or_straddles"] = [written(b) for b in blinds]
    if any(posts):
        fields["_posts"] = [written(p) for p in posts]
    if h.betting == "fixed-limit":
        if h.small_bet is None and max(blinds):  # not written: the usual structure, the big blind and twice it
            h.small_bet, h.big_bet = Decimal(max(blinds)).scaleb(-unit), Decimal(2 * max(blinds)).scaleb(-unit)
        if h.small_bet is None or h.big_bet is None:
            raise Skip(PARTIAL, "fixed limit without its bet sizes")
        fields["small_bet"], fields["big_bet"] = written(chips(h.small_bet)), written(chips(h.big_bet))
    else:
        fields["min_bet"] = written(chips(h.big_bet) if h.big_bet else max(blinds) or 1)
    fields["starting_stacks"] = [written(chips(p.stack)) for p in players]
    if h.game == "plo5":
        fields["_sampyong"] = {"game": "plo5-8", "low": "none"}
    try:
        hand, _ = phh.hand_of(
            phh.Record(fields), unit
        )  # the hand's unit: its bets may be finer than its stacks and blinds
    except SampyongError as error:
        raise Skip(PARTIAL, str(error)) from None
    try:
        _play(h, hand, index, chips, unit, players)
        site_final, rake = _check(hand, _site_stacks(h, players, chips))
    except Skip as skip:
        if skip.reason in (ILLEGAL, DIFFERS, UNBALANCED) and 0 < max(blinds) < big:
            raise Skip(SHORT_BLIND, skip.detail) from None
        raise
    fields = phh.hand_fields(hand, unit, _about(h, players))
    fields["finishing_stacks"] = [written(s) for s in site_final]
    fields["winnings"] = [written(f - behind) for f, behind in zip(site_final, hand.stacks)]
    if rake:
        fields["_rake"] = written(rake)
    if h.game == "plo5":
        fields["_sampyong"] = {"game": "plo5-8", "low": "none"}
    result = phh.replay(phh.Record(fields))
    if result.status != phh.Status.MATCH:
        raise Skip(DIFFERS, f"the written record replays as {result.status.value}: {result.message}")
    return fields


def _forced(h: SiteHand, index: dict, n: int, chips, big: int, unit: int) -> tuple[list[int], list[int], list[int]]:
    """Each seat's antes (dead money: antes, dead blinds), blinds (the blinds and straddles, which
    set the order of play) and live posts (``engine.hand.Hand``'s ``posts``), in chips.

    The blinds are the blinds posted up to the big blind (sites write the small and big blind
    first, whatever seats they sit in); a blind posted after them is a post: up to the big blind
    live, the rest dead, and a small blind posted so (a missed small blind made up) dead. A
    ``post`` (the site says it is live) is live up to the big blind whatever its size (Bovada's
    ``Posts chip`` of a small blind counts toward the poster's bet). Straddles are the site's to
    name. Heads-up both seats post blinds. The site hand's forced bets are rewritten so (a dead
    part ``dead``, a live post ``post``), for the site's own arithmetic (``_site_stacks``) after."""
    antes, blinds, posts = [0] * n, [0] * n, [0] * n
    big_seat, acts = None, []
    for act in h.acts:
        if act.verb not in FORCED:
            acts.append(act)
            continue
        seat, value = index[act.name], chips(act.amount)
        if act.verb in ("ante", "dead"):
            antes[seat] += value
        elif act.verb == "straddle" or n == 2:
            blinds[seat] += value
        elif act.verb == "blind" and big_seat is None:
            blinds[seat] += value
            second = any(blinds[s] for s in range(n) if s != seat)
            if (blinds[seat] >= big and (second or not h.small_blind or chips(h.small_blind) < big)) or (
                act.all_in and second
            ):
                big_seat = (
                    seat  # the big blind (after a small one as big, where the stakes say so), or one all-in for less
                )
        elif value < big and act.verb == "blind" and not act.all_in:
            antes[seat] += value
            act = dataclasses.replace(act, verb="dead")
        else:
            posts[seat] += min(value, big)
            antes[seat] += value - min(value, big)
            live = Decimal(min(value, big)).scaleb(-unit)
            if value > big:
                acts.append(dataclasses.replace(act, verb="dead", amount=act.amount - live))
            act = dataclasses.replace(act, verb="post", amount=live)
        acts.append(act)
    h.acts = acts
    short = [i for i in range(n) if 0 < antes[i] < max(antes) and antes[i] >= chips(h.player(_name_at(index, i)).stack)]
    if short:
        raise Skip(
            ANTE_ALL_IN,
            f"{_name_at(index, short[0])} is all-in for an ante of {antes[short[0]]} chips, others post {max(antes)}",
        )
    return antes, blinds, posts


def _name_at(index: dict, seat: int) -> str:
    return next(name for name, at in index.items() if at == seat)


def _play(h: SiteHand, hand, index: dict, chips, unit: int, players) -> None:
    """Drive ``hand`` through the site hand's actions, boards and showdown (``Skip`` on trouble).
    Each action's street becomes the one it is played on (sites that mark no streets write them
    all on the first), for the site's own arithmetic (``_site_stacks``) after."""
    whole = 2 * hand.game.hole_cards  # a hand shown in part (one card) stays unknown
    for seat, player in enumerate(players):
        try:
            hand.deal_hole(seat, player.cards if player.cards and len(player.cards) == whole else None)
        except IllegalAction as error:
            raise Skip(PARTIAL, f"{player.name}'s cards: {error}") from None
    board = list(h.board)
    ghosts: set[int] = set()

    def apply(action: str) -> None:
        try:
            phh.apply(hand, action, unit)
        except IllegalAction as error:
            raise Skip(ILLEGAL, f"{action!r}: {error}") from None

    pending_fold: set[int] = set()  # seats whose fold is written before their turn (Party's folds in advance)

    def step_ghost() -> bool:
        """A seat that folded where it could check: check when free, else fold; a seat whose fold
        is written ahead of its turn folds when the turn comes (or is such a seat, free to check)."""
        if hand.actor in pending_fold:
            pending_fold.discard(hand.actor)
            if hand.legal().fold:
                apply(f"p{hand.actor + 1} f")
                return True
            ghosts.add(hand.actor)
        if hand.actor in ghosts:
            apply(f"p{hand.actor + 1} {'cc' if hand.legal().call == 0 else 'f'}")
            return True
        return False

    def folded_when_free() -> None:
        """A seat played as checking (it folded where it could check) still in the hand when the
        site's hand goes on without it: the engine's rules have no such fold."""
        live = [players[s].name for s in sorted(ghosts) if s in hand.live]
        if live:
            raise Skip(ILLEGAL, f"{live[0]} folds where checking is free, and the site plays on without it")

    def deal() -> None:
        due = hand.board_due
        if len(board) < due:
            folded_when_free()
            raise Skip(PARTIAL, f"the board has {len(hand.board) + len(board)} cards, the hand needs more")
        try:
            hand.deal_board("".join(board[:due]))
        except IllegalAction as error:
            raise Skip(PARTIAL, f"board: {error}") from None
        del board[:due]

    for act in h.acts:
        if act.verb not in BETTING:
            if act.verb not in FORCED:
                act.street = max(act.street, hand.street)
            continue
        seat = index[act.name]
        if act.verb in ("fold", "check") and hand.stacks[seat] == 0 and seat in hand.live and hand.actor != seat:
            if act.verb == "fold":  # all-in (a blind sitting out) and "folds": it has no more to decide, and mucks
                ghosts.add(seat)
            continue  # all-in and "checks": nothing to decide
        if act.verb == "fold" and act.street == hand.street and hand.actor not in (seat, None) and seat in hand.live:
            pending_fold.add(seat)  # written ahead of its turn: it folds when the turn comes
            continue
        while hand.street < act.street and not hand.done:
            if not step_ghost():
                if not hand.board_due:
                    break
                deal()
        while hand.actor is None and hand.board_due and not hand.done:
            deal()  # the round is over and another acts: the next street (for sites that mark no streets)
        while hand.actor != seat and step_ghost():
            pass
        act.street = max(act.street, hand.street)  # the street it is played on, where the site marks none
        if hand.done:
            raise Skip(ILLEGAL, f"{act.name} {act.verb}s after the hand is over")
        if act.verb == "fold":
            if hand.actor == seat and not hand.legal().fold:
                ghosts.add(seat)
                apply(f"p{seat + 1} cc")
            else:
                apply(f"p{seat + 1} f")
        elif act.verb in ("check", "call"):
            if act.verb == "check" and hand.actor == seat and hand.legal().call:
                raise Skip(ILLEGAL, f"{act.name} checks facing a bet")
            apply(f"p{seat + 1} cc")
        else:
            to = chips(act.amount) + (hand.bets[seat] if act.verb == "bet" else 0)
            if hand.actor == seat and to <= hand.max_bet:
                apply(f"p{seat + 1} cc")  # an all-in "raise" that only calls
            elif hand.actor == seat and hand.legal().call and all(hand.stacks[s] == 0 for s in hand.live if s != seat):
                apply(f"p{seat + 1} cc")  # a "raise" over the last opponent's all-in: a call, the rest uncalled
            else:
                apply(f"p{seat + 1} cbr {phh.from_chips(to, unit)}")
    shown = {a.name: a.cards for a in h.acts if a.verb == "show"}

    def showdown(all_in: bool = False) -> None:
        """Those who showed (or collected) show, the others muck: at the river, or before the
        rest of the board once all but one are all-in (as PHH writers and pokerkit order it),
        where every hand whose cards are known is shown (all-in, the cards are tabled)."""
        live = hand.live
        for seat in live:
            player = players[seat]
            cards = shown.get(player.name) or (player.cards if h.collected.get(player.name) or all_in else None)
            if cards and len(cards) == whole and seat not in ghosts:
                try:
                    hand.show(seat, cards)
                except IllegalAction as error:
                    raise Skip(PARTIAL, f"{player.name} shows: {error}") from None
        for seat in live:
            if not hand.done and not hand.showed[seat]:
                if h.collected.get(players[seat].name) and seat not in ghosts:
                    raise Skip(NOT_SHOWN, f"{players[seat].name} collects without showing")
                hand.show(seat, None)

    while not hand.done:
        if step_ghost():
            continue
        if hand.actor is not None:
            if h.folded.get(players[hand.actor].name) == hand.street and hand.legal().fold:
                apply(f"p{hand.actor + 1} f")  # the fold line is missing; the summary says it
                continue
            folded_when_free()
            raise Skip(PARTIAL, f"the hand ends with p{hand.actor + 1} to act")
        if hand.board_due:
            if not any(hand.showed) and sum(hand.stacks[s] > 0 for s in hand.live) <= 1:
                showdown(all_in=True)
                if hand.done:  # all but one mucked before the rest of the board: nothing more is dealt
                    break
            deal()
            continue
        break
    if not hand.done and hand.showdown_due:
        showdown()
    if not hand.done:
        raise Skip(PARTIAL, "the hand does not reach its end")


def _site_stacks(h: SiteHand, players, chips) -> list[tuple[list[int], int]]:
    """Each player's chips after the hand by the site's own figures, and the rake: the stack, less
    every chip it says the player put in and got back, plus what it collected. Some sites leave
    an uncalled bet's return unwritten, and some the rake: where the written figures do not add
    up, each street's unmatched top bet is taken as returned; an unwritten rake is what was put
    in and not collected. The readings that add up, the written one first. A site that writes
    each player's chips after the hand (``SiteHand.final``) is taken at its word, the rake what
    the players lost in all."""
    if h.final and all(p.name in h.final for p in players):
        final = [chips(h.final[p.name]) for p in players]
        return [(final, sum(chips(p.stack) for p in players) - sum(final))]
    won = sum(chips(v) for v in h.collected.values())
    if any(name not in {p.name for p in players} for name in h.collected):
        raise Skip(PARTIAL, "a player collects who was not in the hand")
    readings = []
    for implicit in (False, True):
        total = _put_in(h, players, chips, implicit)
        put = sum(total.values())
        rake = chips(h.rake) if h.rake is not None else put - won
        if put == won + rake and rake >= 0:
            readings.append(
                ([chips(p.stack) - total[p.name] + chips(h.collected.get(p.name, 0)) for p in players], rake)
            )
    if not readings:
        put = sum(_put_in(h, players, chips, False).values())
        raise Skip(UNBALANCED, f"put in {put}, collected {won}, rake {h.rake} (in chips of the hand's unit)")
    return readings


def _put_in(h: SiteHand, players, chips, implicit: bool) -> dict[str, int]:
    """What the site says each player put in the pot; with ``implicit``, a street's unmatched
    top bet given back where the site writes no return for that street."""
    total = {p.name: 0 for p in players}
    street_put = dict.fromkeys(total, 0)
    street, returned = 0, False

    def close_street() -> None:
        if returned or not implicit:
            return
        ordered = sorted(street_put.items(), key=lambda item: -item[1])
        excess = ordered[0][1] - ordered[1][1]
        if excess > 0:
            total[ordered[0][0]] -= excess

    for act in h.acts:
        if act.street != street and act.verb not in FORCED:
            close_street()
            street, returned = act.street, False
            street_put = dict.fromkeys(total, 0)
        amount = chips(act.amount)
        if act.verb in ("ante", "dead"):
            total[act.name] += amount
        elif act.verb in ("blind", "post", "straddle", "call", "bet"):
            total[act.name] += amount
            street_put[act.name] += amount
        elif act.verb == "raise":
            added = max(0, amount - street_put[act.name])
            total[act.name] += added
            street_put[act.name] += added
        elif act.verb == "return":
            total[act.name] -= amount
            street_put[act.name] -= amount
            returned = True
    close_street()
    return total


def _check(hand, readings: list[tuple[list[int], int]]) -> tuple[list[int], int]:
    """The site's reading (finishing stacks, rake) that the engine's finishing stacks give, the
    rake taken only from seats that won: by the rule book's split of the pots, else pokerkit's
    (a site's odd chips: ``engine.departures``)."""
    ours = hand.finishing_stacks
    tries = [ours] + ([departures.pokerkit_finishing_stacks(hand)[0]] if len(hand.live) > 1 else [])
    for site_final, rake in readings:
        for stacks in tries:
            diffs = [o - s for o, s in zip(stacks, site_final)]
            won = [o > behind for o, behind in zip(stacks, hand.stacks)]
            if all(d >= 0 for d in diffs) and sum(diffs) == rake and all(d == 0 or w for d, w in zip(diffs, won)):
                return site_final, rake
    raise Skip(DIFFERS, f"engine {ours}, site {readings[0][0]}, rake {readings[0][1]}")


_TIME = re.compile(r"(\d{4})[/-](\d{1,2})[/-](\d{1,2})[ T-]*(\d{1,2}):(\d{2})(?::(\d{2}))?")


def _about(h: SiteHand, players) -> dict:
    """The record's other fields: where and when, who, the site's hand id."""
    out: dict = {}
    if h.tournament:
        out["event"] = h.tournament
    if h.time:
        match = _TIME.search(h.time)
        if match:
            year, month, day, hour, minute, second = (int(g or 0) for g in match.groups())
            try:
                out["time"] = datetime.time(hour, minute, second)
                out["day"], out["month"], out["year"] = datetime.date(year, month, day).day, month, year
            except ValueError:
                out.pop("time", None)
            if h.time_zone and "time" in out:
                out["_time_zone"] = (
                    h.time_zone
                )  # an abbreviation (ET, CET): pokerkit 0.7.7 knows no time_zone_abbreviation
    out["hand"] = h.hand_id
    out["seats"] = [p.seat for p in players]
    if h.seat_count:
        out["seat_count"] = h.seat_count
    if h.table:
        out["table"] = h.table
    out["players"] = [p.name for p in players]
    if h.currency:
        out["currency"] = h.currency
    out["_site"] = h.site
    return out
