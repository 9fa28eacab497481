"""The fast engine: batches of hands played by policies inside numba, no Python per action.

It plays exactly what ``engine.player.play_hand`` plays through the reference engine
(``engine.hand.Hand``): the same blinds, the same betting rules (no-limit, pot-limit,
fixed-limit; minimum raises, short all-ins that do not reopen, uncalled bets returned), the
same policy decisions and the same side pots and hi-lo splits, hand by hand (``tests/
test_fast_engine.py`` compares actions and finishing stacks). It is the hot loop of
``sampyong run play``; the reference stays the readable oracle.

Hands wait for hand strength in rounds: the kernel replays every unfinished hand from its
start until it ends or needs a strength it does not have; the driver then computes every
missing strength of the batch at once (``engine.strength.strengths``, one evaluator call per
opponent count) and runs the kernel again. A strength is fixed by (hand, seat, street,
opponents), so the order in which they are computed changes nothing. When a seat needs one,
the kernel asks for every seat still able to act on that street, which saves rounds. A seat
whose policy reads ranges (``postflop.ranges``) sends each live opponent's cap with its request,
from the reads the kernel notes at every preflop action (``engine.reads``); within a street the
opponent count fixes who is still in, so the cache key still fixes the question.

>>> import numpy as np
>>> from evaluator.games import game
>>> from engine.betting import POT_LIMIT
>>> from engine.player import deal_hands
>>> from engine.policy import builtin
>>> g = game("pls7")
>>> cards, keys = deal_hands(np.random.default_rng(5), 200, 6, g)
>>> out = play_batch(g, POT_LIMIT, [builtin("regular")] * 6, [200] * 6, [1, 2, 0, 0, 0, 0], cards, keys,
...                  ranks=np.full((200, 6), 0.5))
>>> int(out.finishing.sum()), out.finishing.shape
(240000, (200, 6))
"""

from __future__ import annotations

import dataclasses

import numpy as np

from engine.betting import Betting
from engine.chance import CHECK_CALL, FOLD, RAISE, random_action
from engine.policy import (
    CHECK_CALL_STYLE,
    P_BET,
    P_BET_SIZE,
    P_BLUFF,
    P_CALL,
    P_CALL_FACTOR,
    P_CALL_RERAISED,
    P_LIMP,
    P_OPEN_EARLY,
    P_OPEN_LATE,
    P_OPEN_SIZE,
    P_OVERCALL,
    P_RANGES,
    P_RERAISE,
    P_SAMPLES,
    P_STYLE,
    RANDOM_LEGAL,
    THRESHOLDS,
    Policy,
)
from engine.reads import preflop_read, range_cap
from engine.records import STATS, new_reading, read_action, read_board, read_end
from engine.rounds_kernels import (
    check_call,
    live_count,
    may_fold,
    next_actor,
    preflop_opener,
    put,
    raise_to,
    return_uncalled,
    seat_raise_bounds,
    to_call,
    top_bet,
)
from engine.strength import strengths
from evaluator.errors import SampyongError
from evaluator.fast import fast_evaluator
from evaluator.games import Game
from evaluator.jit import njit
from evaluator.settle_kernels import settle_pots

MAX_ACTIONS = 200  # per hand; pot-limit raising wars end all-in long before
CHUNK = 4096  # hands played together: their strength cache stays small
DEAL = 3  # an action log row's kind, after FOLD, CHECK_CALL and RAISE (engine.chance)
BLOCKED, DONE, OVERFLOW = 0, 1, 2


@dataclasses.dataclass
class Played:
    """A batch of played hands (arrays indexed by hand, then seat).

    Parameters:
        finishing: chips each seat holds after the hand.
        voluntary: whether the seat put chips in preflop by choice (a call or a raise).
        reached: the last street the hand reached: 0 preflop .. 3 river, 4 showdown.
        players_at: players in the hand when each street's betting began (index 4: at
            showdown, 0 when the pot was won before).
        live: the seats still in at the end (at showdown, or the one who won the pot).
        pot: the pot at the end, in chips.
        actions: each hand's log, rows of (seat, kind, amount) with kind ``FOLD``,
            ``CHECK_CALL``, ``RAISE`` (amount: the street total raised to) or ``DEAL`` (seat
            -1, amount: cards dealt to the board); ``action_count`` rows are used.
        stats: with ``keep_stats``, each seat's counts of ``engine.records.STATS`` per hand,
            ``[hand, seat, STATS]``, read as the hand is played by ``engine.records``' reader.
    """

    finishing: np.ndarray
    voluntary: np.ndarray
    reached: np.ndarray
    players_at: np.ndarray
    live: np.ndarray
    pot: np.ndarray
    actions: np.ndarray
    action_count: np.ndarray
    stats: np.ndarray | None = None
    rounds: int = 0
    strength_requests: int = 0


