"""Rerun the commands of the README's "A tour of the CLI" and write their outputs into it.

Every tool output the tour shows sits between a pair of HTML comments in README.md::

    <!-- tour:NAME -->...<!-- /tour:NAME -->

This script runs the commands behind each region with the ``sampyong`` console script on
PATH (never by importing the CLI), renders their output, and replaces exactly the text
between the markers; the prose around them is left alone. The regions:

* ``games``: ``sampyong games``, shortened as the README shows it: the presets and the
  knobs line in full, then only the first ranking line with its two lowest and two highest
  categories, then ``...``.
* ``eval``: ``sampyong eval`` in full, and ``sampyong eval --input -`` whose JSON line is
  shortened: the first player's high hand without its cards and the later players as
  ``...``.
* ``run``: the run directory printed by ``sampyong run showdown`` (defaults: 20 M deals).
  The 200 M-deal command above it is shown with no output and is not run.
* ``showdown-report``: the "Against RULES.md section 9" table of that run's report.md,
  without its ``z`` column.
* ``distribution``: ``present_share`` of four categories in the ``tables/categories.csv``
  of ``sampyong run distribution --game pls7`` (exact), as percentages to 4 decimals.
* ``grid``: ``equity_high`` of three classes in the ``tables/grid.csv`` of
  ``sampyong run grid --game holdem --exact``, as percentages to 4 decimals.
* ``equity``: the two ``sampyong equity`` commands in full.
* ``ranges``: a range-against-range ``sampyong equity`` and a ``sampyong range``, in full.
* ``play``: the run directory of ``sampyong run play --game pls7 --policy pro-like --hands 1M``
  and the sentences of its report's "The rule book under play".
* ``panel``: the report directory of ``sampyong run panel --game pls7 --hands 20k --no-skill`` and
  its report's table of the claims, one column per member of the panel.

Runs use ``--quiet`` and land in a temporary folder (the working directory of every command,
with ``--out outputs``, so a run directory prints as ``outputs/JOB/RUN_ID``, the run id being
a hash of the config); nothing is written into the repository except README.md. All the
numbers are deterministic (fixed seeds, exact enumeration), so a fresh run reproduces the
README bit for bit. The tour takes about a minute on 2 cores (the 20 M-deal showdown, the
PLS7 distribution and the hold'em grid take 15-20 s each).

    python docs/tour.py            # rewrite README.md in place
    python docs/tour.py --check    # exit 1 and print a diff when README.md differs

Exit codes: 0 README.md is (now) up to date, 1 ``--check`` found a difference, 2 a command
failed or the markers are malformed.
"""

from __future__ import annotations

import argparse
import csv
import difflib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"

REGIONS = ("games", "eval", "run", "showdown-report", "distribution", "grid", "equity", "ranges", "play", "panel")
MARKER = re.compile(r"<!-- (/?)tour:([A-Za-z0-9_-]+) -->")


class TourError(Exception):
    """A command failed, its output has an unexpected shape, or the markers are malformed."""


# --- regions in a text ----------------------------------------------------------------------


def regions(text: str) -> dict[str, tuple[int, int]]:
    """Name -> (start, end) of each region's body (the text between its two markers).

    Raises TourError unless every opening marker is followed by its own closing marker
    before any other marker, and no name appears twice.

    >>> regions("a <!-- tour:x -->b<!-- /tour:x --> c")
    {'x': (17, 18)}
    """
    found: dict[str, tuple[int, int]] = {}
    open_name, open_end = None, 0
    for m in MARKER.finditer(text):
        closing, name = m.group(1) == "/", m.group(2)
        if not closing:
            if open_name is not None:
                raise TourError(f"tour:{name} opens inside tour:{open_name}")
            if name in found:
                raise TourError(f"tour:{name} appears twice")
            open_name, open_end = name, m.end()
        else:
            if open_name != name:
                raise TourError(f"/tour:{name} closes " + (f"tour:{open_name}" if open_name else "nothing"))
            found[name] = (open_end, m.start())
            open_name = None
    if open_name is not None:
        raise TourError(f"tour:{open_name} is never closed")
    return found


