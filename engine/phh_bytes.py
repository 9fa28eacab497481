r"""PHH actions read from a record's bytes inside numba: the parser of ``engine.fast_replay``.

A batch's action texts, one action per line and the records one after another, become action
rows (``ROW`` integers: the kind, the seat, the amount in the record's unit, five cards and how
many), with each seat's hole cards known at the end and the board. Only the strict forms records
are written in are read; a record spelled any other way is not taken, and ``engine.phh`` (the
record model and the reference reader) reads it.

>>> text = b"d dh p1 AsAh\nd dh p2 ????\np1 cbr 3.5\np2 f"
>>> rows = np.full((4, ROW), -1, np.int64)
>>> hole, board = np.full((1, 2, 5), -1, np.int64), np.full((1, 5), -1, np.int64)
>>> taken = np.ones(1, np.bool_)
>>> one = np.array([0, len(text)]), np.array([2]), np.array([2]), np.array([1])
>>> parse_actions(np.frombuffer(text, np.uint8), *one, rows, np.array([0, 4]), taken, hole, board)
>>> bool(taken[0]), rows[:, 0].tolist(), int(rows[2, 2]), hole[0, 0, :2].tolist()  # 3.5 in tenths; As, Ah
(True, [0, 0, 4, 2], 35, [48, 49])
"""

from __future__ import annotations

import numpy as np

from evaluator.cards import RANKS, SUITS
from evaluator.jit import njit

# An action row: kind, seat, amount, five cards (-1: none), and how many cards.
DEALS_HOLE, DEALS_BOARD, FOLDS, CHECKS_OR_CALLS, BETS_OR_RAISES, MUCKS, SHOWS = range(7)
ROW = 9

_NEWLINE, _SPACE, _QUESTION, _DASH, _DOT, _ZERO = (ord(c) for c in "\n ?-.0")
_RANK_OF = np.full(256, -1, np.int64)  # an ASCII byte -> its rank, as records write cards ("As", "Td")
_SUIT_OF = np.full(256, -1, np.int64)
for _rank, _letter in enumerate(RANKS):
    _RANK_OF[ord(_letter)] = _rank
for _suit, _letter in enumerate(SUITS):
    _SUIT_OF[ord(_letter)] = _suit


@njit(inline="always")
def _cards_at(blob, start, stop, out):
    """Cards glued as records write them ("AsKd") in ``blob[start:stop]`` into ``out``: how many,
    or -1 for anything else (another spelling, a repeated card, more than five)."""
    count = (stop - start) // 2
    if (stop - start) % 2 or count == 0 or count > 5:
        return -1
    for c in range(count):
        rank, suit = _RANK_OF[blob[start + 2 * c]], _SUIT_OF[blob[start + 2 * c + 1]]
        if rank < 0 or suit < 0:
            return -1
        out[c] = rank * 4 + suit
        for d in range(c):
            if out[d] == out[c]:
                return -1
    return count


@njit(inline="always")
def _number_at(blob, start, stop, unit):
    """A whole number of ``unit`` decimals (``225``, ``2.25``) in ``blob[start:stop]``, or -1."""
    value, decimals, dot, digits = np.int64(0), 0, False, 0
    for p in range(start, stop):
        byte = blob[p]
        if byte == _DOT and not dot and digits > 0:
            dot = True
        elif _ZERO <= byte <= _ZERO + 9 and digits < 17:
            value = value * 10 + (byte - _ZERO)
            digits += 1
            decimals += dot
        else:
            return -1
    if digits == 0 or decimals > unit or (dot and decimals == 0):
        return -1
    for _ in range(unit - decimals):
        value *= 10
    return value


@njit(inline="always")
def _seat_at(blob, start, stop, seats):
    """The seat of ``pN `` whose digits begin at ``start`` (0-based, -1 unless 1 <= N <= seats and a
    space follows), and the position of that space."""
    seat, digits, p = 0, 0, start
    while p < stop and _ZERO <= blob[p] <= _ZERO + 9 and digits < 9:
        seat = seat * 10 + (blob[p] - _ZERO)
        digits += 1
        p += 1
    if digits == 0 or p >= stop or blob[p] != _SPACE or not 1 <= seat <= seats:
        return -1, p
    return seat - 1, p


