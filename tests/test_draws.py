"""Turn draws against trips: hand-counted spots and a brute force over the rivers with the
reference evaluator, against the job's tables."""

# Every column the draws study publishes (jobs/draws.py) and the independent value each is
# checked against (tests in this file):
#
# draws (one row per draw and outs)
#   draw, outs, spots, share (of all spots), equity (mean exact pot share over the rivers),
#   equity_se (spot to spot), high_win (outs over the unseen rivers)
#       -> every river of the same sampled turns with the reference evaluator and RULES section 6,
#          through unequal shards and the pipeline's sums: test_tables_equal_a_reference_brute_force
#          (pls7, pls7[ranking=trips_over_straight], plo8; slow: pls, pls7-2, holdem);
#          hand-counted spots: test_hand_made_spots_through_the_job, and the equity calculator on
#          one of them: test_hand_made_spot_outs_and_equity
# draw_types (one row per draw)
#   draw, spots, share, mean_outs, equity, equity_se
#       -> test_tables_equal_a_reference_brute_force; test_hand_made_spots_through_the_job (mean_outs)

import dataclasses
import statistics
from fractions import Fraction

import numpy as np
import polars as pl
import pytest

from evaluator import reference
from evaluator.cards import parse_cards
from evaluator.deal import deal_cards as real_deal_cards
from evaluator.equity import equity
from evaluator.games import Category
from jobs import STUDIES, draws
from jobs.common import game_of
from pipeline import runner
from pipeline.backends import SerialBackend
from pipeline.plan import RunConfig, ShardSpec
from tests.helpers import execute

C = Category
# The rule book's groups of categories above trips (RULES section 4), written out here.
GROUP_NAMES = ("straight", "skip_straight", "flush", "full_house+")
GROUP_OF = {
    C.straight: "straight",
    C.skip_straight: "skip_straight",
    C.flush: "flush",
    C.full_house: "full_house+",
    C.four_of_a_kind: "full_house+",
    C.straight_flush: "full_house+",
    C.skip_straight_flush: "full_house+",
    C.royal_flush: "full_house+",
}


def test_hand_made_spot_outs_and_equity():
    """Hero 8h 9h 3c against trip kings (Kc Kd 4s) on Ks 6h 7d 2d: 8 outs of 42 rivers.

    Counted by hand: a 5 or a T (four each) makes the hero's straight without pairing the
    board; no one card makes a skip (3-5-7-9-J needs two) or a flush; a paired board only
    improves the villain.
    """
    game = "pls"
    hero, villain, board = "8h 9h 3c", "Kc Kd 4s", "Ks 6h 7d 2d"
    result = equity(game, [hero, villain], board=board)
    seen = set(parse_cards(f"{hero} {villain} {board}"))
    rivers = [c for c in range(52) if c not in seen]
    assert result["exact"] and result["samples"] == len(rivers) == 42
    assert round(result["hands"][0]["equity"] * 42) == 8


def test_draw_tables(tmp_path):
    """draws.csv and draw_types.csv have the documented columns, one row per draw and outs."""
    config = RunConfig(job="draws", game="pls7", deals=60_000, shard_deals=30_000, players=2, seed=4)
    run_dir = execute(config, SerialBackend(), tmp_path, quiet=True)
    table = pl.read_csv(run_dir / "tables" / "draws.csv")
    types = pl.read_csv(run_dir / "tables" / "draw_types.csv")
    assert table.columns == ["draw", "outs", "spots", "share", "equity", "equity_se", "high_win"]
    assert types.columns == ["draw", "spots", "share", "mean_outs", "equity", "equity_se"]
    assert table.select("draw", "outs").is_unique().all() and types["draw"].is_unique().all()
    assert table["spots"].sum() == types["spots"].sum() > 0


# --- hand-made spots through the job ------------------------------------------------------


def _relabel(text: str, suits: dict[str, str]) -> str:
    """The same cards with suit letters renamed."""
    return " ".join(card[0] + suits[card[1]] for card in text.split())


