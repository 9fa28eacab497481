"""Board textures: hand-picked boards get the documented class, every 5-card board's class
against an exact count, and the job's statistics against the reference evaluator."""

# Every column the textures study publishes (jobs/textures.py) and the independent value each is
# checked against (tests in this file):
#
# textures (one row per texture class present)
#   pairing, suit, straight, skip, low   the rule book's lists of straights and skips and the
#                  low definition, board by board -> test_job_tables_equal_the_reference; over all
#                  2,598,960 boards against hand counts and an exact count over rank multisets ->
#                  test_every_board_against_an_exact_count; hand-picked boards -> test_hand_picked_boards*
#   deals, frequency, frequency_se (binomial over all deals)
#                  -> test_job_tables_equal_the_reference (counts over the run's own deals);
#                  pairing and suit frequencies within 4 SE of exact probabilities ->
#                  test_sampled_frequencies_match_exact_probabilities
#   hi_chop, low_exists, scoop and each *_se (binomial over the row's deals), win_<category>
#   (share of the row's deals won by the category; no SE column)
#                  -> the reference evaluator and RULES section 6 on the run's own deals in
#                  unequal shards: test_job_tables_equal_the_reference
# flops (one row per 1,755 flop classes)
#   flop, example  cards.class_name of the first three board cards; the example's class name is
#                  the row's -> test_job_tables_equal_the_reference
#   deals, frequency, frequency_se, hi_chop, low_exists, scoop and their *_se
#                  -> test_job_tables_equal_the_reference; suited, paired and trips flop shares
#                  against hand counts -> test_sampled_frequencies_match_exact_probabilities

import dataclasses
import itertools
import math
from collections import Counter
from fractions import Fraction
from math import comb, prod

import numpy as np
import polars as pl
import pytest

from evaluator import reference
from evaluator.cards import class_name, hand_classes, parse_cards
from evaluator.deal import deal_cards as real_deal_cards
from evaluator.games import game
from jobs import STUDIES, textures
from jobs.common import game_of
from jobs.textures import SKIPS, STRAIGHTS, _labels, add_boards, texture_of
from pipeline import runner
from pipeline.backends import SerialBackend
from pipeline.plan import RunConfig
from tests.helpers import execute


@pytest.mark.parametrize(
    "board, expected",
    [
        ("As 2h 3d 4c 5s", ("none", "<=2", "0", "2", "0")),  # wheel: straight and 5-low on board
        ("2h 4h 6h 8h Th", ("none", "5", "2", "0", "2")),  # skip flush on board; any straight needs 2
        ("Kh Kd Ks 7c 7d", ("trips+", "<=2", "none", "3", "none")),  # no straight holds 7 and K; 5-7-9-J-K does
        ("Qs Qh 9d 9c 2s", ("two_pair", "<=2", "3", "none", "none")),  # every skip holds one board rank at most
        ("Ac 3c 8d Jd Kh", ("none", "<=2", "2", "3", "3")),  # T-J-Q-K-A needs T, Q; A, 3 are the only lows
        ("9s 9h 9d 9c Ks", ("trips+", "<=2", "3", "3", "none")),  # quads are trips+; 9-T-J-Q-K, 5-7-9-J-K need 3
        ("Ah 3h 5h 7d 9c", ("none", "3", "2", "0", "1")),  # A-3-5-7-9 on board; A-2-3-4-5 needs 2, 3-4-5-6-7 too
        ("6c 8c Tc Qc Kd", ("none", "4", "2", "1", "none")),  # 6-8-T-Q-A needs the ace; T-J-Q-K-A needs J, A
    ],
)
def test_hand_picked_boards(board, expected):
    """Each feature follows the module doc: pairing, most suited, hole cards needed by rank."""
    cards = np.array(parse_cards(board), dtype=np.uint8)
    assert _labels(texture_of(cards, STRAIGHTS, SKIPS, 7)) == expected


@pytest.mark.parametrize(
    "board, low_limit, expected",
    [
        ("As 2h 3d 4c 8s", 8, ("none", "<=2", "1", "2", "0")),  # 8-4-3-2-A is an 8-low on board
        ("As 2h 3d 4c 8s", 7, ("none", "<=2", "1", "2", "1")),  # without the 8, one more low card
        ("As 2h 3d 4c 8s", 6, ("none", "<=2", "1", "2", "1")),
        ("6s 7h 8d Kc Ks", 6, ("pair", "<=2", "2", "3", "none")),  # only the 6 is low: needs 4
        ("6s 7h 8d Kc Ks", 0, ("pair", "<=2", "2", "3", "none")),  # no low game
    ],
)
def test_hand_picked_boards_low_qualifiers(board, low_limit, expected):
    """The low feature counts the board's distinct ranks at or under the qualifier, ace low."""
    cards = np.array(parse_cards(board), dtype=np.uint8)
    assert _labels(texture_of(cards, STRAIGHTS, SKIPS, low_limit)) == expected


