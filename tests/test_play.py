"""The play study: the `showdown` policy reproduces the showdown study, and bad options are refused."""

import subprocess
import sys

import polars as pl
import pytest

from pipeline.backends import SerialBackend
from pipeline.plan import RunConfig
from tests.helpers import execute, ranking

FLAGS = ("hi_chop", "low_exists", "low_tie", "scoop", "quartered", "hilo_split")


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    out = tmp_path_factory.mktemp("play")
    play = execute(
        RunConfig(
            job="play", game="pls7", deals=3000, shard_deals=1000, players=6, seed=2, options=(("policy", "showdown"),)
        ),
        SerialBackend(),
        out,
        quiet=True,
    )
    showdown = execute(
        RunConfig(job="showdown", game="pls7", deals=200_000, shard_deals=100_000, players=6, seed=9),
        SerialBackend(),
        out,
        quiet=True,
    )
    return play, showdown


def test_showdown_policy_matches_the_showdown_study(runs):
    """With everyone checking and calling, every hand reaches showdown with all six players, and
    every figure the two studies share (for 2..6 players) agrees within 4 standard errors."""
    play, showdown = runs
    streets = pl.read_csv(play / "tables" / "streets.csv")
    assert streets["reach"].to_list() == [1.0] * 5 and streets["players"].to_list() == [6.0] * 5
    reference = pl.read_csv(showdown / "tables" / "summary.csv")
    shown = pl.read_csv(play / "tables" / "showdown.csv").filter(pl.col("players") == 6)
    assert shown["share"].to_list() == [1.0]
    compare = pl.read_csv(play / "tables" / "compare.csv")
    for row in compare.iter_rows(named=True):
        ref = reference.filter(pl.col("players") == row["players"]).row(0, named=True)
        se = (row["everyone_se"] ** 2 + ref[f"{row['figure']}_se"] ** 2) ** 0.5
        assert abs(row["everyone"] - ref[row["figure"]]) <= 4 * se + 1e-12, row
        if row["players"] == 6:  # under `showdown` play is everyone showing down, deal for deal
            assert row["play"] == row["everyone"] and row["difference"] == 0
    for flag in FLAGS:
        ref = reference.filter(pl.col("players") == 6).row(0, named=True)
        se = (shown[f"{flag}_se"][0] ** 2 + ref[f"{flag}_se"] ** 2) ** 0.5
        assert abs(shown[flag][0] - ref[flag]) <= 4 * se + 1e-12, flag


def _flags(highs, lows) -> tuple[int, ...]:
    """hi_chop, low_exists, low_tie, scoop, quartered, hilo_split of one showdown among these
    hands, from each player's exact share of the pot (RULES section 6): a scoop is a share of
    the whole pot, quartered a share of exactly a quarter, hilo_split a low whose winners are
    not the high's.

    >>> _flags([5, 5, 1], [0, 9, 9])  # high and low each tied by two: the high-only player has 1/4
    (1, 1, 1, 0, 1, 1)
    >>> _flags([5, 1, 1], [0, 9, 9]), _flags([5, 5, 1], [0, 0, 0]), _flags([5, 1], [9, 0])
    ((0, 1, 1, 0, 1, 1), (1, 0, 0, 0, 0, 0), (0, 1, 0, 1, 0, 0))
    """
    from fractions import Fraction

    high_winners = {i for i, h in enumerate(highs) if h == max(highs)}
    low_winners = {i for i, low in enumerate(lows) if low and low == max(lows)}
    halves = (
        [(Fraction(1, 2), high_winners), (Fraction(1, 2), low_winners)]
        if low_winners
        else [(Fraction(1), high_winners)]
    )
    shares = [sum((part / len(w) for part, w in halves if i in w), Fraction(0)) for i in range(len(highs))]
    return (
        int(len(high_winners) > 1),
        int(bool(low_winners)),
        int(len(low_winners) > 1),
        int(1 in shares),
        int(Fraction(1, 4) in shares),
        int(bool(low_winners) and low_winners != high_winners),
    )


def test_showdown_flags_kernel_equals_the_readable_flags():
    """The numba flags of a showdown equal ``_flags`` on the same hands, ties and lows included,
    for every subset of seats."""
    import numpy as np

    from evaluator.settle_kernels import flags_among

    rng = np.random.default_rng(1)
    out = np.zeros(6, np.int64)
    for _ in range(3000):
        seats = int(rng.integers(2, 7))
        highs = rng.integers(1, 4, size=seats).astype(np.uint32)  # few values: many ties
        lows = (rng.integers(0, 3, size=seats) * rng.integers(0, 2)).astype(np.uint32)
        mask = rng.random(seats) < 0.7
        mask[:2] = True
        out[:] = [int(f) for f in flags_among(highs, lows, mask)]
        picked = np.flatnonzero(mask)
        assert tuple(out) == _flags(highs[picked].tolist(), lows[picked].tolist()), (highs, lows, mask)


