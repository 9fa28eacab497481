"""`sampyong run records`: hand records replayed and counted as the play tables.

Which way each table is checked:

* ``streets``, ``showdown``, ``positions``, ``pots``: a play run's own hands, written with
  ``--record`` and read back, give the play run's tables, count for count (hold'em no-limit with
  thresholds policies; PLS7 pot-limit hi-lo with random-legal seats and short stacks, so all-ins,
  side pots, lows and quartered pots occur); and the Pluribus sessions give the figures the
  rule book's v2.1 starts from (55.4 % flop, 2.15 players there, 17.4 % showdown).
* ``records``: a file of one matching, one differing, one illegal and one skipped hand is
  listed by status, index and message, and the run still finishes.
"""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

import sampyong as sy
from evaluator.errors import SampyongError

HANDS = Path(__file__).resolve().parents[2] / "shared" / "data" / "hands" / "pluribus"
RANDOM_LEGAL = """name = "random-legal"
style = "random-legal"
[random]
fold = 0.15
check_call = 0.5
bet_raise = 0.35
"""


def same(a: pl.DataFrame, b: pl.DataFrame) -> None:
    """Two summaries hold the same rows and numbers (floats to 1e-9)."""
    assert a.columns == b.columns and a.height == b.height, (a, b)
    for row_a, row_b in zip(a.iter_rows(), b.iter_rows()):
        for x, y in zip(row_a, row_b):
            if isinstance(x, float) or isinstance(y, float):
                assert (math.isnan(x) and math.isnan(y)) or math.isclose(x, y, rel_tol=1e-9, abs_tol=1e-12), (
                    row_a,
                    row_b,
                )
            else:
                assert x == y, (row_a, row_b)


@pytest.mark.untraced
@pytest.mark.parametrize(
    "game, options",
    [
        ("holdem", {"policy": "regular,loose,tight,station,pro-like,regular", "players": 6}),
        ("pls7", {"policy": "random-legal", "players": 4, "stacks": "25bb"}),
    ],
)
def test_records_of_a_play_run_give_its_tables(tmp_path, game, options):
    """A play run's hands, recorded and read back by the records study, give the play run's
    streets, showdown, positions and pots tables."""
    play_run_read_back(tmp_path, game, options, hands=1500)


@pytest.mark.slow
@pytest.mark.parametrize(
    "game, options",
    [
        ("holdem", {"policy": "regular,loose,tight,station,pro-like,regular", "players": 6}),
        ("pls7", {"policy": "random-legal", "players": 4, "stacks": "25bb"}),
    ],
)
def test_twenty_thousand_recorded_hands_give_the_play_runs_tables(tmp_path, game, options, ci_size):
    """The same at the issue's size: 20,000 hands (CI: 5,000) played, recorded and read back (the
    records replayed in bulk by the kernel), every shared table count for count."""
    play_run_read_back(tmp_path, game, options, hands=ci_size(full=20_000, ci=5_000))