def play_batch(
    game: Game,
    betting: Betting,
    policies: list[Policy],
    stacks,
    blinds,
    cards: np.ndarray,
    keys: np.ndarray,
    ranks: np.ndarray,
    highs: np.ndarray | None = None,
    lows: np.ndarray | None = None,
    keep_actions: bool = False,
    ranking=None,
    keep_stats: bool = False,
) -> Played:
    """Play every hand of ``cards`` (see ``deal_hands``) to the end.

    ``ranks[hand, seat]`` is each seat's preflop percentile (0 the best hand); ``ranking`` the
    game's ``HandRanking`` they come from, needed by a policy with ``postflop.ranges``; ``highs`` and
    ``lows`` (``[hand, seat]``) each seat's strengths on the full board, computed here when not
    given. Blinds are in PHH order (heads-up, seat 1 posts ``blinds[0]``); no antes.
    ``keep_actions`` keeps every hand's action log (for the tests; otherwise only the counts);
    ``keep_stats`` every hand's players' statistics (``Played.stats``).
    """
    seats = len(stacks)
    n = cards.shape[0]
    if ranking is None and any(p.style == "thresholds" and p.postflop.ranges for p in policies):
        raise SampyongError("a policy with postflop ranges needs the game's ranking of starting hands")
    if highs is None or lows is None:
        hole = cards[:, : seats * game.hole_cards].reshape(n, seats, game.hole_cards)
        highs, lows = fast_evaluator(game).high_low(
            np.ascontiguousarray(hole), np.ascontiguousarray(cards[:, seats * game.hole_cards :])
        )
    params = np.stack([p.encode() for p in policies])
    blinds = np.array(blinds, np.int64)
    if seats == 2:
        blinds = blinds[::-1].copy()  # heads-up the button (seat 1) posts the small blind
    structure = betting.encode(min_bet=max(int(blinds.max()), 1))
    # A raise-to amount is at most every chip on the table: 32-bit rows unless that overflows them.
    amounts = np.int32 if int(np.sum(np.array(stacks, np.int64))) <= np.iinfo(np.int32).max else np.int64
    out = Played(
        finishing=np.zeros((n, seats), np.int64),
        voluntary=np.zeros((n, seats), np.bool_),
        reached=np.zeros(n, np.int8),
        players_at=np.zeros((n, 5), np.int8),
        live=np.zeros((n, seats), np.bool_),
        pot=np.zeros(n, np.int64),
        actions=np.zeros((n if keep_actions else 1, MAX_ACTIONS, 3), amounts),
        action_count=np.zeros(n, np.int32),
        stats=np.zeros((n if keep_stats else 1, seats, len(STATS)), np.int16),
    )
    highs, lows = highs.astype(np.int64), lows.astype(np.int64)
    ranks = np.ascontiguousarray(ranks, np.float64)
    start_stacks = np.array(stacks, np.int64)
    for first in range(0, n, CHUNK):
        _play_chunk(
            game,
            params,
            cards,
            keys,
            first,
            min(first + CHUNK, n),
            seats,
            start_stacks,
            blinds,
            structure,
            ranks,
            ranking,
            highs,
            lows,
            keep_actions,
            keep_stats,
            out,
        )
    return out


def _play_chunk(
    game,
    params,
    cards,
    keys,
    first,
    last,
    seats,
    stacks,
    blinds,
    structure,
    ranks,
    ranking,
    highs,
    lows,
    keep_actions,
    keep_stats,
    out,
):
    """Hands ``first .. last - 1`` in rounds: play, compute the strengths asked for, play again."""
    size = last - first
    cache = np.full((size, seats, 4, seats), np.nan)  # strength by hand, seat, street, opponents
    requests = np.zeros((size * seats, 5), np.int64)  # hand, seat, street, board known, opponents
    request_caps = np.ones((size * seats, max(seats - 1, 1)))  # each opponent's cap (engine.reads), in seat order
    status = np.zeros(size, np.int8)
    pending = np.arange(first, last, dtype=np.int64)
    while pending.size:
        count = _play_hands(
            pending,
            first,
            cards,
            keys,
            seats,
            game.hole_cards,
            stacks,
            blinds,
            structure,
            params,
            ranks,
            highs,
            lows,
            cache,
            requests,
            request_caps,
            status,
            out.finishing,
            out.voluntary,
            out.reached,
            out.players_at,
            out.live,
            out.pot,
            out.actions,
            keep_actions,
            out.action_count,
            out.stats,
            keep_stats,
        )
        if np.any(status[pending - first] == OVERFLOW):
            raise SampyongError(f"a hand ran past {MAX_ACTIONS} actions")
        out.rounds += 1
        out.strength_requests += count
        asked = requests[:count]
        # One call per kind of question: opponent count, samples, against ranges or not.
        kinds = np.stack([asked[:, 4], params[asked[:, 1], P_SAMPLES], params[asked[:, 1], P_RANGES]], axis=1)
        for opponents, samples, ranges in np.unique(kinds, axis=0):
            pick = np.flatnonzero(np.all(kinds == (opponents, samples, ranges), axis=1))
            chosen = asked[pick]
            caps = request_caps[pick, : int(opponents)] if ranges else None
            values = strengths(game, cards, keys, chosen[:, :4], int(opponents), int(samples), caps, ranking)
            cache[chosen[:, 0] - first, chosen[:, 1], chosen[:, 2], chosen[:, 4]] = values
        pending = pending[status[pending - first] == BLOCKED]


