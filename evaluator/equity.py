"""All-in equity of specific hands (or ``random`` ones) in any game, PokerStove style.

Exact enumeration of every board completion when the hands are all known and the space is
at most ``EXACT_LIMIT`` evaluations; otherwise Monte Carlo with standard errors. A hand's
``equity`` is its average share of the pot (halves for high and low, split among ties as
RULES section 6 says, odd chips ignored); ``win`` is how often it takes the whole pot alone,
``tie`` how often it takes part of it.

>>> r = equity("holdem", ["As Ah", "Kd Kc"], board="Qs Js 2h 3c")
>>> r["exact"], r["samples"], [round(h["equity"], 4) for h in r["hands"]]
(True, 44, [0.9545, 0.0455])
"""

from __future__ import annotations

from math import comb

import numpy as np
from numba import njit

from evaluator.cards import check_distinct, format_cards, parse_cards
from evaluator.deal import deal_cards
from evaluator.errors import SampyongError
from evaluator.fast import fast_evaluator
from evaluator.games import Game, game as preset
from evaluator.settle import pot_shares, share_unit

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
def _tally_shares(high, low, unit, totals, wins, ties):
    """Add each deal's pot shares (``pot_shares``, in whole units, so sums are exact) to
    ``totals[p] = (share, share^2, high part, low part)``; count scoops and partial wins."""
    n, players = high.shape
    high_part = np.empty((n, players), np.int64)
    low_part = np.empty((n, players), np.int64)
    pot_shares(high, low, unit, high_part, low_part)
    for i in range(n):
        for p in range(players):
            units = high_part[i, p] + low_part[i, p]
            totals[p, 0] += units
            totals[p, 1] += units * units
            totals[p, 2] += high_part[i, p]
            totals[p, 3] += low_part[i, p]
            wins[p] += units == unit
            ties[p] += 0 < units < unit


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


def equity(
    game: Game | str,
    hands: list[str],
    board: str = "",
    dead: str = "",
    samples: int = 1_000_000,
    seed: int = 0,
    exact: bool | None = None,
) -> dict:
    """Equity of each hand. ``exact=None`` enumerates when it fits, else samples ``samples`` deals."""
    g = preset(game) if isinstance(game, str) else game
    if len(hands) < 2:
        raise SampyongError("give at least two hands (a hand may be 'random')")
    if len(hands) > g.max_players:
        raise SampyongError(f"{g.name}: at most {g.max_players} hands, got {len(hands)}")
    known = parse_hands(g, hands)
    board_cards = parse_cards(board) if board.strip() else []
    dead_cards = parse_cards(dead) if dead.strip() else []
    if len(board_cards) > g.board_cards or len(board_cards) in (1, 2) and g.board_cards == 5:
        raise SampyongError(f"the board takes 0, 3, 4 or {g.board_cards} cards, got {len(board_cards)}")
    used = [c for h in known if h for c in h] + board_cards + dead_cards
    check_distinct(used)
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
    if samples <= 0:
        raise SampyongError("samples must be positive")
    if not 0 <= seed <= 2**64 - 1:
        raise SampyongError(f"bad seed {seed}: must be 0 to 2**64-1")
    most = (2**63 - 1) // share_unit(len(known)) ** 2  # share^2 per sample, summed in int64
    if not exact and samples > most:
        raise SampyongError(f"at most {most:,} samples for {len(known)} hands (the squared shares must fit 64-bit counters)")

    fast = fast_evaluator(g)
    players = len(known)
    unit = share_unit(players)
    totals = np.zeros((players, 4), np.int64)  # share, share^2, high part, low part (in units)
    wins = np.zeros(players, np.int64)
    ties = np.zeros(players, np.int64)
    fixed_hole = np.array([h if h else [0] * g.hole_cards for h in known], dtype=np.uint8)

    def add(hole, full_board):
        high, low = fast.high_low(hole, full_board)
        _tally_shares(high, low, unit, totals, wins, ties)

    if exact:
        completions = np.empty((comb(len(remaining), missing), missing), dtype=np.uint8)
        if missing:
            _combinations(remaining, missing, completions)
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

    share, share_sq, high_share, low_share = (totals[:, i] / unit ** (2 if i == 1 else 1) / total for i in range(4))
    se = np.zeros(players) if exact else np.sqrt(np.maximum(share_sq - share**2, 0) / max(total - 1, 1))
    return {
        "game": g.name,
        "board": format_cards(board_cards),
        "exact": bool(exact),
        "samples": int(total),
        "hands": [
            {
                "hand": "random" if h is None else format_cards(h),
                "equity": float(share[i]),
                "equity_se": float(se[i]),
                "win": float(wins[i] / total),
                "tie": float(ties[i] / total),
                "high": float(high_share[i]),
                "low": float(low_share[i]),
            }
            for i, h in enumerate(known)
        ],
    }