def play_run_read_back(tmp_path, game: str, options: dict, hands: int) -> None:
    if options["policy"] == "random-legal":
        (tmp_path / "random-legal.toml").write_text(RANDOM_LEGAL)
        options = {**options, "policy": str(tmp_path / "random-legal.toml")}
    played = sy.run(
        "play",
        game=game,
        deals=hands,
        shard_deals=max(500, hands // 4),
        record=hands,
        backend="serial",
        out=tmp_path,
        **options,
    )
    read = sy.run("records", paths=[played.dir / "hands.phhs"], backend="serial", out=tmp_path)
    records = read.tables
    assert records["records"].rows() == [(str((played.dir / "hands.phhs").resolve()), None, "match", "", hands)]
    group = (pl.col("game") == game) & (pl.col("seats") == options["players"])
    for name in ("streets", "positions"):
        same(records[name].filter(group).drop("game", "seats"), played.tables[name])
    same(records["pots"].filter(group).drop("game", "seats"), played.tables["pots"].filter(pl.col("share") > 0))
    showdown = records["showdown"].filter(group).drop("game", "seats")
    shown = played.tables["showdown"].filter(pl.col("share") > 0)  # records list only table sizes that occur
    assert showdown["known"].to_list() == (shown["share"] * hands).round().cast(int).to_list()
    same(showdown.drop("known"), shown)
    if game == "pls7":  # the hi-lo figures were exercised, and the rule book's claims read the same
        assert shown["low_exists"].max() > 0 and shown["hilo_split"].max() > 0
        claims = records["rulebook"].select("claim", "among", "records", "records_se", "records_hands", "holds")
        same(
            claims.rename({"records": "play", "records_se": "play_se", "records_hands": "play_hands"}),
            played.tables["rulebook"].select("claim", "among", "play", "play_se", "play_hands", "holds"),
        )
    else:
        assert records["rulebook"].height == 0


@pytest.mark.skipif(not HANDS.is_dir(), reason="../shared/data/hands is not beside this checkout")
def test_the_pluribus_sessions_give_the_published_figures(tmp_path):
    """The Pluribus records: 55.4 % of hands see a flop, with 2.15 players there, and 17.4 % reach a showdown."""
    run = sy.run("records", paths=[HANDS], backend="serial", out=tmp_path)
    streets = {row["street"]: row for row in run.tables["streets"].iter_rows(named=True)}
    assert round(100 * streets["flop"]["reach"], 1) == 55.4 and round(streets["flop"]["players"], 2) == 2.15
    assert round(100 * streets["showdown"]["reach"], 1) == 17.4
    assert set(run.tables["records"]["status"]) == {"match"} and run.check() == []


MIXED = """[1]
variant = "NT"
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [200, 200]
actions = ["d dh p1 AsKs", "d dh p2 7h2d", "p2 cbr 6", "p1 f"]
finishing_stacks = [198, 202]

[2]
variant = "NT"
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [200, 200]
actions = ["d dh p1 AsKs", "d dh p2 7h2d", "p2 cbr 6", "p1 f"]
finishing_stacks = [190, 210]

[3]
variant = "NT"
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [200, 200]
actions = ["d dh p1 AsKs", "d dh p2 7h2d", "p1 cbr 6"]
finishing_stacks = [200, 200]

[4]
variant = "FR"
antes = [0, 0]
blinds_or_straddles = [0, 0]
starting_stacks = [200, 200]
actions = []
finishing_stacks = [200, 200]
"""


def test_every_hand_that_does_not_replay_is_listed_by_status(tmp_path):
    """Hands that differ, are illegal or are of a variant the engine does not play are listed with
    their index and message; only the matching hand is counted, and the run finishes."""
    (tmp_path / "mixed.phhs").write_text(MIXED)
    run = sy.run("records", paths=tmp_path / "mixed.phhs", backend="serial", out=tmp_path / "out")
    rows = {(row["index"], row["status"]): row for row in run.tables["records"].iter_rows(named=True)}
    assert set(rows) == {(None, "match"), (2, "differ"), (3, "illegal"), (4, "skipped")}
    assert all(row["hands"] == 1 for row in rows.values())
    assert "out of turn" in rows[(3, "illegal")]["message"]
    assert run.tables["positions"]["bb_per_hand"].to_list() == [-1.0, 1.0]  # the small blind's 1 chip of 2
    assert run.tables["streets"].filter(pl.col("street") == "preflop")["won_here"].to_list() == [1.0]
    assert "4 hands in 1 file(s): 1 differ, 1 illegal, 1 match, 1 skipped" in run.report


def test_game_insists_on_the_records_game(tmp_path):
    """--game holdem accepts hold'em records; --game pls7 refuses them, naming the hand; an unknown game is refused."""
    (tmp_path / "mixed.phhs").write_text(MIXED)
    assert (
        sy.run("records", paths=tmp_path / "mixed.phhs", game="holdem", backend="serial", out=tmp_path / "a").check()
        == []
    )
    with pytest.raises(SampyongError, match=r"mixed.phhs \[1\] is a hand of holdem, which --game pls7 excludes"):
        sy.run("records", paths=tmp_path / "mixed.phhs", game="pls7", backend="serial", out=tmp_path / "b")
    with pytest.raises(SampyongError, match="unknown game"):
        sy.run("records", paths=tmp_path / "mixed.phhs", game="stud", backend="serial", out=tmp_path / "c")
    assert not (tmp_path / "b").exists() and not (tmp_path / "c").exists()


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda root: root.joinpath("empty").mkdir() or root / "empty", "no PHH records"),
        (lambda root: root.joinpath("bad.phh").write_text("this is [not toml") and root / "bad.phh", "not a PHH file"),
        (lambda root: root / "missing.phhs", "no such file or folder"),
    ],
)
def test_bad_records_are_one_line_exit_2_nothing_written(tmp_path, make, message):
    """A folder without records, a file that is not PHH, a missing path: one line, exit 2, no run written."""
    path = make(tmp_path)
    with pytest.raises(SampyongError, match=message):
        sy.run("records", paths=[path], backend="serial", out=tmp_path / "out")
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "sampyong",
            "run",
            "records",
            str(path),
            "--backend",
            "serial",
            "--out",
            str(tmp_path / "out"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 2 and message in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "out").exists()


