#!/usr/bin/env python3
"""Mutation testing with cosmic-ray for one module at a time; `bash tests/mutants.sh` is the front.

Only the standard library is imported at the top (pytest's doctest collection and CI do not need
cosmic-ray); cosmic-ray is imported where it is used.

How one run goes (`run MODULE`):

1. The work tree (or HEAD with --head) is copied to a private folder: the repository itself is
   never written, so other people's tests on this checkout never see a mutant, and an
   interrupted run leaves nothing behind in it.
2. Baseline: the module's test stages (modules.toml) run once on the unmutated copy with empty
   caches, which fill a *seed*: numba's compiled kernels (NUMBA_CACHE_DIR) and the project's data
   cache (SAMPYONG_CACHE: lookup tables, hand-ranking and grid tables). The baseline must pass;
   its duration sets the per-mutant timeout. Then the stages run once more under coverage
   (pytest-cov, a context per test): which tests execute each line of the module.
3. `cosmic-ray init` lists the mutants; the exclusion rules (modules.toml [exclude]) mark some
   skipped, with their reason; `cosmic-ray exec` then runs, for each mutant, the module file
   rewritten on disk (numba jits the mutated source) and `mutants.py test MODULE`.
4. `mutants.py test` (one mutant) runs, stage by stage, only the tests that execute the mutated
   statement in the baseline (``selected_tests``): a test that never runs it cannot tell the
   mutant from the original. Every test runs when that cannot be known: a line in a numba
   kernel (jitted code is not traced), one run at import, in a fixture outside any test's own
   call, in a subprocess, or by no test at all. It gives pytest a fresh NUMBA_CACHE_DIR and SAMPYONG_CACHE. With
   --cache safe (the default) they hold hard links to the seed entries made by modules that do
   not import the mutated module, directly or not; everything else compiles or is computed from
   scratch, so no kernel or table can carry the unmutated code. --cache cold seeds nothing.
5. The summary (mutants, killed, survived, timeouts, kill rate) is printed and the survivors not
   documented in equivalent.txt are written to tests/mutants/<module with / as _>.survivors.txt.

`run MODULE --survivors` tests the last session's undocumented survivors again against the current
tests (the module source must be the one that session tested): a test written to kill a survivor
is checked by the tool, not by hand, and the summary counts what it kills.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path

HERE = Path(__file__).resolve().parent  # tests/mutants
ROOT = HERE.parent.parent
CONFIG = HERE / "modules.toml"
EQUIVALENTS = HERE / "equivalent.txt"
RESULTS = HERE / "results"
PACKAGES = ("evaluator", "engine", "jobs", "pipeline", "sampyong")
VERDICT = "MUTANTS-VERDICT:"
OUTPUT_TAIL = 40  # lines of a failing stage's output kept in the session database

# Data cache entries (relative to SAMPYONG_CACHE) and the module whose code produces them.
# Anything else is never reused.
DATA_PRODUCERS = (
    (re.compile(r"high-[^/]+\.npz$"), "evaluator.tables"),
    (re.compile(r"board-classes-[^/]+\.npz$"), "jobs.grid"),
    (re.compile(r"hand_ranking/"), "jobs.hand_ranking"),
    (re.compile(r"grids/"), "jobs.grid"),
)

EXCLUSION_REASONS = {
    "annotation": "inside a type annotation (never evaluated under `from __future__ import annotations`)",
    "raise-message": "inside the message of a `raise` (changes only an error's text)",
    "identity-swap": "value comparison <-> is / is not (same as ==/!= on small ints and None, or as the kept ==/!= mutant)",
    "jit-or-cache-decorator": "removes @njit / @lru_cache / @cache, or flips @njit(cache=...) (the same function, only slower)",
    "no-op": "cosmic-ray found nothing to change",
}
IDENTITY_SWAP = re.compile(
    r"core/ReplaceComparisonOperator_((Eq|NotEq|Lt|LtE|Gt|GtE)_(Is|IsNot)|(Is|IsNot)_(Eq|NotEq))$"
)
JIT_OR_CACHE = re.compile(r"@\s*((numba\.)?n?jit|(functools\.)?(lru_cache|cache))\b")


# --- configuration ------------------------------------------------------------------------------


def load_config() -> dict:
    with open(CONFIG, "rb") as handle:
        return tomllib.load(handle)


def stages_of(config: dict, module: str) -> list[list[str]]:
    try:
        return config["modules"][module]["stages"]
    except KeyError:
        known = ", ".join(sorted(config["modules"]))
        sys.exit(f"mutants: no test stages for {module!r} in {CONFIG.relative_to(ROOT)}; known: {known}")


def key_of(module: str) -> str:
    return module.replace("/", "_")


def module_name(path: str) -> str:
    return path.removesuffix(".py").removesuffix("/__init__").replace("/", ".")


# --- import graph: which modules can carry code of the mutated one --------------------------------


def import_graph(src: Path) -> dict[str, set[str]]:
    """Project module -> the project modules it imports (any import statement, at any depth)."""
    files = [p for pkg in PACKAGES for p in (src / pkg).rglob("*.py")]
    names = {module_name(str(p.relative_to(src))) for p in files}
    graph = {}
    for path in files:
        me = module_name(str(path.relative_to(src)))
        package = me if path.name == "__init__.py" else me.rpartition(".")[0]
        deps = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                deps.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")
                    base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
                deps.add(base)
                deps.update(f"{base}.{alias.name}" for alias in node.names)
        # importing a.b.c runs a/__init__ and a/b/__init__ too
        deps |= {".".join(d.split(".")[:i]) for d in set(deps) for i in range(1, d.count(".") + 1)}
        graph[me] = {d for d in deps if d in names and d != me}
    return graph


def affected_by(src: Path, module: str) -> set[str]:
    """The mutated module and every project module that imports it, directly or not.

    A numba kernel is compiled from its own module's globals and closures (and its arguments,
    checked to be data in `check_seed`), so only these modules can hold compiled or computed
    copies of the mutated code; everything else may be reused from the unmutated baseline."""
    graph = import_graph(src)
    out = {module_name(module)}
    grew = True
    while grew:
        grew = False
        for name, deps in graph.items():
            if name not in out and deps & out:
                out.add(name)
                grew = True
    return out


def numba_entry_module(rel: Path) -> str | None:
    """`evaluator_<hash>/settle.pot_shares-105.py311.nbi` -> `evaluator.settle`."""
    if len(rel.parts) != 2:
        return None
    package = re.sub(r"_[0-9a-f]{40}$", "", rel.parts[0])
    return f"{package}.{rel.parts[1].split('.')[0]}"


def data_entry_module(rel: Path) -> str | None:
    text = rel.as_posix()
    for pattern, producer in DATA_PRODUCERS:
        if pattern.match(text):
            return producer
    return None


def seed_cache(seed: Path, target: Path, keep, owner) -> list[str]:
    """Hard-link the files under ``seed`` whose owner module passes ``keep`` into ``target``
    (numba and the data cache both replace files atomically, so the seed is never written)."""
    kept = set()
    target.mkdir(parents=True, exist_ok=True)
    if not seed.is_dir():
        return []
    for path in seed.rglob("*"):
        if path.is_dir():
            continue
        rel = path.relative_to(seed)
        module = owner(rel)
        if module is None or not keep(module):
            continue
        dest = target / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        os.link(path, dest)
        kept.add(module)
    return sorted(kept)


def check_seed(seed_numba: Path) -> list[str]:
    """Modules whose cached kernels take a function as an argument (their compiled code may hold
    another module's kernel although they do not import it): these are never reused."""
    import pickle

    import numba  # noqa: F401  (unpickling numba types)
    from numba.core import types

    bad = set()
    for index in seed_numba.rglob("*.nbi"):
        with open(index, "rb") as handle:
            pickle.load(handle)  # numba version
            _stamp, overloads = pickle.loads(handle.read())
        for key in overloads:
            signature = key[0]
            args = getattr(signature, "args", signature)
            for arg in args if isinstance(args, tuple) else (args,):
                if isinstance(arg, (types.Dispatcher, types.FunctionType, types.WrapperAddressProtocol)):
                    bad.add(numba_entry_module(index.relative_to(seed_numba)))
    return sorted(m for m in bad if m)


# --- the copy ---------------------------------------------------------------------------------------


def snapshot(dest: Path, head: bool) -> str:
    """Copy the work tree (tracked and untracked, ignored files left out) or HEAD into ``dest``."""
    dest.mkdir(parents=True)
    if head:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", "HEAD"], check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(dest)], input=archive, check=True)
        return (
            "HEAD "
            + subprocess.run(
                ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
            ).stdout.strip()
        )
    listing = subprocess.run(
        ["git", "-C", str(ROOT), "ls-files", "-z", "-co", "--exclude-standard"], check=True, capture_output=True
    ).stdout.decode()
    for rel in filter(None, listing.split("\0")):
        if rel.startswith("tests/mutants/results/"):
            continue
        source = ROOT / rel
        if source.is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest / rel)
    dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain"], capture_output=True, text=True).stdout
    commit = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    ).stdout.strip()
    return f"work tree at {commit}" + (" with uncommitted changes" if dirty.strip() else "")


