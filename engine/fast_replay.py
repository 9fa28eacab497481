"""Records replayed in bulk inside numba: the fast path of ``sampyong run records``.

``engine.phh.replay`` replays one record through the reference engine (``engine.hand.Hand``),
a few thousand a second. Here a batch of records is replayed at once, with Python touching each
record once (its setup, by ``engine.phh.setup_of``): a numba parser (``engine.phh_bytes``) reads
every record's actions (the strict forms records are written in; any other spelling is the
reference's to read) into rows, the showdown hands are evaluated in one call per game, and a numba kernel plays the rows
under ``Hand``'s rules (the betting arithmetic of ``engine.betting``; the pots of
``Hand._settle``: bets in layers, the antes dead money) and compares the finishing stacks.

The kernel only ever says *match*: a record it replays action by action to its finishing
stacks, chip for chip, every action legal as ``Hand`` plays it (no writer's departure,
``engine.departures``). Anything else (an illegal or unreadable action, a departure, stacks that
differ, a record without ``finishing_stacks``) is left to ``engine.phh.replay``, which words its
status; such a record costs the reference's time and nothing more. For a match the kernel writes
the figures ``engine.records`` reads from a ``Hand`` (``figures``, ``seat_stats``) and the
showdown's flags (``evaluator.settle_kernels.flags_among``) when every card of it is known;
``tests/test_fast_replay.py`` holds them equal, record by record, on real and generated records.

>>> from engine.phh import loads
>>> record = loads('''variant = "NT"
... starting_stacks = [200, 200, 200]
... blinds_or_straddles = [1, 2, 0]
... antes = [0, 0, 0]
... min_bet = 2
... actions = ["d dh p1 AsAh", "d dh p2 KdKc", "d dh p3 7h2d", "p3 cbr 6", "p1 cc", "p2 f",
...            "d db Qs7s2h", "p1 cbr 10", "p3 f"]
... finishing_stacks = [208, 198, 194]''')[0]
>>> out = replay_batch([record])
>>> bool(out.matched[0]), int(out.reached[0]), out.players_at[0].tolist(), int(out.pot[0]), out.net[0, :3].tolist()
(True, 1, [3, 2, 0, 0, 0], 14, [8, -2, -6])
"""

from __future__ import annotations

import dataclasses

import numpy as np

from engine.betting import S_MIN_BET
from engine.chance import CHECK_CALL, FOLD, RAISE
from engine.hand import Hand
from engine.phh import Record, Setup, setup_of, to_chips
from engine.phh_bytes import (
    CHECKS_OR_CALLS,
    DEALS_BOARD,
    DEALS_HOLE,
    FOLDS,
    MUCKS,
    ROW,
    SHOWS,
    parse_actions,
)
from engine.records import SHOWDOWN, STATS, figures, new_reading, read_action, read_board, read_end, seat_stats
from engine.rounds_kernels import (
    betting_may_go_on,
    check_call,
    may_fold,
    next_actor,
    pay,
    preflop_opener,
    put,
    raise_to,
    return_uncalled,
    seat_raise_bounds,
)
from evaluator.errors import SampyongError
from evaluator.fast import fast_evaluator
from evaluator.jit import njit
from evaluator.settle_kernels import SHOWDOWN_FLAGS, flags_among, settle_pots


