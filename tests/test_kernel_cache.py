"""Numba's cache, as the project installs it, compiles a kernel again when a kernel it calls in
another module changes (numba's own rule stamps only the kernel's file: it would keep stale code)."""

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

RUN = textwrap.dedent("""
    import sys
    sys.path.insert(0, {root!r}); sys.path.insert(0, {tmp!r})
    if {project}:
        from evaluator import kernel_cache
        kernel_cache.install()  # as evaluator.jit does for the project's own kernels
        kernel_cache.FOLDERS.append(__import__("pathlib").Path({tmp!r}) / "kernels")
    from kernels import caller
    print(caller.twice(), sum(caller.twice.stats.cache_hits.values()))
""")


def run(tmp: Path, project: bool) -> tuple[int, int]:
    code = RUN.format(root=str(ROOT), tmp=str(tmp), project=project)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, cwd=tmp)
    assert out.returncode == 0, out.stderr[-2000:]
    value, hits = out.stdout.split()
    return int(value), int(hits)


def write_kernels(tmp: Path, value: int) -> None:
    package = tmp / "kernels"
    package.mkdir(exist_ok=True)
    (package / "__init__.py").write_text("")
    (package / "callee.py").write_text(
        f"from numba import njit\n\n@njit(cache=True)\ndef value():\n    return {value}\n"
    )
    (package / "caller.py").write_text(
        "from numba import njit\nfrom kernels.callee import value\n\n@njit(cache=True)\ndef twice():\n    return 2 * value()\n"
    )


def test_a_changed_callee_in_another_module_recompiles_its_caller(tmp_path):
    """After the callee's module changes, the cached caller returns the new value under the
    project's locators, and the stale one under numba's own (the hazard they remove)."""
    for project, expected_after in ((True, 6), (False, 4)):
        where = tmp_path / str(project)
        where.mkdir()
        write_kernels(where, 2)
        assert run(where, project) == (4, 0)  # compiled and cached
        assert run(where, project) == (4, 1)  # read from the cache
        write_kernels(where, 3)
        assert run(where, project)[0] == expected_after


def write_constant(tmp: Path, value: int) -> None:
    package = tmp / "kernels"
    package.mkdir(exist_ok=True)
    (package / "__init__.py").write_text("")
    (package / "callee.py").write_text(f"VALUE = {value}\n")
    (package / "caller.py").write_text(
        "from numba import njit\nfrom kernels.callee import VALUE\n\n@njit(cache=True)\ndef twice():\n    return 2 * VALUE\n"
    )


def test_a_changed_constant_imported_by_name_recompiles_its_reader(tmp_path):
    """A kernel compiles a global constant into its code: after the constant's module changes, the
    cached kernel returns the new value under the project's locators (the constant, an int, has
    no module of its own to follow: the import statement names it), the stale one under numba's."""
    for project, expected_after in ((True, 6), (False, 4)):
        where = tmp_path / str(project)
        where.mkdir()
        write_constant(where, 2)
        assert run(where, project) == (4, 0)
        assert run(where, project) == (4, 1)
        write_constant(where, 3)
        assert run(where, project)[0] == expected_after


def test_the_project_kernels_are_stamped_with_the_files_they_reach():
    """The fast engine's kernels are stamped with the files of the kernels it calls (betting,
    the random-legal decision, the policy encoding) besides its own."""
    import engine.fast  # noqa: F401
    from evaluator.kernel_cache import reached_files

    names = {Path(p).relative_to(ROOT).as_posix() for p in reached_files("engine.fast")}
    assert {"engine/fast.py", "engine/betting.py", "engine/chance.py", "engine/policy.py", "evaluator/fast.py"} <= names


def test_every_project_kernel_takes_njit_from_evaluator_jit():
    """No module of the project imports numba's ``njit`` itself: each takes it from
    ``evaluator.jit``, which installs the project's cache locators first."""
    offenders = []
    for folder in ("evaluator", "engine", "jobs", "pipeline", "sampyong", "table"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path == ROOT / "evaluator" / "jit.py":
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                stripped = line.strip()
                if (
                    stripped.startswith(("from numba import", "import numba"))
                    and "njit" in stripped
                    or "numba.njit" in stripped
                ):
                    if not stripped.startswith(">>>"):
                        offenders.append(f"{path.relative_to(ROOT)}:{number}: {stripped}")
    assert offenders == []


def test_stamping_a_kernel_imports_nothing():
    """The files a kernel's module reaches are found on the disk: stamping imports no module
    (``jobs.common`` imports matplotlib in a function; resolving its name by ``find_spec``
    loaded matplotlib, a quarter of a second, in every process that loaded a kernel of jobs)."""
    code = (
        f"import sys; sys.path.insert(0, {str(ROOT)!r})\n"
        "from evaluator import kernel_cache\n"
        "before = set(sys.modules)\n"
        "files = kernel_cache.reached_files('jobs.hand_ranking')\n"
        "print(len(files), sorted(set(sys.modules) - before))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    count, imported = out.stdout.split(" ", 1)
    assert int(count) > 30 and str(ROOT / "jobs" / "common.py") in kernel_files("jobs.hand_ranking")
    assert imported.strip() == "[]"
    # the solver's kernels call the showdown's sweep: a change there compiles them again
    assert str(ROOT / "evaluator" / "range_showdown_kernels.py") in kernel_files("solver.kernels")


def kernel_files(name: str) -> list[str]:
    from evaluator.kernel_cache import reached_files

    return reached_files(name)