def rewrite(text: str, bodies: dict[str, str]) -> str:
    """Replace the body of each named region with ``bodies[name]``; all else is kept.

    >>> rewrite("a <!-- tour:x -->old<!-- /tour:x --> c", {"x": "new"})
    'a <!-- tour:x -->new<!-- /tour:x --> c'
    """
    spans = regions(text)
    missing = sorted(set(bodies) - set(spans))
    if missing:
        raise TourError(f"no region for {', '.join(missing)}")
    out, pos = [], 0
    for name, (start, end) in sorted(spans.items(), key=lambda item: item[1]):
        if name in bodies:
            out += [text[pos:start], bodies[name]]
            pos = end
    out.append(text[pos:])
    return "".join(out)


# --- running commands -----------------------------------------------------------------------


@dataclass(frozen=True)
class Command:
    """One ``$`` line of the tour: ``shown`` is the README's text (a ``# comment`` allowed)."""

    shown: str
    stdin: str | None = None  # shown as ``echo '...' | `` before the command
    run: bool = True  # False: shown with no output, not run
    extra: tuple[str, ...] = ()  # appended when run, not shown

    @property
    def argv(self) -> list[str]:
        return shlex.split(self.shown, comments=True)

    def line(self) -> str:
        pipe = f"echo '{self.stdin}' | " if self.stdin is not None else ""
        return f"$ {pipe}{self.shown}"


RUN = ("--quiet", "--out", "outputs")  # every `sampyong run`: no progress, into the temp folder

GAMES = Command("sampyong games")
EVAL = Command('sampyong eval --game pls7 --board "Ad 7s 4h 8s Qc" "As 2c Kh" "Kd Qd Jd" "3h 5d 6c" --pot 101')
EVAL_JSON = Command(
    "sampyong eval --input -",
    stdin='{"game": "plo8", "board": "Ad 8c 5h Ks 2c", "hands": ["As Ah 3s 6d", "Kh Qc Jh Td"], "pot": 101}',
)
RUN_KNOBS = Command(
    "sampyong run showdown --game pls7 --ranking skip_over_flush --low 8 --deals 200M --players 8", run=False
)
RUN_DEFAULT = Command(
    "sampyong run showdown            # defaults: pls7, 20M deals, 8 hands, seed 0, 1M-deal shards", extra=RUN
)
DISTRIBUTION = Command("sampyong run distribution --game pls7", extra=RUN)
GRID = Command("sampyong run grid --game holdem --exact", extra=RUN)
PLAY = Command("sampyong run play --game pls7 --policy pro-like --hands 1M", extra=RUN)
PANEL = Command("sampyong run panel --game pls7 --hands 20k --no-skill", extra=RUN)
EQUITY = (
    Command('sampyong equity "As Ah" "Kd Kc" --game holdem'),
    Command('sampyong equity "As 2h 3d" "Kd Kc Qs" random --samples 200k'),
)
RANGES = (
    Command('sampyong equity "QQ+, AKs" "JJ-99, AQs+" --game holdem'),
    Command('sampyong range "AA*" --game pls7'),
)

DISTRIBUTION_CATEGORIES = ("three_of_a_kind", "straight", "flush", "skip_straight")
GRID_CLASSES = ("AA", "72o", "32o")


class Runner:
    """Runs commands with the ``sampyong`` on PATH in one temporary folder, each once."""

    def __init__(self, workdir: Path, log=sys.stderr):
        exe = shutil.which("sampyong")
        if exe is None:
            raise TourError("no `sampyong` on PATH (pip install -e '.[test]')")
        self.exe, self.workdir, self.log = exe, workdir, log
        self.env = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0"}
        self.outputs: dict[Command, str] = {}

    def __call__(self, command: Command) -> str:
        if command not in self.outputs:
            argv = command.argv
            if argv[0] != "sampyong":
                raise TourError(f"not a sampyong command: {command.shown}")
            started = time.perf_counter()
            done = subprocess.run(
                [self.exe, *argv[1:], *command.extra],
                input=command.stdin,
                capture_output=True,
                text=True,
                cwd=self.workdir,
                env=self.env,
            )
            if self.log is not None:
                print(f"tour: {time.perf_counter() - started:5.1f} s  {command.shown}", file=self.log)
            if done.returncode != 0:
                raise TourError(f"`{command.shown}` exited {done.returncode}:\n{done.stderr}")
            self.outputs[command] = done.stdout
        return self.outputs[command]

    def run_dir(self, command: Command) -> Path:
        """The run directory a ``sampyong run`` printed on its last line."""
        return self.workdir / self(command).splitlines()[-1]


