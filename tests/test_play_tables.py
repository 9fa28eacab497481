"""Every column of every table of `run play`, computed another way.

The reference engine (``engine.player.play_hand``, itself checked against pokerkit) plays the
run's own deals again, and plain Python counts each figure from its hands: the folds in its
actions, its live seats, its pot and stacks, and each showdown's pot shares in exact fractions
(RULES section 6, through ``evaluator.reference``). Those counts must give every column of the
study's tables, standard errors included (per hand: sqrt(p (1 - p) / n) for a rate, the
population spread over sqrt(n) for a mean). Which way each table is checked:

* ``streets`` (reach, players, won_here and their ``_se``): counted from the reference's
  board deals and folds.
* ``showdown`` (share, hi_chop, low_exists, low_tie, scoop, quartered, hilo_split, ``_se``):
  each showdown's flags from its players' exact pot shares (scoop: someone's share is the whole
  pot; quartered: someone's share is exactly a quarter), by the number of players there.
* ``positions`` (played, showdown, bb_per_hand, ``_se``): the reference's voluntary seats,
  live seats at showdown and finishing stacks.
* ``classes`` (dealt, played, showdown, bb_per_hand, ``_se``): the same by
  ``evaluator.cards.class_name`` of each seat's hole cards.
* ``pots`` (share, pot_bb, pot_bb_se): the reference's pot, by ending.
* ``compare`` (play, everyone, difference, ``_se``): the showdown counts beside the flags of
  the first k seats of every deal on its full runout.
* ``rulebook`` (everyone, play, play_hands, holds, rulebook): the same counts read as the
  rule book's claims (PLS7), n/a for another game.

Policies mix the built-ins with ``random-legal`` seats (every legal action, raises of every
size), or are all random-legal (no seat reads the starting-hand ranking); short stacks make
all-ins and side pots; hold'em no-limit and PLS7 pot-limit hi-lo.
"""

from __future__ import annotations

import math
from collections import defaultdict
from fractions import Fraction

import numpy as np
import polars as pl
import pytest

from engine.player import deal_hands, play_hand
from evaluator import reference
from evaluator.cards import class_name
from jobs.play import CLAIMS, POT_BUCKETS, STUDY, table_of
from pipeline.backends import SerialBackend
from pipeline.plan import RunConfig
from tests.helpers import execute, ranking

RANDOM_LEGAL = """name = "random-legal"
style = "random-legal"
[random]
fold = 0.2
check_call = 0.5
bet_raise = 0.3
"""
FLAGS = ("hi_chop", "low_exists", "low_tie", "scoop", "quartered", "hilo_split")


def flags(game, holes, board) -> dict[str, bool]:
    """A showdown's flags from its players' exact pot shares (RULES section 6)."""
    shown = [reference.showdown(game, hole, board) for hole in holes]
    highs = [s.high.strength for s in shown]
    lows = [s.low.strength if s.low is not None else 0 for s in shown]
    high_winners = {i for i, h in enumerate(highs) if h == max(highs)}
    low_winners = {i for i, low in enumerate(lows) if low and low == max(lows)}
    halves = (
        [(Fraction(1, 2), high_winners), (Fraction(1, 2), low_winners)]
        if low_winners
        else [(Fraction(1), high_winners)]
    )
    shares = [
        sum((part / len(winners) for part, winners in halves if i in winners), Fraction(0)) for i in range(len(holes))
    ]
    return {
        "hi_chop": len(high_winners) > 1,
        "low_exists": bool(low_winners),
        "low_tie": len(low_winners) > 1,
        "scoop": max(shares) == 1,
        "quartered": Fraction(1, 4) in shares,
        "hilo_split": bool(low_winners) and low_winners != high_winners,
    }


def recount(config: RunConfig) -> dict:
    """Every hand of the run played again by the reference engine, counted in plain Python."""
    table = table_of(config)
    g, seats, stack = table.game, table.seats, table.stacks[0]
    ranks = ranking(g) if table.needs_ranking else (lambda hole: 0.5)
    hands = []
    for shard in STUDY.plan(config):
        cards, keys = deal_hands(shard.generator(), shard.deals, seats, g)
        for i in range(shard.deals):
            hand = play_hand(
                g,
                table.betting,
                list(table.policies),
                [stack] * seats,
                [1, 2] + [0] * (seats - 2),
                cards[i],
                keys[i],
                ranks,
            )
            count, at = seats, [seats]
            for action in hand.actions:
                words = action.split()
                if words[:2] == ["d", "db"]:
                    at.append(count)
                elif words[1] == "f":
                    count -= 1
            showdown = len(hand.live) > 1
            reached = 4 if showdown else len(at) - 1
            holes = [hand.hole[s] for s in range(seats)]
            hands.append(
                {
                    "reached": reached,
                    "players_at": at + ([len(hand.live)] if showdown else []),
                    "live": list(hand.live),
                    "voluntary": set(hand.voluntary),
                    "pot": hand.pot,
                    "net": [f - stack for f in hand.finishing_stacks],
                    "classes": [class_name(h) for h in holes],
                    "flags": flags(g, [holes[s] for s in hand.live], hand.board) if showdown else None,
                    "everyone": {k: flags(g, holes[:k], hand.runout) for k in range(2, seats + 1)},
                }
            )
    return {"hands": hands, "seats": seats}


