"""Hand strength as the policies see it: a seat's average pot share against the opponents still in.

A seat that knows its hole cards and the board so far deals ``samples`` times the opponents'
hands (one per opponent still in, from the cards it cannot see: any hands, or with ``caps``
only the hands each opponent's preflop actions allow, ``engine.reads``) and the rest of the board, and
averages its share of the pot (hi-lo split, ties shared, as ``evaluator.settle_kernels.pot_shares``;
``tests/test_strength.py`` checks it against that function and against exact equities).

The samples are drawn from a stream fixed by ``(hand key, seat, street, opponents)``: the same
question in the same hand always gets the same answer, whichever engine asks it, in whatever
order, alone or in a batch. That is what lets the numba engine (``engine.fast``) ask for many
hands' strengths at once and still play every hand exactly as the reference engine does.

>>> from evaluator.cards import parse_cards
>>> from evaluator.games import game
>>> g = game("holdem")
>>> aces = strength(g, parse_cards("As Ah"), [], opponents=1, samples=2000, hand_key=1, seat=0)
>>> 0.8 < aces < 0.88  # about 0.85 against one random hand
True
>>> aces == strength(g, parse_cards("As Ah"), [], opponents=1, samples=2000, hand_key=1, seat=0)
True
"""

from __future__ import annotations

import numpy as np

from evaluator.deal import _LOW32, _TWO32, _deal, _next_word
from evaluator.errors import SampyongError
from evaluator.fast import fast_evaluator
from evaluator.games import Game
from evaluator.jit import njit
from evaluator.settle import share_unit
from evaluator.settle_kernels import half_winners

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
DRAWS = 10_000  # opponent hands drawn for one sample against ranges before the ranges are given up


@njit(inline="always")
def _splitmix(x):
    """SplitMix64's output for state ``x`` (Steele, Lea and Flood 2014): a well-mixed word."""
    z = x + _GOLDEN
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(inline="always")
def _seed(state, key, seat, street, opponents):
    """Fill ``state`` (xoshiro256**, ``uint64[4]``) from the request's stream (key, seat, street, opponents)."""
    z = _splitmix(np.uint64(key))  # mixed first, so that key ^ seat cannot collide
    z = _splitmix(z ^ np.uint64(seat))
    z = _splitmix(z ^ np.uint64(street))
    z = _splitmix(z ^ np.uint64(opponents))
    for w in range(4):
        z = _splitmix(z)
        state[w] = z
    state[0] |= np.uint64(1)


@njit(inline="always")
def _unseen(deal, seat, hole_cards, seats_cards, known, deck):
    """Fill ``deck`` with the cards ``seat`` cannot see in ``deal`` (its own and ``known`` board
    cards left out), in card order; return how many."""
    seen = np.zeros(52, np.bool_)
    for k in range(hole_cards):
        seen[deal[seat * hole_cards + k]] = True
    for k in range(known):
        seen[deal[seats_cards + k]] = True
    size = 0
    for c in range(52):
        if not seen[c]:
            deck[size] = c
            size += 1
    return size


@njit(cache=True)
def _draw_samples(requests, cards, hand_keys, hole_cards, board_cards, samples, opponents, hole_out, board_out):
    """For request ``r`` = (hand, seat, street, board cards known): fill rows ``r*samples ..``
    of ``hole_out[:, 0]`` with the seat's cards, ``hole_out[:, 1:]`` with random opponent hands
    and ``board_out`` with the known board then random cards, from the request's own stream.

    ``cards[hand]`` is the deal: each seat's hole cards in turn, then the five board cards.
    """
    seats_cards = cards.shape[1] - board_cards
    need_max = opponents * hole_cards + board_cards
    drawn = np.empty((samples, need_max), np.uint8)
    deck = np.empty(52, np.uint8)
    state = np.empty(4, np.uint64)
    for r in range(requests.shape[0]):
        hand, seat, street, known = requests[r, 0], requests[r, 1], requests[r, 2], requests[r, 3]
        size = _unseen(cards[hand], seat, hole_cards, seats_cards, known, deck)
        _seed(state, hand_keys[hand], seat, street, opponents)
        need = opponents * hole_cards + board_cards - known
        out = drawn[:, :need]
        _deal(state, deck[:size].copy(), out)
        for s in range(samples):
            row = r * samples + s
            for k in range(hole_cards):
                hole_out[row, 0, k] = cards[hand, seat * hole_cards + k]
            for o in range(opponents):
                for k in range(hole_cards):
                    hole_out[row, 1 + o, k] = out[s, o * hole_cards + k]
            for k in range(known):
                board_out[row, k] = cards[hand, seats_cards + k]
            for k in range(board_cards - known):
                board_out[row, known + k] = out[s, opponents * hole_cards + k]


