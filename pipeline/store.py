"""The run directory on disk: config, shards (atomic Parquet files) and the manifest.

```
<out>/<job>/<run_id>/run.json           the RunConfig
                      manifest.json     finished shards: files, rows, sha256
                      shards/<table>/shard-000123.parquet
                      tables/ figures/ report.md
```

A shard counts only once it is in the manifest, and the manifest is written after the shard's
files (each through a temporary file and ``os.replace``), so a crash at any moment leaves
either a finished shard or none. A shard is finished only with every table its study declares.
On resume every listed shard is checked table by table (every declared table listed and no
other, file present, checksum, run_id, shard index and schema version in the Parquet metadata,
row count); anything wrong is dropped from the manifest and computed again.
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
    """Write a file whole or not at all: ``write(tmp)``, then rename ``tmp`` over ``path``.

    >>> import tempfile
    >>> scratch = tempfile.TemporaryDirectory()
    >>> path = Path(scratch.name) / "note.txt"
    >>> atomic_write(path, lambda tmp: tmp.write_text("done"))
    >>> def fail(tmp):
    ...     tmp.write_text("half")
    ...     raise OSError("disk full")
    >>> atomic_write(path, fail)
    Traceback (most recent call last):
    ...
    OSError: disk full
    >>> path.read_text(), sorted(p.name for p in path.parent.iterdir())
    ('done', ['note.txt'])
    >>> scratch.cleanup()

    Parameters:
        path: the file to write; its folder must exist.
        write: ``write(tmp)`` writes the whole content to the temporary path ``tmp``
            (``.NAME.PID.tmp`` beside ``path``), with any suffix: pass the format explicitly.

    Raises ``OSError`` if the write or the rename fails; ``path`` is then as it was and no temporary
    file is left. Whatever ``write`` raises passes through the same way.
    """
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        write(tmp)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def _atomic_write_text(path: Path, text: str) -> None:
    atomic_write(path, lambda tmp: tmp.write_text(text))


def _listed_paths(entry) -> set[str]:
    """The file paths a manifest entry names (none if it is malformed)."""
    files = entry.get("files") if isinstance(entry, dict) else None
    if not isinstance(files, dict):
        return set()
    return {info["path"] for info in files.values() if isinstance(info, dict) and "path" in info}


class RunStore:
    """One run directory: its config, its shards' files and the manifest that lists them.

    Parameters:
        run_dir: the folder (``OUT/JOB/RUN_ID``); ``create`` makes it.
        config: the run's config (``run_id`` comes from it).
        tables: the count tables every shard must have (the study's ``tables``).

    Nothing is read or written until a method is called.
    """

    def __init__(self, run_dir: Path, config: RunConfig, tables: tuple[str, ...]):
        self.run_dir = Path(run_dir)
        self.config = config
        self.run_id = config.run_id
        self.tables = tuple(tables)

    @classmethod
    def create(cls, out: Path, config: RunConfig, tables: tuple[str, ...]) -> RunStore:
        """Open the run directory ``OUT/JOB/RUN_ID``, making it with ``run.json`` and an empty
        manifest when they are missing (an existing run is left as it is, to be resumed).

        >>> import tempfile
        >>> scratch = tempfile.TemporaryDirectory()
        >>> config = RunConfig(job="coin", game="-", deals=4, shard_deals=2, players=1, seed=0)
        >>> store = RunStore.create(Path(scratch.name), config, ("flips",))
        >>> sorted(p.name for p in store.run_dir.iterdir()), store.read_manifest()
        (['manifest.json', 'run.json'], {})
        >>> scratch.cleanup()

        Parameters:
            out: the output folder.
            config: the run's config.
            tables: the study's declared count tables.

        Returns the store. Raises ``SampyongError`` if the folder or its files cannot be written.
        """
        run_dir = Path(out) / config.job / config.run_id
        try:
            run_dir.mkdir(parents=True, exist_ok=True)
            store = cls(run_dir, config, tables)
            config_file = run_dir / "run.json"
            if not config_file.exists():
                _atomic_write_text(config_file, config.to_json())
            if not store.manifest_path.exists():
                store.write_manifest({})
        except OSError as error:
            raise SampyongError(f"cannot write the run directory {run_dir}: {error.strerror or error}") from None
        return store

    @staticmethod
    def read_config(run_dir: Path) -> RunConfig:
        """Read the config of an existing run directory.

        Parameters:
            run_dir: a run directory (``OUT/JOB/RUN_ID``).

        Returns the ``RunConfig`` in ``run_dir/run.json``. Raises ``SampyongError`` if there is no
        ``run.json`` or it is not a valid config.
        """
        config_file = Path(run_dir) / "run.json"
        if not config_file.is_file():
            raise SampyongError(f"{run_dir} is not a run directory (no run.json)")
        try:
            return RunConfig.from_json(config_file.read_text())
        except (ValueError, TypeError, AttributeError) as error:
            raise SampyongError(f"{config_file} is not a valid run config: {error}") from None

    # --- manifest -----------------------------------------------------------------------
    @property
    def manifest_path(self) -> Path:
        """Locate the manifest.

        Returns ``run_dir/manifest.json`` (it may not exist).
        """
        return self.run_dir / "manifest.json"

    def read_manifest(self) -> dict[int, dict]:
        """Read the manifest's shard entries, unchecked (``finished_shards`` checks them).

        Returns shard index to entry (``{"files": {table: {"path", "rows", "sha256"}}}``); empty
        when the manifest is missing, unreadable or another run's.
        """
        try:
            data = json.loads(self.manifest_path.read_text())
            if data.get("run_id") != self.run_id:
                return {}
            return {int(k): v for k, v in data.get("shards", {}).items()}
        except (OSError, ValueError, AttributeError, TypeError):
            return {}

    def write_manifest(self, shards: dict[int, dict]) -> None:
        """Replace the manifest, atomically, with these finished shards' entries.

        Parameters:
            shards: shard index to manifest entry.

        Raises ``OSError`` if the manifest cannot be written (the old one is then kept).
        """
        data = {
            "run_id": self.run_id,
            "schema_version": SCHEMA_VERSION,
            "shards": {str(k): shards[k] for k in sorted(shards)},
        }
        _atomic_write_text(self.manifest_path, json.dumps(data, indent=1))

    # --- shards -------------------------------------------------------------------------
    def shard_path(self, table: str, index: int) -> Path:
        """Locate one table of one shard.

        >>> RunStore(Path("out/coin/abc"), RunConfig("coin", "-", 4, 2, 1, 0), ("flips",)).shard_path("flips", 3).as_posix()
        'out/coin/abc/shards/flips/shard-000003.parquet'

        Parameters:
            table: the table's name.
            index: the shard's index.

        Returns ``run_dir/shards/TABLE/shard-NNNNNN.parquet``.
        """
        return self.run_dir / "shards" / table / f"shard-{index:06d}.parquet"

    def write_shard(self, index: int, tables: dict[str, pa.Table], manifest: dict[int, dict]) -> None:
        """Write a finished shard's tables, each atomically, then record it in the manifest.

        The files carry the run_id, shard index and schema version in their Parquet metadata;
        the entry lists each file's path, rows and sha256.

        Parameters:
            index: the shard's index.
            tables: every declared table of the shard (``run_shard``'s result).
            manifest: the run's finished shards; updated in place, then written to disk.

        Raises ``ValueError`` if ``tables`` are not exactly the declared tables. Raises ``OSError``
        if a file or the manifest cannot be written.
        """
        if set(tables) != set(self.tables):
            raise ValueError(f"shard {index} has tables {sorted(tables)}, the study declares {sorted(self.tables)}")
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
        self.write_manifest(manifest)

    def shard_problem(self, index: int, entry: dict) -> str | None:
        """Tell why a manifest entry cannot be trusted.

        Parameters:
            index: the shard's index.
            entry: its manifest entry.

        Returns one line naming the shard, the table and what is wrong; None if the entry lists
        every declared table and no other, and each file is present, matches its checksum and row
        count, and names this run, this shard and this schema version. Raises ``OSError`` only if a
        listed file exists but cannot be read for its checksum.
        """
        files = entry.get("files") if isinstance(entry, dict) else None
        if not isinstance(files, dict):
            return f"shard {index}: the manifest entry lists no files"
        missing = [name for name in self.tables if name not in files]
        if missing:
            return f"shard {index}: table {missing[0]} is not in the manifest"
        extra = sorted(set(files) - set(self.tables))
        if extra:
            return f"shard {index}: table {extra[0]} is not a table of {self.config.job}"
        for name in self.tables:
            problem = self._file_problem(index, name, files[name])
            if problem:
                return f"shard {index}, table {name}: {problem}"
        return None

    def _file_problem(self, index: int, name: str, info) -> str | None:
        try:
            relative, rows, checksum = info["path"], info["rows"], info["sha256"]
        except (TypeError, KeyError):
            return "the manifest entry is malformed"
        if relative != str(self.shard_path(name, index).relative_to(self.run_dir)):
            return f"the manifest names {relative!r}, not this table's file"
        path = self.run_dir / relative
        if not path.is_file():
            return f"{relative} is missing"
        if _sha256(path) != checksum:
            return f"{relative} does not match its checksum"
        try:
            meta = pq.read_schema(path).metadata or {}
            file_rows = pq.read_metadata(path).num_rows
        except (OSError, pa.ArrowException) as error:
            return f"{relative} is unreadable ({error})"
        if meta.get(META_RUN_ID) != self.run_id.encode():
            return (
                f"{relative} belongs to run {meta.get(META_RUN_ID, b'?').decode(errors='replace')}, not {self.run_id}"
            )
        if meta.get(META_SHARD) != str(index).encode():
            return f"{relative} belongs to shard {meta.get(META_SHARD, b'?').decode(errors='replace')}"
        if meta.get(META_SCHEMA) != str(SCHEMA_VERSION).encode():
            found = meta.get(META_SCHEMA, b"none").decode(errors="replace")
            return f"{relative} has schema version {found}, this sampyong writes {SCHEMA_VERSION}"
        if file_rows != rows:
            return f"{relative} has {file_rows} rows, the manifest says {rows}"
        return None

    def finished_shards(self, log=None) -> dict[int, dict]:
        """Read the manifest's sound entries, dropping (and rewriting it without) unsound ones.

        Parameters:
            log: ``log(message)`` is told of each shard dropped (``recomputing ...``); None: silent.

        Returns shard index to entry, for the shards that need no recomputing. Raises ``OSError`` if
        the manifest must be rewritten and cannot be, or a listed file exists but cannot be read for
        its checksum.
        """
        manifest = self.read_manifest()
        sound = {}
        for index, entry in manifest.items():
            problem = self.shard_problem(index, entry)
            if problem is None:
                sound[index] = entry
            elif log is not None:
                log(f"recomputing {problem}")
        if sound.keys() != manifest.keys():
            self.write_manifest(sound)
        return sound

    def audit(self, planned: list[int]) -> list[str]:
        """List everything wrong with the run directory, as ``sampyong check`` reports it.

        Parameters:
            planned: the indices of the shards the plan has.

        Returns one line per problem (manifest, schema version, unsound or missing shards, shards
        the plan does not have, stray files); empty when complete and sound. Raises ``OSError`` only
        if a listed file exists but cannot be read for its checksum.
        """
        problems = []
        try:
            data = json.loads(self.manifest_path.read_text())
        except (OSError, ValueError):
            return ["manifest.json is missing or unreadable"]
        if not isinstance(data, dict):
            return ["manifest.json is not a manifest"]
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
            listed |= _listed_paths(manifest[index])
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
        """Gather the shard files of each table, in shard order.

        Parameters:
            manifest: shard index to entry (as ``finished_shards`` returns).

        Returns table name to its shards' file paths. Raises ``KeyError`` if an entry is malformed
        (check it with ``shard_problem`` first).
        """
        files: dict[str, list[Path]] = {}
        for index in sorted(manifest):
            for name, info in manifest[index]["files"].items():
                files.setdefault(name, []).append(self.run_dir / info["path"])
        return files
