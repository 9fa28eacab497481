"""Numba's on-disk cache, made to notice the project's other modules a kernel calls.

Numba stamps a cached kernel with its own source file only, so a kernel that calls a kernel of
another module (``engine.fast`` calls ``engine.betting.raise_bounds``) would keep its old
machine code after that module changed, and so would a kernel that reads a constant imported
by name (``engine.chance`` compiles ``engine.policy``'s ``P_FOLD`` into its code). The locators
here stamp every kernel of the project with its own file **and** every project file its module
imports, by its source's import statements (a constant carries no trace of its module), and
theirs in turn: a change anywhere along the way compiles it again. Kernels outside the project
keep numba's own rule.

Importing ``evaluator`` installs them (``evaluator/__init__.py``), before any kernel of the
project is decorated; ``NUMBA_CACHE_DIR`` is honoured as numba does.
"""

from __future__ import annotations

import hashlib
import os
import re
from functools import cache
from pathlib import Path

from numba.core import caching

ROOT = Path(__file__).resolve().parents[1]
# The folders whose kernels (and whose modules a kernel may reach) are stamped this way.
FOLDERS = [ROOT / name for name in ("evaluator", "engine", "jobs", "solver")]


@cache
def _resolved(path: str) -> str:
    """``Path(path).resolve()`` as a string, once per path: a stamp walks every module a kernel's
    module reaches, numpy's and numba's included, for every kernel (about 700 paths per
    ``sampyong equity``, 30-50 ms when each was resolved again)."""
    return str(Path(path).resolve())


def _in_project(path) -> bool:
    """Whether ``path`` lies in one of ``FOLDERS`` (at any depth)."""
    path = _resolved(os.fspath(path))
    return any(path.startswith(os.path.join(folder, "")) for folder in map(str, FOLDERS))


def reached_files(module_name: str) -> list[str]:
    """The source files of ``module_name`` and of every project module it imports (``import X``,
    ``from X import y``, at any indentation: a function's own imports count), and theirs in turn."""
    seen: set[str] = set()
    files: list[str] = []
    todo = [module_name]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        path = _module_file(name)
        if path is None or not _in_project(path):
            continue
        files.append(path)
        todo.extend(_imports(path, os.stat(path).st_mtime_ns))
    return sorted(files)


def _module_file(name: str) -> str | None:
    """The source file of module ``name`` of one of ``FOLDERS`` (None for any other name), found
    on the disk: never imported, as ``importlib.util.find_spec`` would import a dotted name's
    parents (``from matplotlib.figure import Figure`` in a function loaded matplotlib with every
    kernel)."""
    parts = name.split(".")
    if not all(part.isidentifier() for part in parts):
        return None
    for folder in FOLDERS:
        if folder.name == parts[0]:
            base = folder.parent.joinpath(*parts)
            for candidate in (base.parent / f"{parts[-1]}.py", base / "__init__.py"):
                if candidate.is_file():
                    return str(candidate)
    return None


_IMPORT = re.compile(r"^[ \t]*(?:from[ \t]+([\w.]+)[ \t]+import|import[ \t]+([\w., \t]+))", re.MULTILINE)


@cache
def _imports(path: str, mtime_ns: int) -> tuple[str, ...]:
    """The modules the file's import statements name (``from X import y`` also names ``X.y``,
    which may be a module)."""
    names = []
    source = Path(path).read_text(encoding="utf-8")
    for match in _IMPORT.finditer(source):
        if match.group(1):
            names.append(match.group(1))
            line = source[match.end() : source.find("\n", match.end())]
            names += [f"{match.group(1)}.{word}" for word in re.findall(r"\w+", line.split("#")[0]) if word != "as"]
        else:
            names += [part.split()[0] for part in match.group(2).split(",") if part.strip()]
    return tuple(names)


class _ReachedStamp:
    """A locator mixin: the stamp of a kernel is the hash of every file its module reaches."""

    @classmethod
    def from_function(cls, py_func, py_file):
        if not _in_project(py_file):
            return None
        locator = super().from_function(py_func, py_file)
        if locator is not None:
            locator._module_name = py_func.__module__
        return locator

    def get_source_stamp(self):
        digest = hashlib.sha256()
        for path in reached_files(self._module_name) or [self._py_file]:
            stat = os.stat(path)
            digest.update(caching._hash_source_file(path, stat.st_mtime, stat.st_size))
        return digest.hexdigest()


class ProjectUserProvidedLocator(_ReachedStamp, caching.UserProvidedCacheLocator):
    """``NUMBA_CACHE_DIR`` set: numba's folder for it, the project's stamp."""


class ProjectInTreeLocator(_ReachedStamp, caching.InTreeCacheLocator):
    """Numba's ``__pycache__`` beside the source, the project's stamp."""


def install() -> None:
    """Put the project's locators first in numba's list (once)."""
    classes = caching.CacheImpl._locator_classes
    for locator in (ProjectInTreeLocator, ProjectUserProvidedLocator):
        if locator not in classes:
            classes.insert(0, locator)
