"""All-in equity of hands, ranges (or ``random`` hands) in any game, PokerStove style.

A hand is given as cards (``As Ks``), ``random``, or a range (``evaluator.ranges``: ``QQ+,
AKs``, ``AA*``, ``15%``). Exact enumeration of every combination of the ranges' hands and
every board completion when nothing is random and the space is at most ``EXACT_LIMIT``
evaluations; otherwise Monte Carlo with standard errors (a range's hands drawn by weight,
never two hands or a hand and the board sharing a card). A hand's ``equity`` is its average
share of the pot (halves for high and low, split among ties as RULES section 6 says, odd chips
ignored); ``win`` is how often it takes the whole pot alone, ``tie`` how often it takes part of
it; ``high`` and ``low`` its average shares of the two halves, and ``scoop`` how often it
takes both halves of a pot that has a low.

A small enumeration of a free-use game (at most ``LIGHT_EVALUATIONS``, as for hold'em hands all in before
the flop) reads the tables in numpy (``evaluator.vectorized``) and never loads numba, so the
calculator answers at once; everything else runs on the numba kernels.

>>> r = equity("holdem", ["As Ah", "Kd Kc"], board="Qs Js 2h 3c")
>>> r["exact"], r["samples"], [round(h["equity"], 4) for h in r["hands"]]
(True, 44, [0.9545, 0.0455])
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from math import comb

import numpy as np

from evaluator import vectorized
from evaluator.cards import check_distinct, format_cards, parse_cards
from evaluator.errors import SampyongError
from evaluator.games import Game, game as preset
from evaluator.ranges import Range, parse_range
from evaluator.settle import pot_shares, share_unit

EXACT_LIMIT = 100_000_000
BATCH = 1 << 16
# Enumerations of up to this many evaluations read the tables in numpy (``evaluator.vectorized``,
# some 30 M a second with the tally): done before numba would have loaded (about 0.5 s).
LIGHT_EVALUATIONS = 5_000_000


def parse_hands(g: Game, hands: list[str]) -> list[list[int] | None]:
    """Each hand's cards, or None for ``random``."""
    parsed: list[list[int] | None] = []
    for text in hands:
        if text.strip().lower() == "random":
            parsed.append(None)
            continue
        cards = parse_cards(text)
        if len(cards) != g.hole_cards:
            raise SampyongError(f"{g.name}: each hand needs {g.hole_cards} hole cards, got {len(cards)} in {text!r}")
        parsed.append(cards)
    return parsed


def _entry(g: Game, text: str, top) -> list[int] | None | Range:
    """Cards for a specific hand, None for ``random``, else the range the text stands for."""
    if text.strip().lower() == "random":
        return None
    try:
        cards = parse_cards(text)
    except SampyongError:
        cards = None
    if cards is not None and len(cards) == g.hole_cards:
        return cards
    return parse_range(text, g, top)


