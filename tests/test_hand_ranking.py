"""jobs.hand_ranking for 4-card games: the sampled class strengths study, and the ranking
(``engine.ranking``) built from its table.

The default tests run the study with a small sample (``SMALL`` deals per class) into a
temporary folder; the full table (``SAMPLES`` deals per class, in the cache folder the CLI
uses) is built by the slow test. The checks against independent estimates sample the chosen
classes exactly as the full table does (same function, seed and sample count), so they check
the full table's values.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

import jobs.hand_ranking as hr
from evaluator import reference
from evaluator.cards import RANKS, SUITS, iso_classes, parse_cards
from evaluator.errors import SampyongError
from evaluator.games import game
from jobs.hand_ranking import ranking_from, strength_runs
from pipeline.backends import SerialBackend
from pipeline.runner import execute_all, read_tables

PLO, PLO8 = game("plo"), game("plo8")
SMALL = 4096  # deals per class in the default tests' table: SE <= 0.8 percentage points
AAKK_DS = "As Ks Ah Kh"
TRASH = "2s 3h 4d 8c"  # rainbow, no pair, a gap


@pytest.fixture(scope="module")
def iso4():
    return iso_classes(4)


def class_of(iso4, text: str) -> int:
    hands, class_of_hand, _ = iso4
    return int(class_of_hand[np.flatnonzero((hands == sorted(parse_cards(text))).all(axis=1))[0]])


def sampled(game_, iso4, text: str, samples: int = hr.SAMPLES) -> tuple[float, float]:
    """(equity, se) of ``text``'s class as the full table samples it: its representative, its seed."""
    cls = class_of(iso4, text)
    total, squares = hr.sample_classes(game_, hr.representatives(4)[[cls]], [cls], samples)
    mean = total[0] / (4 * samples)
    variance = (squares[0] / 16 - samples * mean * mean) / (samples - 1)
    return mean, math.sqrt(variance / samples)


def random_deals(hand: list[int], deals: int, seed: int) -> np.ndarray:
    """``int[deals, 9]``: opponent's 4 cards then 5 board cards, uniformly from the other 48 cards."""
    rest = np.setdiff1d(np.arange(52), hand)
    rng = np.random.default_rng(seed)
    return rest[rng.random((deals, rest.size)).argsort(axis=1)[:, :9]]


def eval7_equity(text: str, deals: int, seed: int) -> tuple[float, float]:
    """High-only heads-up equity by eval7 (exactly two hole and three board cards): mean, SE."""
    eval7 = pytest.importorskip("eval7")
    cards = [eval7.Card(RANKS[c >> 2] + SUITS[c & 3]) for c in range(52)]

    def best(hole, board):
        return max(
            eval7.evaluate([cards[c] for c in h + b])
            for h in itertools.combinations(hole, 2)
            for b in itertools.combinations(board, 3)
        )

    hand = parse_cards(text)
    shares = []
    for row in random_deals(hand, deals, seed).tolist():
        mine, theirs = best(hand, row[4:]), best(row[:4], row[4:])
        shares.append(1.0 if mine > theirs else 0.5 if mine == theirs else 0.0)
    return float(np.mean(shares)), float(np.std(shares, ddof=1) / math.sqrt(deals))


def reference_equities(game_, text: str, deals: int, seed: int):
    """Heads-up equity by the slow reference evaluator over the same deals: hi-lo (the high half
    and the low half each split by ties; no qualifying low, the high takes all) and high only."""
    hand = parse_cards(text)
    hilo, high_only = [], []
    for row in random_deals(hand, deals, seed).tolist():
        mine, theirs = reference.showdown(game_, hand, row[4:]), reference.showdown(game_, row[:4], row[4:])
        high = (
            1.0
            if mine.high.strength > theirs.high.strength
            else 0.5
            if mine.high.strength == theirs.high.strength
            else 0.0
        )
        lows = [s.low.strength if s.low is not None else 0 for s in (mine, theirs)]
        if max(lows) > 0:
            hilo.append(high / 2 + (0.5 if lows[0] > lows[1] else 0.25 if lows[0] == lows[1] else 0.0))
        else:
            hilo.append(high)
        high_only.append(high)
    se = lambda xs: float(np.std(xs, ddof=1) / math.sqrt(deals))  # noqa: E731
    return (float(np.mean(hilo)), se(hilo)), (float(np.mean(high_only)), se(high_only))


@pytest.fixture(scope="module")
def small_run(tmp_path_factory):
    """The study's run for PLO with ``SMALL`` deals per class (serial), done once for the module."""
    out = tmp_path_factory.mktemp("runs")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(hr, "SAMPLES", SMALL)
        (run_dir,) = execute_all(strength_runs(PLO), SerialBackend(), out, quiet=True, upstream=True)
        yield run_dir


@pytest.mark.untraced
@pytest.mark.parametrize("text", [AAKK_DS, "Ks Qh 7d 5c", "2s 3h 7d 8c"])
def test_plo_equity_agrees_with_eval7(iso4, text):
    """A PLO class's sampled equity agrees within 4 SE with eval7's on 10,000 independent numpy deals."""
    mine, mine_se = sampled(PLO, iso4, text)
    theirs, theirs_se = eval7_equity(text, 10_000, seed=7)
    assert mine_se < 0.005
    assert abs(mine - theirs) < 4 * math.hypot(mine_se, theirs_se), (mine, theirs)


