"""Board textures: hand-picked boards get the documented class; shares sum to one."""

import numpy as np
import polars as pl
import pytest

from evaluator.cards import parse_cards
from jobs.textures import SKIPS, STRAIGHTS, _labels, texture_of
from pipeline.backends import SerialBackend
from pipeline.plan import RunConfig
from pipeline.runner import execute


@pytest.mark.parametrize(
    "board, expected",
    [
        ("As 2h 3d 4c 5s", ("none", "<=2", "0", "2", "0")),  # wheel: straight and 5-low on board
        ("2h 4h 6h 8h Th", ("none", "5", "2", "0", "2")),  # skip flush on board; any straight needs 2
        ("Kh Kd Ks 7c 7d", ("trips+", "<=2", "none", "3", "none")),  # no straight holds 7 and K; 5-7-9-J-K does
        ("Qs Qh 9d 9c 2s", ("two_pair", "<=2", "3", "none", "none")),  # every skip holds one board rank at most
        ("Ac 3c 8d Jd Kh", ("none", "<=2", "2", "3", "3")),  # T-J-Q-K-A needs T, Q; A, 3 are the only lows
    ],
)
def test_hand_picked_boards(board, expected):
    """Each feature follows the module doc: pairing, most suited, hole cards needed by rank."""
    cards = np.array(parse_cards(board), dtype=np.uint8)
    assert _labels(texture_of(cards, STRAIGHTS, SKIPS, 7)) == expected


def test_shares_sum_to_one(tmp_path):
    """Texture and flop frequencies sum to 1; each texture's winning categories sum to 1."""
    config = RunConfig(job="textures", game="pls7", deals=30_000, shard_deals=15_000, players=6, seed=2)
    run_dir = execute(config, SerialBackend(), tmp_path, quiet=True)
    textures = pl.read_parquet(run_dir / "tables" / "textures.parquet")
    flops = pl.read_csv(run_dir / "tables" / "flops.csv")
    assert textures["frequency"].sum() == pytest.approx(1.0)
    assert flops["frequency"].sum() == pytest.approx(1.0) and flops.height == 1755
    wins = textures.select([c for c in textures.columns if c.startswith("win_")]).sum_horizontal()
    assert ((wins - 1).abs() < 1e-9).all()
    assert textures["deals"].sum() == 30_000