# (seat 0 = hero, seat 1 = villain, turn board), hands of the pls game (3 hole cards).
STRAIGHT_SPOT = ("8h 9h 3c", "Kc Kd 4s", "Ks 6h 7d 2d")
# Hand count: the hero's hearts Ah Qh with Kh 8h make four hearts; the 9 unseen hearts
# (2h 3h 4h 5h 6h 7h 9h Th Jh) lift the hero to a flush, nothing else lifts him (A-K-Q needs
# J and T, A-2-3 needs 4 and 5, 6-8-T-Q-A needs 6 and T); 2h, 4h and 9h pair the villain's
# 2, 4 or 9 into kings full: 6 outs of 42 rivers.
FLUSH_SPOT = ("Ah Qh 3c", "Kd 9c 4s", "Kh 8h 2s Kc")
# Hand count: a 5 or a T makes 5-6-7-8-9 or 6-7-8-9-T, a heart a flush, 5h and Th a straight
# flush (all three groups lift). Outs: 5s 5d 5c Ts Td Tc (6 straights), 5h Th (2 straight
# flushes), and of the other 7 unseen hearts 2h 3h 4h Jh Qh Kh Ah the 2h and 4h fill the
# villain up and Kh makes his quads: 4 flushes. 6 + 2 + 4 = 12 outs of 42 rivers.
COMBO_SPOT = ("8h 9h 3c", "Kc Kd 4s", "Ks 6h 7h 2d")
NOT_SPOTS = [
    ("Kc Kd 4s", "8h 9h 3c", "Ks 6h 7d 2d"),  # seat 1 (the villain seat) has no trips
    ("Ac Ad 4s", "Kc Kd 3s", "Ks Ah 7d 2d"),  # the hero's trip aces already beat trip kings
    ("8h 9h 3c", "Qc Qd 4s", "Ks 6h 7d 2d"),  # the villain has one pair, not trips
    ("8h 9h 3c", "Kc Kd 7s", "Ks 7h 7d 2d"),  # the villain has a full house, not trips
]


def _deals(rows) -> np.ndarray:
    return np.array([parse_cards(" ".join(row)) for row in rows], dtype=np.uint8)


def test_hand_made_spots_through_the_job(monkeypatch):
    """Hand-counted spots fed to the job's shard land in their draw rows with the counted
    outs, high_win = outs / 42 and (high only) equity = outs / 42; other turns are no spots."""
    swapped = {"s": "h", "h": "s", "d": "d", "c": "c"}
    rows = [
        STRAIGHT_SPOT,
        tuple(_relabel(part, swapped) for part in STRAIGHT_SPOT),  # the same spot, suits renamed
        FLUSH_SPOT,
        COMBO_SPOT,
        *NOT_SPOTS,
    ]
    fixed = _deals(rows)
    monkeypatch.setattr(draws, "deal_cards", lambda rng, n, cards: fixed[:n].copy())
    config = RunConfig(job="draws", game="pls", deals=len(fixed), shard_deals=len(fixed), players=2, seed=0)
    counts = draws.run_shard(config, ShardSpec(index=0, deals=len(fixed), root_seed=0))
    tables = draws.summarize({"draws": pl.from_arrow(counts["draws"])}, config)
    got = {(r["draw"], r["outs"]): r for r in tables["draws"].iter_rows(named=True)}
    assert set(got) == {("straight", 8), ("flush", 6), ("straight+flush+full_house+", 12)}
    for (draw, outs), spots in ((("straight", 8), 2), (("flush", 6), 1), (("straight+flush+full_house+", 12), 1)):
        row = got[(draw, outs)]
        assert row["spots"] == spots and row["share"] == pytest.approx(spots / 4)
        assert row["high_win"] == pytest.approx(outs / 42)
        assert row["equity"] == pytest.approx(outs / 42)  # high only, and no river ties
    assert got[("straight", 8)]["equity_se"] == pytest.approx(0, abs=1e-6)  # two equal spots
    types = {r["draw"]: r for r in tables["draw_types"].iter_rows(named=True)}
    assert types["straight"]["mean_outs"] == 8 and types["flush"]["mean_outs"] == 6


# --- brute force over sampled turns with the reference evaluator -------------------------


def _rule_book_shares(highs, lows) -> list[Fraction]:
    """Each player's pot share by RULES section 6 (odd chips ignored), from reference strengths."""
    players = len(highs)
    best_high = max(highs)
    high_winners = [p for p in range(players) if highs[p] == best_high]
    best_low = max(lows)
    low_winners = [p for p in range(players) if best_low > 0 and lows[p] == best_low]
    shares = [Fraction(0)] * players
    high_pot = Fraction(1, 2) if low_winners else Fraction(1)
    for p in high_winners:
        shares[p] += high_pot / len(high_winners)
    for p in low_winners:
        shares[p] += Fraction(1, 2) / len(low_winners)
    return shares


def _strengths(game, hole, board):
    s = reference.showdown(game, hole, board)
    return s.high, (s.low.strength if s.low else 0)


def _reference_spot(game, hero, villain, board4):
    """(draw name, outs, hero's mean pot share over the rivers) of a spot, or None."""
    trips = game.ranking.position(C.three_of_a_kind)
    hero_high, _ = _strengths(game, hero, board4)
    villain_high, _ = _strengths(game, villain, board4)
    if villain_high.category != C.three_of_a_kind or hero_high.strength >= villain_high.strength:
        return None
    seen = set(hero) | set(villain) | set(board4)
    groups, outs, share = set(), 0, Fraction(0)
    rivers = [c for c in range(52) if c not in seen]
    for river in rivers:
        board = [*board4, river]
        (h0, l0), (h1, l1) = _strengths(game, hero, board), _strengths(game, villain, board)
        if game.ranking.position(h0.category) > trips:
            groups.add(GROUP_OF[h0.category])
        outs += h0.strength > h1.strength
        share += _rule_book_shares([h0.strength, h1.strength], [l0, l1])[0]
    if not groups:
        return None
    return "+".join(g for g in GROUP_NAMES if g in groups), outs, share / len(rivers)


