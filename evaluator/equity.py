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

>>> r = equity("holdem", ["As Ah", "Kd Kc"], board="Qs Js 2h 3c")
>>> r["exact"], r["samples"], [round(h["equity"], 4) for h in r["hands"]]
(True, 44, [0.9545, 0.0455])
"""

from __future__ import annotations

import itertools
from math import comb

import numpy as np

from evaluator.cards import check_distinct, format_cards, parse_cards
from evaluator.deal import deal_cards
from evaluator.errors import SampyongError
from evaluator.fast import fast_evaluator
from evaluator.games import Game, game as preset
from evaluator.jit import njit
from evaluator.ranges import Range, parse_range
from evaluator.settle import share_unit
from evaluator.settle_kernels import pot_shares

EXACT_LIMIT = 100_000_000
BATCH = 1 << 16


@njit(cache=True)
def _combinations(cards, k, out):
    """Every k-subset of ``cards`` as rows of ``out`` (lexicographic)."""
    m = cards.shape[0]
    idx = np.arange(k)
    row = 0
    while True:
        for j in range(k):
            out[row, j] = cards[idx[j]]
        row += 1
        j = k - 1
        while j >= 0 and idx[j] == m - k + j:
            j -= 1
        if j < 0:
            return
        idx[j] += 1
        for t in range(j + 1, k):
            idx[t] = idx[t - 1] + 1


@njit(cache=True)
def _tally_shares(high, low, unit, weight, totals, wins, ties, scoops):
    """Add each deal's pot shares (``pot_shares``, in whole units), times ``weight``, to
    ``totals[p] = (share, share^2, high part, low part)``; count whole pots, partial wins and
    scoops (both halves of a pot with a low). With weight 1 every sum is an exact integer."""
    n, players = high.shape
    high_part = np.empty((n, players), np.int64)
    low_part = np.empty((n, players), np.int64)
    pot_shares(high, low, unit, high_part, low_part)
    for i in range(n):
        has_low = False
        for p in range(players):
            has_low = has_low or low[i, p] > 0
        for p in range(players):
            units = high_part[i, p] + low_part[i, p]
            totals[p, 0] += weight * units
            totals[p, 1] += weight * units * units
            totals[p, 2] += weight * high_part[i, p]
            totals[p, 3] += weight * low_part[i, p]
            wins[p] += weight * (units == unit)
            ties[p] += weight * (0 < units < unit)
            scoops[p] += weight * (has_low and units == unit)


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

    fast = fast_evaluator(g)
    players = len(known)
    unit = share_unit(players)
    tally = _Tally(players, np.int64)
    fixed_hole = np.array([h if h else [0] * g.hole_cards for h in known], dtype=np.uint8)

    def add(hole, full_board):
        high, low = fast.high_low(hole, full_board)
        tally.add(high, low, unit, 1)

    if exact:
        completions = _completions(remaining, missing)
        total = len(completions)
        for start in range(0, total, BATCH):
            part = completions[start : start + BATCH]
            full_board = np.concatenate([np.tile(np.array(board_cards, np.uint8), (len(part), 1)), part], axis=1)
            hole = np.ascontiguousarray(np.broadcast_to(fixed_hole, (len(part), players, g.hole_cards)))
            add(hole, np.ascontiguousarray(full_board))
    else:
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


def _completions(remaining: np.ndarray, missing: int) -> np.ndarray:
    completions = np.empty((comb(len(remaining), missing), missing), dtype=np.uint8)
    if missing:
        _combinations(remaining, missing, completions)
    return completions


class _Tally:
    """Per player: weighted sums of pot shares (share, share^2, high, low), whole pots, ties, scoops."""

    def __init__(self, players: int, dtype):
        self.totals = np.zeros((players, 4), dtype)
        self.wins = np.zeros(players, dtype)
        self.ties = np.zeros(players, dtype)
        self.scoops = np.zeros(players, dtype)

    def add(self, high, low, unit, weight) -> None:
        weight = self.totals.dtype.type(weight)
        _tally_shares(high, low, unit, weight, self.totals, self.wins, self.ties, self.scoops)


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
    fast = fast_evaluator(g)
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
            completions = _completions(remaining, missing)
            for start in range(0, len(completions), BATCH):
                part = completions[start : start + BATCH]
                full = np.ascontiguousarray(np.concatenate([np.tile(board, (len(part), 1)), part], axis=1))
                hole = np.ascontiguousarray(np.broadcast_to(np.stack(holes), (len(part), players, hole_cards)))
                high, low = fast.high_low(hole, full)
                tally.add(high, low, unit, weight)
            weight_sum += weight * len(completions)
            boards += len(completions)
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


@njit(cache=True)
def _skip_held(drawn, hole, fixed, out):
    """Per row, the first ``out.shape[1]`` cards of ``drawn`` that no fixed hand of the row holds."""
    for i in range(drawn.shape[0]):
        held = np.uint64(0)
        for p in fixed:
            for c in hole[i, p]:
                held |= np.uint64(1) << np.uint64(c)
        k = 0
        for c in drawn[i]:
            if k == out.shape[1]:
                break
            if not (held >> np.uint64(c)) & np.uint64(1):
                out[i, k] = c
                k += 1


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
    deck = np.array(sorted(set(range(52)) - blocked), np.uint8)
    # Enough cards that, after skipping those the row's fixed hands hold, ``need`` remain.
    drawn = deal_cards(rng, n, min(len(deck), need + hole_cards * len(fixed)), deck=deck)
    rest = np.zeros((n, need), np.uint8)
    _skip_held(drawn, hole, fixed, rest)
    for k, p in enumerate(randoms):
        hole[:, p] = rest[:, missing + k * hole_cards : missing + (k + 1) * hole_cards]
    full = np.concatenate([np.tile(board, (n, 1)), rest[:, :missing]], axis=1)
    return np.ascontiguousarray(hole), np.ascontiguousarray(full)