def test_against_a_policy_sets_three_columns_per_figure(tmp_path):
    """`--against` the policy that wrote the records agrees with them within 4 standard errors on
    every figure, a different policy does not on the flop seen; everyone showing down sees every
    street with every seat; the rule book's claims carry both verdicts; `report` rebuilds it all."""
    played = sy.run(
        "play",
        game="pls7",
        players=6,
        deals=3000,
        shard_deals=1000,
        record=3000,
        backend="serial",
        out=tmp_path / "play",
    )
    records = played.dir / "hands.phhs"
    same_policy = sy.run(
        "records", paths=[records], against="regular", hands="30k", backend="serial", out=tmp_path / "a"
    )
    compare = same_policy.tables["compare"]
    rates = compare.filter(pl.col("figure") != "players at the flop")
    assert set(compare["figure"]) >= {"flop seen", "reached showdown", "players at the flop", "plays preflop"}
    assert compare.filter(pl.col("figure") == "plays preflop").height == 6
    assert (compare["records_hands"].filter(compare["figure"] == "flop seen") == 3000).all()
    assert (compare["policy_hands"].filter(compare["figure"] == "flop seen") == 30_000).all()
    checked = rates.filter(pl.col("records_hands") > 0)
    assert ((checked["difference"].abs() <= 4 * checked["difference_se"]) | (checked["difference_se"] == 0)).all(), (
        checked
    )
    everyone = dict(compare.filter(pl.col("records_holds").is_null()).select("figure", "everyone").unique().rows())
    assert everyone == {
        "flop seen": 1.0,
        "reached showdown": 1.0,
        "plays preflop": 1.0,
        "players at the flop": 6.0,
        "VPIP": 1.0,
        "PFR": 0.0,
    }
    seats = compare.filter(pl.col("figure") == "plays preflop")
    vpip = compare.filter(pl.col("figure") == "VPIP").row(0, named=True)  # every seat's plays preflop, together
    assert vpip["records"] == pytest.approx(seats["records"].mean()) and vpip["policy"] == pytest.approx(
        seats["policy"].mean()
    )
    claims = compare.filter(pl.col("records_holds").is_not_null())
    assert claims.height == 4 and set(claims["policy_holds"]) <= {"yes", "no", "too few to tell", "n/a"}
    everyone_shows = claims.filter(pl.col("among") == "all hands")["everyone"][0]
    assert 0.25 < everyone_shows < 0.36  # from four players about three hands in ten split (RULES section 7)
    assert "## Against regular: pls7, 6 players dealt in" in same_policy.report
    (same_policy.dir / "report.md").unlink()
    (same_policy.dir / "tables" / "compare.parquet").unlink()
    rebuilt = sy.report(same_policy.dir)
    assert "## Against regular" in rebuilt.report and rebuilt.tables["compare"].equals(compare)
    station = sy.run("records", paths=[records], against="station", hands="30k", backend="serial", out=tmp_path / "b")
    flop = station.tables["compare"].filter(pl.col("figure") == "flop seen").row(0, named=True)
    assert flop["difference"] < -4 * flop["difference_se"]  # a station sees far more flops than the records


@pytest.mark.skipif(not HANDS.is_dir(), reason="../shared/data/hands is not beside this checkout")
def test_the_pluribus_sessions_against_pro_like_give_the_readme_figures(tmp_path):
    """The README's comparison: the Pluribus records against pro-like (17,260 hands) see the flop 55.4 % against
    55.0 %, 2.146 against 2.151 players there, and the big blind plays 43.6 % of its hands against 19.9 %."""
    run = sy.run("records", paths=[HANDS], against="pro-like", backend="serial", out=tmp_path)
    compare = run.tables["compare"]

    def figure(name, among):
        return compare.filter((pl.col("figure") == name) & (pl.col("among") == among)).row(0, named=True)

    flop = figure("flop seen", "all hands")
    assert (round(100 * flop["records"], 1), round(100 * flop["policy"], 1), flop["policy_hands"]) == (
        55.4,
        55.0,
        17_260,
    )
    players = figure("players at the flop", "hands that see it")
    assert (round(players["records"], 3), round(players["policy"], 3)) == (2.146, 2.151)
    big_blind = figure("plays preflop", "seat 1")
    assert (round(100 * big_blind["records"], 1), round(100 * big_blind["policy"], 1)) == (43.6, 19.9)
    assert big_blind["difference"] > 4 * big_blind["difference_se"]