def rate(hits: int, n: int) -> tuple[float, float]:
    p = hits / n
    return p, math.sqrt(p * (1 - p) / n)


def mean(values) -> tuple[float, float]:
    x = np.asarray(values, np.float64)
    return float(x.mean()), float(x.std() / math.sqrt(len(x)))


def close(a, b) -> bool:
    if a is None or b is None:
        return a is b
    if isinstance(a, str) or isinstance(b, str):
        return a == b
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


def assert_rows(table: pl.DataFrame, key: str, expected: dict[object, dict[str, float]]) -> None:
    """``table``'s rows (by ``key``) hold exactly ``expected``'s columns, and no other rows."""
    got = {row[key]: row for row in table.iter_rows(named=True)}
    assert set(got) == set(expected), set(got) ^ set(expected)
    for k, columns in expected.items():
        for column, value in columns.items():
            assert close(got[k][column], value), (key, k, column, got[k][column], value)


def check_streets(tables, hands):
    n = len(hands)
    expected = {}
    for s, street in enumerate(("preflop", "flop", "turn", "river", "showdown")):
        there = [h for h in hands if h["reached"] >= s]
        players = mean([h["players_at"][s] for h in there]) if there else (math.nan, math.nan)
        reach, won = rate(len(there), n), rate(sum(h["reached"] == s for h in hands) if s < 4 else 0, n)
        expected[street] = {
            "reach": reach[0],
            "reach_se": reach[1],
            "players": players[0],
            "players_se": players[1],
            "won_here": won[0],
            "won_here_se": won[1],
        }
    assert_rows(tables["streets"], "street", expected)


def check_showdown_and_compare(tables, hands, seats):
    n = len(hands)
    by_k = defaultdict(list)
    for h in hands:
        if h["flags"] is not None:
            by_k[len(h["live"])].append(h["flags"])
    expected, compare = {}, {}
    for k in range(2, seats + 1):
        shown = by_k[k]
        row = dict(zip(("share", "share_se"), rate(len(shown), n)))
        with_low = sum(f["low_exists"] for f in shown)
        for flag in FLAGS:
            denominator = with_low if flag == "low_tie" else len(shown)
            p, se = rate(sum(f[flag] for f in shown), denominator) if denominator else (math.nan, math.nan)
            row[flag], row[f"{flag}_se"] = p, se
        expected[k] = row
        for flag in ("hi_chop", "low_exists", "scoop", "quartered", "hilo_split"):
            every, every_se = rate(sum(h["everyone"][k][flag] for h in hands), n)
            play, play_se = (row[flag], row[f"{flag}_se"]) if shown else (math.nan, math.nan)
            compare[(k, flag)] = {
                "play": play,
                "play_se": play_se,
                "everyone": every,
                "everyone_se": every_se,
                "difference": play - every,
                "difference_se": math.hypot(play_se, every_se),
            }
    assert_rows(tables["showdown"], "players", expected)
    frame = tables["compare"].with_columns(
        pl.struct("players", "figure")
        .map_elements(lambda r: f"{r['players']} {r['figure']}", return_dtype=pl.String)
        .alias("key")
    )
    assert_rows(frame, "key", {f"{k} {flag}": v for (k, flag), v in compare.items()})
    return by_k


def per_group(hands, group_of, seats):
    """dealt, played, showdown and nets per group (a seat, or a starting-hand class)."""
    groups = defaultdict(lambda: {"dealt": 0, "played": 0, "showdown": 0, "net": []})
    for h in hands:
        for s in range(seats):
            g = groups[group_of(h, s)]
            g["dealt"] += 1
            g["played"] += s in h["voluntary"]
            g["showdown"] += h["reached"] == 4 and s in h["live"]
            g["net"].append(h["net"][s] / 2)
    out = {}
    for key, g in groups.items():
        played, showdown, bb = rate(g["played"], g["dealt"]), rate(g["showdown"], g["dealt"]), mean(g["net"])
        out[key] = {
            "played": played[0],
            "played_se": played[1],
            "showdown": showdown[0],
            "showdown_se": showdown[1],
            "bb_per_hand": bb[0],
            "bb_per_hand_se": bb[1],
            "dealt": g["dealt"],
        }
    return out


