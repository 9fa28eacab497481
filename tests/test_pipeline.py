"""The pipeline on the serial backend: determinism, resume, damaged shards, report."""

import json
import shutil
from pathlib import Path

import polars as pl
import pytest

from evaluator.errors import SampyongError
from jobs.showdown import STUDY as SHOWDOWN
from pipeline.backends import SerialBackend
from pipeline.plan import RunConfig, plan_shards
from pipeline.store import RunStore
from tests.helpers import execute, execute_all

CONFIG = RunConfig(job="showdown", game="pls7", deals=30_000, shard_deals=10_000, players=6, seed=3)


def tables(run_dir: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((run_dir / "tables").glob("*.csv"))}


@pytest.fixture(scope="module")
def reference_run(tmp_path_factory) -> Path:
    return execute(CONFIG, SerialBackend(), tmp_path_factory.mktemp("ref"), quiet=True)


def test_run_directory_layout(reference_run):
    """A run writes run.json, manifest.json, shards, tables (parquet/csv/md), a figure and report.md."""
    assert (reference_run / "run.json").is_file() and (reference_run / "report.md").is_file()
    manifest = json.loads((reference_run / "manifest.json").read_text())
    assert sorted(manifest["shards"]) == ["0", "1", "2"]
    for name in ("summary", "categories"):
        for suffix in ("parquet", "csv", "md"):
            assert (reference_run / "tables" / f"{name}.{suffix}").is_file()
    assert list((reference_run / "shards" / "summary").glob("shard-*.parquet"))
    assert (reference_run / "figures" / "win_by_players.png").is_file()


def test_summary_columns_and_ranges(reference_run):
    """summary.csv and categories.csv have the documented columns; rates lie in [0, 1]."""
    summary = pl.read_csv(reference_run / "tables" / "summary.csv")
    assert summary.columns == [
        "game",
        "players",
        "deals",
        "hi_chop",
        "hi_chop_se",
        "low_exists",
        "low_exists_se",
        "low_tie",
        "low_tie_se",
        "scoop",
        "scoop_se",
        "quartered",
        "quartered_se",
        "hilo_split",
        "hilo_split_se",
    ]
    assert summary["players"].to_list() == [2, 3, 4, 5, 6]
    assert (summary["deals"] == 30_000).all()
    categories = pl.read_csv(reference_run / "tables" / "categories.csv")
    assert categories.columns == [
        "game",
        "players",
        "category",
        "best",
        "best_se",
        "present",
        "present_se",
        "win",
        "win_se",
    ]
    for column in ("best", "win"):
        sums = categories.group_by("players").agg(pl.col(column).sum())[column]
        assert ((sums - 1).abs() < 1e-9).all(), f"{column} shares must sum to 1"
    for frame in (summary, categories):
        for column in frame.columns:
            if frame[column].dtype == pl.Float64:
                assert frame[column].drop_nulls().is_between(0, 1).all()


def test_same_config_same_bytes_any_shard_order(reference_run, tmp_path):
    """Running the shards in reverse order gives bit-identical tables."""

    class Reversed(SerialBackend):
        def run(self, tasks, on_result, on_status=None):
            super().run(list(tasks)[::-1], on_result)

    run_dir = execute(CONFIG, Reversed(), tmp_path, quiet=True)
    assert tables(run_dir) == tables(reference_run)


def test_resume_after_deleting_shards(reference_run, tmp_path):
    """Deleting a shard and its manifest entry, then rerunning, recomputes only it: same tables."""
    copy = tmp_path / "showdown" / CONFIG.run_id
    shutil.copytree(reference_run, copy)
    store = RunStore(copy, CONFIG, SHOWDOWN.tables)
    manifest = store.read_manifest()
    for info in manifest.pop(1)["files"].values():
        (copy / info["path"]).unlink()
    store.write_manifest(manifest)
    computed = []

    class Counting(SerialBackend):
        def run(self, tasks, on_result, on_status=None):
            computed.extend(t.shard.index for t in tasks)
            super().run(tasks, on_result)

    run_dir = execute(CONFIG, Counting(), tmp_path, quiet=True)
    assert computed == [1]
    assert tables(run_dir) == tables(reference_run)


@pytest.mark.parametrize("damage", ["truncate", "foreign", "missing"])
def test_damaged_shard_is_detected_and_recomputed(reference_run, tmp_path, damage):
    """A truncated shard, a shard from another run, or a missing file is recomputed, never summed."""
    shutil.copytree(reference_run.parent.parent, tmp_path, dirs_exist_ok=True)
    run_dir = tmp_path / "showdown" / CONFIG.run_id
    target = run_dir / "shards" / "summary" / "shard-000002.parquet"
    if damage == "truncate":
        target.write_bytes(target.read_bytes()[:100])
    elif damage == "foreign":
        other = execute(RunConfig(**{**CONFIG.__dict__, "seed": 99}), SerialBackend(), tmp_path / "other", quiet=True)
        shutil.copy(other / "shards" / "summary" / "shard-000002.parquet", target)
    else:
        target.unlink()
    problems = []
    RunStore(run_dir, CONFIG, SHOWDOWN.tables).finished_shards(log=problems.append)
    assert len(problems) == 1 and "shard 2" in problems[0]
    computed = []

    class Counting(SerialBackend):
        def run(self, tasks, on_result, on_status=None):
            computed.extend(t.shard.index for t in tasks)
            super().run(tasks, on_result)

    execute(CONFIG, Counting(), tmp_path, quiet=True)
    assert computed == [2]
    assert tables(run_dir) == tables(reference_run)


