"""``run match``: policies against each other on the same deals, in duplicate form."""

from __future__ import annotations

import numpy as np
import pytest

import sampyong as sy
from engine.player import deal_hands
from engine.policy import builtin_text
from evaluator.errors import SampyongError
from jobs import match
from pipeline.plan import RunConfig, ShardSpec


def config(players: int, policies: str, game: str = "pls7", **options) -> RunConfig:
    given = {"policies": policies, **options}
    return RunConfig("match", game, 1, 1, players, 0, options=tuple(sorted((k, str(v)) for k, v in given.items())))


@pytest.fixture
def twin(tmp_path):
    """``regular`` under another name, in a policy file."""
    path = tmp_path / "twin.toml"
    path.write_text(builtin_text("regular").replace('name = "regular"', 'name = "twin"'))
    return str(path)


@pytest.mark.parametrize("players", [2, 3, 6])
def test_a_policy_against_itself_is_exactly_zero_deal_by_deal(twin, players):
    """The same policy under two names wins exactly nothing on every deal in duplicate form, and
    not so when each deal is played once."""
    from sampyong.rankings import ranking

    run = config(players, f"regular,{twin}")
    rank = ranking("pls7")
    per_deal, per_hand, _ = match.match_shard(run, ShardSpec(index=0, deals=400, root_seed=5), rank)
    assert match.labels(run) == ["regular", "twin"]
    assert not per_deal.any()
    assert per_hand.shape[0] == match.rotations(run) == (2 if players % 2 == 0 else players) and per_hand.any()
    plain, _, _ = match.match_shard(
        config(players, f"regular,{twin}", duplicate=False), ShardSpec(index=0, deals=400, root_seed=5), rank
    )
    assert plain.any() and (plain.sum(axis=1) == 0).all()  # zero-sum, but not zero per policy


def test_match_equals_the_reference_engine(twin):
    """Every rotation of every deal, played by the reference engine, gives each policy the chips the
    match counts."""
    from sampyong.rankings import ranking

    run = config(3, "regular,loose,showdown", game="holdem")
    rank = ranking("holdem")
    shard = ShardSpec(index=0, deals=30, root_seed=11)
    per_deal, per_hand, _ = match.match_shard(run, shard, rank)
    table_ = match.table_of(run)
    cards, keys = deal_hands(shard.generator(), shard.deals, 3, table_.game)
    names = match.labels(run)
    expected = np.zeros_like(per_hand)
    for shift in range(3):
        rotated = match.rotation(table_, shift)
        for deal in range(shard.deals):
            hand = rotated.play_hand(cards[deal], keys[deal], rank)
            for seat, policy in enumerate(rotated.policies):
                expected[shift, deal, names.index(policy.name)] += (
                    hand.finishing_stacks[seat] - hand.starting_stacks[seat]
                )
    assert (per_hand == expected).all() and (per_deal == expected.sum(axis=0)).all()


def test_regular_beats_station_and_duplicate_shrinks_the_error(tmp_path):
    """In hold'em, regular beats station by more than 5 standard errors, the two results are equal
    and opposite, and the duplicate standard error is smaller than plain play's on the same hands."""
    run = sy.run(
        "match",
        game="holdem",
        players=6,
        policies="regular,station",
        hands="20k",
        shard_deals="10k",
        backend="serial",
        out=tmp_path,
    )
    results = {row["policy"]: row for row in run.tables["results"].iter_rows(named=True)}
    regular, station = results["regular"], results["station"]
    assert regular["bb_per_100"] > 5 * regular["bb_per_100_se"]
    assert regular["bb_per_100"] == pytest.approx(-station["bb_per_100"]) and regular["hands"] == 20_000 * 2 * 3
    assert regular["bb_per_100_se"] < regular["plain_se"] and regular["se_shrink"] > 1
    # the errors, recomputed from every hand of the run: one sample per deal (rotations summed), and
    # for plain play one sample per hand dealt (a seating of a deal)
    per_hand = np.concatenate(
        [match.match_shard(run.config, shard, sy.ranking("holdem"))[1] for shard in match.STUDY.plan(run.config)],
        axis=1,
    )
    label = match.labels(run.config).index("regular")
    scale = 100 / 2 / 3  # big blinds per 100 hands, of the 3 seats regular holds
    per_deal = per_hand[:, :, label].sum(axis=0)
    assert regular["bb_per_100_se"] == pytest.approx(per_deal.std() / np.sqrt(per_deal.size) * scale / 2)
    plain = per_hand[:, :, label].ravel()
    assert regular["plain_se"] == pytest.approx(plain.std() / np.sqrt(plain.size) * scale)
    positions = run.tables["positions"]
    assert positions.height == 12 and positions["hands"].sum() == 20_000 * 2 * 6
    text = (run.dir / "report.md").read_text()
    assert "in duplicate form: every deal played 2 times" in text and "regular: +" in text


def test_duplicate_flag(tmp_path):
    """``--duplicate`` is the default (the same run); ``--no-duplicate`` plays each deal once."""
    first = sy.run(
        "match",
        game="holdem",
        players=2,
        policies="showdown",
        hands="2k",
        shard_deals="1k",
        backend="serial",
        out=tmp_path,
    )
    same = sy.run(
        "match",
        game="holdem",
        players=2,
        policies="showdown",
        hands="2k",
        shard_deals="1k",
        duplicate=True,
        backend="serial",
        out=tmp_path,
    )
    once = sy.run(
        "match",
        game="holdem",
        players=2,
        policies="showdown",
        hands="2k",
        shard_deals="1k",
        duplicate=False,
        backend="serial",
        out=tmp_path,
    )
    assert first.dir == same.dir != once.dir
    assert first.tables["results"]["hands"].to_list() == [4000] == once.tables["results"]["hands"].to_list()
    from typer.testing import CliRunner

    from sampyong import cli

    result = CliRunner().invoke(cli.app, ["run", "match", "--help"], terminal_width=200)
    assert "--duplicate" in result.stdout and "--no-duplicate" in result.stdout


def test_bad_line_ups_are_refused(twin, tmp_path):
    """More policies than seats, or two different policies under one name, are refused in one line."""
    with pytest.raises(SampyongError, match="3 policies for 2 seats"):
        match.lineup(config(2, "tight,loose,regular"))
    clash = tmp_path / "clash.toml"
    clash.write_text(builtin_text("loose").replace('name = "loose"', 'name = "regular"'))
    with pytest.raises(SampyongError, match="two different policies are named 'regular'"):
        match.table_of(config(2, f"regular,{clash}"))
    with pytest.raises(SampyongError):
        sy.run("match", policies="nobody", backend="serial", out=tmp_path)