@njit(cache=True)
def _play_hands(
    pending,
    first,
    cards,
    keys,
    seats,
    hole_cards,
    start_stacks,
    blinds,
    structure,
    params,
    ranks,
    highs,
    lows,
    cache,
    requests,
    request_caps,
    status,
    finishing,
    voluntary,
    reached,
    players_at,
    live_end,
    pot_out,
    log,
    keep_log,
    log_count,
    stats,
    keep_stats,
):
    """Play each hand of ``pending`` from its start; ``status`` DONE (outputs written) or
    BLOCKED (its missing strengths appended to ``requests``, with their opponents' caps in
    ``request_caps`` when the seat asking reads ranges). Returns the requests written."""
    board_deals = np.array([3, 1, 1])
    button = seats - 1
    count = 0
    stacks = np.empty(seats, np.int64)
    contributed = np.empty(seats, np.int64)
    bets = np.empty(seats, np.int64)
    acted_at = np.empty(seats, np.int64)
    folded = np.empty(seats, np.bool_)
    won = np.empty(seats, np.int64)
    position = np.empty(seats, np.float64)
    reads = np.empty(seats, np.int64)  # each seat's preflop reads (engine.reads)
    reading = np.empty(5, np.int64)  # engine.records' reader of the players' statistics
    for h in pending:
        c = h - first  # the hand's row in ``cache`` and ``status``
        row = h if keep_log else 0
        stat = stats[h if keep_stats else 0]
        new_reading(stat, reading)
        stacks[:] = start_stacks
        contributed[:] = 0
        bets[:] = 0
        folded[:] = False
        reads[:] = 0
        voluntary[h, :] = False
        n_log = 0
        for s in range(seats):
            put(s, blinds[s], stacks, contributed, bets)
        players_at[h, 0] = seats
        street = 0
        board = 0
        acted_at[:] = -1
        last_raise = np.int64(0)
        raises = 0
        callers = 0
        actor = next_actor(preflop_opener(bets), folded, stacks, bets, acted_at)
        if actor < 0:
            return_uncalled(stacks, contributed, bets)
        # Positions from 0 (first to act preflop) to 1 (the button).
        first_to_act = actor if actor >= 0 else 0
        k = 0
        for step in range(seats):
            s = (first_to_act + step) % seats
            if s != button:
                position[s] = k / (seats - 1) if seats > 1 else 1.0
                k += 1
        position[button] = 1.0 if seats > 1 else 1.0
        state = DONE
        while True:
            live = live_count(folded)
            if live == 1:
                break
            if actor >= 0:
                max_bet = top_bet(bets)
                call = to_call(actor, stacks, bets)
                low, high = seat_raise_bounds(
                    actor, structure, street, last_raise, raises, folded, stacks, bets, acted_at, contributed
                )
                can_fold = may_fold(actor, bets)
                before = contributed[actor]
                p = params[actor]
                choice = CHECK_CALL
                target = np.int64(0)
                fraction = 0.0
                if p[P_STYLE] == CHECK_CALL_STYLE:
                    choice = CHECK_CALL
                elif p[P_STYLE] == RANDOM_LEGAL:
                    choice, target = random_action(p, keys[h], n_log, can_fold, low, high)
                elif street == 0:
                    rank = ranks[h, actor]
                    fraction = p[P_OPEN_SIZE]
                    if raises == 0:
                        open_share = p[P_OPEN_EARLY] + (p[P_OPEN_LATE] - p[P_OPEN_EARLY]) * position[actor]
                        if rank < open_share and low >= 0:
                            choice = RAISE
                        elif (
                            rank < open_share
                            or (p[P_LIMP] == 1.0 and rank < max(p[P_CALL], open_share) * 1.5)
                            or not can_fold
                        ):
                            choice = CHECK_CALL
                        else:
                            choice = FOLD
                    elif raises == 1:
                        if rank < p[P_RERAISE] and low >= 0:
                            choice = RAISE
                        elif rank < (p[P_OVERCALL] if callers > 0 else p[P_CALL]) or not can_fold:
                            choice = CHECK_CALL
                        else:
                            choice = FOLD
                    elif rank < p[P_CALL_RERAISED] or not can_fold:
                        choice = CHECK_CALL
                    else:
                        choice = FOLD
                else:
                    value = cache[c, actor, street, live - 1]
                    if np.isnan(value):
                        for s in range(seats):  # every seat that may still act this street
                            if (
                                not folded[s]
                                and stacks[s] > 0
                                and params[s, P_STYLE] == THRESHOLDS
                                and np.isnan(cache[c, s, street, live - 1])
                            ):
                                requests[count, 0] = h
                                requests[count, 1] = s
                                requests[count, 2] = street
                                requests[count, 3] = board
                                requests[count, 4] = live - 1
                                if params[s, P_RANGES] == 1.0:
                                    j = 0
                                    for o in range(seats):
                                        if o != s and not folded[o]:
                                            request_caps[count, j] = range_cap(params[s], reads[o], position[o])
                                            j += 1
                                count += 1
                        state = BLOCKED
                        break
                    fraction = p[P_BET_SIZE]
                    if (
                        value > p[P_BET + street - 1] or (not can_fold and value < p[P_BLUFF + street - 1])
                    ) and low >= 0:
                        choice = RAISE
                    elif not can_fold:
                        choice = CHECK_CALL
                    else:
                        pot = contributed.sum()
                        odds = call / (pot + call)
                        choice = CHECK_CALL if value >= odds * p[P_CALL_FACTOR + street - 1] else FOLD
                if street == 0 and choice != FOLD:
                    reads[actor] |= preflop_read(choice == RAISE, raises, callers, can_fold)
                if choice == RAISE:
                    if p[P_STYLE] == THRESHOLDS:  # a fraction of the pot after the call, within the bounds
                        target = max_bet + np.int64(np.rint(fraction * (contributed.sum() + call)))
                        target = min(max(target, low), high)
                    last_raise = raise_to(
                        actor, target, structure, street, last_raise, stacks, contributed, bets, acted_at
                    )
                    raises += 1
                    callers = 0
                elif choice == CHECK_CALL:
                    check_call(actor, stacks, contributed, bets, acted_at)
                    callers += 1
                else:
                    folded[actor] = True
                if n_log == log.shape[1]:
                    state = OVERFLOW
                    break
                log[row, n_log, 0] = actor
                log[row, n_log, 1] = choice
                log[row, n_log, 2] = target
                n_log += 1
                read_action(stat, reading, actor, choice)
                if street == 0 and (contributed[actor] > before or voluntary[h, actor]):
                    voluntary[h, actor] = True
                actor = next_actor(actor + 1, folded, stacks, bets, acted_at)
                if actor < 0:
                    return_uncalled(stacks, contributed, bets)
            elif street < 3:
                due = board_deals[street]
                if n_log == log.shape[1]:
                    state = OVERFLOW
                    break
                log[row, n_log, 0] = -1
                log[row, n_log, 1] = DEAL
                log[row, n_log, 2] = due
                n_log += 1
                board += due
                street += 1
                read_board(stat, reading, folded)
                players_at[h, street] = live
                bets[:] = 0
                acted_at[:] = -1
                last_raise = 0
                raises = 0
                callers = 0
                actor = next_actor(0, folded, stacks, bets, acted_at)
            else:
                break
        status[c] = state
        if state != DONE:
            continue
        live = live_count(folded)
        won[:] = 0
        if live == 1:
            for s in range(seats):
                if not folded[s]:
                    won[s] = contributed.sum()
        else:
            won[:] = settle_pots(contributed, folded, 0, highs[h], lows[h], button)[0]
        for s in range(seats):
            finishing[h, s] = stacks[s] + won[s]
            live_end[h, s] = not folded[s]
        pot_out[h] = contributed.sum()
        read_end(stat, voluntary[h], folded, won)
        for st in range(street + 1, 4):
            players_at[h, st] = live
        players_at[h, 4] = live if live > 1 else 0
        reached[h] = 4 if live > 1 else street
        log_count[h] = n_log
    return count