def test_a_complete_run_asks_the_backend_for_nothing(reference_run, tmp_path):
    """Executing a run whose shards are all sound again never calls the backend (a Ray start
    costs seconds: ``sampyong range 15%`` reads its complete ranking run), and reads the same tables."""
    shutil.copytree(reference_run.parent.parent, tmp_path, dirs_exist_ok=True)

    class Refusing(SerialBackend):
        def run(self, tasks, on_result, on_status=None):
            raise AssertionError("the backend was asked to run a complete run")

    run_dir = execute(CONFIG, Refusing(), tmp_path, quiet=True)
    assert tables(run_dir) == tables(reference_run)


def test_no_resume_recomputes_everything(reference_run, tmp_path):
    """--no-resume recomputes every shard and still gives the same tables."""
    shutil.copytree(reference_run.parent.parent, tmp_path, dirs_exist_ok=True)
    computed = []

    class Counting(SerialBackend):
        def run(self, tasks, on_result, on_status=None):
            computed.extend(t.shard.index for t in tasks)
            super().run(tasks, on_result)

    run_dir = execute(CONFIG, Counting(), tmp_path, resume=False, quiet=True)
    assert computed == [0, 1, 2]
    assert tables(run_dir) == tables(reference_run)


def test_runs_share_one_task_stream(reference_run, tmp_path):
    """Two runs executed together go to the backend as one stream and give the tables they give alone."""
    other_config = RunConfig(**{**CONFIG.__dict__, "seed": 5})
    alone = execute(other_config, SerialBackend(), tmp_path / "alone", quiet=True)
    calls = []

    class Recording(SerialBackend):
        def run(self, tasks, on_result, on_status=None):
            calls.append([(t.config.seed, t.shard.index) for t in tasks])
            super().run(tasks, on_result)

    first, second = execute_all([CONFIG, other_config], Recording(), tmp_path / "both", quiet=True)
    assert len(calls) == 1 and {seed for seed, _ in calls[0]} == {CONFIG.seed, 5}
    assert tables(first) == tables(reference_run)
    assert tables(second) == tables(alone)


def test_shard_plan_and_run_id():
    """Shards cover the deals exactly; the run_id changes with anything that changes numbers."""
    assert sum(s.deals for s in plan_shards(CONFIG)) == CONFIG.deals
    assert CONFIG.run_id != RunConfig(**{**CONFIG.__dict__, "seed": 4}).run_id
    assert CONFIG.run_id != RunConfig(**{**CONFIG.__dict__, "ranking": "both"}).run_id


def test_report_rebuilds_from_shards(reference_run, tmp_path):
    """Deleting tables and rebuilding them from the shards gives the same bytes."""
    from pipeline.aggregate import build_outputs

    copy = tmp_path / "run"
    shutil.copytree(reference_run, copy)
    shutil.rmtree(copy / "tables")
    store = RunStore(copy, CONFIG, SHOWDOWN.tables)
    build_outputs(SHOWDOWN, store, store.finished_shards())
    assert tables(copy) == tables(reference_run)


def test_open_rejects_non_run_directory(tmp_path):
    """A folder without run.json is not a run directory."""
    with pytest.raises(SampyongError, match="not a run directory"):
        RunStore.read_config(tmp_path)


# A process wanting the showdown run as its upstream run; its backend logs each batch of shard
# tasks it is handed and takes two seconds first, so that a second process asks meanwhile.
WANTS_UPSTREAM = """
import dataclasses, os, sys, time
from pathlib import Path
from jobs.showdown import STUDY as SHOWDOWN
from pipeline.backends import SerialBackend
from pipeline.plan import RunConfig
from pipeline.runner import study_inputs

out, log = Path(sys.argv[1]), sys.argv[2]
upstream = SHOWDOWN.configure(RunConfig("showdown", "pls7", 20_000, 10_000, 2, 5))

class Slow(SerialBackend):
    def run(self, tasks, on_result, on_status=None):
        with open(log, "a") as f:
            f.write(f"{os.getpid()} {len(tasks)}\\n")
        time.sleep(2)
        return super().run(tasks, on_result, on_status)

needs = dataclasses.replace(SHOWDOWN, name="needs", upstream=lambda c: [(SHOWDOWN, upstream)], inputs=lambda c, t: sorted(t[0]))
print(study_inputs(needs, upstream, Slow(), out))
"""


def test_two_processes_wanting_one_upstream_run_do_it_once(tmp_path):
    """Two processes that need the same upstream run at once (two commands on a new cache, two
    pytest workers): one does its shards, the other waits, then reads the complete run; both
    hand their study the same tables."""
    import subprocess
    import sys

    log = tmp_path / "batches.log"
    asking = [
        subprocess.Popen(
            [sys.executable, "-c", WANTS_UPSTREAM, str(tmp_path / "upstream"), str(log)],
            stdout=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    answers = [p.communicate(timeout=300)[0].strip() for p in asking]
    assert [p.returncode for p in asking] == [0, 0]
    assert answers[0] == answers[1] and "summary" in answers[0]
    assert [line.split()[1] for line in log.read_text().splitlines()] == ["2"]  # one batch: both shards, once
    assert sorted(p.name for p in (tmp_path / "upstream").iterdir()) == [".locks", "showdown"]