def check_positions_classes_pots(tables, hands, seats):
    positions = per_group(hands, lambda h, s: s, seats)
    for row in positions.values():
        del row["dealt"]
    assert_rows(tables["positions"], "seat", positions)
    assert_rows(tables["classes"], "class", per_group(hands, lambda h, s: h["classes"][s], seats))
    pots = {}
    for ending, showdown in (("folded", False), ("showdown", True)):
        picked = [h["pot"] / 2 for h in hands if (h["reached"] == 4) == showdown]
        share = rate(len(picked), len(hands))
        pot = mean(picked) if picked else (math.nan, math.nan)
        pots[ending] = {"share": share[0], "share_se": share[1], "pot_bb": pot[0], "pot_bb_se": pot[1]}
    assert_rows(tables["pots"], "ending", pots)


def check_stats(tables, hands, seats):
    """The players' statistics table: hands dealt and VPIP per seat (the reference engine's
    voluntary set), then over all seats (``seat`` null)."""
    expected = {}
    for seat in range(seats):
        vpip = rate(sum(seat in h["voluntary"] for h in hands), len(hands))
        expected[seat] = {"hands": len(hands), "vpip": vpip[0]}
    every = rate(sum(len(h["voluntary"]) for h in hands), len(hands) * seats)
    expected[None] = {"hands": len(hands) * seats, "vpip": every[0]}
    assert_rows(tables["stats"], "seat", expected)


def check_pot_buckets(run, hands):
    """The shards' pot counts by size in big blinds (``from_bb``, the lower edge of its bucket)."""
    counts = pl.concat([pl.read_parquet(p) for p in sorted((run / "shards" / "pots").glob("*.parquet"))])
    got = {
        (r["ending"], r["from_bb"]): r["hands"]
        for r in counts.group_by("ending", "from_bb").agg(pl.col("hands").sum()).iter_rows(named=True)
        if r["hands"]
    }
    expected = defaultdict(int)
    for h in hands:
        edge = max(edge for edge in POT_BUCKETS if edge <= h["pot"] / 2)
        expected[("showdown" if h["reached"] == 4 else "folded", edge)] += 1
    assert got == dict(expected)


def check_rulebook(tables, hands, by_k, config, pls7: bool):
    n = len(hands)
    expected = {}
    for c in CLAIMS:
        k = c["everyone_at"]
        if k > config.players:
            continue
        among = {
            "all hands": lambda m: True,
            "showdowns of 4 or more": lambda m: m >= 4,
            "heads-up showdowns": lambda m: m == 2,
            "showdowns of 6": lambda m: m == 6,
        }[c["among"]]
        picked = [f for m, shown in by_k.items() if among(m) for f in shown]
        hits = sum(f[c["flag"]] for f in picked)
        m = n if c["among"] == "all hands" else len(picked)
        play, se = rate(hits, m) if m else (math.nan, math.nan)
        every, every_se = rate(sum(h["everyone"][k][c["flag"]] for h in hands), n)
        low, high = c["allowed"]
        if not pls7 or not m:
            holds = "n/a"
        elif max(se, 0.5 / math.sqrt(m)) > (high - low) / 4:
            holds = "too few to tell"
        else:
            holds = "yes" if low <= play <= high else "no"
        expected[f"{c['claim']} {c['among']}"] = {
            "rulebook": c["rulebook"] if pls7 else None,
            "everyone": every,
            "everyone_se": every_se,
            "play": play,
            "play_se": se,
            "play_hands": m,
            "holds": holds,
        }
    frame = tables["rulebook"].with_columns(pl.concat_str("claim", pl.lit(" "), "among").alias("key"))
    assert_rows(frame, "key", expected)


@pytest.fixture(scope="module")
def policy_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("policies") / "random-legal.toml"
    path.write_text(RANDOM_LEGAL)
    return str(path)


CASES = {
    "holdem NL, built-ins and random-legal, 30bb": ("holdem", "30bb", "{r},regular,loose,{r},pro-like,tight", 200),
    "pls7 PL hi-lo, built-ins and random-legal, 25bb": ("pls7", "25bb", "{r},regular,loose,{r},tight,station", 250),
    "pls7 PL hi-lo, random-legal only (no ranking read), 20bb": ("pls7", "20bb", "{r},{r},{r},{r},{r},{r}", 150),
}