# --- rendering ------------------------------------------------------------------------------


def block(lines: list[str]) -> str:
    """A region body holding one fenced text block (markers on their own lines)."""
    return "\n```text\n" + "\n".join(lines) + "\n```\n"


def transcript(runner: Runner, *commands: Command, shorten=None) -> list[str]:
    """``$`` lines each followed by its output (``shorten`` applied)."""
    lines: list[str] = []
    for command in commands:
        lines.append(command.line())
        if command.run:
            out = runner(command).rstrip("\n").split("\n")
            lines += shorten(out) if shorten else out
    return lines


def shorten_games(out: list[str]) -> list[str]:
    """Presets and knobs in full; the first ranking line only, its middle categories as ``...``."""
    first = next((i for i, line in enumerate(out) if line.startswith("ranking ")), None)
    if first is None:
        raise TourError("`sampyong games` printed no ranking line")
    order = out[first].split(" < ")
    if len(order) > 4:
        order = order[:2] + ["..."] + order[-2:]
    return out[:first] + [" < ".join(order), "..."]


ELLIPSIS = "@@tour-ellipsis@@"


def shorten_eval_json(out: list[str]) -> list[str]:
    """The first player's high hand without its cards and the later players as ``...``."""
    shortened = []
    for line in out:
        deal = json.loads(line)
        if json.dumps(deal) != line:
            raise TourError(f"`sampyong eval --input` is no longer printed as json.dumps prints it: {line}")
        first = deal["players"][0]
        first["high"] = {"category": first["high"]["category"], ELLIPSIS: None}
        deal["players"] = [first, ELLIPSIS] if len(deal["players"]) > 1 else [first]
        text = json.dumps(deal).replace(f'"{ELLIPSIS}": null', "...").replace(f'"{ELLIPSIS}"', "...")
        shortened.append(text)
    return shortened


def report_table(report: str, heading: str, drop: tuple[str, ...]) -> list[str]:
    """The markdown table under ``heading`` in a report.md, without the ``drop`` columns."""
    lines = report.split("\n")
    try:
        start = lines.index(heading)
    except ValueError:
        raise TourError(f"report.md has no {heading!r}") from None
    rows = []
    for line in lines[start + 1 :]:
        if line.startswith("|"):
            rows.append(line.strip().strip("|").split("|"))
        elif rows:
            break
    if not rows:
        raise TourError(f"no table under {heading!r} in report.md")
    header = [cell.strip() for cell in rows[0]]
    keep = [i for i, name in enumerate(header) if name not in drop]
    if len(keep) != len(header) - len(drop):
        raise TourError(f"the report.md table {header} lacks a column of {drop}")
    return ["|" + "|".join(row[i] for i in keep) + "|" for row in rows]


def csv_rows(path: Path, key: str) -> dict[str, dict[str, str]]:
    with path.open(newline="") as f:
        return {row[key]: row for row in csv.DictReader(f)}


def percent(value: str) -> str:
    return f"{100 * float(value):.4f} %"


