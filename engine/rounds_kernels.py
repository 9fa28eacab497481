"""The betting rules of ``engine.rounds`` as numba functions, for the kernels of ``engine.fast``
and ``engine.fast_replay``: the same functions, compiled, inlined where they are called.

A rule that calls another (``next_actor`` calls ``needs_to_act``) must call its compiled self
inside numba, so each is compiled from ``engine.rounds``' code over a copy of that module's
globals in which every rule already compiled replaces the plain one. Apart from
``engine.rounds`` so that the reference hand imports no compiled rules;
``tests/test_rounds.py`` holds the two to the same answers.
"""

from __future__ import annotations

import types

from engine import rounds
from evaluator.jit import njit

# engine.rounds' globals, each rule replaced by its compiled self as it is compiled below.
_globals = dict(vars(rounds))


def _compiled(rule):
    """``rule`` compiled to be inlined, calling the compiled rules."""
    code = types.FunctionType(rule.__code__, _globals, rule.__name__, rule.__defaults__)
    code.__doc__ = rule.__doc__
    _globals[rule.__name__] = njit(inline="always")(code)
    return _globals[rule.__name__]


pay = _compiled(rounds.pay)
put = _compiled(rounds.put)
top_bet = _compiled(rounds.top_bet)
live_count = _compiled(rounds.live_count)
preflop_opener = _compiled(rounds.preflop_opener)
to_call = _compiled(rounds.to_call)
may_fold = _compiled(rounds.may_fold)
needs_to_act = _compiled(rounds.needs_to_act)
next_actor = _compiled(rounds.next_actor)
return_uncalled = _compiled(rounds.return_uncalled)
check_call = _compiled(rounds.check_call)
raise_to = _compiled(rounds.raise_to)
seat_raise_bounds = _compiled(rounds.seat_raise_bounds)
betting_may_go_on = _compiled(rounds.betting_may_go_on)
