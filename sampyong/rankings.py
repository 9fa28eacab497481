"""Each game's starting-hand ranking (``sy.ranking``): built once by a strength run, saved in the
cache folder, read from there; what ``N%`` ranges, the policies and the solver's ranges use.
A module of its own: the calculator, play and tune, the home game, the fit and the solver all read it."""

from __future__ import annotations

from pathlib import Path

# Each game's ranking is saved in this cache subfolder once built, so ``range "15%"`` and the other
# callers read one small file rather than import the studies, polars and Ray to read the run
# (``sampyong range "15%"``: 0.9-1.0 s, then 0.25-0.4 s). The folder's number goes up whenever
# ``jobs.hand_ranking.strength_runs`` measures differently.
RANKINGS = "rankings-1"


def ranking(game, quiet: bool = True):
    """The game's starting-hand ranking (``engine.ranking.HandRanking``: percentiles, ``top``):
    its strength run done once on an embedded Ray into the cache folder, the percentiles then
    saved beside it (``rankings-1``) and read from there afterwards.

    >>> from evaluator.cards import parse_cards
    >>> holdem = ranking("holdem")
    >>> holdem(parse_cards("As Ah")), holdem(parse_cards("Ks Kh")) > 0
    (0.0, True)
    """
    from engine.ranking import HandRanking
    from evaluator.games import game as preset
    from evaluator.tables import cache_dir, cached_arrays

    rules = preset(game) if isinstance(game, str) else game

    def build() -> dict:
        from jobs import ranking as run_and_read
        from pipeline.backends import AutoBackend

        built = run_and_read(rules, AutoBackend(), cache_dir() / "runs", quiet=quiet)
        return {"percentile": built.percentile, "order": built.order}

    saved = cached_arrays(_ranking_file(rules), build)
    return HandRanking(rules.hole_cards, saved["percentile"], saved["order"])


def _ranking_file(rules) -> Path:
    """Where ``ranking`` saves a game's: named by a digest of all its rules (name included)."""
    import hashlib

    from evaluator.tables import cache_dir

    return cache_dir() / RANKINGS / f"{rules.base_name}-{hashlib.sha256(repr(rules).encode()).hexdigest()[:12]}.npz"