def test_env(work: Path, module: str, cache: str) -> dict:
    env = dict(os.environ)
    src = work / "src"
    env["PYTHONPATH"] = str(src) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env["RAY_USAGE_STATS_ENABLED"] = "0"
    env["MUTANTS_WORK"] = str(work)
    env["MUTANTS_CACHE"] = cache
    env.pop("NUMBA_CACHE_DIR", None)
    env.pop("SAMPYONG_CACHE", None)
    return env


def test_command(module: str) -> str:
    return shlex.join([sys.executable, str(Path(__file__).resolve()), "test", module])


# --- one mutant's tests -----------------------------------------------------------------------------


def cmd_test(args) -> int:
    """Run the module's test stages in the copy (cwd) with fresh caches; exit 0 only if all pass."""
    started = time.perf_counter()
    work = Path(os.environ["MUTANTS_WORK"])
    src = work / "src"
    mode = os.environ.get("MUTANTS_CACHE", "safe")
    stages = stages_of(load_config(), args.module)
    baseline = mode == "baseline"
    if baseline:
        tmp = None
        numba_dir, data_dir = work / "seed" / "numba", work / "seed" / "data"
        seeded = "baseline: fills the seed"
    else:
        tmp = Path(tempfile.mkdtemp(prefix="mutant-", dir=work / "tmp"))
        numba_dir, data_dir = tmp / "numba", tmp / "data"
        affected = set(json.loads((work / "affected.json").read_text()))
        keep = {"safe": lambda m: m not in affected, "cold": lambda m: False, "full": lambda m: True}[mode]
        numba_kept = seed_cache(work / "seed" / "numba", numba_dir, keep, numba_entry_module)
        data_kept = seed_cache(work / "seed" / "data", data_dir, keep, data_entry_module)
        seeded = f"cache {mode}: numba seeded from {numba_kept or 'nothing'}; data seeded from {data_kept or 'nothing'}"

    def indexes():  # numba replaces a kernel's index file (new inode) whenever it compiles and caches it
        return (
            {p.relative_to(numba_dir): p.stat().st_ino for p in numba_dir.rglob("*.nbi")} if numba_dir.is_dir() else {}
        )

    before = indexes()
    env = dict(os.environ, NUMBA_CACHE_DIR=str(numba_dir), SAMPYONG_CACHE=str(data_dir))
    print(seeded)
    shutil.rmtree(src / ".hypothesis", ignore_errors=True)  # no examples carried over from another mutant
    if not baseline and os.environ.get("MUTANTS_SELECT") != "all":
        chosen = selected_tests(work, src / args.module)
        print(
            f"tests: {'every stage (' + chosen[1] + ')' if chosen[0] is None else f'{len(chosen[0])} that run the mutated statement'}"
        )
        stages = stages if chosen[0] is None else narrowed(stages, chosen[0])
    verdict, rc = "survived", 0
    for number, files in enumerate(stages, 1):
        if not files:
            continue
        t0 = time.perf_counter()
        proc = subprocess.run(
            [sys.executable, "-m", "pytest", "-n", "0", "-x", "-p", "no:randomly", "-q", *files],
            cwd=src,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        lines = proc.stdout.rstrip().splitlines()
        print(
            f"[stage {number}/{len(stages)}] {' '.join(files)}: rc {proc.returncode} in {time.perf_counter() - t0:.1f}s: "
            f"{lines[-1] if lines else ''}"
        )
        if proc.returncode != 0:
            print("\n".join(lines[-OUTPUT_TAIL:]))
            verdict, rc = f"killed at stage {number} (pytest rc {proc.returncode})", 1
            break
    compiled = sorted(rel.name.rsplit("-", 1)[0] for rel, inode in indexes().items() if before.get(rel) != inode)
    print(f"numba compiled and cached here: {', '.join(compiled) or 'nothing'}")
    print(f"{VERDICT} {verdict} in {time.perf_counter() - started:.1f}s")
    if tmp is not None:
        shutil.rmtree(tmp, ignore_errors=True)
    return rc


# --- which tests run a line ------------------------------------------------------------------------


def coverage_map(work: Path, module: str, stages: list[list[str]]) -> None:
    """Run every stage once under coverage with a context per test (pytest-cov) and keep, per line
    of ``module``, the tests that execute it (``work/coverage.json``; ``*``: a line run outside any
    test's own setup, call or teardown). No map (pytest-cov missing, or the run failing) means
    every mutant runs every test, as before."""
    src = work / "src"
    shutil.copy2(src / module, work / "original.py")
    try:
        import coverage  # noqa: F401
        import pytest_cov  # noqa: F401
    except ImportError:
        print("mutants: pytest-cov is not installed: every mutant runs every test (pip install pytest-cov)")
        return
    tmp = Path(tempfile.mkdtemp(prefix="coverage-", dir=work / "tmp"))
    for name in ("numba", "data"):
        shutil.copytree(work / "seed" / name, tmp / name)
    (tmp / "coveragerc").write_text(f"[run]\ninclude = {src / module}\n")
    env = dict(
        test_env(work, module, "baseline"),
        NUMBA_CACHE_DIR=str(tmp / "numba"),
        SAMPYONG_CACHE=str(tmp / "data"),
        COVERAGE_FILE=str(tmp / "coverage.db"),
    )
    files = [f for stage in stages for f in stage]
    t0 = time.perf_counter()
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-n",
            "0",  # one process: a context per test, and the map's tests in their stages' order
            "-p",
            "no:randomly",
            "-q",
            f"--cov={src}",
            f"--cov-config={tmp / 'coveragerc'}",
            "--cov-context=test",
            "--cov-report=",
            *files,
        ],
        cwd=src,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    if proc.returncode != 0:
        print(
            "mutants: the coverage run failed: every mutant runs every test\n"
            + "\n".join(proc.stdout.splitlines()[-20:])
        )
        return
    from coverage import CoverageData

    data = CoverageData(basename=str(tmp / "coverage.db"))
    data.read()
    measured = [f for f in data.measured_files() if Path(f).resolve() == (src / module).resolve()]
    lines: dict[str, list[str]] = {}
    for lineno, contexts in (data.contexts_by_lineno(measured[0]) if measured else {}).items():
        # A test's own call or teardown, else "*": import time, and fixtures (a module- or
        # session-scoped one runs in the setup of the first test that needs it, not of the others).
        tests = {c.rsplit("|", 1)[0] if c.rsplit("|", 1)[-1] in ("run", "teardown") else "*" for c in contexts}
        lines[str(lineno)] = sorted("*" if c in ("", "*") else c for c in tests)
    (work / "coverage.json").write_text(json.dumps(lines))
    print(f"mutants: coverage of {module} per test in {time.perf_counter() - t0:.1f} s: {len(lines)} lines executed")
    shutil.rmtree(tmp, ignore_errors=True)