@njit(cache=True)
def parse_actions(blob, text_start, seats_of, hole_size, units, rows, first_row, taken, hole, board):
    """Each taken record's actions (one per line of its text) as action rows, its seats' hole cards
    known at the end (dealt, else shown) and its board; a record written otherwise than the strict
    forms ``d dh pN CARDS|????``, ``d db CARDS``, ``pN f|cc|cbr AMOUNT|sm [CARDS|-|??..]`` is not
    taken (the reference reads it)."""
    cards = np.empty(5, np.int64)
    for h in range(seats_of.shape[0]):
        if not taken[h]:
            continue
        seats, size, unit = seats_of[h], hole_size[h], units[h]
        pos, end = text_start[h], text_start[h + 1]
        dealt_board = 0
        ok = True
        for r in range(first_row[h], first_row[h + 1]):
            stop = pos
            while stop < end and blob[stop] != _NEWLINE:
                stop += 1
            row = rows[r]
            row[8] = 0
            if (
                stop - pos >= 5
                and blob[pos] == ord("d")
                and blob[pos + 1] == _SPACE
                and blob[pos + 4] == _SPACE
                and blob[pos + 2] == ord("d")
                and blob[pos + 3] in (ord("h"), ord("b"))
            ):
                if blob[pos + 3] == ord("b"):  # d db CARDS
                    count = _cards_at(blob, pos + 5, stop, cards)
                    if count < 0 or dealt_board + count > 5:
                        ok = False
                        break
                    row[0], row[1], row[2], row[8] = DEALS_BOARD, -1, 0, count
                    for c in range(count):
                        row[3 + c] = cards[c]
                        board[h, dealt_board + c] = cards[c]
                    dealt_board += count
                else:  # d dh pN CARDS or ????
                    p = pos + 5
                    if p >= stop or blob[p] != ord("p"):
                        ok = False
                        break
                    seat, p = _seat_at(blob, p + 1, stop, seats)
                    if seat < 0 or p + 1 >= stop:
                        ok = False
                        break
                    unknown = True
                    for q in range(p + 1, stop):
                        unknown &= blob[q] == _QUESTION
                    count = 0 if unknown else _cards_at(blob, p + 1, stop, cards)
                    if count < 0 or (count > 0 and count != size):
                        ok = False
                        break
                    row[0], row[1], row[2], row[8] = DEALS_HOLE, seat, 0, count
                    for c in range(count):
                        row[3 + c] = cards[c]
                    if count > 0 and hole[h, seat, 0] < 0:
                        hole[h, seat, :count] = cards[:count]
            elif stop - pos >= 3 and blob[pos] == ord("p"):  # pN VERB [ARGUMENT]
                seat, p = _seat_at(blob, pos + 1, stop, seats)
                if seat < 0:
                    ok = False
                    break
                verb = p + 1
                space = verb
                while space < stop and blob[space] != _SPACE:
                    space += 1
                argument = space + 1
                length = space - verb
                row[1], row[2] = seat, 0
                if length == 1 and blob[verb] == ord("f") and space == stop:
                    row[0] = FOLDS
                elif length == 2 and blob[verb] == ord("c") and blob[verb + 1] == ord("c") and space == stop:
                    row[0] = CHECKS_OR_CALLS
                elif (
                    length == 3
                    and blob[verb] == ord("c")
                    and blob[verb + 1] == ord("b")
                    and blob[verb + 2] == ord("r")
                    and argument < stop
                ):
                    amount = _number_at(blob, argument, stop, unit)
                    if amount < 0:
                        ok = False
                        break
                    row[0], row[2] = BETS_OR_RAISES, amount
                elif length == 2 and blob[verb] == ord("s") and blob[verb + 1] == ord("m"):
                    questioned = False
                    for q in range(argument, stop):
                        questioned |= blob[q] == _QUESTION
                        ok &= blob[q] != _SPACE
                    if space < stop and argument == stop:
                        ok = False  # "sm " with nothing after the space
                    if not ok:
                        break
                    if space == stop or questioned:  # PHH: a bare sm mucks; unknown cards shown, too
                        row[0] = MUCKS
                    else:
                        if stop - argument == 1 and blob[argument] == _DASH:  # the cards dealt
                            count = size if hole[h, seat, 0] >= 0 else -1
                            cards[:size] = hole[h, seat, :size]
                        else:
                            count = _cards_at(blob, argument, stop, cards)
                        if count != size:
                            ok = False
                            break
                        if hole[h, seat, 0] >= 0:  # shown as dealt, in any order
                            for c in range(count):
                                found = False
                                for d in range(size):
                                    found |= hole[h, seat, d] == cards[c]
                                ok &= found
                            if not ok:
                                break
                        else:
                            hole[h, seat, :count] = cards[:count]
                        row[0], row[8] = SHOWS, count
                        for c in range(count):
                            row[3 + c] = cards[c]
                else:
                    ok = False
                    break
            else:
                ok = False
                break
            pos = stop + 1
        taken[h] = ok and pos >= end
