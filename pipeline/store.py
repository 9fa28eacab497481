"""The run directory on disk: config, shards (atomic Parquet files) and the manifest.

```
<out>/<job>/<run_id>/run.json           the RunConfig
                      manifest.json     finished shards: files, rows, sha256
                      shards/<table>/shard-000123.parquet
                      tables/ figures/ report.md
```

A shard counts only once it is in the manifest, and the manifest is written after the shard's
files (each through a temporary file and ``os.replace``), so a crash at any moment leaves
either a finished shard or none. On resume every listed shard is checked (file present,
checksum, run_id and shard index in the Parquet metadata); anything wrong is dropped from the
manifest and computed again.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from evaluator.errors import SampyongError
from pipeline.plan import SCHEMA_VERSION, RunConfig

META_RUN_ID = b"sampyong.run_id"
META_SHARD = b"sampyong.shard"
META_SCHEMA = b"sampyong.schema_version"


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def atomic_write(path: Path, write) -> None:
    """``write(tmp)`` then rename over ``path``; a failed write leaves no temporary file behind."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        write(tmp)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def _atomic_write_text(path: Path, text: str) -> None:
    atomic_write(path, lambda tmp: tmp.write_text(text))


class RunStore:
    """One run directory."""

    def __init__(self, run_dir: Path, config: RunConfig):
        self.run_dir = Path(run_dir)
        self.config = config
        self.run_id = config.run_id

    @classmethod
    def create(cls, out: Path, config: RunConfig) -> RunStore:
        run_dir = Path(out) / config.job / config.run_id
        try:
            run_dir.mkdir(parents=True, exist_ok=True)
            store = cls(run_dir, config)
            config_file = run_dir / "run.json"
            if not config_file.exists():
                _atomic_write_text(config_file, config.to_json())
            if not store.manifest_path.exists():
                store._write_manifest({})
        except OSError as error:
            raise SampyongError(f"cannot write the run directory {run_dir}: {error.strerror or error}") from None
        return store

    @classmethod
    def open(cls, run_dir: Path) -> RunStore:
        run_dir = Path(run_dir)
        config_file = run_dir / "run.json"
        if not config_file.is_file():
            raise SampyongError(f"{run_dir} is not a run directory (no run.json)")
        try:
            config = RunConfig.from_json(config_file.read_text())
        except (ValueError, TypeError) as error:
            raise SampyongError(f"{config_file} is not a valid run config: {error}") from None
        return cls(run_dir, config)

    # --- manifest -----------------------------------------------------------------------
    @property
    def manifest_path(self) -> Path:
        return self.run_dir / "manifest.json"

    def read_manifest(self) -> dict[int, dict]:
        try:
            data = json.loads(self.manifest_path.read_text())
        except (OSError, ValueError):
            return {}
        if data.get("run_id") != self.run_id:
            return {}
        return {int(k): v for k, v in data.get("shards", {}).items()}

    def _write_manifest(self, shards: dict[int, dict]) -> None:
        data = {
            "run_id": self.run_id,
            "schema_version": SCHEMA_VERSION,
            "shards": {str(k): shards[k] for k in sorted(shards)},
        }
        _atomic_write_text(self.manifest_path, json.dumps(data, indent=1))

    # --- shards -------------------------------------------------------------------------
    def shard_path(self, table: str, index: int) -> Path:
        return self.run_dir / "shards" / table / f"shard-{index:06d}.parquet"

    def write_shard(self, index: int, tables: dict[str, pa.Table], manifest: dict[int, dict]) -> None:
        """Write a finished shard's tables, then record it in ``manifest`` (and on disk)."""
        files = {}
        for name, table in tables.items():
            path = self.shard_path(name, index)
            path.parent.mkdir(parents=True, exist_ok=True)
            meta = {
                META_RUN_ID: self.run_id.encode(),
                META_SHARD: str(index).encode(),
                META_SCHEMA: str(SCHEMA_VERSION).encode(),
            }
            table = table.replace_schema_metadata({**(table.schema.metadata or {}), **meta})
            atomic_write(path, lambda tmp, table=table: pq.write_table(table, tmp))
            files[name] = {
                "path": str(path.relative_to(self.run_dir)),
                "rows": table.num_rows,
                "sha256": _sha256(path),
            }
        manifest[index] = {"files": files}
        self._write_manifest(manifest)

    def shard_problem(self, index: int, entry: dict) -> str | None:
        """Why a manifest entry cannot be trusted, or None if its files are sound."""
        for name, info in entry.get("files", {}).items():
            path = self.run_dir / info["path"]
            if not path.is_file():
                return f"shard {index}: {info['path']} is missing"
            if _sha256(path) != info["sha256"]:
                return f"shard {index}: {info['path']} does not match its checksum"
            try:
                meta = pq.read_schema(path).metadata or {}
                rows = pq.read_metadata(path).num_rows
            except (OSError, pa.ArrowException) as error:
                return f"shard {index}: {info['path']} is unreadable ({error})"
            if meta.get(META_RUN_ID) != self.run_id.encode() or meta.get(META_SHARD) != str(index).encode():
                return f"shard {index}: {info['path']} belongs to another run or shard"
            if rows != info["rows"]:
                return f"shard {index}: {info['path']} has {rows} rows, the manifest says {info['rows']}"
        return None

    def finished_shards(self, log=None) -> dict[int, dict]:
        """The manifest's sound entries; unsound ones are dropped (and reported through ``log``)."""
        manifest = self.read_manifest()
        sound = {}
        for index, entry in manifest.items():
            problem = self.shard_problem(index, entry)
            if problem is None:
                sound[index] = entry
            elif log is not None:
                log(f"recomputing {problem}")
        if sound.keys() != manifest.keys():
            self._write_manifest(sound)
        return sound

    def audit(self, planned: list[int]) -> list[str]:
        """Everything wrong with the run directory; an empty list means complete and sound."""
        problems = []
        try:
            data = json.loads(self.manifest_path.read_text())
        except (OSError, ValueError):
            return ["manifest.json is missing or unreadable"]
        if data.get("run_id") != self.run_id:
            problems.append(f"manifest.json names run {data.get('run_id')!r}, run.json is {self.run_id!r}")
        if data.get("schema_version") != SCHEMA_VERSION:
            problems.append(f"schema version {data.get('schema_version')!r}, this sampyong writes {SCHEMA_VERSION}")
        manifest = self.read_manifest()
        listed = set()
        for index in sorted(manifest):
            problem = self.shard_problem(index, manifest[index])
            if problem:
                problems.append(problem)
            listed |= {info["path"] for info in manifest[index]["files"].values()}
        missing = sorted(set(planned) - set(manifest))
        if missing:
            shown = ", ".join(map(str, missing[:10])) + (" ..." if len(missing) > 10 else "")
            problems.append(f"{len(missing)} of {len(planned)} shards not finished: {shown}")
        extra = sorted(set(manifest) - set(planned))
        if extra:
            problems.append(f"manifest lists shards the plan does not have: {extra[:10]}")
        shard_root = self.run_dir / "shards"
        if shard_root.exists():
            for path in sorted(shard_root.rglob("*")):
                if path.is_file() and str(path.relative_to(self.run_dir)) not in listed:
                    problems.append(f"stray file {path.relative_to(self.run_dir)} (not in the manifest)")
        return problems

    def table_files(self, manifest: dict[int, dict]) -> dict[str, list[Path]]:
        files: dict[str, list[Path]] = {}
        for index in sorted(manifest):
            for name, info in manifest[index]["files"].items():
                files.setdefault(name, []).append(self.run_dir / info["path"])
        return files