def statement_heads(tree: ast.AST) -> list[tuple[int, int]]:
    """Each statement's own lines: a simple statement whole, a compound one up to its body."""
    heads = []
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt):
            body = getattr(node, "body", None)
            end = (
                body[0].lineno - 1
                if isinstance(body, list) and body and isinstance(body[0], ast.stmt)
                else node.end_lineno
            )
            heads.append((node.lineno, max(end, node.lineno)))
    return heads


def jitted_spans(tree: ast.AST) -> list[tuple[int, int]]:
    """The lines of every function compiled by numba (decorated ``njit``, ``jit``, ``vectorize``...)."""
    return [
        (node.lineno, node.end_lineno)
        for node in ast.walk(tree)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        and any(
            re.search(r"\b(njit|jit|vectorize|guvectorize|generated_jit|stencil)\b", ast.unparse(d))
            for d in node.decorator_list
        )
    ]


def selected_tests(work: Path, mutated: Path) -> tuple[set[str] | None, str]:
    """The tests that execute, in the baseline, every statement this mutant changed (None: every
    test, with the reason), from ``work/coverage.json``."""
    import difflib

    if not (work / "coverage.json").is_file() or not (work / "original.py").is_file():
        return None, "no coverage map"
    original = (work / "original.py").read_text(encoding="utf-8")
    now = mutated.read_text(encoding="utf-8").splitlines()
    matcher = difflib.SequenceMatcher(a=original.splitlines(), b=now, autojunk=False)
    changed = {
        line
        for tag, i1, i2, _, _ in matcher.get_opcodes()
        if tag != "equal"
        for line in range(i1 + 1, max(i2, i1 + 1) + 1)
    }
    if not changed:
        return None, "no line changed"
    tree = ast.parse(original)
    if any(a <= line <= b for line in changed for a, b in jitted_spans(tree)):
        return None, "a line of a numba kernel"
    cover = json.loads((work / "coverage.json").read_text())
    heads = statement_heads(tree)
    tests: set[str] = set()
    for line in changed:
        around = [(a, b) for a, b in heads if a <= line <= b]
        if not around:
            return None, f"line {line} is in no statement"
        a, b = min(around, key=lambda span: span[1] - span[0])
        ran = {t for n in range(a, b + 1) for t in cover.get(str(n), [])}
        if not ran:
            return None, f"no test runs line {line}"
        if "*" in ran:
            return None, f"line {line} runs outside a test's own call"
        tests |= ran
    return tests, ""


