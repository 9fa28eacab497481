"""Every kind of damage to a run directory, table by table: `check` names the shard and the table
(exit 1), `report` refuses the run (exit 1, nothing written) and a rerun recomputes that shard
alone. The damage that keeps a file's checksum right reaches the run_id, schema and row checks."""

import hashlib
import json
import shutil
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from jobs.showdown import STUDY as SHOWDOWN
from pipeline.backends import SerialBackend
from pipeline.plan import RunConfig
from pipeline.store import META_RUN_ID, META_SCHEMA
from sampyong.cli import app
from tests.helpers import execute

CONFIG = RunConfig(job="showdown", game="pls7", deals=40_000, shard_deals=10_000, players=4, seed=8)
SHARD, TABLE = 2, "categories"


@pytest.fixture(scope="module")
def sound_run(tmp_path_factory) -> Path:
    return execute(CONFIG, SerialBackend(), tmp_path_factory.mktemp("sound"), quiet=True)


def outputs(run_dir: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(run_dir)): p.read_bytes()
        for p in sorted(run_dir.rglob("*"))
        if p.is_file() and p.parts[-2] in ("tables", "figures") or p.name == "report.md"
    }


def _manifest(run_dir: Path) -> dict:
    return json.loads((run_dir / "manifest.json").read_text())


def _save_manifest(run_dir: Path, manifest: dict) -> None:
    (run_dir / "manifest.json").write_text(json.dumps(manifest))


def _target(run_dir: Path) -> Path:
    return run_dir / "shards" / TABLE / f"shard-{SHARD:06d}.parquet"


def _rewrite_metadata(run_dir: Path, key: bytes, value: bytes) -> None:
    """Rewrite the shard's file with one metadata value changed, and give the manifest its new
    checksum, so that only the metadata check can find it."""
    path = _target(run_dir)
    table = pq.read_table(path)
    pq.write_table(table.replace_schema_metadata({**table.schema.metadata, key: value}), path)
    manifest = _manifest(run_dir)
    manifest["shards"][str(SHARD)]["files"][TABLE]["sha256"] = hashlib.sha256(path.read_bytes()).hexdigest()
    _save_manifest(run_dir, manifest)


def missing_file(run_dir):
    _target(run_dir).unlink()


def missing_from_manifest(run_dir):
    manifest = _manifest(run_dir)
    del manifest["shards"][str(SHARD)]["files"][TABLE]
    _save_manifest(run_dir, manifest)


def wrong_run_id(run_dir):
    _rewrite_metadata(run_dir, META_RUN_ID, b"0123456789ab")


def wrong_schema_version(run_dir):
    _rewrite_metadata(run_dir, META_SCHEMA, b"2")


def wrong_row_count(run_dir):
    manifest = _manifest(run_dir)
    manifest["shards"][str(SHARD)]["files"][TABLE]["rows"] += 1
    _save_manifest(run_dir, manifest)


def truncated_file(run_dir):
    path = _target(run_dir)
    path.write_bytes(path.read_bytes()[:200])


def extra_table(run_dir):
    manifest = _manifest(run_dir)
    files = manifest["shards"][str(SHARD)]["files"]
    files["bogus"] = dict(files[TABLE])
    _save_manifest(run_dir, manifest)


DAMAGE = {
    missing_file: f"shard {SHARD}, table {TABLE}: shards/{TABLE}/shard-00000{SHARD}.parquet is missing",
    missing_from_manifest: f"shard {SHARD}: table {TABLE} is not in the manifest",
    wrong_run_id: f"shard {SHARD}, table {TABLE}: shards/{TABLE}/shard-00000{SHARD}.parquet belongs to run 0123456789ab",
    wrong_schema_version: f"shard {SHARD}, table {TABLE}: shards/{TABLE}/shard-00000{SHARD}.parquet has schema version 2",
    wrong_row_count: f"shard {SHARD}, table {TABLE}: shards/{TABLE}/shard-00000{SHARD}.parquet has",
    truncated_file: f"shard {SHARD}, table {TABLE}: shards/{TABLE}/shard-00000{SHARD}.parquet does not match its checksum",
    extra_table: f"shard {SHARD}: table bogus is not a table of showdown",
}


@pytest.fixture
def damaged(request, sound_run, tmp_path) -> Path:
    out = tmp_path / "out"
    run_dir = out / "showdown" / CONFIG.run_id
    shutil.copytree(sound_run, run_dir)
    request.param(run_dir)
    return run_dir


@pytest.mark.parametrize("damaged", DAMAGE, indirect=True, ids=[f.__name__ for f in DAMAGE])
def test_check_names_the_shard_and_table(damaged, request):
    """`check` exits 1 naming the damaged shard and table, and nothing of the sound shards."""
    expected = DAMAGE[request.node.callspec.params["damaged"]]
    result = CliRunner().invoke(app, ["check", str(damaged)])
    assert result.exit_code == 1
    assert expected in result.output, result.output
    for line in result.output.strip().splitlines():
        assert f"shard {SHARD}" in line or f"shard-00000{SHARD}" in line, line


@pytest.mark.parametrize("damaged", DAMAGE, indirect=True, ids=[f.__name__ for f in DAMAGE])
def test_report_refuses_a_damaged_run(damaged):
    """`report` on a damaged run exits 1 with one line and leaves tables, figures and report.md as they were."""
    before = outputs(damaged)
    result = CliRunner().invoke(app, ["report", str(damaged)])
    assert result.exit_code == 1 and "not complete and sound" in result.output
    assert outputs(damaged) == before


@pytest.mark.parametrize("damaged", DAMAGE, indirect=True, ids=[f.__name__ for f in DAMAGE])
def test_rerun_recomputes_only_the_damaged_shard(damaged, sound_run):
    """The same run again recomputes the damaged shard alone; the tables equal the sound run's
    and `check` then passes."""
    computed = []

    class Counting(SerialBackend):
        def run(self, tasks, on_result, on_status=None):
            computed.extend(t.shard.index for t in tasks)
            super().run(tasks, on_result)

    execute(CONFIG, Counting(), damaged.parent.parent, quiet=True)
    assert computed == [SHARD]
    assert outputs(damaged) == outputs(sound_run)
    assert CliRunner().invoke(app, ["check", str(damaged)]).exit_code == 0


def test_stray_file_fails_check_and_report(sound_run, tmp_path):
    """A file in shards/ that the manifest does not list fails `check` and `report`."""
    run_dir = tmp_path / "run"
    shutil.copytree(sound_run, run_dir)
    shutil.copy(_target(run_dir), run_dir / "shards" / TABLE / "shard-000099.parquet")
    result = CliRunner().invoke(app, ["check", str(run_dir)])
    assert result.exit_code == 1 and f"stray file shards/{TABLE}/shard-000099.parquet" in result.output
    assert CliRunner().invoke(app, ["report", str(run_dir)]).exit_code == 1


def test_a_shard_missing_from_the_manifest_fails_report(sound_run, tmp_path):
    """A run missing a whole shard is refused by `report` (it once divided 3 shards' counts by 4 shards' deals)."""
    run_dir = tmp_path / "run"
    shutil.copytree(sound_run, run_dir)
    manifest = _manifest(run_dir)
    del manifest["shards"]["1"]
    _save_manifest(run_dir, manifest)
    for table in SHOWDOWN.tables:
        (run_dir / "shards" / table / "shard-000001.parquet").unlink()
    result = CliRunner().invoke(app, ["report", str(run_dir)])
    assert result.exit_code == 1 and "1 of 4 shards not finished: 1" in result.output