@njit(inline="always")
def _below(state, bound):
    """A uniform integer from 0 to ``bound - 1`` (below 2**32) from xoshiro ``state``: the high
    half of a word, multiplied and rejected as Lemire (2019)."""
    bound = np.uint64(bound)
    threshold = (_TWO32 - bound) % bound
    while True:
        m = (_next_word(state) >> np.uint64(32)) * bound
        if (m & _LOW32) >= threshold:
            return np.int64(m >> np.uint64(32))


@njit(inline="always")
def _shuffle(state, deck, size, start, count):
    """Move a uniform draw of ``count`` cards of ``deck[start:size]`` to ``deck[start:start + count]``
    (a partial Fisher-Yates shuffle)."""
    for k in range(start, start + count):
        j = k + _below(state, size - k)
        card = deck[j]
        deck[j] = deck[k]
        deck[k] = card


@njit(cache=True)
def _draw_range_samples(
    requests,
    caps,
    cards,
    hand_keys,
    hole_cards,
    board_cards,
    samples,
    opponents,
    hands,
    percentiles,
    hole_out,
    board_out,
):
    """``_draw_samples`` with opponent ``o`` of request ``r`` holding one of the hands whose
    percentile is below ``caps[r, o]``: the first ones of ``hands`` (every starting hand, the
    strongest first; ``percentiles`` theirs, ascending: ``HandRanking.hands_in_order``).

    Every set of opponent hands that fits the ranges and shares no card is equally likely, as
    when the deck is dealt and the hands are then known to be in their ranges: each opponent's
    hand is drawn from its range until it holds no card the seat sees, and the sample starts
    again when two opponents' hands share a card. After ``DRAWS`` hand draws in a sample (ranges
    that the seen cards empty or that cannot be held together), or at once for a range of no
    hand, the sample's opponents hold any hands.
    """
    seats_cards = cards.shape[1] - board_cards
    deck = np.empty(52, np.uint8)
    seen = np.zeros(52, np.bool_)
    used = np.zeros(52, np.bool_)
    state = np.empty(4, np.uint64)
    in_range = np.empty(opponents, np.int64)
    held = opponents * hole_cards
    for r in range(requests.shape[0]):
        hand, seat, street, known = requests[r, 0], requests[r, 1], requests[r, 2], requests[r, 3]
        size = _unseen(cards[hand], seat, hole_cards, seats_cards, known, deck)
        seen[:] = True
        for i in range(size):
            seen[deck[i]] = False
        empty = False
        for o in range(opponents):
            in_range[o] = np.searchsorted(percentiles, caps[r, o])  # the hands strictly below the cap
            empty |= in_range[o] == 0
        _seed(state, hand_keys[hand], seat, street, opponents)
        for s in range(samples):
            row = r * samples + s
            draws = 0
            fits = False
            while not fits and not empty and draws < DRAWS:
                used[:] = False
                fits = True
                for o in range(opponents):
                    pick = 0
                    while draws < DRAWS:
                        draws += 1
                        pick = _below(state, in_range[o])
                        blocked = False
                        for k in range(hole_cards):
                            blocked |= seen[hands[pick, k]]
                        if not blocked:
                            break
                    for k in range(hole_cards):
                        card = hands[pick, k]
                        fits &= not seen[card] and not used[card]
                        used[card] = True
                        hole_out[row, 1 + o, k] = card
                    if not fits:
                        break
            if fits:  # the opponents' cards to the front of the deck, the board drawn from the rest
                front = 0
                for i in range(size):
                    if used[deck[i]]:
                        card = deck[i]
                        deck[i] = deck[front]
                        deck[front] = card
                        front += 1
            else:  # given up: any hands
                _shuffle(state, deck, size, 0, held)
                for o in range(opponents):
                    for k in range(hole_cards):
                        hole_out[row, 1 + o, k] = deck[o * hole_cards + k]
            _shuffle(state, deck, size, held, board_cards - known)
            for k in range(board_cards - known):
                board_out[row, known + k] = deck[held + k]
            for k in range(hole_cards):
                hole_out[row, 0, k] = cards[hand, seat * hole_cards + k]
            for k in range(known):
                board_out[row, k] = cards[hand, seats_cards + k]


