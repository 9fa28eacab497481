"""The runner runs whatever Study it is handed and saves its figures, and the CLI is the one front door."""

import dataclasses
import subprocess
import sys

import polars as pl
import pyarrow as pa

from pipeline.backends import SerialBackend
from pipeline.plan import RunConfig
from pipeline.runner import execute
from pipeline.study import Study


def heads(config, shard):
    """Heads in ``shard.deals`` fair coin flips of the shard's own stream."""
    flips = shard.generator().integers(0, 2, shard.deals)
    return {
        "flips": pa.table({"side": pa.array(["heads"], pa.string()), "n": pa.array([int(flips.sum())], pa.uint64())})
    }


COIN = Study(
    name="coin",
    description="fair coin flips",
    tables=("flips",),
    run_shard=heads,
    summarize=lambda counts, config: {"flips": counts["flips"].with_columns(share=pl.col("n") / config.deals)},
    report=lambda tables, config, figures: f"# {tables['flips']['share'][0]:.4f}\n",
)


def test_runner_runs_a_study_it_is_handed(tmp_path):
    """A toy study defined here, unknown to jobs/, runs through the runner: its shards are summed
    and its own summary and report are written."""
    config = RunConfig(job="coin", game="-", deals=10_000, shard_deals=3_000, players=1, seed=4)
    run_dir = execute(COIN, config, SerialBackend(), tmp_path, quiet=True)
    table = pl.read_parquet(run_dir / "tables" / "flips.parquet")
    expected = sum(int(heads(config, s)["flips"]["n"][0].as_py()) for s in COIN.plan(config))
    assert table["n"].to_list() == [expected] and abs(table["share"][0] - 0.5) < 0.02
    assert (run_dir / "report.md").read_text() == f"# {expected / 10_000:.4f}\n"


def test_python_dash_m_sampyong_help():
    """`python -m sampyong --help` prints the commands and exits 0."""
    result = subprocess.run([sys.executable, "-m", "sampyong", "--help"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0
    assert all(command in result.stdout for command in ("run", "report", "check", "eval", "equity"))


def test_unknown_study_is_refused(tmp_path):
    """`sampyong run` of a name no study has: one line naming the studies, exit 2, nothing written."""
    result = subprocess.run(
        [sys.executable, "-m", "sampyong", "run", "coin", "--out", str(tmp_path / "out")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert result.stderr.strip() == (
        "error: unknown job 'coin'; choose one of showdown, distribution, grid, variants, textures, draws, play, match, records, hand_ranking, solve, rulebook, panel, strategy (see 'sampyong run -h')"
    )
    assert not (tmp_path / "out").exists()


def test_figures_are_saved_by_the_pipeline(tmp_path):
    """A study returns matplotlib figures by name; the aggregation saves each as figures/NAME.png
    at the figure's own dpi and hands the report their file names, in order."""
    from matplotlib.figure import Figure
    from PIL import Image

    def figures(tables, config):
        share = Figure(figsize=(2, 1), dpi=50)
        share.subplots().bar(["heads"], tables["flips"]["share"].to_list())
        return {"share": share, "blank": Figure(figsize=(1, 1), dpi=30)}

    study = dataclasses.replace(COIN, figures=figures, report=lambda tables, config, files: " ".join(files) + "\n")
    config = RunConfig(job="coin", game="-", deals=100, shard_deals=50, players=1, seed=1)
    run_dir = execute(study, config, SerialBackend(), tmp_path, quiet=True)
    assert (run_dir / "report.md").read_text() == "share.png blank.png\n"
    assert sorted(p.name for p in (run_dir / "figures").iterdir()) == ["blank.png", "share.png"]
    assert Image.open(run_dir / "figures" / "share.png").size == (100, 50)
    assert Image.open(run_dir / "figures" / "blank.png").size == (30, 30)


def test_a_study_without_figures_writes_no_figures_folder(tmp_path):
    """The default ``figures`` returns none: no figures/ folder, and the report is given []."""
    study = dataclasses.replace(COIN, report=lambda tables, config, files: f"{files}\n")
    config = RunConfig(job="coin", game="-", deals=100, shard_deals=50, players=1, seed=2)
    run_dir = execute(study, config, SerialBackend(), tmp_path, quiet=True)
    assert (run_dir / "report.md").read_text() == "[]\n" and not (run_dir / "figures").exists()


def test_running_a_study_leaves_pyplot_alone(tmp_path):
    """Figures are matplotlib Figure objects: a run with figures imports no pyplot and sets no backend."""
    code = (
        "import sys; from pathlib import Path; from jobs import STUDIES; from pipeline.plan import RunConfig; "
        "from pipeline.backends import SerialBackend; from pipeline.runner import execute; "
        "config = RunConfig(job='showdown', game='holdem', deals=2000, shard_deals=1000, players=3, seed=1); "
        f"run = execute(STUDIES['showdown'], config, SerialBackend(), Path({str(tmp_path)!r}), quiet=True); "
        "print((run / 'figures' / 'win_by_players.png').is_file(), 'matplotlib.pyplot' in sys.modules)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert result.stdout.split() == ["True", "False"], result.stderr