def test_rulebook_table_under_everyone_showing_down(tmp_path):
    """With the `showdown` policy at four seats every hand is a four-player showdown: the split
    share of all hands is the everyone-shows-down figure exactly, and "three in ten" holds."""
    run = execute(
        RunConfig(
            job="play",
            game="pls7",
            deals=20_000,
            shard_deals=10_000,
            players=4,
            seed=3,
            options=(("policy", "showdown"),),
        ),
        SerialBackend(),
        tmp_path,
        quiet=True,
    )
    rulebook = pl.read_csv(run / "tables" / "rulebook.csv")
    first = rulebook.row(0, named=True)
    assert first["among"] == "all hands" and first["play"] == first["everyone"] and first["holds"] == "yes"
    assert rulebook.filter(pl.col("among") == "heads-up showdowns")["holds"].to_list() == ["n/a"]
    report = (run / "report.md").read_text()
    assert "**holds** under play" in report
    # the report's class table: the first 15 classes of tables/classes.csv (by big blinds per hand)
    shown = report.split("## Classes (the 15 best by big blinds per hand")[1].splitlines()
    rows = [line.split("|")[1].strip() for line in shown if line.startswith("| ")][1:]  # less the header
    assert rows == pl.read_csv(run / "tables" / "classes.csv")["class"].head(15).to_list()


def test_regular_play_folds_and_conserves_chips(tmp_path):
    """Under `regular` most hands end before the flop and the seats' results sum to zero."""
    run = execute(
        RunConfig(
            job="play", game="holdem", deals=1500, shard_deals=500, players=6, seed=4, options=(("policy", "regular"),)
        ),
        SerialBackend(),
        tmp_path,
        quiet=True,
    )
    streets = pl.read_csv(run / "tables" / "streets.csv")
    assert 0.5 < streets["won_here"][0] < 1 and streets["reach"][1] < 0.5
    positions = pl.read_csv(run / "tables" / "positions.csv")
    assert abs(positions["bb_per_hand"].sum()) < 1e-9