@dataclasses.dataclass
class Replayed:
    """A batch of records replayed by the kernel (arrays indexed by record, then seat).

    Parameters:
        matched: the record replays to its finishing stacks with every action legal; the other
            arrays hold its figures (``engine.records``). False: ask ``engine.phh.replay``.
        setups: each record's ``engine.phh.Setup`` (None where it could not be read).
        seats: players dealt in.
        reached, players_at, live, voluntary, pot, net: ``engine.records.HandFigures``.
        won: chips each seat won from the pots.
        stats: ``engine.records.seat_stats``, ``[record, seat, STATS]``.
        known: the showdown's cards are all known (every seat still in, the whole board).
        flags: ``evaluator.settle_kernels.SHOWDOWN_FLAGS`` of the showdown, where ``known``.
        games: each record's game (its name), None where it could not be read.
        blind: each record's big blind in chips (its largest blind, else its minimum bet).
    """

    matched: np.ndarray
    setups: list
    seats: np.ndarray
    reached: np.ndarray
    players_at: np.ndarray
    live: np.ndarray
    voluntary: np.ndarray
    pot: np.ndarray
    net: np.ndarray
    won: np.ndarray
    stats: np.ndarray
    known: np.ndarray
    flags: np.ndarray
    games: list
    blind: np.ndarray

    def take(self, i: int, hand: Hand) -> None:
        """Row ``i`` from ``hand``, a match the reference replayed: ``engine.records``' figures of it."""
        shown, n = figures(hand), hand.seats
        self.matched[i], self.seats[i], self.games[i] = True, n, hand.game.name
        self.blind[i] = max(max(hand.initial_blinds), hand.min_bet, 1)
        self.reached[i], self.players_at[i], self.pot[i] = shown.reached, shown.players_at, shown.pot
        self.live[i, :n], self.voluntary[i, :n], self.net[i, :n] = shown.live, shown.voluntary, shown.net
        self.won[i, :n] = hand.winnings
        self.stats[i, :n] = [[seat[name] for name in STATS] for seat in seat_stats(hand)]
        seats = [s for s in range(n) if shown.live[s]]
        self.known[i] = (
            shown.reached == SHOWDOWN
            and len(hand.board) == hand.game.board_cards
            and all(hand.hole[s] is not None for s in seats)
        )
        if self.known[i]:
            high, low = fast_evaluator(hand.game).high_low(
                np.array([[hand.hole[s] for s in seats]], np.uint8), np.array([hand.board], np.uint8)
            )
            self.flags[i] = flags_among(high[0], low[0], np.ones(len(seats), np.bool_))


def _prepare(record: Record) -> tuple[Setup, list[int], bytes] | None:
    """The record's setup, expected finishing stacks (chips) and its actions as UTF-8 text, one
    per line (``_parse`` reads them); None for a record the kernel does not take."""
    fields = record.fields
    try:
        setup = setup_of(record)
        if setup.posts:
            return None  # live posts out of the blind seats (site hands): the kernel does not play them
        expected = fields["finishing_stacks"]
        if setup.unit or not set(map(type, expected)) <= {int}:
            expected = [to_chips(v, setup.unit) for v in expected]
        actions = fields.get("actions", [])
        seats = len(setup.stacks)
        if seats < 2 or len(expected) != seats or len(setup.blinds) != seats or len(setup.antes) != seats:
            return None
        if type(actions) is not list or not set(map(type, actions)) <= {str}:
            return None
        text = "\n".join(actions)
        if text.count("\n") != max(len(actions) - 1, 0):
            return None  # an action of several lines: the reference reads it
        return setup, expected, text.encode("utf-8")
    except (SampyongError, KeyError, TypeError, ValueError, ArithmeticError):
        return None