@pytest.mark.untraced
@pytest.mark.parametrize("case", CASES)
def test_every_play_table_equals_a_recount_of_the_reference_engine(case, policy_file, tmp_path):
    """Every column of streets, showdown, positions, classes, pots, compare and rulebook equals
    the count of the same hands played by the reference engine, standard errors included."""
    name, stacks, policies, per_shard = CASES[case]
    config = RunConfig(
        job="play",
        game=name,
        deals=2 * per_shard,
        shard_deals=per_shard,
        players=6,
        seed=5,
        options=(("policy", policies.format(r=policy_file)), ("stacks", stacks)),
    )
    run = execute(config, SerialBackend(), tmp_path, quiet=True)
    tables = {p.stem: pl.read_parquet(p) for p in (run / "tables").glob("*.parquet")}
    assert set(tables) == {"streets", "showdown", "positions", "classes", "pots", "compare", "rulebook", "stats"}
    counted = recount(config)
    hands, seats = counted["hands"], counted["seats"]
    check_streets(tables, hands)
    by_k = check_showdown_and_compare(tables, hands, seats)
    check_positions_classes_pots(tables, hands, seats)
    check_stats(tables, hands, seats)
    check_pot_buckets(run, hands)
    check_rulebook(tables, hands, by_k, config, pls7=name == "pls7")
    # The mix reaches what the tables are about: folds on every street, showdowns of several sizes.
    assert {h["reached"] for h in hands} == {0, 1, 2, 3, 4} and len(by_k) >= 3
    if name == "pls7":
        assert all(any(f[flag] for shown in by_k.values() for f in shown) for flag in FLAGS)


def test_every_claims_range_holds_the_rule_books_figure():
    """Each rule-book claim's allowed range is a range of rates (0 < low < high < 1) that holds the
    book's own figure: "about 7.05 %" allows 6.05 % to 8.05 %."""
    for c in CLAIMS:
        low, high = c["allowed"]
        assert 0 < low < c["rulebook"] < high < 1, c


def test_verdicts_read_each_outcome_in_words():
    """The rule-book table read as sentences: a claim that holds, one that does not, one with too
    few hands and one with none, each with its rates in percent."""
    from jobs.play import verdicts

    rows = [
        ("Heads-up only about one hand in seven splits (section 7)", "heads-up showdowns", 0.14, 1234, "yes", 0.15),
        ("High chop about 7.05 % with all 6 players (section 9)", "showdowns of 6", 0.031, 800, "no", 0.0705),
        ("From four players about three hands in ten split (section 7)", "all hands", 0.3, 40, "too few to tell", 0.3),
        ("From four players about three hands in ten split (section 7)", "showdowns of 4 or more", 0.0, 0, "n/a", 0.3),
    ]
    frame = pl.DataFrame([dict(zip(("claim", "among", "play", "play_hands", "holds", "everyone"), r)) for r in rows])
    said = verdicts(frame, RunConfig(job="play", game="pls7", deals=1, shard_deals=1, players=6, seed=0))
    assert said == [
        "- Heads-up only about one hand in seven splits (section 7): **holds** under play: 14.0 % of heads-up "
        "showdowns (1,234); everyone showing down gives 15.0 %.",
        "- High chop about 7.05 % with all 6 players (section 9): **does not hold** under play: 3.1 % of showdowns "
        "of 6 (800), against 7.0 % when everyone shows down.",
        "- From four players about three hands in ten split (section 7): too few all hands to tell (30.0 % of all "
        "hands (40)).",
        "- From four players about three hands in ten split (section 7): no showdowns of 4 or more in this run, so "
        "play cannot tell.",
    ]


def test_recorded_hands_are_exactly_the_count_asked_across_shards(tmp_path):
    """``--record 250`` with shards of 100 hands writes the run's first 250 hands: two whole shards
    and half of the third, numbered 1 to 250."""
    from engine.phh import loads
    from jobs.play import record_hands

    config = RunConfig(
        job="play",
        game="holdem",
        deals=400,
        shard_deals=100,
        players=3,
        seed=9,
        options=(("policy", "regular"), ("stacks", "50bb")),
    )
    records = loads(record_hands(config, 250, ranking(table_of(config).game)))
    assert len(records) == 250 and [r.index for r in records[:2]] == [1, 2] and records[-1].index == 250


def test_a_claim_holds_or_not_once_the_sample_tells_the_range_apart():
    """``holds_within`` on a range wider than twice its low end (10 % to 35 %): a rate of 20 % ± 2 %
    tells the ends apart (a quarter of the range is 6.25 points) and holds; ± 7 % does not tell."""
    from jobs.play import holds_within

    assert holds_within(0.20, 0.02, 2500, (0.10, 0.35)) == "yes"
    assert holds_within(0.40, 0.02, 2500, (0.10, 0.35)) == "no"
    assert holds_within(0.20, 0.07, 2500, (0.10, 0.35)) == "too few to tell"
