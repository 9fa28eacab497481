"""The solver's face: ``sy.solve`` and ``sy.load_solution`` (``sampyong solve`` is the CLI over them)."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from evaluator.errors import SampyongError
from solver.solution import Settings, Solution

DEFAULT_BETS = "flop: 33%, 75%; turn: 50%, 100%; river: 75%, allin"
DEFAULT_RAISES = "100%"
DEFAULT_ITERATIONS = 1000
DEFAULT_TARGET = 0.3  # % of the pot


def solve(
    *,
    game: str = "pls7",
    board: str,
    oop: str,
    ip: str,
    pot: int = 100,
    stack: int = 400,
    bets: str | None = None,
    raises: str | None = None,
    max_raises: int = 1,
    target: float | None = DEFAULT_TARGET,
    iterations: int = DEFAULT_ITERATIONS,
    threads: int | None = None,
    betting: str | None = None,
    progress: Callable | None = None,
) -> Solution:
    """Solve a heads-up postflop spot (DCFR) and return its ``Solution``.

    ``board``: 3, 4 or 5 cards; ``oop``/``ip``: ranges in the range grammar (``N%`` by the
    game's ranking); ``pot`` and ``stack`` (each player's chips behind) in chips; ``bets`` and
    ``raises`` per street (``"turn: 33%, 75%; river: 75%, allin"``; ``pot``, ``Nx`` for raises,
    ``""`` for none); ``max_raises`` a street after the first bet; ``betting`` the structure
    (default: the game's, pot-limit for the Omaha games and PLS7); stops after ``iterations`` or
    when the exploitability is at most ``target`` % of the pot. ``threads``: numba threads (the
    answer does not depend on them). ``progress(check)`` is called at each exploitability check.

    >>> solution = solve(game="holdem", board="Qs Jh 2h 8d 3c", oop="AA,QQ,72o", ip="KK,JJ,T9s", pot=100, stack=100,
    ...                  bets="75%", raises="", iterations=200)
    >>> solution.exploitability < 0.5, round(solution.ev("oop") + solution.ev("ip"), 3)
    (True, 100.0)
    >>> solution.strategy("bet 75")["action"].unique(maintain_order=True).to_list()
    ['fold', 'call']
    """
    from engine.betting import default_betting
    from evaluator.games import game as preset

    settings = Settings(
        game=game,
        board=board,
        oop=oop,
        ip=ip,
        pot=int(pot),
        stack=int(stack),
        bets=DEFAULT_BETS if bets is None else bets,
        raises=DEFAULT_RAISES if raises is None else raises,
        max_raises=int(max_raises),
        betting=betting or default_betting(preset(game)).kind,
        target=target,
        iterations=int(iterations),
    )
    if settings.iterations < 1:
        raise SampyongError(f"iterations must be at least 1, not {iterations}")
    if target is not None and target <= 0:
        raise SampyongError(f"the target is a positive % of the pot, not {target}")
    rules, problem = prepare(settings)
    from solver.dcfr import solve as run

    start = time.perf_counter()
    state, history = run(problem, settings.iterations, target, threads, progress)
    return Solution(settings, rules, problem, state, history, time.perf_counter() - start)


def prepare(settings: Settings):
    """The game and the solver's ``Problem`` of ``settings`` (their tree built, strengths evaluated)."""
    from evaluator.games import game as preset
    from sampyong.rankings import ranking
    from solver.poker import settings_problem

    rules = preset(settings.game)
    return rules, settings_problem(rules, settings, lambda percent: ranking(rules).top(percent))


def run_folder(settings: Settings, out: str | Path = "outputs") -> Path:
    """The default run folder of ``settings``: ``OUT/solve/GAME-BOARD-DIGEST`` (the digest of
    the settings, so the same spot solved again lands in the same folder)."""
    import hashlib

    digest = hashlib.sha256(settings.toml().encode()).hexdigest()[:10]
    return Path(out) / "solve" / f"{settings.game}-{settings.board.replace(' ', '')}-{digest}"


def load_solution(folder: str | Path) -> Solution:
    """The solution ``Solution.save`` wrote to ``folder``: the tree rebuilt from its settings, the
    average strategies read back.

    >>> from sampyong.examples import _scratch
    >>> folder = solve(game="holdem", board="Qs Jh 2h 8d 3c", oop="AA,72o", ip="KK", pot=100, stack=100,
    ...                bets="75%", raises="", iterations=30).save(_scratch() / "spot")
    >>> load_solution(folder).iterations
    30
    """
    from solver.solution import read_settings, restore

    settings = read_settings(folder)
    rules, problem = prepare(settings)
    return restore(folder, settings, rules, problem)