@pytest.mark.parametrize(
    "args, message",
    [
        (["--policy", "regular,tight"], "names 2 policies for 6 players"),
        (["--policy", "maniac"], "unknown policy 'maniac'"),
        (["--stacks", "lots"], "bad --stacks 'lots'"),
        (["--game", "plo5-8"], "covers games of 2 to 4 hole cards"),
    ],
)
def test_bad_play_options_are_one_line_exit_2(tmp_path, args, message):
    """A wrong number of policies, an unknown policy, bad stacks, a game without an exact grid: one line, exit 2, nothing written."""
    result = subprocess.run(
        [sys.executable, "-m", "sampyong", "run", "play", *args, "--out", str(tmp_path / "out")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 2 and message in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "out").exists()


def test_other_studies_refuse_play_options(tmp_path):
    """--policy belongs to play: the showdown study refuses it."""
    result = subprocess.run(
        [sys.executable, "-m", "sampyong", "run", "showdown", "--policy", "regular", "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 2 and "No such option: --policy" in result.stderr


HANDS = __import__("pathlib").Path(__file__).resolve().parents[2] / "shared" / "data" / "hands" / "pluribus"


@pytest.mark.skipif(not HANDS.is_dir(), reason="../shared/data/hands is not beside this checkout")
def test_fit_command_prints_a_policy_that_loads(tmp_path):
    """`sampyong fit` on three Pluribus sessions prints a policy TOML that loads, with the records' figures in a comment."""
    from engine.policy import parse_policy

    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "sampyong",
            "fit",
            *(str(HANDS / s) for s in ("30", "31", "32")),
            "--hands",
            "200",
            "--trials",
            "10",
            "--start",
            "regular",
            "--name",
            "mine",
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    policy = parse_policy(result.stdout)
    assert policy.name == "mine" and "# fitted to" in result.stdout and result.stderr.startswith("records: ")


@pytest.mark.slow
@pytest.mark.skipif(not HANDS.is_dir(), reason="../shared/data/hands is not beside this checkout")
def test_pro_like_reproduces_the_pluribus_figures():
    """`pro-like`, six-handed no-limit hold'em on fresh deals, sees a flop, has players at the flop and
    reaches showdown as often as the Pluribus records do: within 2 points (0.1 players)."""
    from engine.fit import play_figures, read_records
    from engine.policy import builtin
    from engine.tune import Deals

    records = read_records([HANDS])
    deals = Deals.dealt(records.game, records.seats, 100_000, 777, ranking(records.game))
    played, target = play_figures(records.table(builtin("pro-like")), deals), records.figures
    assert abs(played["flop"] - target["flop"]) < 0.02 and abs(played["players"] - target["players"]) < 0.1
    assert abs(played["showdown"] - target["showdown"]) < 0.02


def test_recorded_hands_replay_and_are_the_runs_own(tmp_path):
    """--record 300 over two shards writes hands.phhs; `sampyong replay` matches every hand, and
    the recorded results add up to the run's positions table."""
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "sampyong",
            "run",
            "play",
            "--game",
            "pls7",
            "--deals",
            "300",
            "--shard-deals",
            "150",
            "--policy",
            "regular,loose,tight,station,pro-like,regular",
            "--record",
            "300",
            "--backend",
            "serial",
            "--quiet",
            "--out",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    run_dir = __import__("pathlib").Path(run.stdout.strip().splitlines()[-1])
    replayed = subprocess.run(
        [sys.executable, "-m", "sampyong", "replay", str(run_dir / "hands.phhs"), "--json"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    results = [__import__("json").loads(line) for line in replayed.stdout.splitlines()]
    assert replayed.returncode == 0 and len(results) == 300 and {r["status"] for r in results} == {"match"}
    net = [sum(r["finishing_stacks"][seat] - 200 for r in results) for seat in range(6)]
    positions = pl.read_csv(run_dir / "tables" / "positions.csv")
    assert [round(x * 2 * 300) for x in positions["bb_per_hand"].to_list()] == net


def test_betting_knob_turns_the_structure(tmp_path):
    """--betting fixed-limit plays PLS7 as fixed limit: recorded as FS/7 with small and big bets, and every hand replays."""
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "sampyong",
            "run",
            "play",
            "--game",
            "pls7",
            "--betting",
            "fixed-limit",
            "--deals",
            "200",
            "--shard-deals",
            "200",
            "--record",
            "200",
            "--backend",
            "serial",
            "--quiet",
            "--out",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    records = __import__("pathlib").Path(run.stdout.strip().splitlines()[-1]) / "hands.phhs"
    from engine.phh import loads, replay

    hands = loads(records.read_text())
    assert {h.fields["variant"] for h in hands} == {"FS/7"} and hands[0].fields["small_bet"] == 2
    assert {replay(h).status for h in hands} == {"match"}


def test_play_is_the_same_serial_and_on_ray(ray_session, tmp_path):
    """Mixed policies over three shards: the serial backend and Ray with 2 workers write bit-identical tables."""
    from pipeline.backends import RayBackend

    config = RunConfig(
        job="play",
        game="plo8",
        deals=6000,
        shard_deals=2000,
        players=6,
        seed=11,
        options=(("policy", "regular,loose,tight,station,pro-like,regular"),),
    )
    serial = execute(config, SerialBackend(), tmp_path / "serial", quiet=True)
    ray = execute(config, RayBackend(workers=2), tmp_path / "ray", quiet=True)
    tables = lambda run: {p.name: p.read_bytes() for p in sorted((run / "tables").glob("*.csv"))}  # noqa: E731
    assert tables(serial) == tables(ray) and len(tables(serial)) == 8


def test_serial_play_ranks_hands_in_process(tmp_path, monkeypatch):
    """With the serial backend the game's ranking runs in this process (no Ray task), into the
    upstream folder given, and the play run's shards get it with their task."""
    from jobs import STUDIES
    from pipeline import runner
    from pipeline.backends import RayBackend

    monkeypatch.setattr(RayBackend, "run", lambda *a, **k: pytest.fail("a Ray task ran"))
    config = RunConfig(
        job="play", game="holdem", deals=400, shard_deals=200, players=3, seed=1, options=(("policy", "regular"),)
    )
    run = runner.execute(
        STUDIES["play"], config, SerialBackend(), tmp_path / "out", quiet=True, upstream_out=tmp_path / "upstream"
    )
    (grid_run,) = (tmp_path / "upstream" / "grid").iterdir()
    assert (grid_run / "tables" / "grid.parquet").is_file() and (run / "report.md").is_file()