def test_no_skips_in_a_ranking_without_them():
    """A ranking without skip straights (hold'em) labels every board's skip feature none."""
    cards = np.array(parse_cards("2h 4h 6h 8h Th"), dtype=np.uint8)
    assert _labels(texture_of(cards, STRAIGHTS, SKIPS[:0], 0)) == ("none", "5", "2", "none", "none")


# --- an independent texture, from the rule book's lists of straights and skips ------------

RANKS = "23456789TJQKA"
# RULES section 4, written out: ten straights (A-2-3-4-5 .. T-J-Q-K-A) and six skip straights.
STRAIGHT_RUNS = ("A2345", "23456", "34567", "45678", "56789", "6789T", "789TJ", "89TJQ", "9TJQK", "TJQKA")
SKIP_RUNS = ("A3579", "2468T", "3579J", "468TQ", "579JK", "68TQA")
LOW_RANKS = "A2345678"  # ace low; a qualifier q allows the first q of these


def _need(count: int) -> str:
    return str(count) if count <= 3 else "none"


def _rank_labels(ranks: str, has_skips: bool, low: int | None) -> tuple[str, str, str, str]:
    """(pairing, straight, skip, low) of five board ranks, straight from the definitions."""
    counts = sorted(Counter(ranks).values(), reverse=True)
    pairing = "trips+" if counts[0] >= 3 else {0: "none", 1: "pair", 2: "two_pair"}[counts.count(2)]
    distinct = set(ranks)
    straight = _need(min(len(set(run) - distinct) for run in STRAIGHT_RUNS))
    skip = _need(min(len(set(run) - distinct) for run in SKIP_RUNS)) if has_skips else "none"
    low_need = _need(5 - len(distinct & set(LOW_RANKS[:low]))) if low else "none"
    return pairing, straight, skip, low_need


def _board_labels(cards, has_skips: bool, low: int | None) -> tuple[str, str, str, str, str]:
    """All five labels of a board, in ``_labels`` order."""
    pairing, straight, skip, low_need = _rank_labels("".join(RANKS[c >> 2] for c in cards), has_skips, low)
    most = max(Counter(c & 3 for c in cards).values())
    return pairing, "<=2" if most <= 2 else str(most), straight, skip, low_need


def _exact_rank_counts(has_skips: bool, low: int | None) -> Counter:
    """Boards per (pairing, straight, skip, low), over the 6,175 multisets of five ranks, each
    standing for prod C(4, copies) boards."""
    out: Counter = Counter()
    for multiset in itertools.combinations_with_replacement(RANKS, 5):
        copies = Counter(multiset).values()
        if max(copies) <= 4:
            out[_rank_labels("".join(multiset), has_skips, low)] += prod(comb(4, c) for c in copies)
    return out


# Boards per feature value, counted by hand (RULES section 9 for the made hands):
PAIRING_COUNTS = {
    "none": comb(13, 5) * 4**5,  # five ranks, any suits: 1,317,888
    "pair": 13 * comb(4, 2) * comb(12, 3) * 4**3,  # 1,098,240
    "two_pair": comb(13, 2) * comb(4, 2) ** 2 * 11 * 4,  # 123,552
    "trips+": 54_912 + 3_744 + 624,  # trips, full house, quads
}
SUIT_COUNTS = {
    "5": 4 * comb(13, 5),  # 5,148
    "4": 4 * comb(13, 4) * 39,  # 111,540
    "3": 4 * comb(13, 3) * comb(39, 2),  # 847,704 (the other two cannot be three of a suit)
}
SUIT_COUNTS["<=2"] = comb(52, 5) - sum(SUIT_COUNTS.values())  # 1,634,568


@pytest.fixture(scope="module")
def every_board():
    return np.array(list(itertools.combinations(range(52), 5)), np.uint8)


