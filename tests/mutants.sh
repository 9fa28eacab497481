#!/usr/bin/env bash
# Mutation testing of one module against its tests, with cosmic-ray (pip install 'cosmic-ray==8.7.0',
# in the `test` extra). cosmic-ray rewrites the module file per mutant, so numba @njit kernels are
# mutated and jitted from the mutated source like any other code.
#
#   bash tests/mutants.sh MODULE                 # e.g. evaluator/settle.py: run all its mutants
#   bash tests/mutants.sh MODULE --limit 40      # a sample of 40 mutants spread over the module
#   bash tests/mutants.sh MODULE --resume        # finish an interrupted run (same module source)
#   bash tests/mutants.sh MODULE --head          # test HEAD instead of the work tree
#   bash tests/mutants.sh MODULE --cache cold    # compile every kernel from scratch per mutant (slower)
#   bash tests/mutants.sh --report MODULE        # re-summarize the last run (after editing equivalent.txt)
#   bash tests/mutants.sh --probe MODULE 'OLD=>NEW' ['OLD2=>NEW2' ...] [--cache safe,cold,full]
#                                                # judge hand-planted changes exactly as mutants are judged
#   bash tests/mutants.sh --list                 # the modules and their test stages
#
# Modules: engine/fast.py engine/hand.py engine/strength.py evaluator/equity.py evaluator/ranges.py
# evaluator/settle.py jobs/play.py; their tests are in tests/mutants/modules.toml (ordered stages:
# the module's doctests and direct unit tests first). Add a module there to support it.
#
# What a run does (details at the top of tests/mutants/mutants.py):
# - copies the work tree to a private temporary folder and mutates only that copy: this checkout
#   is never written (other people may be running tests in it), Ctrl-C leaves nothing behind;
# - runs the unmutated tests once (must pass; 3x its time, at least 60 s, is the per-mutant
#   timeout: a mutant that runs past it, e.g. an endless loop, counts as killed by timeout);
# - per mutant: default tests only (-m 'not slow'), `pytest -x -p no:randomly`, stage by stage,
#   with a fresh NUMBA_CACHE_DIR and SAMPYONG_CACHE. Numba's cache does not track dependencies
#   across modules, so kernels and data tables of the mutated module and of every module that
#   imports it (directly or not) are compiled/computed anew for each mutant; those of the other
#   modules (which cannot contain the mutated code) are hard-linked from the baseline run
#   (--cache cold: nothing is reused). Each mutant's output lists the kernels it compiled;
# - one mutant at a time, under `nice`: it uses one core.
#
# Results:
# - printed: mutants, killed (timeouts), survived, kill rate, survivors;
# - tests/mutants/<module with / as _>.survivors.txt (e.g. evaluator_settle.py.survivors.txt):
#   the summary and one line per survivor, `module:line: Operator: `original` => `mutated``;
# - tests/mutants/equivalent.txt: survivors documented as equivalent mutants (that line + ` — reason`),
#   subtracted from the reported survivors; every other survivor wants a test that kills it;
# - tests/mutants/results/ (git-ignored by its own .gitignore): the cosmic-ray session
#   (<key>.sqlite: every mutant's diff and test output; `cr-report`/`cr-html` read it), its config,
#   log and the exact module source tested.
#
# Excluded before testing (tests/mutants/modules.toml [exclude], each counted in the summary):
# mutations inside type annotations (never evaluated: `from __future__ import annotations`) and
# inside `raise` messages; == != < <= > >= swapped with is / is not; removal of @njit/@lru_cache.
# cosmic-ray never mutates strings or docstrings.
#
# Time, on this 2-core machine with one core busy elsewhere (one worker; per mutant = mean over
# the mutants tested, killed ones stop at their first failing test):
#   module               mutants  per mutant  whole module
#   evaluator/settle.py    (filled in below by the measured run)
set -euo pipefail
cd "$(dirname "$0")/.."
TOOL=tests/mutants/mutants.py
if ! python3 -c 'import cosmic_ray' 2>/dev/null; then
    echo "tests/mutants.sh: cosmic-ray is not installed: pip install 'cosmic-ray==8.7.0' (or pip install -e '.[test]')" >&2
    exit 2
fi
case "${1:-}" in
    ""|-h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    --list) python3 -c 'import tomllib; c = tomllib.load(open("tests/mutants/modules.toml", "rb"))
for m, v in c["modules"].items(): print(m, *(" ".join(s) for s in v["stages"]), sep="\n    ")'; exit 0 ;;
    --report) shift; exec python3 "$TOOL" report "$@" ;;
    --probe) shift; exec nice -n 10 python3 "$TOOL" probe "$@" ;;
    *) exec nice -n 10 python3 "$TOOL" run "$@" ;;
esac