def narrowed(stages: list[list[str]], tests: set[str]) -> list[list[str]]:
    """The stages cut down to ``tests``, each test in the stage that lists it (its file, or itself)."""
    out = []
    for files in stages:
        out.append(sorted(t for t in tests if any(t == f or t.startswith((f + "::", f + "[")) for f in files)))
    return out


# --- exclusions -------------------------------------------------------------------------------------


def char_pos(lines: list[str], lineno: int, byte_col: int) -> tuple[int, int]:
    return lineno, len(lines[lineno - 1].encode()[:byte_col].decode(errors="ignore"))


def spans(source: str) -> dict[str, list[tuple[tuple[int, int], tuple[int, int]]]]:
    """(start, end) positions, as cosmic-ray counts them, of annotations and raise messages."""
    tree = ast.parse(source)
    lines = source.splitlines()
    future = any(
        isinstance(n, ast.ImportFrom) and n.module == "__future__" and any(a.name == "annotations" for a in n.names)
        for n in tree.body
    )

    def span(node):
        return char_pos(lines, node.lineno, node.col_offset), char_pos(lines, node.end_lineno, node.end_col_offset)

    out = {"annotation": [], "raise-message": [], "jit-cache-flag": []}
    for node in ast.walk(tree):
        for deco in getattr(node, "decorator_list", ()):
            if isinstance(deco, ast.Call) and JIT_OR_CACHE.match("@" + ast.unparse(deco.func)):
                out["jit-cache-flag"] += [span(k.value) for k in deco.keywords if k.arg == "cache"]
        if future and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            a = node.args
            params = a.posonlyargs + a.args + a.kwonlyargs + [x for x in (a.vararg, a.kwarg) if x]
            out["annotation"] += [span(p.annotation) for p in params if p.annotation]
            if node.returns:
                out["annotation"].append(span(node.returns))
        elif future and isinstance(node, ast.AnnAssign):
            out["annotation"].append(span(node.annotation))
        elif isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
            out["raise-message"] += [span(x) for x in node.exc.args + [k.value for k in node.exc.keywords]]
    return out


