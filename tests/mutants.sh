#!/usr/bin/env bash
# Mutation testing of one module against its tests, with cosmic-ray (pip install 'cosmic-ray==8.7.0',
# in the `test` extra). cosmic-ray rewrites the module file per mutant, so numba @njit kernels are
# mutated and jitted from the mutated source like any other code.
#
#   bash tests/mutants.sh MODULE                 # e.g. evaluator/settle.py: run all its mutants
#   bash tests/mutants.sh MODULE --limit 40      # a sample of 40 mutants spread over the module
#   bash tests/mutants.sh MODULE --resume        # finish an interrupted run (same module source)
#   bash tests/mutants.sh MODULE --head          # test HEAD instead of the work tree
#   bash tests/mutants.sh MODULE --survivors     # test the last run's open survivors again (new tests)
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
# - runs the stages once more under coverage (pytest-cov, a context per test): which tests execute
#   each line of the module. A mutant then runs only the tests that execute the statement it
#   changed (in their stages' order); every test when that cannot be known (a line of a numba
#   kernel, one run at import or in a shared fixture, one no test runs). A survivor has survived
#   the tests that run its line: `--probe` runs every test of every stage to confirm one;
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
# inside `raise` messages; == != < <= > >= swapped with is / is not; removal of @njit/@lru_cache
# and flips of @njit(cache=...).
# cosmic-ray never mutates strings or docstrings.
#
# Time (one worker, on this 2-core machine while other people's tests ran: load 2-8). A mutant
# killed by the first stage costs ~1.5 s; one that survives pays every stage (for settle 36 s).
# Measured: settle.py, whole run (HEAD dda6789, 448 mutants): 77 min, 10.1 s per mutant
# (226 killed at stage 1 in 1.4 s, 111 at stage 2 in 5.6 s, 23 at stage 3 in 17.7 s,
# 88 survivors in 36 s). Others (mutant counts at HEAD 9fae75f x per-mutant time: measured on a
# --limit sample where noted, else modelled from the stages' test times: rough):
#   module               mutants  per mutant         whole module
#   evaluator/settle.py      631  11 s (measured)    2.1 h (measured, HEAD e36ba39, selection on)
#   evaluator/ranges.py      640  2.3 s (measured)   75 min (measured before selection; ~30 min with it)
#   engine/hand.py          1036  4.5 s (measured)   43 min (measured, HEAD af4cde6, selection on, load 3)
#   engine/strength.py       750  13 s (sample 120)  ~2.7 h
#   engine/fast.py          1415  10 s (sample 8)    ~4 h (each mutant recompiles _play_hands: ~7 s)
#   evaluator/equity.py     1318  19 s (sample 60)   ~7 h
#   jobs/play.py            1506  ~22 s (model)      ~9 h (test_play starts Ray)
# --cache cold roughly doubles the time of every mutant that reaches a numba kernel (settle: a
# stage-2 kill 33.6 s instead of 9.5 s). `--limit 40` measures a module's rate in minutes.
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
