"""Lookup tables for the fast kernels, generated from the reference evaluator and cached on disk.

How a pool of cards finds its table entry (no sorting, one add per card):

* **Rank multiset.** Each card adds ``5**rank`` (ranks 2..8, the "low seven") or
  ``5**(rank-7) << 17`` (ranks 9..A, the "high six") to a key, so the key holds two base-5
  count codes. ``LO_INDEX[lo]`` numbers the low-seven multisets of each size; ``START[n][hi]``
  is where the block of an ``n``-card pool whose high-six code is ``hi`` begins. The entry
  ``START[n][key >> 17] + LO_INDEX[key & 0x1FFFF]`` is a minimal perfect hash of the
  ``n``-card rank multisets, and ``rank_value[n]`` holds the best non-flush strength there.
* **Flush.** A 13-bit mask of one suit's ranks indexes ``flush_value``: the best 5-card
  flush-type hand (flush, straight/skip flushes, royal) inside that suit. With at most 9 cards
  only one suit can hold 5, and the pool's strength is the larger of the two values (a flush
  type always beats the same five ranks unsuited, in every ranking).
* **Present categories** (which categories some 5 of the pool make exactly): the rank
  multiset's bits are exact when no suit holds five cards. With a flush suit, the paired
  categories still come from the multiset (a pair is never suited), the flush types from the
  suit's mask, and the five-distinct-rank ones (high card, straight, skip) from
  ``offsuit_present[r][mask]``: what an off-suit card of rank ``r`` makes with four ranks of
  ``mask``.
* **Low.** An 8-bit mask of the low ranks present (bit 0 = ace, bit 7 = eight) indexes
  ``low_value[q]``: the best low from the five lowest qualifying ranks, or 0.

Every value is a reference strength (``evaluator.reference``): the tables only remember what
the rule book computed. A ranking variant is just another ``HighTables``.
"""

from __future__ import annotations

import dataclasses
import fcntl
import hashlib
import itertools
import os
import zipfile
from functools import cache, lru_cache
from pathlib import Path

import numpy as np

from evaluator.cards import make_card
from evaluator.games import Category, Ranking
from evaluator.reference import classify5, high_strength, low_strength

TABLE_VERSION = (
    5  # 3: split tables board-major; 4: three hole cards hole-major over board pairs; 5: split tables hold ordinals
)
LO_RANKS = 7  # ranks 2..8 go in the low base-5 code, 9..A in the high one
HI_SHIFT = 17  # 5**7 = 78125 < 2**17
POOL_SIZES = (5, 6, 7, 8, 9)  # pools the rank tables cover; 9 cards keep "one flush suit at most"
MAX_FREE_POOL = max(POOL_SIZES)  # beyond 9 cards two suits could both hold five
NO_ENTRY = -(1 << 30)


def cache_dir() -> Path:
    """Where generated tables live: ``$SAMPYONG_CACHE`` or ``~/.cache/sampyong``."""
    return Path(os.environ.get("SAMPYONG_CACHE") or _default_cache())


@lru_cache(maxsize=1)
def _default_cache() -> Path:
    return Path.home() / ".cache" / "sampyong"  # ``Path.home`` reads the password database: once


# --- Card-level addends (ranking independent) -----------------------------------------------


def rank_addend(rank: int) -> int:
    return 5**rank if rank < LO_RANKS else (5 ** (rank - LO_RANKS)) << HI_SHIFT


def low_bit(rank: int) -> int:
    """Bit of a rank in the low mask: ace -> bit 0, 2..8 -> bits 1..7, others none."""
    if rank == 12:
        return 1
    return 1 << (rank + 1) if rank <= 6 else 0