def exclusion(mutation, source_lines: list[str], found: dict, rules: dict) -> str | None:
    start = tuple(mutation.start_pos)
    for rule in ("annotation", "raise-message"):
        if rules.get(rule, True) and any(a <= start < b for a, b in found[rule]):
            return rule
    if rules.get("identity-swap", True) and IDENTITY_SWAP.match(mutation.operator_name):
        return "identity-swap"
    if rules.get("jit-or-cache-decorator", True) and (
        (
            mutation.operator_name == "core/RemoveDecorator"
            and JIT_OR_CACHE.search(source_lines[start[0] - 1][start[1] :])
        )
        or any(a <= start < b for a, b in found["jit-cache-flag"])
    ):
        return "jit-or-cache-decorator"
    return None


def apply_exclusions(db_path: Path, src: Path, module: str, rules: dict) -> None:
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import WorkerOutcome, WorkResult

    source = (src / module).read_text(encoding="utf-8")
    found, lines = spans(source), source.splitlines()
    with use_db(str(db_path), WorkDB.Mode.open) as db:
        for item in list(db.pending_work_items):
            rule = exclusion(item.mutations[0], lines, found, rules)
            if rule:
                db.set_result(item.job_id, WorkResult(worker_outcome=WorkerOutcome.SKIPPED, output=f"excluded: {rule}"))


# --- results ----------------------------------------------------------------------------------------


def describe(mutation, diff: str | None, source_lines: list[str]) -> str:
    """`module:line: Operator: `before` => `after`` (the format of equivalent.txt)."""
    removed = [l[1:].strip() for l in (diff or "").splitlines() if l.startswith("-") and not l.startswith("---")]
    added = [l[1:].strip() for l in (diff or "").splitlines() if l.startswith("+") and not l.startswith("+++")]
    if not removed and not added:
        removed = [source_lines[mutation.start_pos[0] - 1].strip()]
    op = mutation.operator_name.removeprefix("core/")
    return f"{mutation.module_path}:{mutation.start_pos[0]}: {op}: `{' ⏎ '.join(removed)}` => `{' ⏎ '.join(added)}`"


EQUIVALENT_LINE = re.compile(
    r"^(?P<module>[^:\s]+):(?P<line>\d+): (?P<op>[\w/]+): `(?P<before>.*)` => `(?P<after>.*)`"
    r"\s+(?:—|--)\s+(?P<reason>\S.*)$"
)


def equivalence_key(module: str, op: str, before: str, after: str) -> tuple:
    norm = lambda s: " ".join(s.split())  # noqa: E731
    return module, op.removeprefix("core/"), norm(before), norm(after)