def equity(
    game: Game | str,
    hands: list[str],
    board: str = "",
    dead: str = "",
    samples: int = 1_000_000,
    seed: int = 0,
    exact: bool | None = None,
    top=None,
) -> dict:
    """Equity of each hand or range.

    Parameters:
        game: a ``Game`` or a preset name.
        hands: per player, cards (``As Ks``), ``random`` or a range (``evaluator.ranges``).
        board, dead: cards already on the board (0, 3, 4 or 5) and cards out of play.
        samples, seed: the Monte Carlo deals and their seed, when enumeration does not fit.
        exact: None enumerates when it fits; True insists (an error when it does not fit).
        top: the top-N % provider for ranges such as ``15%`` (``evaluator.ranges``).

    Returns a dict: ``game``, ``board``, ``exact``, ``samples`` (boards enumerated, or deals
    sampled) and per hand ``hand``, ``equity`` (with ``equity_se``), ``win``, ``tie``,
    ``high``, ``low``, ``scoop`` and, for a range, ``combos``. Raises ``SampyongError`` for bad
    cards or ranges, cards used twice, or hands no deal can give together.
    """
    g = preset(game) if isinstance(game, str) else game
    if len(hands) < 2:
        raise SampyongError("give at least two hands (a hand may be 'random')")
    if len(hands) > g.max_players:
        raise SampyongError(f"{g.name}: at most {g.max_players} hands, got {len(hands)}")
    entries = [_entry(g, text, top) for text in hands]
    board_cards = parse_cards(board) if board.strip() else []
    dead_cards = parse_cards(dead) if dead.strip() else []
    if len(board_cards) > g.board_cards or len(board_cards) in (1, 2) and g.board_cards == 5:
        raise SampyongError(f"the board takes 0, 3, 4 or {g.board_cards} cards, got {len(board_cards)}")
    fixed = [c for e in entries if isinstance(e, list) for c in e]
    check_distinct(fixed + board_cards + dead_cards)
    if not 0 <= seed <= 2**64 - 1:
        raise SampyongError(f"bad seed {seed}: must be 0 to 2**64-1")
    if samples <= 0:
        raise SampyongError("samples must be positive")
    if any(isinstance(e, Range) for e in entries):
        return _range_equity(g, hands, entries, board_cards, dead_cards, samples, seed, exact)
    known = entries
    used = fixed + board_cards + dead_cards
    remaining = np.array(sorted(set(range(52)) - set(used)), dtype=np.uint8)
    missing = g.board_cards - len(board_cards)
    randoms = [i for i, h in enumerate(known) if h is None]
    if len(remaining) < missing + g.hole_cards * len(randoms):
        raise SampyongError("not enough cards left in the deck for these hands and board")
    space = comb(len(remaining), missing) * len(known)
    if exact is None:
        exact = not randoms and space <= EXACT_LIMIT
    elif exact and (randoms or space > EXACT_LIMIT):
        raise SampyongError("too large to enumerate exactly (random hands, or over 1e8 evaluations): sample instead")
    _check_samples(exact, samples, len(known))

    fast = _evaluator(g, space if exact else None)
    players = len(known)
    unit = share_unit(players)
    tally = _Tally(players, np.int64)
    fixed_hole = np.array([h if h else [0] * g.hole_cards for h in known], dtype=np.uint8)

    def add(hole, full_board):
        high, low = fast.high_low(hole, full_board)
        tally.add(high, low, unit, 1)

    if exact:
        total = comb(len(remaining), missing)
        for full_board in _boards(np.array(board_cards, np.uint8), remaining, missing):
            add(np.ascontiguousarray(np.broadcast_to(fixed_hole, (len(full_board), players, g.hole_cards))), full_board)
    else:
        from evaluator.deal import deal_cards  # numba's: only sampling loads it

        rng = np.random.default_rng(seed)
        total = samples
        need = missing + g.hole_cards * len(randoms)
        for start in range(0, samples, BATCH):
            n = min(BATCH, samples - start)
            drawn = deal_cards(rng, n, need, deck=remaining)
            hole = np.repeat(fixed_hole[None], n, axis=0)
            for k, i in enumerate(randoms):
                hole[:, i, :] = drawn[:, missing + k * g.hole_cards : missing + (k + 1) * g.hole_cards]
            full_board = np.concatenate([np.tile(np.array(board_cards, np.uint8), (n, 1)), drawn[:, :missing]], axis=1)
            add(np.ascontiguousarray(hole), np.ascontiguousarray(full_board))
    labels = ["random" if h is None else format_cards(h) for h in known]
    return _result(g, board_cards, exact, total, total, unit, tally, labels, [None] * players)


def _check_samples(exact: bool, samples: int, players: int) -> None:
    most = (2**63 - 1) // share_unit(players) ** 2  # share^2 per sample, summed in int64
    if not exact and samples > most:
        raise SampyongError(f"at most {most:,} samples for {players} hands (the squared shares must fit 64-bit counters)")