def replay_batch(records: list[Record]) -> Replayed:
    """Replay ``records`` in the kernel; ``matched`` says which it replayed (see the module).
    Rows are as wide as the largest ``starting_stacks`` of the batch, so ``take`` fits any match."""
    n = len(records)
    prepared = [_prepare(r) for r in records]
    width = max(
        [len(r.fields["starting_stacks"]) for r in records if isinstance(r.fields.get("starting_stacks"), list)] + [2]
    )
    pad = [0] * width
    seats, hole_size, units, actions = [0] * n, [0] * n, [0] * n, [0] * n
    stacks, blinds, antes, expected, structures, texts = [], [], [], [], [], []
    encodings: dict = {}  # (betting, minimum bet) -> its structure row
    for i, e in enumerate(prepared):
        if e is None:
            for table in (stacks, blinds, antes, expected):
                table.append(pad)
            structures.append((0,) * 5)
            texts.append(b"")
            continue
        setup, finishing, text = e
        k = len(setup.stacks)
        seats[i], hole_size[i], units[i] = k, setup.game.hole_cards, setup.unit
        actions[i] = len(records[i].fields.get("actions", []))
        b, a = (setup.blinds[::-1], setup.antes[::-1]) if k == 2 else (setup.blinds, setup.antes)  # as Hand posts them
        for table, values in ((stacks, setup.stacks), (blinds, b), (antes, a), (expected, finishing)):
            table.append(values + pad[k:])
        key = (setup.betting, setup.min_bet if setup.min_bet else max(max(b), 1))
        if key not in encodings:
            encodings[key] = tuple(key[0].encode(key[1]).tolist())
        structures.append(encodings[key])
        texts.append(text)
    seats, hole_size, units = (np.array(x, np.int64) for x in (seats, hole_size, units))
    stacks, blinds, antes, expected = (
        np.array(x, np.int64).reshape(n, width) for x in (stacks, blinds, antes, expected)
    )
    structures = np.array(structures, np.int64).reshape(n, 5)  # a batch of no record too
    text_start = np.zeros(n + 1, np.int64)
    text_start[1:] = np.cumsum([len(t) for t in texts])
    first_row = np.zeros(n + 1, np.int64)
    first_row[1:] = np.cumsum(actions)
    rows = np.full((first_row[-1], ROW), -1, np.int64)
    hole = np.full((n, width, 5), -1, np.int64)
    board = np.full((n, 5), -1, np.int64)
    taken = np.array([e is not None for e in prepared], np.bool_)
    parse_actions(
        np.frombuffer(b"".join(texts), np.uint8),
        text_start,
        seats,
        hole_size,
        units,
        rows,
        first_row,
        taken,
        hole,
        board,
    )
    games = [e[0].game if e else None for e in prepared]
    highs, lows = _evaluate(games, seats, taken, hole, board)
    out = Replayed(
        matched=np.zeros(n, np.bool_),
        setups=[e[0] if e else None for e in prepared],
        seats=seats,
        reached=np.zeros(n, np.int64),
        players_at=np.zeros((n, 5), np.int64),
        live=np.zeros((n, width), np.bool_),
        voluntary=np.zeros((n, width), np.bool_),
        pot=np.zeros(n, np.int64),
        net=np.zeros((n, width), np.int64),
        won=np.zeros((n, width), np.int64),
        stats=np.zeros((n, width, len(STATS)), np.int64),
        known=np.zeros(n, np.bool_),
        flags=np.zeros((n, len(SHOWDOWN_FLAGS)), np.int64),
        games=[g.name if g else None for g in games],
        blind=np.zeros(n, np.int64),
    )
    out.blind[:] = [max(max(e[0].blinds), structures[i, S_MIN_BET], 1) if e else 0 for i, e in enumerate(prepared)]
    _replay(
        np.where(taken, seats, 0),
        stacks,
        blinds,
        antes,
        structures,
        expected,
        hole_size,
        rows,
        first_row,
        highs,
        lows,
        hole[:, :, 0] >= 0,
        out.matched,
        out.reached,
        out.players_at,
        out.live,
        out.voluntary,
        out.pot,
        out.net,
        out.won,
        out.stats,
        out.known,
        out.flags,
    )  # seats 0: not taken, skipped
    return out


def _evaluate(games: list, seats: np.ndarray, taken: np.ndarray, hole: np.ndarray, board: np.ndarray):
    """Each seat's high and low on the whole board where the board and some hole cards are known
    (one evaluator call per game and table size; seats with unknown cards get stand-ins, never read)."""
    n, width = hole.shape[:2]
    highs, lows = np.zeros((n, width), np.int64), np.zeros((n, width), np.int64)
    ready = taken & (board >= 0).all(1) & (hole[:, :, 0] >= 0).any(1)
    groups: dict = {}
    for i in np.flatnonzero(ready):
        groups.setdefault((games[i].name, int(seats[i])), []).append(i)
    for (_, k), members in groups.items():
        rules = games[members[0]]
        rows = np.array(members)
        cards = hole[rows, :k, : rules.hole_cards]
        stand_ins = np.arange(rules.hole_cards)[None, None, :]
        cards = np.where(cards[:, :, :1] >= 0, cards, stand_ins)
        high, low = fast_evaluator(rules).high_low(
            cards.astype(np.uint8), board[rows, : rules.board_cards].astype(np.uint8)
        )
        highs[rows, :k], lows[rows, :k] = high, low
    return highs, lows