def load_equivalents() -> dict[tuple, str]:
    """equivalent.txt entries: a survivor line (its line number only says where it was) + ` — reason`."""
    out = {}
    if not EQUIVALENTS.is_file():
        return out
    for number, line in enumerate(EQUIVALENTS.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        match = EQUIVALENT_LINE.match(line.strip())
        if not match:
            print(
                f"mutants: {EQUIVALENTS.name}:{number}: not `module:line: Operator: `before` => `after` — reason`; ignored",
                file=sys.stderr,
            )
            continue
        out[equivalence_key(match["module"], match["op"], match["before"], match["after"])] = match["reason"]
    return out


def summarize(db_path: Path, module: str, meta: dict) -> int:
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import TestOutcome, WorkerOutcome

    source_path = Path(meta.get("source_file", ROOT / module))
    source_lines = source_path.read_text(encoding="utf-8").splitlines() if source_path.is_file() else []
    equivalents = load_equivalents()
    excluded: dict[str, int] = {}
    killed = timeouts = pending = errors = 0
    survivors, documented, seconds = [], [], []
    with use_db(str(db_path), WorkDB.Mode.open) as db:
        done = {item.job_id for item, _ in db.completed_work_items}
        pending = sum(1 for item in db.work_items if item.job_id not in done)
        for item, result in db.completed_work_items:
            mutation = item.mutations[0]
            output = result.output or ""
            if result.worker_outcome in (WorkerOutcome.SKIPPED, WorkerOutcome.NO_TEST):
                rule = (
                    output.removeprefix("excluded: ")
                    if output.startswith("excluded: ")
                    else ("no-op" if result.worker_outcome == WorkerOutcome.NO_TEST else "cosmic-ray filter")
                )
                excluded[rule] = excluded.get(rule, 0) + 1
                continue
            took = re.search(re.escape(VERDICT) + r" .* in ([\d.]+)s", output)
            if took:
                seconds.append(float(took[1]))
            if result.test_outcome == TestOutcome.SURVIVED:
                line = describe(mutation, result.diff, source_lines)
                m = EQUIVALENT_LINE.match(line + " — x")
                reason = equivalents.get(equivalence_key(m["module"], m["op"], m["before"], m["after"])) if m else None
                (documented if reason else survivors).append(
                    (mutation.start_pos, line, reason, mutation.definition_name)
                )
            elif result.test_outcome == TestOutcome.KILLED:
                if output == "timeout":
                    timeouts += 1
                    killed += 1
                elif VERDICT in output:
                    killed += 1
                else:
                    errors += 1  # the test command failed without reaching a verdict: a fault of this tool
            else:
                errors += 1
    tested = killed + len(survivors) + len(documented) + errors
    rate = 100.0 * killed / tested if tested else 0.0
    rate_eq = 100.0 * killed / (tested - len(documented)) if tested - len(documented) else 0.0
    survivors.sort()
    documented.sort()
    header = [
        f"# Mutation testing of {module} (cosmic-ray; bash tests/mutants.sh {module})",
        f"# {meta.get('source', '?')}; finished {meta.get('finished', time.strftime('%Y-%m-%d %H:%M'))}; "
        f"cache {meta.get('cache', '?')}; wall time {meta.get('wall', '?')}",
        f"# mutants {tested}, killed {killed} (timeouts {timeouts}), survived {len(survivors) + len(documented)} "
        f"({len(documented)} documented equivalent in tests/mutants/equivalent.txt), errors {errors}"
        + (f", NOT RUN YET {pending}" if pending else ""),
        *(
            [f"# survivors tested again against the tests of the {meta['rechecked']} (--survivors)"]
            if meta.get("rechecked")
            else []
        ),
        f"# kill rate {rate:.1f}% ({rate_eq:.1f}% not counting documented equivalents)",
        "# excluded before testing: " + (", ".join(f"{n} {rule}" for rule, n in sorted(excluded.items())) or "none"),
        "# Each survivor below needs a test that kills it, or this line copied into equivalent.txt",
        "# with ` — reason` appended (one line: why no test can tell the mutant from the original).",
    ]
    body = [line + (f"    [in {name}]" if name else "") for _, line, _, name in survivors]
    body_eq = [f"# equivalent: {line} — {reason}" for _, line, reason, _ in documented]
    out = HERE / f"{key_of(module)}.survivors.txt"
    out.write_text("\n".join(header + body + ([""] + body_eq if body_eq else [])) + "\n", encoding="utf-8")
    per = f", {sum(seconds) / len(seconds):.1f} s per mutant tested (mean)" if seconds else ""
    print(
        "\n".join(
            [
                "",
                f"== {module}: {tested} mutants, {killed} killed ({timeouts} by timeout), "
                f"{len(survivors) + len(documented)} survived ({len(documented)} documented equivalent), "
                f"kill rate {rate:.1f}% ({rate_eq:.1f}% without equivalents)"
                + (f", {errors} ERRORS" if errors else "")
                + (f", {pending} not run yet" if pending else ""),
                "   excluded before testing: " + (", ".join(f"{n} {r}" for r, n in sorted(excluded.items())) or "none"),
                f"   wall time {meta.get('wall', '?')}{per}",
                f"   survivors ({len(survivors)} to kill or document) -> {out.relative_to(ROOT)}",
                *("   " + line for line in body),
            ]
        )
    )
    return 0


# --- run --------------------------------------------------------------------------------------------


def fmt_seconds(s: float) -> str:
    return f"{s / 60:.1f} min" if s >= 90 else f"{s:.0f} s"


def prepare(args, config: dict, select: bool = True) -> tuple[Path, float, str]:
    """The private copy (work/src), the affected-module list and the seed from a passing baseline;
    with ``select``, the map of which tests run each line (``coverage_map``)."""
    module = args.module
    stages = stages_of(config, module)
    work = Path(tempfile.mkdtemp(prefix=f"sampyong-mutants-{key_of(module)}-", dir=args.tmpdir))
    (work / "tmp").mkdir()
    source = snapshot(work / "src", args.head)
    src = work / "src"
    for files in stages:
        for f in files:
            if not (src / f.split("::")[0]).is_file():
                sys.exit(f"mutants: {f} (a test stage of {module}) is not in the copy")
    env = test_env(work, module, "baseline")
    where = subprocess.run(
        [sys.executable, "-c", f"import {module_name(module)} as m; print(m.__file__)"],
        cwd=src,
        env=env,
        capture_output=True,
        text=True,
    )
    if Path(where.stdout.strip()).resolve() != (src / module).resolve():
        sys.exit(f"mutants: {module_name(module)} imports from {where.stdout.strip() or where.stderr}, not the copy")
    affected = affected_by(src, module)
    (work / "affected.json").write_text(json.dumps(sorted(affected)))
    # lookup tables from the user's cache (never written), if their producer cannot see the mutant
    user_cache = Path(os.environ.get("SAMPYONG_CACHE", Path.home() / ".cache" / "sampyong"))
    (work / "seed" / "data").mkdir(parents=True)
    for table in user_cache.glob("*.npz"):
        producer = data_entry_module(Path(table.name))
        if producer and producer not in affected:
            shutil.copy2(table, work / "seed" / "data" / table.name)
    print(f"mutants: copy of the {source} in {src}")
    print(
        f"mutants: modules that may hold compiled or computed copies of {module} (never reused): "
        f"{', '.join(sorted(affected))}"
    )
    print(f"mutants: baseline (unmutated, empty caches): {len(stages)} stage(s)...", flush=True)
    t0 = time.perf_counter()
    base = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "test", module],
        cwd=src,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    took = time.perf_counter() - t0
    print("   " + base.stdout.rstrip().replace("\n", "\n   "))
    if base.returncode != 0:
        sys.exit("mutants: the unmutated tests fail; fix them first")
    unsafe = check_seed(work / "seed" / "numba")
    if unsafe:
        print(f"mutants: kernels of {unsafe} take functions as arguments: never reused")
        affected |= set(unsafe)
        (work / "affected.json").write_text(json.dumps(sorted(affected)))
    timeout = max(config["timeout"]["minimum"], config["timeout"]["factor"] * took)
    print(f"mutants: baseline {took:.1f} s -> timeout {timeout:.0f} s per mutant", flush=True)
    if select:
        coverage_map(work, module, stages)
    return work, timeout, source


