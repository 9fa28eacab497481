"""Turn draws against trips: a hand-made spot's outs and equity, and the tables."""

import polars as pl

from evaluator.cards import parse_cards
from evaluator.equity import equity
from jobs import draws
from pipeline.backends import SerialBackend
from pipeline.plan import RunConfig
from pipeline.runner import execute


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
    """draws.csv and draw_types.csv have the documented columns; shares sum to one."""
    config = RunConfig(job="draws", game="pls7", deals=60_000, shard_deals=30_000, players=2, seed=4)
    run_dir = execute(config, SerialBackend(), tmp_path, quiet=True)
    table = pl.read_csv(run_dir / "tables" / "draws.csv")
    types = pl.read_csv(run_dir / "tables" / "draw_types.csv")
    assert table.columns == ["draw", "outs", "spots", "share", "equity", "equity_se", "high_win"]
    assert types.columns == ["draw", "spots", "share", "mean_outs", "equity", "equity_se"]
    assert abs(table["share"].sum() - 1) < 1e-12 and abs(types["share"].sum() - 1) < 1e-12
    assert table["spots"].sum() == types["spots"].sum() > 0
    assert ((table["equity"] >= 0) & (table["equity"] <= 1)).all()
    assert set(types["draw"]) <= {draws._draw_name(mask) for mask in range(1, 16)}
    assert (table["high_win"] == table["outs"] / draws.rivers(config)).all()