def bodies(runner: Runner) -> dict[str, str]:
    """Run the tour's commands and render every region's body."""
    showdown = runner.run_dir(RUN_DEFAULT)
    report = (showdown / "report.md").read_text()
    categories = csv_rows(runner.run_dir(DISTRIBUTION) / "tables" / "categories.csv", "category")
    grid = csv_rows(runner.run_dir(GRID) / "tables" / "grid.csv", "class")
    return {
        "games": block(transcript(runner, GAMES, shorten=shorten_games)),
        "eval": block(transcript(runner, EVAL) + [""] + transcript(runner, EVAL_JSON, shorten=shorten_eval_json)),
        "run": block(transcript(runner, RUN_KNOBS, RUN_DEFAULT)),
        "showdown-report": "\n" + "\n".join(report_table(report, "## Against RULES.md section 9", drop=("z",))) + "\n",
        "distribution": ", ".join(
            f"{name.replace('_', ' ')} {percent(categories[name]['present_share'])}" for name in DISTRIBUTION_CATEGORIES
        ),
        "grid": ", ".join(f"{name} {percent(grid[name]['equity_high'])}" for name in GRID_CLASSES),
        "equity": block(transcript(runner, *EQUITY)),
        "ranges": block(transcript(runner, *RANGES)),
        "play": block(transcript(runner, PLAY) + [""] + verdicts((runner.run_dir(PLAY) / "report.md").read_text())),
        "panel": block(transcript(runner, PANEL))
        + "\n"
        + "\n".join(report_table((runner.run_dir(PANEL) / "report.md").read_text(), "## The claims", drop=()))
        + "\n",
    }


def verdicts(report: str) -> list[str]:
    """The sentences under "The rule book under play" in a play report.md."""
    lines = report.split("\n")
    try:
        start = lines.index("## The rule book under play")
    except ValueError:
        raise TourError("report.md has no '## The rule book under play'") from None
    said = []
    for line in lines[start + 1 :]:
        if line.startswith("## "):
            break
        if line.startswith("- "):
            said.append(line)
    if not said:
        raise TourError("no sentences under 'The rule book under play' in report.md")
    return said


def fresh(text: str, log=sys.stderr) -> str:
    """``text`` with every tour region rewritten from a fresh run of its commands."""
    with tempfile.TemporaryDirectory(prefix="sampyong-tour-") as tmp:
        new = bodies(Runner(Path(tmp), log=log))
    assert set(new) == set(REGIONS)
    check_regions(text)
    return rewrite(text, new)


def check_regions(text: str) -> None:
    """Raise TourError unless ``text`` has well-formed markers for exactly the tour's regions."""
    found = regions(text)
    missing, unknown = set(REGIONS) - set(found), set(found) - set(REGIONS)
    if missing or unknown:
        raise TourError(f"regions missing: {sorted(missing)}, not the tour's: {sorted(unknown)}")


def diff(old: str, new: str, name: str = "README.md") -> str:
    return "".join(
        difflib.unified_diff(old.splitlines(keepends=True), new.splitlines(keepends=True), name, f"{name} (fresh run)")
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Rerun the commands of the README's CLI tour and write their outputs between "
        "its <!-- tour:NAME --> markers (about a minute on 2 cores).",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="do not write; exit 1 and print a unified diff when the README differs from a fresh run",
    )
    parser.add_argument(
        "--readme", type=Path, default=README, help="the file to rewrite (default: the repo's README.md)"
    )
    parser.add_argument("-q", "--quiet", action="store_true", help="do not print each command's time on stderr")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    try:
        old = args.readme.read_text()
        check_regions(old)  # malformed or missing markers fail before the long runs
        new = fresh(old, log=None if args.quiet else sys.stderr)
    except TourError as error:
        print(f"tour: {error}", file=sys.stderr)
        return 2
    seconds = time.perf_counter() - started
    if args.check:
        if new != old:
            sys.stdout.write(diff(old, new, args.readme.name))
            print(f"tour: {args.readme} differs from a fresh run ({seconds:.0f} s)", file=sys.stderr)
            return 1
        if not args.quiet:
            print(f"tour: {args.readme} equals a fresh run ({seconds:.0f} s)", file=sys.stderr)
        return 0
    if new != old:
        args.readme.write_text(new)
    if not args.quiet:
        done = "rewritten" if new != old else "unchanged"
        print(f"tour: {args.readme} {done} ({seconds:.0f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
