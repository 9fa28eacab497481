"""Real hands in, the rule book's tables out: ``sampyong run records PATH...``.

Every hand of the PHH files and folders given is replayed through the engine
(``engine.phh.replay``); only hands that replay (``match``) are counted, and every other hand
is listed by status with its file and index in ``records``, never silently dropped. A shard is
``FILES_PER_SHARD`` files in their order, or a run of ``RECORDS_PER_SHARD`` hands of a bigger
``.phhs`` (the byte offsets of its ``[n]`` sections found once, when the run is planned), so one
big file is read on every worker; the tables are sums over hands, the same for any cut. The
run's id includes a digest of the files' bytes, so changed records make a new run and
unchanged ones resume.

The counted hands are grouped by game (its exact rules, as ``replay`` reads them) and by the
number of players dealt in (``seats``); amounts are in big blinds of each hand. The tables have
the names and columns of ``run play`` (``jobs.play``) with ``game`` and ``seats`` in front, and
each figure is ``engine.records.figures``, the fast engine's definitions, so the records a play
run writes (``--record``) give back that run's tables (``tests/test_records.py``):

* ``records``: per file the hands that match, and each other hand by status (differ, illegal,
  skipped, no_record) with its index and message; a match replayed as its writer played it
  (``engine.departures``) is listed with its index too, the kinds of departure as its message.
* ``streets``: per street, the share of hands reaching it, the players there, the share won there
  without a showdown.
* ``showdown``: by the number of players at showdown, the share of hands; then hi_chop,
  low_exists, low_tie, scoop, quartered and hilo_split among those whose showdown cards are
  all known (``known``: how many).
* ``positions``: per seat (PHH order), how often it plays (puts chips in preflop by choice),
  reaches showdown, and its result in big blinds per hand.
* ``pots``: the pot at the end in big blinds, for hands won at showdown and before it.
* ``rulebook``: each of the rule book's claims about showdowns (PLS7 tables only), measured
  among the recorded hands it speaks of, with its verdict.
* ``stats``: per seat and over all seats, VPIP, PFR, three-bet, flop seen, went to showdown
  (WTSD), won at showdown (W$SD), aggression factor and continuation bet, with standard errors
  (``engine.records.seat_stats``).
* ``compare`` (``--against POLICY [--hands N]``): each table of the records (game, players dealt
  in) is played by the policy in a ``run play`` upstream run (its median stack in big blinds,
  blinds 1 and 2, ten times the records' hands unless ``--hands``); per table, the flop seen,
  showdowns reached, players at the flop, each seat's preflop play and the rule book's claims,
  three ways: in the records, under the policy, and with everyone showing down (the policy run's
  deals read so), with the records' difference from the policy and its standard error, and for
  each claim whether it holds in the records and under the policy.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
from collections import defaultdict
from decimal import Decimal
from pathlib import Path

import numpy as np
import polars as pl
import pyarrow as pa

from engine.departures import KINDS, RULES
from engine.fast_replay import Replayed, replay_batch
from engine.phh import VARIANTS, Status, game_of, replay
from engine.policy import load_policy
from engine.record_files import in_bulk, load_file, record_files
from engine.records import SHOWDOWN
from engine.sections import section_headers
from evaluator.errors import SampyongError
from evaluator.games import game as game_preset
from evaluator.settle_kernels import SHOWDOWN_FLAGS
from jobs.common import Study, section, table
from jobs.play import (
    CLAIMS,
    FORMATS,
    HEADERS,
    POT_BUCKETS,
    STAT_COUNTS,
    STREETS,
    _rate,
    holds_within,
    stat_counts,
    stats_table,
)
from pipeline.counts import parse_count
from pipeline.plan import MAX_DEALS, RunConfig, ShardSpec, check_limits
from pipeline.study import Option

FORMATS = {**FORMATS, "records": "percent"}
FILES_PER_SHARD = 100  # a shard's files: real corpora come as one file per hand as well as one per session
RECORDS_PER_SHARD = 5_000  # a .phhs with more hands is cut into runs of this many, a shard each
_HEADER_LINE = re.compile(rb"^\[\d+\][ \t]*(?:#[^\n]*)?\r?$", re.MULTILINE)  # a line that looks like a section header
UNREADABLE = "unreadable"  # the status of a run of sections of a big file that is not PHH (its sections counted)
MILLI = 1000  # amounts are counted in thousandths of each hand's big blind (exact for blinds of 1 and 2)
GROUP = ("game", "seats")


def _paths(config: RunConfig) -> list[str]:
    """The files and folders given: a JSON list (the CLI's arguments, an API list) or one path."""
    raw = config.option("paths") or ""
    return json.loads(raw) if raw.startswith("[") else [raw] if raw else []


def validate(config: RunConfig) -> None:
    if not _paths(config):
        raise SampyongError("records needs PHH files or folders: sampyong run records PATH...")


def configure(config: RunConfig) -> RunConfig:
    """The files behind ``paths`` and a digest of their bytes; a shard per ``FILES_PER_SHARD`` files,
    or per run of ``RECORDS_PER_SHARD`` sections of a bigger ``.phhs``. Each file is read once
    here: a file that is not PHH is refused before anything is written. A big ``.phhs`` (more
    than ``RECORDS_PER_SHARD`` sections, ``engine.sections``) is only scanned for its section
    headers: its runs of sections are read by the shards, which list a run that cannot be read as
    unreadable (``shard_records``); with ``--game`` or ``--against`` every file is read whole here.
    With ``--against``, the records' tables too (``tables``: per game and players dealt in, the
    rules, betting, median stack and the policy's hands), each checked as a ``run play`` config."""
    files = record_files(_paths(config))
    if not files:
        raise SampyongError(f"no PHH records (.phh, .phhs) in {', '.join(_paths(config))}")
    against, hands = config.option("against"), config.option("hands")
    if hands and not against:
        raise SampyongError("--hands is what the --against policy plays: give --against POLICY too")
    if against:
        load_policy(against)  # SampyongError for a policy that is neither built in nor a readable file
    wanted = None if config.game == "any" else game_preset(config.game).name
    digest = hashlib.sha256()
    tables: dict = {}
    shards: list[list[list[int]]] = [[]]
    for number, file in enumerate(files):
        try:
            data = file.read_bytes()
        except OSError as error:
            raise SampyongError(f"cannot read {file}: {error.strerror or error}") from None
        digest.update(str(file.resolve()).encode() + b"\0" + data)
        cut = file.suffix == ".phhs"  # a .phh is one hand; a site's file is converted whole (engine.sites)
        pieces = _pieces(data) if cut and not (wanted or against) else None
        if pieces is None:
            records = load_file(file, data)  # SampyongError for a file that cannot be read or is not PHH
            for record in records:
                variant = VARIANTS.get(record.fields.get("variant"))
                if wanted and variant is not None and variant.game != wanted:
                    raise SampyongError(f"{record.where} is a hand of {variant.game}, which --game {wanted} excludes")
                if against and variant is not None:
                    _count_table(tables, record, variant)
            pieces = _pieces(data, [r.index for r in records]) if cut else []
        if pieces:
            shards += [[[number, *piece]] for piece in pieces] + [[]]
        elif len(shards[-1]) < FILES_PER_SHARD:
            shards[-1].append([number, 0, -1])
        else:
            shards.append([[number, 0, -1]])
    shards = [shard for shard in shards if shard]
    options = [
        ("digest", digest.hexdigest()),
        ("files", json.dumps([str(f.resolve()) for f in files])),
        ("shards", json.dumps(shards)),
    ]
    if against:
        per_table = parse_count(hands, "--hands", at_most=MAX_DEALS) if hands else None
        options += [("against", against), ("tables", json.dumps(_against_tables(tables, per_table)))]
    config = dataclasses.replace(
        config,
        game=wanted or "any",
        deals=len(shards),
        shard_deals=1,
        players=2,
        seed=0,
        options=tuple(sorted(options)),
    )
    upstream(config)  # each table a config run play accepts, or one line now, before anything is written
    return config


def _pieces(data: bytes, read: list[int] | None = None) -> list[list[int]] | None:
    """A ``.phhs`` file's runs of ``RECORDS_PER_SHARD`` sections: per run its bytes ``start, end``
    (-1: to the end), the number of its first section and how many it holds, each run starting
    at a header (``engine.sections``). ``[]`` when the file is not cut: it has no more sections
    than that (or, given ``read``, the sections the file holds, its headers are not those
    sections in order). None, without ``read``, when the file must be read whole first: it is
    small, its headers are not the plain ``[n]`` lines a scan can cut at, or two share a number."""
    if read is not None and len(read) <= RECORDS_PER_SHARD:
        return []
    if read is None and data.count(b"\n[") < RECORDS_PER_SHARD:  # too few header lines to cut: read it
        return None
    headers = section_headers(data)
    if headers is None or (read is None and len({n for n, _ in headers}) != len(headers)):
        return None if read is None else []
    if read is not None and [n for n, _ in headers] != read:
        return []
    if len(headers) <= RECORDS_PER_SHARD:
        return None if read is None else []
    starts = list(range(0, len(headers), RECORDS_PER_SHARD))
    return [
        [
            0 if k == 0 else headers[k][1],
            headers[k + RECORDS_PER_SHARD][1] if k + RECORDS_PER_SHARD < len(headers) else -1,
            headers[k][0],
            min(RECORDS_PER_SHARD, len(headers) - k),
        ]
        for k in starts
    ]


def shard_records(
    config: RunConfig, shard: ShardSpec
) -> tuple[list[tuple[str, object]], list[tuple[str, int, str, int]]]:
    """``(path, record)`` of every hand of the shard's files and runs of sections, and each run that
    cannot be read as PHH (``(path, first section, message, sections)``: a big file is read here,
    run by run, so its runs are judged here; its headers, found when the run was planned, must be
    the sections the run holds)."""
    files = json.loads(config.option("files"))
    out, unreadable = [], []
    for number, start, end, *run in json.loads(config.option("shards"))[shard.index]:
        path = files[number]
        if start == 0 and end == -1 and not run:
            out += [(path, record) for record in load_file(Path(path))]
            continue
        with open(path, "rb") as handle:
            handle.seek(start)
            data = handle.read() if end == -1 else handle.read(end - start)
        first, count = run
        try:
            records = load_file(Path(path), data)
            if len(records) != count or (records and records[0].index != first):
                raise SampyongError(f"{path}: the sections from [{first}] are not the {count:,} the plan found")
        except SampyongError as error:  # its hands: the lines that look like headers (its plan's count, unless
            unreadable.append((path, first, str(error), max(1, len(_HEADER_LINE.findall(data)))))  # it broke the scan)
            continue
        out += [(path, record) for record in records]
    return out, unreadable


AGAINST_FACTOR = 10  # the --against policy plays ten times as many hands as the records, per table


def _count_table(tables: dict, record, variant) -> None:
    """Count ``record`` in its table (game, players dealt in) with its stack in big blinds; a
    record whose rules or amounts cannot be read is left to replay to report."""
    fields = record.fields
    try:
        game = game_of(record, variant)
        stacks = [Decimal(str(s)) for s in fields["starting_stacks"]]
        blind = max(
            [Decimal(str(b)) for b in fields.get("blinds_or_straddles", [])] + [Decimal(str(fields.get("min_bet", 0)))]
        )
        if blind <= 0 or len(stacks) < 2:
            return
    except (SampyongError, KeyError, TypeError, ValueError, ArithmeticError):
        return
    key = (game.name, len(stacks))
    if key not in tables:
        tables[key] = {
            "game": game.name,
            "preset": game.base_name,
            "hole_use": "-".join(map(str, game.hole_use)),
            "ranking": game.ranking.name,
            "low": str(game.low) if game.low is not None else "none",
            "betting": variant.betting,
            "seats": len(stacks),
            "stacks_bb": [],
        }
    tables[key]["stacks_bb"].append(float(sorted(stacks)[len(stacks) // 2] / blind))


def _against_tables(tables: dict, per_table: int | None) -> list[dict]:
    """Each table of the records as the --against policy plays it: the median stack (to half a
    big blind, at least one) and ``per_table`` hands (default ten times the table's records)."""
    out = []
    for key in sorted(tables):
        table_ = dict(tables[key])
        stacks = sorted(table_.pop("stacks_bb"))
        table_["records"] = len(stacks)
        table_["stacks_bb"] = max(1.0, round(2 * stacks[len(stacks) // 2]) / 2)
        table_["hands"] = per_table or AGAINST_FACTOR * len(stacks)
        out.append(table_)
    return out


def upstream(config: RunConfig) -> list:
    """With ``--against``: a ``run play`` of the policy at each table of the records."""
    from jobs.play import STUDY as PLAY

    runs = []
    for t in json.loads(config.option("tables") or "[]"):
        play = RunConfig(
            job="play",
            game=t["preset"],
            deals=t["hands"],
            shard_deals=min(t["hands"], 100_000),
            players=t["seats"],
            seed=0,
            hole_use=t["hole_use"],
            ranking=t["ranking"],
            low=t["low"],
            options=(
                ("betting", t["betting"]),
                ("policy", config.option("against")),
                ("stacks", f"{t['stacks_bb']:g}bb"),
            ),
        )
        check_limits(play)
        PLAY.validate(play)
        runs.append((PLAY, PLAY.configure(play)))
    return runs


def inputs(config: RunConfig, tables: list) -> list[dict]:
    """The policy's play at each table (in ``tables``' order): the table and the play run's tables."""
    return [{**t, "tables": played} for t, played in zip(json.loads(config.option("tables") or "[]"), tables)]


def run_shard(config: RunConfig, shard: ShardSpec, inputs=None) -> dict[str, pa.Table]:
    with in_bulk():
        return _run_shard(config, shard)


def _run_shard(config: RunConfig, shard: ShardSpec) -> dict[str, pa.Table]:
    listed = defaultdict(int)  # (path, index, status, message) -> hands
    records, unreadable = shard_records(config, shard)
    for path, first, message, count in unreadable:
        listed[(path, first, UNREADABLE, message)] += count
    hands = replay_batch([record for _, record in records])  # the kernel's matches, figures and all
    for i, (path, record) in enumerate(records):
        if hands.matched[i]:
            listed[(path, None, Status.MATCH.value, "")] += 1
            continue
        result = replay(record)  # the reference words every other status
        if result.status is not Status.MATCH:
            listed[(path, record.index, result.status.value, result.message)] += 1
            continue
        if result.departures:  # read by its writer's rules: listed by hand, the kinds as its message
            listed[(path, record.index, Status.MATCH.value, ", ".join(result.departures))] += 1
        else:
            listed[(path, None, Status.MATCH.value, "")] += 1
        hands.take(i, result.hand)
    return _tables(listed, *_count(hands))


def _count(hands: Replayed) -> tuple[dict, dict, dict, dict, dict]:
    """The counted hands' sums per group (game, players dealt in): streets, showdown, positions,
    pots and stats, as ``_tables`` lays them out; amounts in thousandths of each hand's big blind."""
    streets, showdown, positions, pots, stats = {}, {}, {}, {}, {}
    rows = np.flatnonzero(hands.matched)
    groups: dict = {}
    codes = np.array([groups.setdefault((hands.games[i], int(hands.seats[i])), len(groups)) for i in rows], np.int64)
    for key, code in groups.items():
        h = rows[codes == code]
        n = key[1]
        reached, players_at, live = hands.reached[h], hands.players_at[h], hands.live[h, :n]
        scale = MILLI * np.int64(1) / hands.blind[h]  # chips -> thousandths of a big blind, as floats
        at_showdown = reached == SHOWDOWN
        table = np.zeros((len(STREETS), 4), np.int64)  # hands, players_sum, players_sq, won_here
        for street in range(len(STREETS)):
            here = reached >= street
            players = players_at[here, street]
            table[street] = (
                here.sum(),
                players.sum(),
                (players * players).sum(),
                (reached == street).sum() if street < SHOWDOWN else 0,
            )
        streets[key] = table
        if at_showdown.any():
            players = players_at[at_showdown, SHOWDOWN]
            table = np.zeros((players.max() + 1, 2 + len(SHOWDOWN_FLAGS)), np.int64)  # hands, known, flags
            np.add.at(table[:, 0], players, 1)
            known = hands.known[h] & at_showdown
            np.add.at(table[:, 1], players_at[known, SHOWDOWN], 1)
            np.add.at(table[:, 2:], players_at[known, SHOWDOWN], hands.flags[h][known])
            showdown[key] = table
        amount = np.rint(hands.net[h, :n] * scale[:, None]).astype(np.int64)
        positions[key] = np.stack(
            [
                np.full(n, len(h)),
                hands.voluntary[h, :n].sum(0),
                (live & at_showdown[:, None]).sum(0),
                np.maximum(amount, 0).sum(0),
                np.maximum(-amount, 0).sum(0),
                (amount * amount).sum(0),
            ],
            1,
        )
        bucket = np.searchsorted(POT_BUCKETS, hands.pot[h] / hands.blind[h], side="right") - 1
        pot = np.rint(hands.pot[h] * scale).astype(np.int64)
        table = np.zeros((2, len(POT_BUCKETS), 3), np.int64)
        np.add.at(table, (at_showdown.astype(np.int64), bucket), np.stack([np.ones_like(pot), pot, pot * pot], 1))
        pots[key] = table
        stats[key] = stat_counts(hands.stats[h, :n])
    return streets, showdown, positions, pots, stats


def _tables(listed, streets, showdown, positions, pots, stats) -> dict[str, pa.Table]:
    u64, i32, text = pa.uint64(), pa.int32(), pa.string()

    def grouped(rows: list[dict], columns: dict) -> pa.Table:
        return pa.table({name: pa.array([row[name] for row in rows], kind) for name, kind in columns.items()})

    group = {"game": text, "seats": i32}
    return {
        "records": grouped(
            [
                {"path": p, "index": i, "status": s, "message": m, "hands": n}
                for (p, i, s, m), n in sorted(
                    listed.items(), key=lambda item: (item[0][0], -1 if item[0][1] is None else item[0][1], item[0][2])
                )
            ],
            {"path": text, "index": i32, "status": text, "message": text, "hands": u64},
        ),
        "streets": grouped(
            [
                {
                    "game": g,
                    "seats": n,
                    "street": street,
                    "order": i,
                    **dict(zip(("hands", "players_sum", "players_sq", "won_here"), counts[i].tolist())),
                }
                for (g, n), counts in sorted(streets.items())
                for i, street in enumerate(STREETS)
            ],
            {
                **group,
                "street": text,
                "order": i32,
                "hands": u64,
                "players_sum": u64,
                "players_sq": u64,
                "won_here": u64,
            },
        ),
        "showdown": grouped(
            [
                {
                    "game": g,
                    "seats": n,
                    "players": k,
                    **dict(zip(("hands", "known", *SHOWDOWN_FLAGS), counts[k].tolist())),
                }
                for (g, n), counts in sorted(showdown.items())
                for k in range(2, counts.shape[0])
                if counts[k, 0]
            ],
            {**group, "players": i32, "hands": u64, "known": u64, **{flag: u64 for flag in SHOWDOWN_FLAGS}},
        ),
        "positions": grouped(
            [
                {
                    "game": g,
                    "seats": n,
                    "seat": seat,
                    **dict(zip(("hands", "played", "showdown", "won", "lost", "net_sq"), counts[seat].tolist())),
                }
                for (g, n), counts in sorted(positions.items())
                for seat in range(counts.shape[0])
            ],
            {
                **group,
                "seat": i32,
                "hands": u64,
                "played": u64,
                "showdown": u64,
                "won": u64,
                "lost": u64,
                "net_sq": u64,
            },
        ),
        "pots": grouped(
            [
                {
                    "game": g,
                    "seats": n,
                    "ending": ending,
                    "from_bb": edge,
                    **dict(zip(("hands", "pot", "pot_sq"), counts[e, b].tolist())),
                }
                for (g, n), counts in sorted(pots.items())
                for e, ending in enumerate(("folded", "showdown"))
                for b, edge in enumerate(POT_BUCKETS)
            ],
            {**group, "ending": text, "from_bb": i32, "hands": u64, "pot": u64, "pot_sq": u64},
        ),
        "stats": grouped(
            [
                {"game": g, "seats": n, "seat": seat, **dict(zip(STAT_COUNTS, counts[seat].tolist()))}
                for (g, n), counts in sorted(stats.items())
                for seat in range(counts.shape[0])
            ],
            {**group, "seat": i32, **{name: u64 for name in STAT_COUNTS}},
        ),
    }


def summarize(
    counts: dict[str, pl.DataFrame], config: RunConfig, against: list | None = None
) -> dict[str, pl.DataFrame]:
    """``run play``'s summaries per group (game, seats); amounts in big blinds; with ``--against``
    (``against``: ``inputs``), ``compare``."""
    hands = counts["positions"].filter(pl.col("seat") == 0).select(*GROUP, pl.col("hands").cast(pl.Float64).alias("n"))
    streets = (
        counts["streets"]
        .join(hands, on=GROUP)
        .sort(*GROUP, "order")
        .select(
            *GROUP,
            "street",
            *_rate(pl.col("hands"), pl.col("n"), "reach"),
            (pl.col("players_sum") / pl.col("hands")).alias("players"),
            (
                (pl.col("players_sq") / pl.col("hands") - (pl.col("players_sum") / pl.col("hands")) ** 2).clip(
                    lower_bound=0
                )
                / pl.col("hands")
            )
            .sqrt()
            .alias("players_se"),
            *_rate(pl.col("won_here"), pl.col("n"), "won_here"),
        )
    )
    known = pl.col("known").cast(pl.Float64)
    showdown = (
        counts["showdown"]
        .join(hands, on=GROUP)
        .sort(*GROUP, "players")
        .select(
            *GROUP,
            "players",
            *_rate(pl.col("hands"), pl.col("n"), "share"),
            "known",
            *[
                e
                for flag in SHOWDOWN_FLAGS
                for e in _rate(
                    pl.col(flag), pl.col("low_exists").cast(pl.Float64) if flag == "low_tie" else known, flag
                )
            ],
        )
    )
    n_seat = pl.col("hands").cast(pl.Float64)
    mean = (pl.col("won").cast(pl.Float64) - pl.col("lost").cast(pl.Float64)) / n_seat
    positions = (
        counts["positions"]
        .sort(*GROUP, "seat")
        .select(
            *GROUP,
            "seat",
            *_rate(pl.col("played"), n_seat, "played"),
            *_rate(pl.col("showdown"), n_seat, "showdown"),
            (mean / MILLI).alias("bb_per_hand"),
            ((pl.col("net_sq") / n_seat - mean**2).clip(lower_bound=0) / n_seat)
            .sqrt()
            .truediv(MILLI)
            .alias("bb_per_hand_se"),
        )
    )
    pot_mean = pl.col("pot") / pl.col("hands")
    pots = (
        counts["pots"]
        .group_by(*GROUP, "ending")
        .agg(pl.col("hands").sum(), pl.col("pot").sum(), pl.col("pot_sq").sum())
        .join(hands, on=GROUP)
        .filter(pl.col("hands") > 0)
        .sort(*GROUP, "ending")
        .select(
            *GROUP,
            "ending",
            *_rate(pl.col("hands"), pl.col("n"), "share"),
            (pot_mean / MILLI).alias("pot_bb"),
            ((pl.col("pot_sq") / pl.col("hands") - pot_mean**2).clip(lower_bound=0) / pl.col("hands"))
            .sqrt()
            .truediv(MILLI)
            .alias("pot_bb_se"),
        )
    )
    records = counts["records"].sort("path", "index", "status", nulls_last=False)
    tables = {
        "records": records,
        "streets": streets,
        "showdown": showdown,
        "positions": positions,
        "pots": pots,
        "stats": stats_table(counts["stats"], GROUP),
        "rulebook": rulebook_of_records(counts),
    }
    if against:
        tables["compare"] = compare_table(tables, hands, against)
    return tables


COMPARED = (
    "game",
    "seats",
    "figure",
    "among",
    "records",
    "records_se",
    "records_hands",
    "policy",
    "policy_se",
    "policy_hands",
    "everyone",
    "everyone_se",
    "difference",
    "difference_se",
    "records_holds",
    "policy_holds",
)


def compare_table(tables: dict[str, pl.DataFrame], hands: pl.DataFrame, against: list[dict]) -> pl.DataFrame:
    """Per table of the records, each figure three ways: in the records, played by the --against
    policy at the same table, and with everyone showing down (the policy run's very deals read
    so; for who reaches a street or plays a hand, everyone does), the records' difference from
    the policy with its standard error, and for the rule book's claims whether each holds."""
    counted = dict(((g, n), int(h)) for g, n, h in hands.rows())
    rows = []
    for t in against:
        game, seats, played = t["game"], t["seats"], t["tables"]
        if (game, seats) not in counted:
            continue  # no record of this table replayed: nothing to set beside the policy
        n, m = counted[(game, seats)], t["hands"]
        mine = {
            name: frame.filter((pl.col("game") == game) & (pl.col("seats") == seats))
            for name, frame in tables.items()
            if "seats" in frame.columns
        }

        def row(figure, among, r, r_se, r_n, p, p_se, p_n, e, e_se, r_holds=None, p_holds=None, game=game, seats=seats):
            rows.append(
                dict(
                    zip(
                        COMPARED,
                        (
                            game,
                            seats,
                            figure,
                            among,
                            r,
                            r_se,
                            r_n,
                            p,
                            p_se,
                            p_n,
                            e,
                            e_se,
                            r - p,
                            (r_se**2 + p_se**2) ** 0.5,
                            r_holds,
                            p_holds,
                        ),
                    )
                )
            )

        for street, figure, everyone in (("flop", "flop seen", 1.0), ("showdown", "reached showdown", 1.0)):
            r = mine["streets"].filter(pl.col("street") == street).row(0, named=True)
            p = played["streets"].filter(pl.col("street") == street).row(0, named=True)
            row(figure, "all hands", r["reach"], r["reach_se"], n, p["reach"], p["reach_se"], m, everyone, 0.0)
        r = mine["streets"].filter(pl.col("street") == "flop").row(0, named=True)
        p = played["streets"].filter(pl.col("street") == "flop").row(0, named=True)
        row(
            "players at the flop",
            "hands that see it",
            r["players"],
            r["players_se"],
            n,
            p["players"],
            p["players_se"],
            m,
            float(seats),
            0.0,
        )
        r_all = mine["stats"].filter(pl.col("seat").is_null()).row(0, named=True)
        p_all = played["stats"].filter(pl.col("seat").is_null()).row(0, named=True)
        for name, figure, everyone in (("vpip", "VPIP", 1.0), ("pfr", "PFR", 0.0)):
            row(
                figure,
                "all seats",
                r_all[name],
                r_all[f"{name}_se"],
                n,
                p_all[name],
                p_all[f"{name}_se"],
                m,
                everyone,
                0.0,
            )
        for r, p in zip(
            mine["positions"].sort("seat").iter_rows(named=True), played["positions"].sort("seat").iter_rows(named=True)
        ):
            row(
                "plays preflop",
                f"seat {r['seat']}",
                r["played"],
                r["played_se"],
                n,
                p["played"],
                p["played_se"],
                m,
                1.0,
                0.0,
            )
        claims = played["rulebook"].select(
            "claim",
            "among",
            "play",
            "play_se",
            "play_hands",
            "everyone",
            "everyone_se",
            pl.col("holds").alias("policy_holds"),
        )
        for c in mine["rulebook"].join(claims, on=("claim", "among")).iter_rows(named=True):
            row(
                c["claim"],
                c["among"],
                c["records"],
                c["records_se"],
                c["records_hands"],
                c["play"],
                c["play_se"],
                c["play_hands"],
                c["everyone"],
                c["everyone_se"],
                c["holds"],
                c["policy_holds"],
            )
    return pl.DataFrame(
        rows,
        schema={
            "game": pl.String,
            "seats": pl.Int32,
            "figure": pl.String,
            "among": pl.String,
            **{name: pl.Float64 for name in ("records", "records_se")},
            "records_hands": pl.Int64,
            **{name: pl.Float64 for name in ("policy", "policy_se")},
            "policy_hands": pl.Int64,
            **{name: pl.Float64 for name in ("everyone", "everyone_se", "difference", "difference_se")},
            "records_holds": pl.String,
            "policy_holds": pl.String,
        },
    )


def rulebook_of_records(counts: dict[str, pl.DataFrame]) -> pl.DataFrame:
    """Each of the rule book's claims about showdowns (``jobs.play.CLAIMS``, PLS7's figures) at
    each PLS7 table of the records: the figure among the hands it speaks of whose showdown cards
    are known, and whether the claim's words hold ("too few to tell" when the standard error is
    too large for them)."""
    rows = []
    hands = {(g, n): h for g, n, h in counts["positions"].filter(pl.col("seat") == 0).select(*GROUP, "hands").rows()}
    for (game, seats), total in sorted(hands.items()):
        if game != "pls7":
            continue
        shown = counts["showdown"].filter((pl.col("game") == game) & (pl.col("seats") == seats))
        unknown = int((shown["hands"] - shown["known"]).sum())
        for c in CLAIMS:
            if c["everyone_at"] > seats:
                continue
            among = {
                "all hands": pl.lit(True),
                "showdowns of 4 or more": pl.col("players") >= 4,
                "heads-up showdowns": pl.col("players") == 2,
                "showdowns of 6": pl.col("players") == 6,
            }[c["among"]]
            picked = shown.filter(among)
            hits = int(picked[c["flag"]].sum())
            n = total - unknown if c["among"] == "all hands" else int(picked["known"].sum())
            rate = hits / n if n else float("nan")
            se = (rate * (1 - rate) / n) ** 0.5 if n else float("nan")
            rows.append(
                {
                    "game": game,
                    "seats": seats,
                    "claim": c["claim"],
                    "among": c["among"],
                    "rulebook": c["rulebook"],
                    "rulebook_words": c["words"],
                    "records": rate,
                    "records_se": se,
                    "records_hands": n,
                    "holds": holds_within(rate, se, n, c["allowed"]),
                }
            )
    return pl.DataFrame(
        rows,
        schema={
            "game": pl.String,
            "seats": pl.Int32,
            "claim": pl.String,
            "among": pl.String,
            "rulebook": pl.Float64,
            "rulebook_words": pl.String,
            "records": pl.Float64,
            "records_se": pl.Float64,
            "records_hands": pl.Int64,
            "holds": pl.String,
        },
    )


LEGENDS = {
    "streets": "Of the group's hands; players there is the mean number still in when the street's betting begins.",
    "showdown": "By the number of players at showdown: the share of the group's hands, then each figure among the "
    "showdowns whose cards are all known (known: how many; low tied: of those with a low).",
    "positions": "Per seat (the small blind first, the button last): how often it puts chips in preflop by choice, "
    "reaches showdown, and wins, in big blinds per hand.",
    "pots": "The pot at the end of the hand, in big blinds, won at showdown or before it.",
    "stats": "Per seat, then over all seats: VPIP and PFR of hands dealt, three-bet of the hands facing one raise, "
    "flop seen, went to showdown (WTSD) of flops seen, won at showdown (W$SD) of showdowns, the aggression "
    "factor (postflop bets and raises per call) and the continuation bet of the preflop raiser's chances.",
}


def report(tables: dict[str, pl.DataFrame], config: RunConfig, figure_files: list[str]) -> str:
    statuses = tables["records"].group_by("status").agg(pl.col("hands").sum()).sort("status")
    counted = dict(statuses.rows())
    files = json.loads(config.option("files"))
    lines = [
        "# Hand records",
        "",
        f"{sum(counted.values()):,} hands in {len(files):,} file(s): "
        + ", ".join(f"{n:,} {status}" for status, n in sorted(counted.items()))
        + ". Only the hands that replay (match) are counted; every other hand is listed in `tables/records.csv`. "
        "Rates are percentages ± one standard error.",
    ]
    written = (
        tables["records"]
        .filter((pl.col("status") == "match") & (pl.col("message") != ""))
        .select(pl.col("message").str.split(", ").alias("kind"), "hands")
        .explode("kind")
        .group_by("kind")
        .agg(pl.col("hands").sum())
    )
    if written.height:
        kinds = dict(written.rows())
        lines += [
            "",
            f"{int(tables['records'].filter((pl.col('status') == 'match') & (pl.col('message') != ''))['hands'].sum()):,} "
            "of the matches were replayed as their writer played them, where its rules depart from the rule book's "
            "(listed by hand in `tables/records.csv`): "
            + ", ".join(f"{kind} {kinds[kind]:,} ({RULES[kind]})" for kind in KINDS if kind in kinds)
            + ".",
        ]
    known = int(tables["showdown"]["known"].sum()) if tables["showdown"].height else 0
    lines += ["", f"Showdown figures that need cards use the {known:,} showdowns whose cards are all known."]
    if tables["rulebook"].height:
        claims = tables["rulebook"].with_columns(
            pl.concat_str(
                [
                    pl.col("claim"),
                    pl.lit(" — among "),
                    pl.col("among"),
                    pl.lit(", "),
                    pl.col("seats").cast(pl.String),
                    pl.lit(" players dealt in"),
                ]
            ).alias("claim")
        )
        lines += [
            "",
            *section(
                "The rule book at these tables",
                table(
                    claims.drop("game", "seats", "among", "records_hands", "rulebook"),
                    FORMATS,
                    {**HEADERS, "records": "in the records", "holds": "holds in the records"},
                ),
                "Each claim of the rule book about showdowns, measured among the recorded hands it speaks of whose "
                "showdown cards are known; it holds when the figure stays within the claim's own words.",
            ),
        ]
    if "compare" in tables:
        lines += _against_sections(tables["compare"], config)
    groups = tables["positions"].select(*GROUP).unique().sort(*GROUP).rows()
    for game, seats in groups:
        lines += ["", f"## {game}, {seats} players dealt in"]
        for name in ("streets", "showdown", "positions", "pots", "stats"):
            frame = tables[name].filter((pl.col("game") == game) & (pl.col("seats") == seats)).drop(*GROUP)
            lines += ["", *section(name.capitalize(), table(frame, FORMATS, HEADERS), LEGENDS[name])]
    return "\n".join(lines) + "\n"


def _against_sections(compare: pl.DataFrame, config: RunConfig) -> list[str]:
    """The records beside the --against policy at each table: the rule book's claims in sentences
    (as the play report says them), then every figure three ways."""
    policy = config.option("against")
    played = {(t["game"], t["seats"]): t for t in json.loads(config.option("tables") or "[]")}
    lines = []
    for (game, seats), frame in sorted(compare.group_by(*GROUP, maintain_order=True), key=lambda item: item[0]):
        t = played[(game, seats)]
        lines += [
            "",
            f"## Against {policy}: {game}, {seats} players dealt in",
            "",
            f"The policy played {t['hands']:,} hands of this table ({t['stacks_bb']:g} big blinds deep, blinds 1 and 2), "
            f"beside the {int(frame['records_hands'][0]):,} recorded hands; everyone showing down is the policy run's "
            "deals read with every player to the showdown. Differences are the records' minus the policy's.",
        ]
        claims = frame.filter(pl.col("records_holds").is_not_null())
        if claims.height:
            lines += [""]
            for c in claims.iter_rows(named=True):
                lines.append(
                    f"- {c['figure']} — among {c['among']}: in the records "
                    f"{_verdict(c['records'], c['records_se'], c['records_hands'], c['records_holds'])}; under "
                    f"{policy} {_verdict(c['policy'], c['policy_se'], c['policy_hands'], c['policy_holds'])}; "
                    f"everyone showing down {_percent(c['everyone'], c['everyone_se'])}."
                )
        lines += ["", compare_markdown(frame.drop(*GROUP), policy).rstrip("\n")]
    return lines


def compare_markdown(frame: pl.DataFrame, policy: str) -> str:
    """``compare`` as Markdown: the rates in percent (differences in points), then the players at
    the flop, a count of players, as numbers."""
    headers = {**HEADERS, "records": "in the records", "policy": policy, "difference": "records − policy"}
    players = pl.col("figure") == "players at the flop"
    shown = frame.drop("records_holds", "policy_holds")
    rates = {name: "percent" for name in ("records", "policy", "everyone")} | {"difference": "points"}
    numbers = {name: "number" for name in ("records", "policy", "everyone", "difference")}
    return table(shown.filter(~players), rates, headers) + "\n" + table(shown.filter(players), numbers, headers)


def _verdict(value: float, se: float, hands: int, holds: str) -> str:
    if not hands:
        return "no such hands"
    word = {"yes": "**holds**", "no": "**does not hold**"}.get(holds, holds)
    return f"{_percent(value, se)} of {hands:,}, {word}"


def _percent(value: float, se: float) -> str:
    return "n/a" if value != value else f"{100 * value:.1f} % ± {100 * se:.1f}"


def markdown_of(name: str, frame: pl.DataFrame, config: RunConfig) -> str:
    return compare_markdown(frame, config.option("against")) if name == "compare" else table(frame, FORMATS, HEADERS)


STUDY = Study(
    name="records",
    description="hand records (PHH) replayed and counted as the play tables: streets, showdowns, positions, pots",
    tables=("records", "streets", "showdown", "positions", "pots", "stats"),  # summaries add rulebook
    run_shard=run_shard,
    summarize=summarize,
    report=report,
    options=(
        Option("paths", "Hand records: PHH files (*.phh, *.phhs) or folders searched for them.", list, argument=True),
        Option(
            "game",
            "Insist that every record is of this game preset (its variant's game); a record of another "
            "game is refused.",
            default="any",
        ),
        Option(
            "against",
            "Also play each table of the records (its game, players, median stack in big blinds; "
            "blinds 1 and 2) by this policy (a built-in name or a TOML file) and set the records, the "
            "policy and everyone showing down side by side in tables/compare.csv.",
        ),
        Option("hands", "Hands the --against policy plays at each table (default: ten times the table's records)."),
    ),
    upstream=upstream,
    inputs=inputs,
    validate=validate,
    configure=configure,
    prepare=lambda config, against: None,
    markdown=markdown_of,
)