@pytest.mark.parametrize("name", ["pls7", "holdem", "plo8"])
def test_every_board_against_an_exact_count(name, every_board):
    """All 2,598,960 boards through the job's accumulation: pairing and suit counts as counted
    by hand, 10,240 straights, 6,144 skips and 21,504 7-lows (57,344 8-lows) on board, and the
    joint (pairing, straight, skip, low) counts equal to an exact count over rank multisets."""
    g = game(name)
    skips = SKIPS if g.ranking.has_skips else SKIPS[:0]
    lookup, sizes, _, _ = hand_classes(3)
    texture_counts = np.zeros((textures.N_TEXTURES, len(textures.STAT_FIELDS)), np.int64)
    texture_wins = np.zeros((textures.N_TEXTURES, textures.N_CATEGORIES), np.int64)
    flop_counts = np.zeros((len(sizes), len(textures.STAT_FIELDS)), np.int64)
    outcomes = np.zeros((len(every_board), 1), np.int16)
    add_boards(
        every_board, outcomes, 0, STRAIGHTS, skips, g.low or 0, lookup, texture_counts, texture_wins, flop_counts
    )
    got: Counter = Counter()
    for t in np.flatnonzero(texture_counts[:, 0]):
        got[_labels(t)] += int(texture_counts[t, 0])
    assert sum(got.values()) == comb(52, 5)
    pairing, suit, straight, skip, low = (Counter() for _ in range(5))
    for (p, s, st, sk, lo), n in got.items():
        pairing[p] += n
        suit[s] += n
        straight[st] += n
        skip[sk] += n
        low[lo] += n
    assert pairing == PAIRING_COUNTS
    assert suit == SUIT_COUNTS
    assert straight["0"] == 10 * 4**5  # RULES 9: 10,200 straights + 36 straight flushes + 4 royals
    assert skip["0"] == (6 * 4**5 if g.ranking.has_skips else 0)  # 6,120 skips + 24 skip flushes
    assert low["0"] == {7: 21_504, 8: 57_344, None: 0}[g.low]  # RULES 9, and C(8, 5) * 4^5
    by_ranks: Counter = Counter()
    for (p, _, st, sk, lo), n in got.items():
        by_ranks[(p, st, sk, lo)] += n
    assert by_ranks == _exact_rank_counts(g.ranking.has_skips, g.low)


# --- the job's statistics against the reference evaluator ---------------------------------


def _outcome(g, holes, board):
    """(hi_chop, low_exists, scoop, winning high category) of one showdown, by the reference
    and RULES section 6 (a scoop: one player's share is the whole pot)."""
    shows = [reference.showdown(g, hole, board) for hole in holes]
    highs = [s.high.strength for s in shows]
    lows = [s.low.strength if s.low else 0 for s in shows]
    high_winners = [p for p, h in enumerate(highs) if h == max(highs)]
    low_winners = [p for p, lo in enumerate(lows) if lo and lo == max(lows)]
    shares = [Fraction(0)] * len(holes)
    for winners, pot in ((high_winners, Fraction(1, 2) if low_winners else Fraction(1)), (low_winners, Fraction(1, 2))):
        for p in winners:
            shares[p] += pot / len(winners)
    category = shows[high_winners[0]].high.category
    return len(high_winners) >= 2, bool(low_winners), max(shares) == 1, category


def _binomial(successes, trials):
    """A rate and its binomial standard error, by the textbook formula."""
    p = successes / trials
    return p, math.sqrt(p * (1 - p) / trials)