def cmd_run(args) -> int:
    config = load_config()
    module = args.module
    stages_of(config, module)
    RESULTS.mkdir(parents=True, exist_ok=True)
    if not (RESULTS / ".gitignore").exists():
        (RESULTS / ".gitignore").write_text("# mutation-testing sessions and logs: never committed\n*\n")
    db_path = RESULTS / f"{key_of(module)}.sqlite"
    meta_path = RESULTS / f"{key_of(module)}.json"
    started = time.time()
    work, timeout, source = prepare(args, config)
    src = work / "src"
    try:
        module_hash = hashlib.sha256((src / module).read_bytes()).hexdigest()
        meta = json.loads(meta_path.read_text()) if meta_path.is_file() else {}
        resume = (args.resume or args.survivors) and db_path.is_file() and meta.get("module_sha256") == module_hash
        if not resume:
            meta = {}
        if args.resume and not resume:
            print("mutants: no session of this exact module source to resume: starting afresh")
        if args.survivors:
            if not resume:
                sys.exit(
                    f"mutants: --survivors needs the last session of {module} to be of this exact source; "
                    "run the module afresh"
                )
            print(
                f"mutants: {reopen_survivors(db_path, module, src / module)} open survivors of the last session "
                "to test again against the current tests"
            )
        cr_config = RESULTS / f"{key_of(module)}.toml"
        cr_config.write_text(
            "\n".join(
                [
                    "[cosmic-ray]",
                    f'module-path = "{module}"',
                    f"timeout = {timeout:.0f}",
                    "excluded-modules = []",
                    f"test-command = {json.dumps(test_command(module))}",
                    "",
                    "[cosmic-ray.distributor]",
                    'name = "local"',
                    "",
                ]
            )
        )
        env = test_env(work, module, args.cache)
        if not resume:
            db_path.unlink(missing_ok=True)
            subprocess.run(["cosmic-ray", "init", str(cr_config), str(db_path)], cwd=src, env=env, check=True)
            apply_exclusions(db_path, src, module, config.get("exclude", {}))
        (RESULTS / f"{key_of(module)}.source.py").write_bytes((src / module).read_bytes())
        if not args.survivors:
            meta.update(
                module_sha256=module_hash,
                source=f"{source}, {module} sha256 {module_hash[:12]}",
                cache=args.cache,
                source_file=str(RESULTS / f"{key_of(module)}.source.py"),
            )
        meta_path.write_text(json.dumps(meta, indent=1))
        if args.limit:
            limit_pending(db_path, args.limit)
        total, done0 = counts(db_path)
        print(
            f"mutants: {total - done0} mutants to test (timeout {timeout:.0f} s each); progress every minute",
            flush=True,
        )
        log = open(RESULTS / f"{key_of(module)}.log", "a")
        proc = subprocess.Popen(
            ["cosmic-ray", "exec", str(cr_config), str(db_path)], cwd=src, env=env, stdout=log, stderr=subprocess.STDOUT
        )
        t0 = time.time()
        while proc.poll() is None:
            try:
                proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                pass
            total, done = counts(db_path)
            if done > done0:
                left = (time.time() - t0) / (done - done0) * (total - done)
                print(
                    f"   {done}/{total} done, {fmt_seconds(time.time() - started)} so far, about {fmt_seconds(left)} left",
                    flush=True,
                )
        if proc.returncode != 0:
            print(
                f"mutants: cosmic-ray exec exited {proc.returncode}; see {(RESULTS / f'{key_of(module)}.log').relative_to(ROOT)}"
            )
        if args.survivors:  # the session's own time and source stay; say when its survivors were tested again
            meta.update(
                rechecked=f"{source} on {time.strftime('%Y-%m-%d %H:%M')} in {fmt_seconds(time.time() - started)}"
            )
        else:
            meta.update(finished=time.strftime("%Y-%m-%d %H:%M"), wall=fmt_seconds(time.time() - started))
        meta_path.write_text(json.dumps(meta, indent=1))
        return summarize(db_path, module, meta)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


def counts(db_path: Path) -> tuple[int, int]:
    import sqlite3

    with sqlite3.connect(f"file:{db_path}?mode=ro", uri=True) as con:
        total = con.execute("select count(*) from work_items").fetchone()[0]
        done = con.execute("select count(*) from work_results").fetchone()[0]
    return total, done