@njit(cache=True)
def _replay(
    seats_of,
    start_stacks,
    blinds,
    antes,
    structures,
    expected,
    hole_cards,
    rows,
    first_row,
    highs,
    lows,
    known_hole,
    matched,
    reached,
    players_at,
    live_end,
    voluntary,
    pot_out,
    net,
    won_out,
    stats,
    known,
    flags,
):
    width = start_stacks.shape[1]
    stacks_ = np.empty(width, np.int64)
    contributed_ = np.empty(width, np.int64)
    antes_paid_ = np.empty(width, np.int64)
    bets_ = np.empty(width, np.int64)
    acted_at_ = np.empty(width, np.int64)
    folded_ = np.empty(width, np.bool_)
    mucked_ = np.empty(width, np.bool_)
    showed_ = np.empty(width, np.bool_)
    has_hole_ = np.empty(width, np.bool_)
    won_ = np.empty(width, np.int64)
    at = np.zeros(4, np.int64)
    reading = np.zeros(5, np.int64)  # engine.records' reader of the statistics
    for h in range(seats_of.shape[0]):
        n = seats_of[h]
        if n < 2:
            continue
        structure = structures[h]
        stacks, contributed, antes_paid, bets = stacks_[:n], contributed_[:n], antes_paid_[:n], bets_[:n]
        acted_at, folded, mucked, showed = acted_at_[:n], folded_[:n], mucked_[:n], showed_[:n]
        has_hole, won = has_hole_[:n], won_[:n]
        stat = stats[h, :n]
        stacks[:] = start_stacks[h, :n]
        contributed[:] = 0
        bets[:] = 0
        folded[:] = False
        mucked[:] = False
        showed[:] = False
        has_hole[:] = False
        seen = np.uint64(0)
        ok = structure[S_MIN_BET] >= 0  # Hand refuses a negative minimum bet, stack, blind or ante
        for s in range(n):
            if start_stacks[h, s] < 0 or blinds[h, s] < 0 or antes[h, s] < 0:
                ok = False
            antes_paid[s] = pay(s, antes[h, s], stacks, contributed)
        for s in range(n):
            put(s, blinds[h, s], stacks, contributed, bets)
        street = 0
        done = False
        # a street begins: Hand._begin_street(opener)
        acted_at[:] = -1
        last_raise = np.int64(0)
        raises = 0
        actor = next_actor(preflop_opener(bets), folded, stacks, bets, acted_at)
        settle_now = actor < 0
        at[0] = n
        at_count = 1
        in_hand = n
        new_reading(stat, reading)  # engine.records' reading of the statistics
        for r in range(first_row[h], first_row[h + 1] + 1):
            if settle_now:  # Hand._close_if_over: the round is over
                settle_now = False
                return_uncalled(stacks, contributed, bets)
                # Hand._maybe_settle
                live = 0
                last_live = -1
                for s in range(n):
                    if not folded[s] and not mucked[s]:
                        live += 1
                        last_live = s
                if live == 1:
                    won[:] = 0
                    won[last_live] = contributed.sum()
                    done = True
                elif street >= 3 and actor < 0:
                    all_shown = True
                    for s in range(n):
                        if not folded[s] and not mucked[s] and not (has_hole[s] and showed[s]):
                            all_shown = False
                    if all_shown:
                        ok &= _settle(contributed, antes_paid, folded | mucked, highs[h, :n], lows[h, :n], won)
                        done = True
            if r == first_row[h + 1] or not ok:
                break
            kind, seat, amount = rows[r, 0], rows[r, 1], rows[r, 2]
            count = rows[r, 8]
            if kind == DEALS_HOLE:
                if has_hole[seat]:
                    ok = False
                elif count > 0:
                    for c in range(count):
                        bit = np.uint64(1) << np.uint64(rows[r, 3 + c])
                        if seen & bit:
                            ok = False
                        seen |= bit
                    has_hole[seat] = True
            elif kind == DEALS_BOARD:
                live = 0
                for s in range(n):
                    live += not folded[s] and not mucked[s]
                due = 3 if street == 0 else 1
                if done or actor >= 0 or live < 2 or street >= 3 or count != due:
                    ok = False
                    continue
                for c in range(count):
                    bit = np.uint64(1) << np.uint64(rows[r, 3 + c])
                    if seen & bit:
                        ok = False
                    seen |= bit
                street += 1
                bets[:] = 0
                acted_at[:] = -1
                last_raise = 0
                raises = 0
                actor = next_actor(0, folded, stacks, bets, acted_at)
                settle_now = actor < 0
                at[at_count] = in_hand
                at_count += 1
                read_board(stat, reading, folded)
            elif kind == MUCKS or kind == SHOWS:
                if actor >= 0 or folded[seat] or mucked[seat] or showed[seat] or (kind == MUCKS and done):
                    ok = False
                    continue
                if kind == MUCKS:
                    if street < 3 and betting_may_go_on(folded, stacks):
                        ok = False  # a muck while betting may go on: Hand no longer counts the seat as an opponent
                        continue
                    mucked[seat] = True
                else:
                    if not has_hole[seat]:
                        for c in range(count):
                            bit = np.uint64(1) << np.uint64(rows[r, 3 + c])
                            if seen & bit:
                                ok = False
                            seen |= bit
                        has_hole[seat] = True
                    showed[seat] = True
                settle_now = not done
            else:  # the player to act: a fold, check or call, bet or raise
                if actor < 0 or seat != actor:
                    ok = False  # out of turn, or pokerkit's no-choice check: the reference decides
                    continue
                if kind == FOLDS:
                    if not may_fold(seat, bets):
                        ok = False
                        continue
                    folded[seat] = True
                    in_hand -= 1
                elif kind == CHECKS_OR_CALLS:
                    if check_call(seat, stacks, contributed, bets, acted_at) > 0 and street == 0:
                        voluntary[h, seat] = True
                else:
                    low, high = seat_raise_bounds(
                        seat, structure, street, last_raise, raises, folded, stacks, bets, acted_at, contributed
                    )
                    if low < 0 or amount < low or amount > high:
                        ok = False  # illegal, or a short wager's reopening: the reference decides
                        continue
                    last_raise = raise_to(
                        seat, amount, structure, street, last_raise, stacks, contributed, bets, acted_at
                    )
                    raises += 1
                    if street == 0:
                        voluntary[h, seat] = True
                read_action(
                    stat, reading, seat, FOLD if kind == FOLDS else CHECK_CALL if kind == CHECKS_OR_CALLS else RAISE
                )
                actor = next_actor(seat + 1, folded, stacks, bets, acted_at)
                settle_now = actor < 0
        if ok and not done:  # Hand.finish_showdown: the betting over, every live hand known
            live = 0
            for s in range(n):
                if not folded[s] and not mucked[s]:
                    live += 1
                    ok &= has_hole[s]
            if ok and actor < 0 and live >= 2 and street == 3:
                ok &= _settle(contributed, antes_paid, folded | mucked, highs[h, :n], lows[h, :n], won)
                done = True
        if not ok or not done:
            continue
        for s in range(n):
            if stacks[s] + won[s] != expected[h, s]:
                ok = False
        if not ok:
            continue
        matched[h] = True
        showdown = in_hand > 1
        for s in range(n):
            live_end[h, s] = not folded[s]
            net[h, s] = stacks[s] + won[s] - start_stacks[h, s]
            won_out[h, s] = won[s]
        read_end(stat, voluntary[h, :n], folded, won)
        pot_out[h] = contributed.sum()
        reached[h] = 4 if showdown else at_count - 1
        for i in range(at_count):
            players_at[h, i] = at[i]
        if showdown:
            players_at[h, at_count] = in_hand
            board_known = True
            for s in range(n):
                if not folded[s] and not known_hole[h, s]:
                    board_known = False
            known[h] = board_known and street == 3 and highs[h, :n].max() > 0
            if known[h]:
                fl = flags_among(highs[h, :n], lows[h, :n], live_end[h, :n])
                for f in range(len(SHOWDOWN_FLAGS)):
                    flags[h, f] = fl[f]


@njit(inline="always")
def _settle(contributed, antes_paid, out, highs, lows, won):
    """``Hand._settle`` into ``won``: the bets in layers, the antes dead money, each pot split
    hi-lo from the button (the last seat), by ``evaluator.settle_kernels.settle_pots``. False
    where the reference would refuse."""
    paid, ok = settle_pots(contributed - antes_paid, out, antes_paid.sum(), highs, lows, contributed.shape[0] - 1)
    won[:] = paid
    return ok