def _mean_se(values):
    mean = statistics.fmean(values)
    se = statistics.stdev(values) / len(values) ** 0.5 if len(values) > 1 else None
    return mean, se


def _check_against_reference(game_name, knobs, deals, seed, monkeypatch, tmp_path):
    dealt = []

    def spy(*args, **kwargs):
        cards = real_deal_cards(*args, **kwargs)
        dealt.append(cards.copy())
        return cards

    monkeypatch.setattr(draws, "deal_cards", spy)
    config = RunConfig(
        job="draws", game=game_name, deals=deals, shard_deals=deals * 2 // 3, players=2, seed=seed, **knobs
    )
    game = game_of(config)
    study = dataclasses.replace(STUDIES["draws"], prepare=lambda config: None)  # no warm-up deals
    run_dir = runner.execute(study, config, SerialBackend(), tmp_path, quiet=True)  # 2 unequal shards, summed
    tables = {t: pl.read_parquet(run_dir / "tables" / f"{t}.parquet") for t in ("draws", "draw_types")}
    assert sum(len(d) for d in dealt) == deals
    h = game.hole_cards
    rivers = 52 - 2 * h - 4
    by_row: dict[tuple[str, int], list[float]] = {}
    outs_by_draw: dict[str, list[int]] = {}
    shares_by_draw: dict[str, list[float]] = {}
    for cards in np.concatenate(dealt).tolist():
        spot = _reference_spot(game, cards[:h], cards[h : 2 * h], cards[2 * h :])
        if spot is not None:
            draw, outs, share = spot
            by_row.setdefault((draw, outs), []).append(float(share))
            outs_by_draw.setdefault(draw, []).append(outs)
            shares_by_draw.setdefault(draw, []).append(float(share))
    total = sum(len(v) for v in by_row.values())
    assert total >= 20, "too few spots to check anything"
    got = {(r["draw"], r["outs"]): r for r in tables["draws"].iter_rows(named=True)}
    assert set(got) == set(by_row)
    for key, shares in by_row.items():
        row = got[key]
        mean, se = _mean_se(shares)
        assert row["spots"] == len(shares), key
        assert row["share"] == pytest.approx(len(shares) / total), key
        assert row["high_win"] == pytest.approx(key[1] / rivers), key
        assert row["equity"] == pytest.approx(mean, abs=1e-12), key
        assert row["equity_se"] == (None if se is None else pytest.approx(se, abs=1e-7)), key
    types = {r["draw"]: r for r in tables["draw_types"].iter_rows(named=True)}
    assert set(types) == set(outs_by_draw)
    for draw, outs in outs_by_draw.items():
        mean, se = _mean_se(shares_by_draw[draw])
        assert types[draw]["spots"] == len(outs)
        assert types[draw]["share"] == pytest.approx(len(outs) / total), draw
        assert types[draw]["mean_outs"] == pytest.approx(statistics.fmean(outs))
        assert types[draw]["equity"] == pytest.approx(mean, abs=1e-12)
        assert types[draw]["equity_se"] == (None if se is None else pytest.approx(se, abs=1e-7))


@pytest.mark.parametrize(
    "game_name, knobs, deals",
    [
        ("pls7", {}, 1500),  # free use, 7-or-better low: equity halves the pot
        ("pls7", {"ranking": "trips_over_straight"}, 1500),  # straights are below trips: no straight draws
        ("plo8", {}, 500),  # exactly two hole cards, 8-or-better low
    ],
)
@pytest.mark.untraced
def test_tables_equal_a_reference_brute_force(game_name, knobs, deals, monkeypatch, tmp_path):
    """Every column of both tables of a run in two unequal shards (draws: draw, outs, spots,
    share, equity and its spot-to-spot SE, high_win; draw_types: draw, spots, share, mean_outs,
    equity, equity_se) equals a brute force over every river of the same sampled turns with the
    reference evaluator."""
    _check_against_reference(game_name, knobs, deals, 5, monkeypatch, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize(
    "game_name, knobs", [("pls7", {}), ("pls", {"ranking": "both"}), ("pls7-2", {}), ("holdem", {})]
)
def test_tables_equal_a_reference_brute_force_large(game_name, knobs, monkeypatch, tmp_path, ci_size):
    """Slow: the same brute force on 6,000 sampled turns per game (CI: 1,500)."""
    _check_against_reference(game_name, knobs, ci_size(full=6000, ci=1500), 9, monkeypatch, tmp_path)