def test_sanity_anchors(iso4):
    """AAKK double-suited wins 69-74 % against a random PLO hand (about 71 %; eval7 agrees) and
    quad deuces, which can only play two deuces with three board cards, 7-12 % (about 9 %)."""
    assert 0.69 < sampled(PLO, iso4, AAKK_DS)[0] < 0.74
    assert 0.07 < sampled(PLO, iso4, "2s 2h 2d 2c")[0] < 0.12


@pytest.mark.untraced
def test_plo8_is_hi_lo_and_plo_high_only(iso4):
    """A23K double-suited in PLO8 gets its hi-lo share (as the reference rule book splits the pot,
    1,200 deals), in PLO its high share, and the two differ by more than 5 points."""
    text = "As 2s 3d Kd"
    (hilo, hilo_se), _ = reference_equities(PLO8, text, 1200, seed=11)
    _, (high, high_se) = reference_equities(PLO, text, 1200, seed=11)
    plo8, plo8_se = sampled(PLO8, iso4, text)
    plo, plo_se = sampled(PLO, iso4, text)
    assert abs(plo8 - hilo) < 4 * math.hypot(plo8_se, hilo_se), (plo8, hilo)
    assert abs(plo - high) < 4 * math.hypot(plo_se, high_se), (plo, high)
    assert plo8 - plo > 0.05  # more than the 4-SE tolerances above: high-only would fail there


@pytest.mark.untraced
def test_order_puts_aakk_top_and_trash_bottom(small_run):
    """AAKK double-suited is in PLO's top 0.1 % of hands and 2-3-4-8 rainbow is not in the top half."""
    ranking = ranking_from(PLO, [read_tables(small_run)])
    assert tuple(sorted(parse_cards(AAKK_DS))) in ranking.top(0.1)
    assert tuple(sorted(parse_cards(TRASH))) not in ranking.top(50)
    assert ranking(parse_cards(AAKK_DS)) < 0.001 < 0.5 < ranking(parse_cards(TRASH))


@pytest.mark.untraced
def test_every_hand_once(small_run):
    """Each of the 270,725 four-card hands is in exactly one of the 16,432 classes, every class
    has a strength in [0, 1] with its standard error, and the top 100 % is every hand."""
    table = read_tables(small_run)["strengths"]
    assert table["class"].to_list() == list(range(16_432)) and table["samples"].unique().to_list() == [SMALL]
    assert table["equity"].min() >= 0 and table["equity"].max() <= 1 and table["se"].max() < 0.008
    ranking = ranking_from(PLO, [read_tables(small_run)])
    assert ranking.top(100) == set(itertools.combinations(range(52), 4))
    assert sorted(ranking.percentile)[0] == 0 and ranking.percentile.max() < 1


def test_a_complete_run_is_read_not_run_again(small_run):
    """Asked again, the complete strength run is only read: no shard runs and its report stays."""

    class Counting(SerialBackend):
        tasks = 0

        def run(self, tasks, on_result, on_status=None):
            Counting.tasks += len(tasks)
            super().run(tasks, on_result, on_status)

    report = small_run / "report.md"
    before = report.stat().st_mtime_ns
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(hr, "SAMPLES", SMALL)
        (again,) = execute_all(strength_runs(PLO), Counting(), small_run.parents[1], quiet=True, upstream=True)
    assert again == small_run and Counting.tasks == 0 and report.stat().st_mtime_ns == before


def test_table_is_the_same_however_batched(small_run):
    """Classes sampled alone, in this process, give bit for bit the rows the shards wrote."""
    table = read_tables(small_run)["strengths"]
    ids = np.array([0, 5_000, 16_431])
    total, _ = hr.sample_classes(PLO, hr.representatives(4)[ids], ids, SMALL)
    assert (total / (4 * SMALL)).tolist() == table["equity"].to_numpy()[ids].tolist()


def test_five_hole_cards_refused():
    """Games of 5 hole cards get a one-line SampyongError, not a ranking."""
    with pytest.raises(SampyongError) as error:
        strength_runs(game("plo5-8"))
    assert "\n" not in str(error.value) and "5" in str(error.value)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["plo", "plo8"])
def test_full_table(name, iso4):
    """The full table (its run done once into the cache folder, on an embedded Ray) has every
    class at SAMPLES deals with an SE under 0.4 points, rows equal to classes sampled alone, and
    for PLO AAKK double-suited in the top 0.1 % and 2-3-4-8 rainbow in the bottom half."""
    import time

    from tests.helpers import UPSTREAM, ranking

    g = game(name)
    started = time.perf_counter()
    ranked = ranking(g)
    print(f"{name}: {time.perf_counter() - started:.1f} s")
    (run_dir,) = execute_all(strength_runs(g), SerialBackend(), UPSTREAM, quiet=True, upstream=True)
    table = read_tables(run_dir)["strengths"]
    assert table.height == 16_432 and table["samples"].unique().to_list() == [hr.SAMPLES]
    assert table["se"].max() < 0.004
    ids = np.array([class_of(iso4, AAKK_DS), class_of(iso4, TRASH), 8_000])
    total, _ = hr.sample_classes(g, hr.representatives(4)[ids], ids)
    assert (total / (4 * hr.SAMPLES)).tolist() == table["equity"].to_numpy()[ids].tolist()
    if name == "plo":
        assert tuple(sorted(parse_cards(AAKK_DS))) in ranked.top(0.1)
        assert tuple(sorted(parse_cards(TRASH))) not in ranked.top(50)
