"""One table's files: what survives a ``kill -9`` and how it is read back.

In the server's folder, for table ``ID``:

- ``ID.phhs``: every finished hand, one ``[n]`` section each, appended and fsynced as it ends;
- ``.tables/ID.json``: the table as the current hand began (seats, stacks, keys, the button,
  the deck), replaced atomically (written aside, fsynced, renamed);
- ``.tables/ID.journal``: the current hand's actions, one JSON line each, fsynced before the
  server answers; its first line names the hand it belongs to.

A hand is restored from the state and the journal. The state also says how long ``ID.phhs``
was when the hand began: a record written after that (the hand had ended, the next state had
not been saved yet) is cut off on restore, and replaying the journal writes it again, once.
A journal line torn by the kill was never answered, so it is dropped.

>>> import tempfile
>>> store = Store(Path(tempfile.mkdtemp()), "t1")
>>> store.save_state({"hand": 1}); store.start_journal(1); store.log({"action": "p1 cc"})
>>> store.load_state(), store.journal(1), store.journal(2)
({'hand': 1}, [{'action': 'p1 cc'}], [])
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from evaluator.errors import SampyongError


class Store:
    """The files of table ``table_id`` in ``folder`` (see the module's docstring)."""

    def __init__(self, folder: Path, table_id: str):
        self.folder = Path(folder)
        self.id = table_id
        self.records = self.folder / f"{table_id}.phhs"
        self.state_file = self.folder / ".tables" / f"{table_id}.json"
        self.journal_file = self.folder / ".tables" / f"{table_id}.journal"

    @staticmethod
    def table_ids(folder: Path) -> list[str]:
        """The tables saved in ``folder``, oldest first."""
        files = sorted((Path(folder) / ".tables").glob("*.json"), key=lambda f: f.stat().st_mtime)
        return [f.stem for f in files]

    # --- the state ----------------------------------------------------------------------------
    def save_state(self, state: dict) -> None:
        _write_atomically(self.state_file, json.dumps(state, separators=(",", ":")).encode())

    def load_state(self) -> dict:
        try:
            return json.loads(self.state_file.read_bytes())
        except (OSError, ValueError) as error:
            raise SampyongError(f"table {self.id}: cannot read its state ({error})") from None

    # --- the journal of the current hand --------------------------------------------------------
    def start_journal(self, hand: int) -> None:
        """A fresh journal for hand number ``hand``."""
        self.rewrite_journal(hand, [])

    def rewrite_journal(self, hand: int, entries: list[dict]) -> None:
        lines = [json.dumps({"hand": hand})] + [json.dumps(e, separators=(",", ":")) for e in entries]
        _write_atomically(self.journal_file, ("\n".join(lines) + "\n").encode())

    def log(self, entry: dict) -> None:
        """Append one entry; it is on disk when this returns."""
        with open(self.journal_file, "ab") as file:
            file.write((json.dumps(entry, separators=(",", ":")) + "\n").encode())
            file.flush()
            os.fsync(file.fileno())

    def journal(self, hand: int) -> list[dict]:
        """The entries logged for hand ``hand`` (none when the journal is another hand's); a
        last line torn by a kill is dropped."""
        try:
            text = self.journal_file.read_bytes().decode()
        except OSError:
            return []
        lines = text.split("\n")
        entries = []
        for number, line in enumerate(lines):
            if not line:
                continue
            try:
                entry = json.loads(line)
            except ValueError:
                if number == len(lines) - 1:  # torn by the kill, never answered
                    break
                raise SampyongError(f"table {self.id}: journal line {number + 1} is damaged") from None
            entries.append(entry)
        if not entries or entries[0].get("hand") != hand:
            return []
        return entries[1:]

    # --- the records ------------------------------------------------------------------------------
    def records_size(self) -> int:
        try:
            return self.records.stat().st_size
        except FileNotFoundError:
            return 0

    def append_record(self, text: str) -> int:
        """Append one hand's section; it is on disk when this returns. The file's new size."""
        new = not self.records.exists()
        with open(self.records, "ab") as file:
            file.write(text.encode())
            file.flush()
            os.fsync(file.fileno())
            size = file.tell()
        if new:  # the file's name is on disk too
            _fsync_folder(self.folder)
        return size

    def trim_records(self, size: int) -> None:
        """Cut ``ID.phhs`` back to ``size`` bytes: a hand written after the state last said so."""
        current = self.records_size()
        if current < size:
            raise SampyongError(f"table {self.id}: {self.records.name} is shorter than its state says")
        if current > size:
            with open(self.records, "r+b") as file:
                file.truncate(size)
                os.fsync(file.fileno())


def _write_atomically(path: Path, data: bytes) -> None:
    """Replace ``path`` by ``data`` whole or not at all, on disk when this returns."""
    path.parent.mkdir(parents=True, exist_ok=True)
    aside = path.with_name(path.name + ".tmp")
    with open(aside, "wb") as file:
        file.write(data)
        file.flush()
        os.fsync(file.fileno())
    os.replace(aside, path)
    _fsync_folder(path.parent)


def _fsync_folder(folder: Path) -> None:
    directory = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(directory)
    finally:
        os.close(directory)
