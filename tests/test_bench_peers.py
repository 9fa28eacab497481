"""``bench/evaluator.py --peers``: PokerHandEvaluator's batch entry points build and run through
ctypes, and the order check: a peer's strengths agree with ours exactly when one scale maps to
the other by a strictly monotone function, and every hand of a pair ordered otherwise is counted."""

import importlib.util
from pathlib import Path

import numpy as np

SPEC = importlib.util.spec_from_file_location(
    "bench_evaluator", Path(__file__).parent.parent / "bench" / "evaluator.py"
)
bench = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(bench)


def test_scales_in_the_same_order_agree_whatever_their_values_or_direction():
    """A strictly increasing map (or, for a smaller-is-better peer, a decreasing one) is 0 disagreements."""
    ours = np.random.default_rng(1).integers(0, 500, size=5000)
    assert bench.disagreements(ours, 3 * ours + 7, bigger_is_better=True) == 0
    assert bench.disagreements(ours, 10_000 - ours, bigger_is_better=False) == 0


def test_every_hand_of_a_pair_ordered_otherwise_is_counted():
    """Two strengths swapped, two of ours merged into one of theirs, or one of ours split into two
    of theirs: the hands holding those strengths are the disagreements."""
    ours = np.array([1, 2, 3, 4, 4, 5])
    assert bench.disagreements(ours, np.array([10, 30, 20, 40, 40, 50]), True) == 2  # 2 and 3 swapped
    assert bench.disagreements(ours, np.array([10, 20, 20, 40, 40, 50]), True) == 2  # 2 and 3 tied by the peer
    assert bench.disagreements(ours, np.array([10, 20, 30, 40, 41, 50]), True) == 2  # the two 4s told apart
    assert bench.disagreements(ours, np.array([10, 20, 30, 40, 40, 50]), False) == 6  # the wrong direction


def test_the_batch_entry_points_build_and_read_rows_of_cards(tmp_path, monkeypatch, capsys):
    """``phe_batch.c`` built by ``build`` (cached: built once) over a stand-in for PokerHandEvaluator
    whose rank weighs each card by its place: every row reaches the peer's function whole and in order."""
    monkeypatch.setenv("SAMPYONG_CACHE", str(tmp_path / "cache"))
    (tmp_path / "phevaluator").mkdir()
    (tmp_path / "phevaluator" / "phevaluator.h").write_text(
        "int evaluate_7cards(int, int, int, int, int, int, int);\n"
        "int evaluate_plo4_cards(int, int, int, int, int, int, int, int, int);\n"
    )
    stub = tmp_path / "stub.c"
    stub.write_text(
        "int evaluate_7cards(int a, int b, int c, int d, int e, int f, int g) {\n"
        "  return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g; }\n"
        "int evaluate_plo4_cards(int a, int b, int c, int d, int e, int f, int g, int h, int i) {\n"
        "  return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g + 8 * h + 9 * i; }\n"
    )
    sources = [bench.PEERS / "phe_batch.c", stub]
    library = bench.build("phe-stub", sources, [tmp_path])
    assert bench.build("phe-stub", sources, [tmp_path])._name == library._name
    assert capsys.readouterr().out.count("building") == 1
    cards = np.random.default_rng(2).integers(0, 52, size=(1000, 9), dtype=np.uint8)
    seven, nine = np.ascontiguousarray(cards[:, :7]), cards
    assert (bench.peer_function(library, "phe_eval7")(seven) == seven.astype(int) @ np.arange(1, 8)).all()
    assert (bench.peer_function(library, "phe_eval_plo4")(nine) == nine.astype(int) @ np.arange(1, 10)).all()