def _evaluator(g: Game, evaluations: int | None):
    """What evaluates ``evaluations`` hands (None: sampling, as many as asked): numpy for a small
    enumeration of a free-use game, the numba kernels otherwise."""
    if evaluations is not None and evaluations <= LIGHT_EVALUATIONS and vectorized.covers(g):
        return vectorized.vectorized_evaluator(g)
    from evaluator.fast import fast_evaluator  # imports numba and loads its kernels: about 0.5 s

    return fast_evaluator(g)


def _boards(board: np.ndarray, remaining: np.ndarray, missing: int) -> Iterator[np.ndarray]:
    """``board`` completed by every ``missing``-card subset of ``remaining``, in lexicographic
    order, in blocks of at most ``BATCH`` boards (``uint8[rows, board cards]``).

    >>> [b.tolist() for b in _boards(np.array([0], np.uint8), np.array([3, 5, 7], np.uint8), 2)]
    [[[0, 3, 5], [0, 3, 7], [0, 5, 7]]]
    """
    subsets = _completions(remaining, missing)
    for start in range(0, len(subsets), BATCH):
        part = subsets[start : start + BATCH]
        full = np.empty((len(part), len(board) + missing), np.uint8)
        full[:, : len(board)] = board
        full[:, len(board) :] = part
        yield full


def _completions(remaining: np.ndarray, missing: int) -> np.ndarray:
    """Every ``missing``-card subset of ``remaining`` as rows, in lexicographic order.

    Built a column at a time: each row so far is repeated once per position that may follow
    its last one.

    >>> _completions(np.array([3, 5, 7, 9], np.uint8), 2).tolist()
    [[3, 5], [3, 7], [3, 9], [5, 7], [5, 9], [7, 9]]
    """
    m = len(remaining)
    index = np.zeros((1, 0), np.uint8)  # positions in ``remaining``, one row per subset so far
    for column in range(missing):
        first = index[:, -1].astype(np.int64) + 1 if column else np.zeros(1, np.int64)
        counts = np.maximum(m - missing + column - first + 1, 0)  # positions this column may take
        ends = np.cumsum(counts)
        following = np.arange(ends[-1] if len(ends) else 0) - np.repeat(ends - counts - first, counts)
        index = np.column_stack([np.repeat(index, counts, axis=0), following.astype(np.uint8)])
    return remaining[index]


class _Tally:
    """Per player: weighted sums of pot shares (share, share^2, high, low), whole pots, ties, scoops."""

    def __init__(self, players: int, dtype):
        self.totals = np.zeros((players, 4), dtype)
        self.wins = np.zeros(players, dtype)
        self.ties = np.zeros(players, dtype)
        self.scoops = np.zeros(players, dtype)

    def add(self, high, low, unit, weight) -> None:
        """Add each deal's pot shares (``evaluator.settle.pot_shares``, in whole units) times
        ``weight``. Shares depend only on who won each half, so each distinct showdown is shared
        out once and counted; with weight 1 every sum is an exact integer."""
        high_winners, low_winners, deals = _showdowns(high, low)
        high_part, low_part = pot_shares(high_winners, low_winners, unit)
        units = high_part + low_part
        dtype = self.totals.dtype
        weights = deals.astype(dtype) * dtype.type(weight)  # per distinct showdown

        def summed(per_seat):  # over the showdowns, by seat
            return weights @ per_seat.astype(dtype)

        for column, part in enumerate([units, units * units, high_part, low_part]):
            self.totals[:, column] += summed(part)
        self.wins += summed(units == unit)
        self.ties += summed((0 < units) & (units < unit))
        self.scoops += summed((units == unit) & low_winners.any(axis=1, keepdims=True))