def reopen_survivors(db_path: Path, module: str, source: Path) -> int:
    """Mark the session's survivors that equivalent.txt does not document as not run yet, so that a
    resumed run tests them against the current tests (a test written to kill one is then checked)."""
    import sqlite3

    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import TestOutcome

    source_lines = source.read_text(encoding="utf-8").splitlines()
    equivalents = load_equivalents()
    reopen = []
    with use_db(str(db_path), WorkDB.Mode.open) as db:
        for item, result in db.completed_work_items:
            if result.test_outcome != TestOutcome.SURVIVED:
                continue
            m = EQUIVALENT_LINE.match(describe(item.mutations[0], result.diff, source_lines) + " — x")
            if not (m and equivalence_key(m["module"], m["op"], m["before"], m["after"]) in equivalents):
                reopen.append(item.job_id)
    with sqlite3.connect(db_path) as con:
        con.executemany("delete from work_results where job_id = ?", [(job,) for job in reopen])
    return len(reopen)


def limit_pending(db_path: Path, limit: int) -> None:
    """Keep only ``limit`` pending mutants, spread over the module (the rest are marked skipped)."""
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import WorkerOutcome, WorkResult

    with use_db(str(db_path), WorkDB.Mode.open) as db:
        pending = sorted(db.pending_work_items, key=lambda i: hashlib.sha256(i.job_id.encode()).hexdigest())
        for item in pending[limit:]:
            db.set_result(item.job_id, WorkResult(worker_outcome=WorkerOutcome.SKIPPED, output="excluded: --limit"))


def cmd_report(args) -> int:
    db_path = RESULTS / f"{key_of(args.module)}.sqlite"
    if not db_path.is_file():
        sys.exit(f"mutants: no session for {args.module} in {RESULTS.relative_to(ROOT)}; run it first")
    meta_path = RESULTS / f"{key_of(args.module)}.json"
    return summarize(db_path, args.module, json.loads(meta_path.read_text()) if meta_path.is_file() else {})


def cmd_probe(args) -> int:
    """Plant hand-made changes (OLD=>NEW, each alone) and judge each exactly as a mutant is judged."""
    from cosmic_ray.testing import run_tests

    config = load_config()
    work, timeout, _ = prepare(args, config, select=False)
    os.environ["MUTANTS_SELECT"] = "all"  # a probe confirms: every test of every stage, whichever lines they run
    target = work / "src" / args.module
    original = target.read_text(encoding="utf-8")
    try:
        for plant in args.plant:
            old, sep, new = plant.partition("=>")
            if not sep or original.count(old) != 1:
                print(f"probe: `{old}` must occur exactly once in {args.module} (and be written OLD=>NEW)")
                continue
            line = original[: original.index(old)].count("\n") + 1
            for cache in args.cache.split(","):
                target.write_text(original.replace(old, new), encoding="utf-8")
                env = test_env(work, args.module, cache)
                saved = os.environ.copy()
                os.environ.clear()
                os.environ.update(env)
                cwd = os.getcwd()
                os.chdir(work / "src")
                t0 = time.perf_counter()
                try:
                    outcome, output = run_tests(test_command(args.module), timeout)  # what cosmic-ray calls
                finally:
                    os.chdir(cwd)
                    os.environ.clear()
                    os.environ.update(saved)
                    target.write_text(original, encoding="utf-8")
                verdict = "TIMEOUT (killed)" if output == "timeout" else outcome.value.upper()
                print(
                    f"\n== probe {args.module}:{line}: `{old.strip()}` => `{new.strip()}` with cache {cache}: "
                    f"{verdict} in {time.perf_counter() - t0:.1f} s"
                )
                print("   " + output.rstrip().replace("\n", "\n   "))
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="tests/mutants.sh", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="command", required=True)

    def common(p):
        p.add_argument("module", help="e.g. evaluator/settle.py (a key of tests/mutants/modules.toml)")
        p.add_argument("--head", action="store_true", help="test HEAD instead of the work tree")
        p.add_argument(
            "--cache",
            default="safe",
            help="safe (default): reuse the baseline's kernels and tables of modules "
            "that do not import the mutated one; cold: compile and compute everything per mutant",
        )
        p.add_argument("--keep", action="store_true", help="keep the private copy (its path is printed)")
        p.add_argument(
            "--tmpdir", default=os.environ.get("MUTANTS_TMPDIR"), help="where the private copy goes (default: $TMPDIR)"
        )

    run = sub.add_parser("run", help="mutation-test MODULE")
    common(run)
    run.add_argument("--resume", action="store_true", help="finish an interrupted session (same module source)")
    run.add_argument("--limit", type=int, default=0, help="test only N mutants, spread over the module (a sample)")
    run.add_argument(
        "--survivors",
        action="store_true",
        help="test the last session's undocumented survivors again against the current tests (same module source)",
    )
    run.set_defaults(func=cmd_run)
    report = sub.add_parser("report", help="summarize the last session of MODULE again (after editing equivalent.txt)")
    report.add_argument("module")
    report.set_defaults(func=cmd_report)
    probe = sub.add_parser("probe", help="judge hand-planted changes OLD=>NEW of MODULE as mutants")
    common(probe)
    probe.add_argument("plant", nargs="+", help="OLD=>NEW, OLD occurring once in MODULE")
    probe.set_defaults(func=cmd_probe)
    test = sub.add_parser("test", help="(internal) the test command cosmic-ray runs for each mutant")
    test.add_argument("module")
    test.set_defaults(func=cmd_test)
    args = parser.parse_args(argv)
    if getattr(args, "cache", "safe") not in ("safe", "cold") and args.command == "run":
        parser.error("--cache is safe or cold")
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