@pytest.mark.parametrize(
    "options, message",
    [
        ({"against": "nosuch"}, "unknown policy 'nosuch'"),
        ({"hands": "1000"}, "--hands is what the --against policy plays"),
        ({"against": "regular", "hands": "lots"}, "--hands"),
    ],
)
def test_against_bad_input_is_one_line_exit_2_nothing_written(tmp_path, options, message):
    """An unknown --against policy, --hands without --against, or hands that are not a count: one line, exit 2, no run written."""
    record = tmp_path / "hand.phh"
    record.write_text(
        'variant = "NT"\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\nstarting_stacks = [200, 200]\n'
        'actions = ["d dh p1 AsAh", "d dh p2 KdKc", "p2 cbr 6", "p1 f"]\nfinishing_stacks = [198, 202]\n'
    )
    with pytest.raises(SampyongError, match=message):
        sy.run("records", paths=[record], backend="serial", out=tmp_path / "out", **options)
    flags = [word for name, value in options.items() for word in (f"--{name}", value)]
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "sampyong",
            "run",
            "records",
            str(record),
            *flags,
            "--backend",
            "serial",
            "--out",
            str(tmp_path / "out"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert not (tmp_path / "out").exists()


def test_records_without_paths_is_refused():
    """`sampyong run records` with no path names what it needs."""
    with pytest.raises(SampyongError, match="records needs PHH files or folders"):
        sy.run("records", backend="serial")


@pytest.mark.skipif(not HANDS.is_dir(), reason="../shared/data/hands is not beside this checkout")
def test_stats_agree_with_the_other_tables(tmp_path):
    """On the Pluribus sessions, the stats table's VPIP and showdowns equal the positions table's
    played and showdown, its flops seen add up to the streets' players at the flop, the overall
    row is the seats' sum, and every rate lies in [0, 1] with a standard error."""
    run = sy.run("records", paths=[HANDS], backend="serial", out=tmp_path)
    stats, positions, streets = run.tables["stats"], run.tables["positions"], run.tables["streets"]
    seats = stats.filter(pl.col("seat").is_not_null()).sort("seat")
    assert seats["vpip"].to_list() == positions["played"].to_list()
    assert seats["hands"].to_list() == [1726] * 6
    flop = streets.filter(pl.col("street") == "flop").row(0, named=True)
    assert math.isclose((seats["flop"] * seats["hands"]).sum(), flop["reach"] * flop["players"] * 1726)
    showdowns = (seats["wtsd"] * seats["flop"] * seats["hands"]).round().to_list()
    assert showdowns == (positions["showdown"] * 1726).round().to_list()
    overall = stats.filter(pl.col("seat").is_null()).row(0, named=True)
    assert overall["hands"] == 6 * 1726 and math.isclose(overall["vpip"], seats["vpip"].mean())
    for name in ("vpip", "pfr", "three_bet", "flop", "wtsd", "wsd", "cbet"):
        assert 0 < overall[name] < 1 and 0 < overall[f"{name}_se"] < 0.05, name
    assert 1 < overall["af"] < 5 and 0 < overall["af_se"] < 0.5


def test_a_big_file_is_read_in_runs_of_sections_on_every_worker_with_the_same_tables(
    tmp_path, monkeypatch, ray_session
):
    """One .phhs cut into runs of sections (a shard each) gives the tables of the file read
    whole, on the serial backend and on Ray with two workers."""
    from jobs import records

    (tmp_path / "random-legal.toml").write_text(RANDOM_LEGAL)
    played = sy.run(
        "play",
        game="pls7",
        deals=1200,
        shard_deals=600,
        record=1200,
        players=4,
        stacks="25bb",
        policy=str(tmp_path / "random-legal.toml"),
        backend="serial",
        out=tmp_path,
    )
    whole = sy.run("records", paths=[played.dir / "hands.phhs"], backend="serial", out=tmp_path / "whole")
    monkeypatch.setattr(records, "RECORDS_PER_SHARD", 250)
    cut = sy.run("records", paths=[played.dir / "hands.phhs"], backend="serial", out=tmp_path / "cut")
    assert (whole.config.deals, cut.config.deals) == (1, 5)
    on_ray = sy.run("records", paths=[played.dir / "hands.phhs"], backend="ray", workers=2, out=tmp_path / "ray")
    for run in (cut, on_ray):
        assert {p.name: p.read_bytes() for p in (run.dir / "tables").glob("*.csv")} == {
            p.name: p.read_bytes() for p in (whole.dir / "tables").glob("*.csv")
        }


def test_a_file_is_cut_only_where_its_headers_are_its_sections(monkeypatch):
    """Runs of sections by the header scan alone: each run starts at a header and reads back to
    exactly its sections, a header-like line inside a multi-line string is text; a file with
    another kind of table header, two sections of one number or too few sections is read whole
    first (None), and given its sections the headers must be those sections."""
    from engine.phh import loads
    from jobs import records

    hand = 'variant = "NT"\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\nstarting_stacks = [200, 200]\nactions = []\n'
    text = "".join(f"[{i}]\n{hand}" for i in range(1, 7))
    monkeypatch.setattr(records, "RECORDS_PER_SHARD", 2)
    for data in (text.encode(), text.replace("actions = []", 'actions = []\ncomment = """\n[9]\n"""', 1).encode()):
        pieces = records._pieces(data)
        assert [p[2:] for p in pieces] == [[1, 2], [3, 2], [5, 2]] and pieces[0][0] == 0 and pieces[-1][1] == -1
        assert [
            [r.index for r in loads(data[a : b if b >= 0 else None].decode(), "x.phhs")] for a, b, _, _ in pieces
        ] == [[1, 2], [3, 4], [5, 6]]
        assert records._pieces(data, [r.index for r in loads(data.decode(), "x.phhs")]) == pieces
    assert records._pieces(text.replace("[3]", "[3.more]\n[3]").encode()) is None
    assert records._pieces(text.replace("[4]", "[2]").encode()) is None
    assert records._pieces(text.encode(), [1, 2, 3, 4, 6, 5]) == []
    monkeypatch.setattr(records, "RECORDS_PER_SHARD", 6)
    assert records._pieces(text.encode()) is None and records._pieces(text.encode(), list(range(1, 7))) == []


def test_a_run_of_sections_that_is_not_phh_is_listed_unreadable(tmp_path, monkeypatch):
    """A big file whose third run of sections is broken: that run's hands are listed as unreadable
    (its first section, the reader's message), every other run is counted as in the file without
    the broken run."""
    from jobs import records

    (tmp_path / "random-legal.toml").write_text(RANDOM_LEGAL)
    played = sy.run(
        "play",
        game="pls7",
        deals=600,
        shard_deals=600,
        record=600,
        players=3,
        stacks="25bb",
        policy=str(tmp_path / "random-legal.toml"),
        backend="serial",
        out=tmp_path,
    )
    text = (played.dir / "hands.phhs").read_text()
    broken = text.replace("\n[250]\n", "\n[250]\nthis is not toml\n")
    (tmp_path / "broken.phhs").write_text(broken)
    (tmp_path / "without.phhs").write_text(text[: text.index("\n[201]\n") + 1] + text[text.index("\n[301]\n") + 1 :])
    monkeypatch.setattr(records, "RECORDS_PER_SHARD", 100)
    run = sy.run("records", paths=[tmp_path / "broken.phhs"], backend="serial", out=tmp_path / "broken")
    listed = run.tables["records"].filter(pl.col("status") == "unreadable").row(0, named=True)
    assert listed["index"] == 201 and listed["hands"] == 100 and "not a PHH file" in listed["message"]
    whole = sy.run("records", paths=[tmp_path / "without.phhs"], backend="serial", out=tmp_path / "without")
    for name in ("streets", "positions", "stats"):
        assert run.tables[name].equals(whole.tables[name]), name
    assert "100 unreadable" in (run.dir / "report.md").read_text()


def test_a_shard_reads_with_the_cycle_collector_paused(monkeypatch):
    """``run_shard`` reads and replays its records with Python's cycle collector paused (some 40 %
    of a shard's time went to collections walking its records), and leaves it as it found it,
    after an error too."""
    import gc

    import jobs.records
    from engine.record_files import in_bulk

    seen = []
    monkeypatch.setattr(jobs.records, "_run_shard", lambda config, shard: seen.append(gc.isenabled()) or {})
    assert gc.isenabled()
    jobs.records.run_shard(None, None)
    assert seen == [False] and gc.isenabled()
    with pytest.raises(RuntimeError):
        with in_bulk():
            raise RuntimeError
    assert gc.isenabled()
    gc.disable()
    try:
        with in_bulk():
            pass
        assert not gc.isenabled()  # paused by its caller: left paused
    finally:
        gc.enable()