def _showdowns(high: np.ndarray, low: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The distinct showdowns of a batch: who won the high, who won the low (``int64[k,
    players]`` of 0/1; no low winner when no low qualified) and how many deals each was.

    >>> [a.tolist() for a in _showdowns(np.array([[5, 5], [9, 1], [5, 5]]), np.array([[0, 0], [0, 3], [0, 0]]))]
    [[[1, 1], [1, 0]], [[0, 0], [0, 1]], [2, 1]]
    """
    players = high.shape[1]
    top_high, top_low = high[:, 0], low[:, 0]
    for p in range(1, players):  # column by column: numpy reduces a short axis slowly
        top_high, top_low = np.maximum(top_high, high[:, p]), np.maximum(top_low, low[:, p])
    some_low = top_low > 0
    code = np.zeros(len(high), np.int64)  # bit p: seat p won the high; bit players + p: the low
    for p in range(players):
        code |= (high[:, p] == top_high).astype(np.int64) << p
        code |= ((low[:, p] == top_low) & some_low).astype(np.int64) << (players + p)
    if players <= 8:
        counts = np.bincount(code, minlength=1 << (2 * players))
        codes = np.flatnonzero(counts)
        counts = counts[codes]
    else:
        codes, counts = np.unique(code, return_counts=True)
    bits = (codes[:, None] >> np.arange(2 * players)) & 1
    return bits[:, :players], bits[:, players:], counts


def _result(g, board_cards, exact, samples, total, unit, tally, labels, combos) -> dict:
    totals = tally.totals
    share, share_sq, high_share, low_share = (totals[:, i] / unit ** (2 if i == 1 else 1) / total for i in range(4))
    se = np.zeros(len(labels)) if exact else np.sqrt(np.maximum(share_sq - share**2, 0) / max(samples - 1, 1))
    out = []
    for i, label in enumerate(labels):
        row = {
            "hand": label,
            "equity": float(share[i]),
            "equity_se": float(se[i]),
            "win": float(tally.wins[i] / total),
            "tie": float(tally.ties[i] / total),
            "high": float(high_share[i]),
            "low": float(low_share[i]),
            "scoop": float(tally.scoops[i] / total),
        }
        if combos[i] is not None:
            row["combos"] = combos[i]
        out.append(row)
    return {"game": g.name, "board": format_cards(board_cards), "exact": bool(exact), "samples": int(samples), "hands": out}


def _range_equity(g, texts, entries, board_cards, dead_cards, samples, seed, exact) -> dict:
    """Equity when some hands are ranges: every compatible combination of their hands (each
    weighted by the product of its hands' weights), exactly or by weighted sampling."""
    players = len(entries)
    unit = share_unit(players)
    hole_cards = g.hole_cards
    missing = g.board_cards - len(board_cards)
    blocked = set(board_cards) | set(dead_cards)
    choices = []  # per player: (combos array, weights) or None for random
    for entry in entries:
        if entry is None:
            choices.append(None)
        elif isinstance(entry, Range):
            keep = [i for i, c in enumerate(entry.combos) if not blocked.intersection(c)]
            if not keep:
                raise SampyongError(f"range {entry.text!r} has no hand left beside the board and dead cards")
            choices.append((np.array([entry.combos[i] for i in keep], np.uint8), np.array([entry.weights[i] for i in keep])))
        else:
            choices.append((np.array([sorted(entry)], np.uint8), np.ones(1)))
    randoms = [i for i, c in enumerate(choices) if c is None]
    deck_left = 52 - len(blocked) - hole_cards * players
    if deck_left < missing:
        raise SampyongError("not enough cards left in the deck for these hands and board")
    assignments = int(np.prod([len(c[0]) for c in choices if c is not None], dtype=np.float64))
    space = assignments * comb(deck_left, missing) * players
    if exact is None:
        exact = not randoms and space <= EXACT_LIMIT
    elif exact and (randoms or space > EXACT_LIMIT):
        raise SampyongError("too large to enumerate exactly (random hands, or over 1e8 evaluations): sample instead")
    _check_samples(exact, samples, players)
    fast = _evaluator(g, space if exact else None)
    tally = _Tally(players, np.float64)
    board = np.array(board_cards, np.uint8)
    labels = [t if isinstance(e, Range) else ("random" if e is None else format_cards(e)) for t, e in zip(texts, entries)]
    combos = [e.size if isinstance(e, Range) else None for e in entries]
    if exact:
        weight_sum = 0.0
        boards = 0
        for pick in itertools.product(*[range(len(c[0])) for c in choices]):
            holes = [choices[p][0][k] for p, k in enumerate(pick)]
            held = np.concatenate(holes)
            if len(set(held.tolist())) != len(held):
                continue
            weight = float(np.prod([choices[p][1][k] for p, k in enumerate(pick)]))
            remaining = np.array(sorted(set(range(52)) - blocked - set(held.tolist())), np.uint8)
            for full in _boards(board, remaining, missing):
                hole = np.ascontiguousarray(np.broadcast_to(np.stack(holes), (len(full), players, hole_cards)))
                high, low = fast.high_low(hole, full)
                tally.add(high, low, unit, weight)
            completions = comb(len(remaining), missing)
            weight_sum += weight * completions
            boards += completions
        if not weight_sum:
            raise SampyongError("these ranges never fit together: every combination shares a card")
        return _result(g, board_cards, True, boards, weight_sum, unit, tally, labels, combos)
    rng = np.random.default_rng(seed)
    for start in range(0, samples, BATCH):
        n = min(BATCH, samples - start)
        hole, full = _sample_ranges(rng, n, choices, blocked, board, missing, hole_cards)
        high, low = fast.high_low(hole, full)
        tally.add(high, low, unit, 1.0)
    return _result(g, board_cards, False, samples, samples, unit, tally, labels, combos)


def _skip_held(drawn, hole, fixed, count):
    """Per row, the first ``count`` cards of ``drawn`` that no fixed hand (players ``fixed``) of
    the row holds."""
    rows = np.arange(len(drawn))[:, None]
    held = np.zeros((len(drawn), 52), np.bool_)
    held[rows, hole[:, fixed].reshape(len(drawn), -1)] = True
    first_free = np.argsort(held[rows, drawn], axis=1, kind="stable")[:, :count]  # free cards first, in order
    return np.take_along_axis(drawn, first_free, axis=1)


def _sample_ranges(rng, n, choices, blocked, board, missing, hole_cards):
    """``n`` deals: each range's hand drawn by weight, rows whose hands share a card drawn
    again, then random hands and the board from each row's own rest of the deck."""
    players = len(choices)
    hole = np.zeros((n, players, hole_cards), np.uint8)
    fixed = np.array([p for p, c in enumerate(choices) if c is not None], np.int64)
    todo = np.arange(n)
    for _ in range(10_000):
        for p in fixed:
            combos, weights = choices[p]
            if len(combos) == 1:
                picks = np.zeros(len(todo), np.int64)
            elif weights.min() == weights.max():
                picks = rng.integers(0, len(combos), size=len(todo))
            else:
                picks = rng.choice(len(combos), size=len(todo), p=weights / weights.sum())
            hole[todo, p] = combos[picks]
        cards = hole[todo][:, fixed].reshape(len(todo), -1)
        ordered = np.sort(cards, axis=1)
        todo = todo[(ordered[:, 1:] == ordered[:, :-1]).any(axis=1)] if cards.shape[1] > 1 else todo[:0]
        if not len(todo):
            break
    else:
        raise SampyongError("these ranges almost never fit together: their hands keep sharing cards")
    randoms = [p for p, c in enumerate(choices) if c is None]
    need = missing + hole_cards * len(randoms)
    from evaluator.deal import deal_cards  # numba's: only sampling loads it

    deck = np.array(sorted(set(range(52)) - blocked), np.uint8)
    # Enough cards that, after skipping those the row's fixed hands hold, ``need`` remain.
    drawn = deal_cards(rng, n, min(len(deck), need + hole_cards * len(fixed)), deck=deck)
    rest = _skip_held(drawn, hole, fixed, need)
    for k, p in enumerate(randoms):
        hole[:, p] = rest[:, missing + k * hole_cards : missing + (k + 1) * hole_cards]
    full = np.concatenate([np.tile(board, (n, 1)), rest[:, :missing]], axis=1)
    return np.ascontiguousarray(hole), np.ascontiguousarray(full)