@pytest.mark.untraced
@pytest.mark.parametrize("name, players, deals", [("pls7", 6, 400), ("plo8", 4, 300)])
def test_job_tables_equal_the_reference(name, players, deals, tmp_path):
    """On a run in two unequal shards, every column of both tables equals a count over its own
    deals with the reference evaluator: the texture labels (from the rule book's straights and
    skips), deals, frequency (of all deals) and hi_chop, low_exists, scoop (of the row's deals)
    with binomial standard errors per deal, the winning categories' shares; for the flop classes
    (from ``cards.class_name``) the same rates and an example flop of the class."""
    dealt = []

    def spy(*args, **kwargs):
        cards = real_deal_cards(*args, **kwargs)
        dealt.append(cards.copy())
        return cards

    config = RunConfig(job="textures", game=name, deals=deals, shard_deals=deals * 3 // 4, players=players, seed=3)
    g = game_of(config)
    study = dataclasses.replace(STUDIES["textures"], prepare=lambda config: None)  # no warm-up deals
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(textures, "deal_cards", spy)
        run_dir = runner.execute(study, config, SerialBackend(), tmp_path, quiet=True)
    tables = {t: pl.read_parquet(run_dir / "tables" / f"{t}.parquet") for t in ("textures", "flops")}
    dealt = np.concatenate(dealt)
    assert len(dealt) == deals
    by_texture: dict = {}
    by_flop: dict = {}
    h = g.hole_cards
    for cards in dealt.tolist():
        holes = [cards[p * h : (p + 1) * h] for p in range(players)]
        board = cards[players * h :]
        chop, low, scoop, category = _outcome(g, holes, board)
        row = by_texture.setdefault(_board_labels(board, g.ranking.has_skips, g.low), Counter())
        row.update(deals=1, hi_chop=chop, low_exists=low, scoop=scoop, **{f"win_{category.name}": 1})
        by_flop.setdefault(class_name(board[:3]), Counter()).update(deals=1, hi_chop=chop, low_exists=low, scoop=scoop)
    wins = [f"win_{c.name}" for c in g.ranking.order]
    assert tables["textures"].columns == [
        "pairing",
        "suit",
        "straight",
        "skip",
        "low",
        "deals",
        "frequency",
        "frequency_se",
        "hi_chop",
        "hi_chop_se",
        "low_exists",
        "low_exists_se",
        "scoop",
        "scoop_se",
        *wins,
    ]
    got = {
        r["pairing"] + " " + r["suit"] + " " + r["straight"] + " " + r["skip"] + " " + r["low"]: r
        for r in tables["textures"].iter_rows(named=True)
    }
    assert set(got) == {" ".join(key) for key in by_texture}
    flops = {r["flop"]: r for r in tables["flops"].iter_rows(named=True)}
    assert len(flops) == 1755 and sum(r["deals"] for r in flops.values()) == deals
    for flop, row in flops.items():
        assert class_name(parse_cards(row["example"])) == flop
        if flop not in by_flop:
            assert row["deals"] == 0 and row["frequency"] == 0 and row["frequency_se"] == 0
    for rows, expected in ((got, {" ".join(key): want for key, want in by_texture.items()}), (flops, by_flop)):
        for key, want in expected.items():
            row = rows[key]
            n = want["deals"]
            assert row["deals"] == n, key
            frequency, frequency_se = _binomial(n, deals)
            assert row["frequency"] == pytest.approx(frequency, abs=1e-12), key
            assert row["frequency_se"] == pytest.approx(frequency_se, abs=1e-12), key
            for field in ("hi_chop", "low_exists", "scoop"):
                rate, se = _binomial(want[field], n)
                assert row[field] == pytest.approx(rate, abs=1e-12), (key, field)
                assert row[f"{field}_se"] == pytest.approx(se, abs=1e-12), (key, field)
    for key, want in by_texture.items():
        for column in wins:
            assert got[" ".join(key)][column] == pytest.approx(want[column] / want["deals"], abs=1e-12), (key, column)


def test_sampled_frequencies_match_exact_probabilities(tmp_path):
    """A 30,000-deal run: each board pairing's frequency and the shares of suited, paired and
    trips flops lie within 4 standard errors of their exact probabilities (counted by hand)."""
    deals = 30_000
    config = RunConfig(job="textures", game="pls7", deals=deals, shard_deals=15_000, players=6, seed=2)
    run_dir = execute(config, SerialBackend(), tmp_path, quiet=True)
    t = pl.read_parquet(run_dir / "tables" / "textures.parquet")
    flops = pl.read_csv(run_dir / "tables" / "flops.csv")
    assert t["deals"].sum() == deals and flops.height == 1755

    def within_4_se(observed: int, p: float) -> bool:
        return abs(observed / deals - p) <= 4 * (p * (1 - p) / deals) ** 0.5

    for pairing, count in PAIRING_COUNTS.items():
        assert within_4_se(t.filter(pl.col("pairing") == pairing)["deals"].sum(), count / comb(52, 5)), pairing
    for suit, count in SUIT_COUNTS.items():
        assert within_4_se(t.filter(pl.col("suit") == suit)["deals"].sum(), count / comb(52, 5)), suit
    pattern = flops["flop"].str.split(" ").list.get(1)
    ranks = flops["flop"].str.split(" ").list.get(0)
    one_rank = ranks.str.slice(0, 1) == ranks.str.slice(2, 1)
    paired = (ranks.str.slice(0, 1) == ranks.str.slice(1, 1)) | (ranks.str.slice(1, 1) == ranks.str.slice(2, 1))
    flop_total = comb(52, 3)  # 22,100 flops
    assert within_4_se(flops.filter(pattern == "aaa")["deals"].sum(), 4 * comb(13, 3) / flop_total)  # 1,144 suited
    assert within_4_se(flops.filter(paired & ~one_rank)["deals"].sum(), 13 * 6 * 48 / flop_total)  # 3,744 paired
    assert within_4_se(flops.filter(one_rank)["deals"].sum(), 13 * 4 / flop_total)  # 52 trips