CARD_KEY = np.array([rank_addend(c >> 2) for c in range(52)], dtype=np.uint32)
CARD_SUIT_BIT = np.array([1 << (16 * (c & 3) + (c >> 2)) for c in range(52)], dtype=np.uint64)
CARD_SUIT_COUNT = np.array([1 << (4 * (c & 3)) for c in range(52)], dtype=np.uint32)
CARD_LOW_BIT = np.array([low_bit(c >> 2) for c in range(52)], dtype=np.uint8)
POPCOUNT8 = np.array([bin(m).count("1") for m in range(256)], dtype=np.uint8)


def _digits(code: int, base_count: int) -> list[int]:
    return [(code // 5**i) % 5 for i in range(base_count)]


def _code_sizes(digits: int) -> np.ndarray:
    """int64 per base-5 code of ``digits`` digits (``0 .. 5**digits - 1``): its digit sum, the
    number of cards of the rank multiset it codes."""
    sizes = np.zeros(1, dtype=np.int64)
    for _ in range(digits):  # a new top digit: 5 blocks, each the codes so far plus that digit
        sizes = (np.arange(5)[:, None] + sizes[None, :]).ravel()
    return sizes


@cache
def multiset_index() -> tuple[np.ndarray, np.ndarray]:
    """``(LO_INDEX, START)``: the perfect hash of rank multisets described in the module doc.

    ``LO_INDEX[lo]`` counts the low codes of ``lo``'s size below ``lo``; ``START[n][hi]`` adds
    up, over the high codes below ``hi`` that fit in ``n`` cards, how many low codes complete
    each to ``n`` cards. ``START`` has one row per pool size 0..9; unused entries hold
    ``NO_ENTRY``. Array arithmetic (a few ms; the per-code loop it replaced took 0.1 s
    of every process that evaluates).
    """
    lo_sizes, hi_sizes = _code_sizes(LO_RANKS), _code_sizes(13 - LO_RANKS)
    lo_count = np.bincount(lo_sizes)
    # Codes in order within each size: a code's rank among its size's codes.
    by_size = np.argsort(lo_sizes, kind="stable")
    first_of_size = np.cumsum(lo_count) - lo_count
    lo_index = np.empty(len(lo_sizes), dtype=np.uint16)  # at most 8,134 per size: small stays in cache
    lo_index[by_size] = np.arange(len(lo_sizes)) - first_of_size[lo_sizes[by_size]]
    start = np.full((max(POOL_SIZES) + 1, len(hi_sizes)), NO_ENTRY, dtype=np.int32)
    for n in range(max(POOL_SIZES) + 1):
        fits = (hi_sizes <= n) & (n - hi_sizes < len(lo_count))
        block = np.where(fits, lo_count[np.clip(n - hi_sizes, 0, len(lo_count) - 1)], 0)
        start[n, fits] = (np.cumsum(block) - block)[fits]
    return lo_index, start


@cache
def rank_multisets(n: int) -> np.ndarray:
    """All rank multisets of ``n`` cards (each rank at most 4 times) as sorted rows, in table order."""
    lo_index, start = multiset_index()
    lo_codes_by_size: dict[int, list[int]] = {}
    for code in range(5**LO_RANKS):
        lo_codes_by_size.setdefault(sum(_digits(code, LO_RANKS)), []).append(code)
    rows: list[list[int]] = []
    for hi_code in range(5 ** (13 - LO_RANKS)):
        if start[n, hi_code] == NO_ENTRY:
            continue
        hi_counts = _digits(hi_code, 13 - LO_RANKS)
        hi_ranks = [LO_RANKS + r for r, k in enumerate(hi_counts) for _ in range(k)]
        for lo_code in lo_codes_by_size.get(n - len(hi_ranks), []):
            lo_ranks = [r for r, k in enumerate(_digits(lo_code, LO_RANKS)) for _ in range(k)]
            rows.append(lo_ranks + hi_ranks)
    return np.array(rows, dtype=np.int64).reshape(len(rows), n)


@cache
def low_rank_masks(n: int) -> np.ndarray:
    """uint32 per ``n``-card rank multiset, in table order: its low-rank mask (bit 0 the ace,
    bits 1..7 the ranks 2..8), so a kernel can read a pool's low from its rank entry.

    The low seven are the low code's nonzero digits and the ace is the high code's top digit,
    so this takes array operations, not the multisets themselves (``rank_multisets(9)`` takes
    seconds; this, milliseconds).

    >>> rows = rank_multisets(6)
    >>> expected = [sum(low_bit(int(r)) for r in set(row)) for row in rows]
    >>> bool((low_rank_masks(6) == expected).all())
    True
    """
    _, start = multiset_index()
    codes = np.arange(5**LO_RANKS)
    digits = (codes[:, None] // 5 ** np.arange(LO_RANKS)) % 5
    lo_size, lo_mask = digits.sum(axis=1), ((digits > 0) << np.arange(1, LO_RANKS + 1)).sum(axis=1)
    hi_codes = np.flatnonzero(start[n] != NO_ENTRY)  # in code order, as their blocks follow each other
    hi_size = ((hi_codes[:, None] // 5 ** np.arange(13 - LO_RANKS)) % 5).sum(axis=1)
    ace = (hi_codes >= 5 ** (12 - LO_RANKS)).astype(np.int64)
    by_size = {size: lo_mask[lo_size == size] for size in range(n + 1)}
    blocks = [by_size[n - size] | a for size, a in zip(hi_size.tolist(), ace.tolist())]
    return np.concatenate(blocks).astype(np.uint32)


def _unsuited_cards(ranks) -> list[int]:
    """Five distinct cards with these ranks, not all of one suit (so never a flush)."""
    seen: dict[int, int] = {}
    cards = []
    for r in ranks:
        cards.append(make_card(r, seen.get(r, 0)))
        seen[r] = seen.get(r, 0) + 1
    if len(seen) == 5:  # five distinct ranks all got suit 0: move one card to another suit
        cards[-1] += 1
    return cards


@dataclasses.dataclass(frozen=True)
class HighTables:
    """High-hand tables for one ranking."""

    rank_value: dict[int, np.ndarray]  # pool size -> uint32 strength per rank multiset
    rank_present: dict[int, np.ndarray]  # pool size -> uint16 category bits per multiset
    flush_value: np.ndarray  # uint32[8192] by one suit's rank mask, 0 under 5 cards
    flush_present: np.ndarray  # uint16[8192] category bits of the flush-type 5-subsets
    offsuit_present: np.ndarray  # uint16[13, 8192]: rank r plus four ranks of a mask, unsuited
    category_of_position: np.ndarray  # int8: ranking position -> Category value


def _build_high_tables(ranking: Ranking) -> dict[str, np.ndarray]:
    arrays: dict[str, np.ndarray] = {}
    # Five-card rank multisets: strengths straight from the reference.
    five = rank_multisets(5)
    value5 = np.empty(len(five), dtype=np.uint32)
    present5 = np.empty(len(five), dtype=np.uint16)
    for i, ranks in enumerate(five):
        category, tiebreak = classify5(_unsuited_cards(ranks), ranking)
        value5[i] = high_strength(category, tiebreak, ranking)
        present5[i] = 1 << category
    codes5 = (5**five).sum(axis=1)  # base-5 count code: unique per multiset
    order5 = np.argsort(codes5)
    sorted_codes5 = codes5[order5]
    for n in POOL_SIZES:
        pools = rank_multisets(n)
        best = np.zeros(len(pools), dtype=np.uint32)
        present = np.zeros(len(pools), dtype=np.uint16)
        for subset in itertools.combinations(range(n), 5):
            codes = (5 ** pools[:, subset]).sum(axis=1)
            where = order5[np.searchsorted(sorted_codes5, codes)]
            best = np.maximum(best, value5[where])
            present |= present5[where]
        arrays[f"rank_value_{n}"] = best
        arrays[f"rank_present_{n}"] = present
    # Flush masks: every 5-subset of a suit's ranks, evaluated as suited cards.
    flush_value = np.zeros(1 << 13, dtype=np.uint32)
    flush_present = np.zeros(1 << 13, dtype=np.uint16)
    five_suited = {}
    for ranks in itertools.combinations(range(13), 5):
        category, tiebreak = classify5([make_card(r, 0) for r in ranks], ranking)
        five_suited[sum(1 << r for r in ranks)] = (high_strength(category, tiebreak, ranking), 1 << category)
    for mask in range(1 << 13):
        ranks = [r for r in range(13) if mask >> r & 1]
        for subset in itertools.combinations(ranks, 5):
            value, bit = five_suited[sum(1 << r for r in subset)]
            flush_value[mask] = max(flush_value[mask], value)
            flush_present[mask] |= bit
    arrays["flush_value"] = flush_value
    arrays["flush_present"] = flush_present
    arrays["offsuit_present"] = _offsuit_present(ranking)
    arrays["category_of_position"] = np.array([int(c) for c in ranking.order], dtype=np.int8)
    return arrays


def _offsuit_present(ranking: Ranking) -> np.ndarray:
    """Bits of the categories made by rank ``r`` and any four distinct ranks of ``mask`` (not all suited)."""
    table = np.zeros((13, 1 << 13), dtype=np.uint16)
    masks = np.arange(1 << 13)
    popcount = np.array([bin(m).count("1") for m in masks])
    for r in range(13):
        others = [x for x in range(13) if x != r]
        for four in itertools.combinations(others, 4):
            category, _ = classify5(_unsuited_cards((r, *four)), ranking)
            table[r, sum(1 << x for x in four)] = 1 << category
        # A larger mask makes whatever any of its one-smaller masks makes.
        for size in range(5, 13):
            level = masks[(popcount == size) & ((masks >> r) & 1 == 0)]
            for bit in range(13):
                has = level[(level >> bit) & 1 == 1]
                table[r, has] |= table[r, has ^ (1 << bit)]
    return table


PAIRED_CATEGORIES = sum(
    1 << c
    for c in (
        Category.one_pair,
        Category.two_pair,
        Category.three_of_a_kind,
        Category.full_house,
        Category.four_of_a_kind,
    )
)


def _cache_file(ranking: Ranking) -> Path:
    digest = hashlib.sha256(f"{TABLE_VERSION}:{[c.name for c in ranking.order]}".encode()).hexdigest()[:16]
    return cache_dir() / f"high-{ranking.name}-{digest}.npz"


def cached_arrays(path: Path, build) -> dict[str, np.ndarray]:
    """Arrays from an ``.npz`` cache file, or ``build()`` them and save the file atomically.

    One process builds a file at a time (an exclusive ``flock`` on ``path`` + ``.lock``): another
    process asking for it meanwhile waits, then reads the file the first one saved, rather than
    building it again beside it (two commands, the Ray workers of one run, or pytest's workers,
    on a new cache)."""
    arrays = _load_arrays(path)
    if arrays is not None:
        return arrays
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes, or the process ends
        arrays = _load_arrays(path)  # built by the process this one waited for
        if arrays is None:
            arrays = build()
            tmp = path.with_suffix(f".{os.getpid()}.tmp.npz")
            np.savez(tmp, **arrays)
            os.replace(tmp, path)
    return arrays


def _load_arrays(path: Path) -> dict[str, np.ndarray] | None:
    """The arrays of ``path``, or None when it is missing or damaged (then built again)."""
    try:
        with np.load(path) as data:
            return {key: data[key] for key in data.files}
    except (OSError, ValueError, zipfile.BadZipFile):
        return None


@cache
def high_tables(ranking: Ranking) -> HighTables:
    """The high tables of a ranking, loaded from the disk cache or generated (a few seconds)."""
    arrays = cached_arrays(_cache_file(ranking), lambda: _build_high_tables(ranking))
    return HighTables(
        rank_value={n: arrays[f"rank_value_{n}"] for n in POOL_SIZES},
        rank_present={n: arrays[f"rank_present_{n}"] for n in POOL_SIZES},
        flush_value=arrays["flush_value"],
        flush_present=arrays["flush_present"],
        offsuit_present=arrays["offsuit_present"],
        category_of_position=arrays["category_of_position"],
    )


@cache
def low_table(qualifier: int) -> np.ndarray:
    """uint32[256]: by the mask of low ranks present, the best low strength, or 0 (no low)."""
    table = np.zeros(256, dtype=np.uint32)
    for mask in range(256):
        values = [v + 1 for v in range(8) if mask >> v & 1 and v + 1 <= qualifier]
        if len(values) >= 5:
            table[mask] = low_strength(tuple(sorted(values[:5], reverse=True)))
    return table


# --- Split tables for restricted hole use ----------------------------------------------------
#
# With "exactly h hole cards", a player's best non-flush hand depends only on the rank
# multiset of the h hole cards and the rank multisets of the board's (5 - h)-card parts.
#
# For h <= 2, SPLIT[h][b, a] is the best over every part of board multiset b joined to hole
# multiset a: one lookup per hole subset instead of C(5, 5 - h). Board-major, so every lookup
# of a deal falls in one short row (91 entries for two hole cards) and stays cached.
# For h = 3 that layout would take 6,175 x 455 entries (11 MB): each hand's one lookup
# missed every cache and was slower than ten lookups in a small table. So SPLIT[3][a, t] is
# the 5-card value of hole multiset a with board pair multiset t (455 x 91, 164 KB), and the
# kernel takes the best over the board's ten pairs.
# Suited hole subsets meeting suited board cards are handled in the kernel itself (rare), like
# the low, which is rank-mask arithmetic.
#
# Split tables hold 16-bit *ordinals* of 5-card strengths (``five_card_order``), half the
# bytes of the strengths: the rows a random deal touches miss the cache half as often
# (measured 1.2-1.6x on PLO, PLO8 and PLS7-2). The kernel maps its best ordinal back once per hand.

MAX_SPLIT_HOLE = 3
PART_MAJOR_SPLIT = 3  # the hole-card count whose split table is hole-major over board pairs
N_PAIRS = 91  # rank multisets of two cards: the width of that table


@cache
def five_card_order(ranking: Ranking) -> tuple[np.ndarray, np.ndarray]:
    """``(strength_of, flush_ordinal)``: every distinct 5-card strength (and 0) ascending, so
    an ordinal ``o`` stands for ``strength_of[o]``; and ``flush_value`` as ordinals (0 below
    five ranks). Ordinals compare as the strengths do."""
    base = high_tables(ranking)
    strength_of = np.unique(np.concatenate([[0], base.rank_value[5], base.flush_value])).astype(np.uint32)
    return strength_of, np.searchsorted(strength_of, base.flush_value).astype(np.uint16)


@cache
def rank_ordinals(ranking: Ranking, n: int) -> np.ndarray:
    """``rank_value[n]`` as ordinals of ``five_card_order`` (uint16): the same order in half the
    bytes, for kernels that give ordinals rather than strengths.

    >>> from evaluator.games import game
    >>> ranking = game("holdem").ranking
    >>> strength_of, _ = five_card_order(ranking)
    >>> bool((strength_of[rank_ordinals(ranking, 7)] == high_tables(ranking).rank_value[7]).all())
    True
    """
    strength_of, _ = five_card_order(ranking)
    assert len(strength_of) <= 1 << 16, "more distinct strengths than uint16 ordinals hold"
    return np.searchsorted(strength_of, high_tables(ranking).rank_value[n]).astype(np.uint16)


@cache
def distinct_present(ranking: Ranking) -> np.ndarray:
    """uint16[8192]: by a 13-bit rank mask of exactly five ranks, the category bit of five
    unsuited cards of those ranks (high card, straight or skip straight); 0 for other masks."""
    five = rank_multisets(5)  # sorted rows, in the order of ``rank_present[5]``
    distinct = (np.diff(five, axis=1) != 0).all(axis=1)
    table = np.zeros(1 << 13, dtype=np.uint16)
    table[(1 << five[distinct]).sum(axis=1)] = high_tables(ranking).rank_present[5][distinct]
    return table


def _build_split(ranking: Ranking, used: int) -> dict[str, np.ndarray]:
    five = rank_multisets(5)
    hole = rank_multisets(used)
    base = high_tables(ranking)
    codes5 = (5**five).sum(axis=1)
    order5 = np.argsort(codes5)
    sorted5 = codes5[order5]
    hole_codes = (5**hole).sum(axis=1)[:, None]

    def lookup(codes):
        """5-card value and category bits of each multiset code (0 where five share a rank)."""
        where = np.minimum(np.searchsorted(sorted5, codes), len(sorted5) - 1)
        valid = sorted5[where] == codes  # five of one rank would carry and match nothing
        index = order5[where]
        return np.where(valid, base.rank_value[5][index], 0), np.where(valid, base.rank_present[5][index], 0)

    strength_of, _ = five_card_order(ranking)
    if used == PART_MAJOR_SPLIT:
        pairs = rank_multisets(5 - used)
        value, present = lookup(hole_codes + (5**pairs).sum(axis=1)[None, :])
    else:
        value = np.zeros((len(hole), len(five)), dtype=np.uint32)
        present = np.zeros((len(hole), len(five)), dtype=np.uint16)
        for part in itertools.combinations(range(5), 5 - used):
            part_value, part_present = lookup(hole_codes + (5 ** five[:, list(part)]).sum(axis=1)[None, :])
            value = np.maximum(value, part_value)
            present |= part_present.astype(np.uint16)
        value, present = value.T, present.T
    ordinal = np.searchsorted(strength_of, value.ravel())
    assert np.array_equal(strength_of[ordinal], value.ravel())
    return {"value": ordinal.astype(np.uint16), "present": present.astype(np.uint16).ravel()}


@cache
def hole_rank_index() -> np.ndarray:
    """``uint16[4, 13**3]``: row ``h`` maps ``h`` ordered ranks, read as base-13 digits (first
    rank most significant), to their multiset's index among the ``h``-card multisets (the
    order of ``START``/``LO_INDEX``). Small enough to stay in L1 beside the split tables.
    """
    lo_index, start = multiset_index()
    table = np.zeros((MAX_SPLIT_HOLE + 1, 13**MAX_SPLIT_HOLE), dtype=np.uint16)
    for used in range(MAX_SPLIT_HOLE + 1):
        for ranks in itertools.product(range(13), repeat=used):
            code = 0
            for r in ranks:
                code = code * 13 + r
            key = sum(rank_addend(r) for r in ranks)
            table[used, code] = start[used, key >> HI_SHIFT] + lo_index[key & ((1 << HI_SHIFT) - 1)]
    return table


@cache
def split_tables(ranking: Ranking, used: int) -> tuple[np.ndarray, np.ndarray]:
    """``(value, present)`` flattened ``[board multiset, hole multiset]`` for ``used`` hole cards
    (``[hole multiset, board pair multiset]`` for ``PART_MAJOR_SPLIT``); values are ordinals
    of ``five_card_order``."""
    path = _cache_file(ranking).with_name(_cache_file(ranking).stem + f"-split{used}.npz")
    arrays = cached_arrays(path, lambda: _build_split(ranking, used))
    return arrays["value"], arrays["present"]


MAX_TABLE_HOLE = 4  # a hole table of 5 hole cards would take 76 MB


@cache
def hole_table(ranking: Ranking, hole_cards: int, hand_splits: tuple[int, ...]) -> np.ndarray:
    """``uint16[board multiset * H + hole multiset]`` (H the number of ``hole_cards``-card rank
    multisets, in ``START``/``LO_INDEX`` order): with exactly h of the hole cards playing (h in
    ``hand_splits``) and a 5-card board, the ordinal of the best non-flush hand, which is the
    best of the split tables' entries over every allowed (hole part, board part).

    One read per hand instead of one per hole subset (ten for three hole cards). At 5.6 MB
    (three hole cards) or 22 MB (four) it is far beyond L2, so the kernel prefetches it
    (``split_kernels.hole_table_kernel``). Built from the cached split tables in about a second, a
    block of boards at a time, so it is not stored on disk.
    """
    five, holes = rank_multisets(5), rank_multisets(hole_cards)
    rank_index = hole_rank_index()
    pairs = np.stack(
        [rank_index[2, five[:, x] * 13 + five[:, y]] for x, y in itertools.combinations(range(5), 2)], axis=1
    )
    best = np.zeros((len(five), len(holes)), dtype=np.uint16)
    for used in hand_splits:
        value, _ = split_tables(ranking, used)
        codes = [
            sum((holes[:, j] * 13 ** (used - 1 - k) for k, j in enumerate(js)), np.zeros(len(holes), np.int64))
            for js in itertools.combinations(range(hole_cards), used)
        ]
        parts = np.stack([rank_index[used, c] for c in codes], axis=1)  # [hole multiset, its parts]
        for first in range(0, len(five), 512):
            boards = slice(first, first + 512)
            if used == PART_MAJOR_SPLIT:  # [triple, board pair]: each triple's best over the board's pairs
                by_part = value.reshape(-1, N_PAIRS)[:, pairs[boards]].max(axis=2).T
            else:  # [board, hole part]
                by_part = value.reshape(len(five), -1)[boards]
            best[boards] = np.maximum(best[boards], by_part[:, parts].max(axis=2))
    return best.ravel()


# The k lowest set bits of an 8-bit mask (k = 0..5), for picking a low's board cards.
LOWEST_BITS = np.zeros((6, 256), dtype=np.int64)
for _k in range(6):
    for _mask in range(256):
        _bits = [b for b in range(8) if _mask >> b & 1][:_k]
        LOWEST_BITS[_k, _mask] = sum(1 << b for b in _bits) if len(_bits) == _k else -1


@cache
def split_low_table(qualifier: int, hand_splits: tuple[int, ...]) -> np.ndarray:
    """``uint32[256 * 256]``: by ``board_low << 8 | hole_low`` (masks of the distinct low ranks,
    bit 0 the ace), the best low taking exactly h of the hole's ranks for an allowed h and the
    rest from the board's, or 0. For each h-subset S of the hole's ranks the best completion is
    the board's lowest 5 - h ranks outside S, so one table read replaces every subset's work.

    >>> from evaluator.reference import low_strength
    >>> table = split_low_table(8, (2,))  # Omaha: exactly two hole cards
    >>> board_a25, hole_34 = 0b00010011, 0b00001100  # bit 0 the ace, bit r - 1 the rank r
    >>> int(table[board_a25 << 8 | hole_34]) == low_strength((5, 4, 3, 2, 1))
    True
    >>> int(table[0b00011111 << 8 | 0b00100000])  # a wheel on the board, one low hole rank
    0
    """
    low_value = low_table(qualifier).astype(np.int64)
    masks = np.arange(256)
    table = np.zeros((256, 256), dtype=np.int64)  # [board_low, hole_low]
    for used in hand_splits:
        for subset in masks[np.array([bin(m).count("1") == used for m in masks])]:
            rest = LOWEST_BITS[5 - used, masks & ~subset]  # by board mask; -1 if too few ranks
            value = np.where(rest >= 0, low_value[(subset | rest) & 0xFF], 0)
            holds = (masks & subset) == subset  # hole masks containing the subset
            table[:, holds] = np.maximum(table[:, holds], value[:, None])
    return table.astype(np.uint32).ravel()