@njit(cache=True)
def _first_seat_totals(high, low, unit, samples, totals):
    """Per request: the first seat's pot shares summed over its ``samples`` rows, in ``unit``s
    (``evaluator.settle_kernels.pot_shares`` for that one seat, without building every seat's shares:
    halves with a qualifying low, ties share)."""
    everyone = np.ones(high.shape[1], np.bool_)
    for r in range(totals.shape[0]):
        total = np.int64(0)
        for row in range(r * samples, (r + 1) * samples):
            top_high, high_ties, top_low, low_ties = half_winners(high[row], low[row], everyone)
            if np.int64(high[row, 0]) == top_high:
                total += (unit // 2 if top_low > 0 else unit) // high_ties
            if top_low > 0 and np.int64(low[row, 0]) == top_low:
                total += unit // 2 // low_ties
        totals[r] = total


def strengths(
    game: Game,
    cards: np.ndarray,
    hand_keys: np.ndarray,
    requests: np.ndarray,
    opponents: int,
    samples: int,
    caps: np.ndarray | None = None,
    ranking=None,
) -> np.ndarray:
    """Strength (``float64[m]``) for each request row (hand, seat, street, board cards known)
    with ``opponents`` opponents: the seat's mean pot share over ``samples`` deals of their
    hands and the rest of the board, from the stream of (hand key, seat, street, opponents).

    With ``caps`` (``float64[m, opponents]``) opponent ``o`` of request ``r`` holds only hands
    whose percentile in ``ranking`` (the game's ``engine.ranking.HandRanking``) is below
    ``caps[r, o]`` (``engine.reads``); without, any hand."""
    m = requests.shape[0]
    requests = np.ascontiguousarray(requests, np.int64)
    hole = np.empty((m * samples, 1 + opponents, game.hole_cards), np.uint8)
    board = np.empty((m * samples, game.board_cards), np.uint8)
    if caps is None:
        _draw_samples(
            requests,
            cards,
            hand_keys.astype(np.uint64),
            game.hole_cards,
            game.board_cards,
            samples,
            opponents,
            hole,
            board,
        )
    else:
        if ranking is None or getattr(ranking, "hole_cards", None) != game.hole_cards:
            raise SampyongError(f"strength against ranges needs the ranking of {game.hole_cards}-card starting hands")
        hands, percentiles = ranking.hands_in_order
        _draw_range_samples(
            requests,
            np.ascontiguousarray(caps, np.float64).reshape(m, opponents),
            cards,
            hand_keys.astype(np.uint64),
            game.hole_cards,
            game.board_cards,
            samples,
            opponents,
            hands,
            percentiles,
            hole,
            board,
        )
    high, low = fast_evaluator(game).high_low(hole, board)
    unit = share_unit(1 + opponents)
    totals = np.empty(m, np.int64)
    _first_seat_totals(high, low, unit, samples, totals)
    return totals / float(samples * unit)


def strength(
    game: Game, hole, board, opponents: int, samples: int, hand_key: int, seat: int, caps=None, ranking=None
) -> float:
    """One seat's strength with ``hole`` and ``board`` known (see ``strengths``; ``caps``: one per
    opponent); ``seat`` and ``hand_key`` choose the stream. The street is read from the board's length."""
    cards = np.zeros((1, (seat + 1) * game.hole_cards + game.board_cards), np.uint8)
    cards[0, seat * game.hole_cards : (seat + 1) * game.hole_cards] = hole
    start = (seat + 1) * game.hole_cards
    cards[0, start : start + len(board)] = board
    street = {0: 0, 3: 1, 4: 2, 5: 3}[len(board)]
    requests = np.array([[0, seat, street, len(board)]], np.int64)
    caps = None if caps is None else np.array([caps], np.float64)
    return float(
        strengths(game, cards, np.array([hand_key], np.uint64), requests, opponents, samples, caps, ranking)[0]
    )
