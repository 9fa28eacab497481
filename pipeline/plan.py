"""What a run computes (``RunConfig``), its identity (``run_id``) and its shards (``ShardSpec``).

Only what changes the numbers belongs in ``RunConfig``; where and how fast it runs (backend,
workers, output folder) does not, so the same config always lands in the same run directory
and a rerun resumes it.

>>> config = RunConfig(job="showdown", game="pls7", deals=10, shard_deals=4, players=3, seed=1)
>>> [(s.index, s.deals) for s in plan_shards(config)]
[(0, 4), (1, 4), (2, 2)]
>>> config.run_id == RunConfig.from_json(config.to_json()).run_id
True
"""

from __future__ import annotations

import dataclasses
import hashlib
import json

import numpy as np

from evaluator.errors import SampyongError

# Part of every run_id: bump it whenever the numbers a config gives change (3: xoshiro dealing),
# so a run directory from older code is never resumed with new shards.
SCHEMA_VERSION = 3


# Limits, checked before anything is written. Seeds are numpy SeedSequence entropy (unsigned
# 64-bit); a run's counters are unsigned 64-bit sums of each shard's signed 64-bit ones, and a
# deal adds at most a few thousand to a count (a study that adds more states its own bound).
MAX_SEED = 2**64 - 1
MAX_DEALS = 10**15
MAX_SHARD_DEALS = 10**9
MAX_SHARDS = 10**6


@dataclasses.dataclass(frozen=True)
class RunConfig:
    """Everything that decides a run's numbers; frozen and hashable, its hash is ``run_id``.

    >>> config = RunConfig(job="showdown", game="pls7", deals=10, shard_deals=4, players=3, seed=1)
    >>> config.low is None and config.options == ()
    True

    Parameters:
        job: the study's name (``Study.name``).
        game: a game preset (``evaluator.games``); the knobs below turn it.
        deals: deals to sample (an exact study sets the count it enumerates).
        shard_deals: deals per shard (0 for an exact study, which plans its own shards).
        players: hands dealt per deal.
        seed: the root of every shard's random stream (``ShardSpec.generator``).
        hole_use: a hole-use knob, or None for the preset's.
        ranking: a ranking knob, or None for the preset's.
        low: a low knob (``"8"``, ``"none"``, ...), or None for the preset's.
        options: study-specific options as sorted ``(name, value)`` pairs (``--variants``).

    ``check_limits`` and the study's ``validate`` judge the values.
    """

    job: str
    game: str
    deals: int
    shard_deals: int
    players: int
    seed: int
    hole_use: str | None = None
    ranking: str | None = None
    low: str | None = None
    options: tuple[tuple[str, str], ...] = ()

    def option(self, name: str, default: str | None = None) -> str | None:
        """Look up a study-specific option.

        >>> RunConfig("variants", "pls7", 1, 1, 2, 0, options=(("variants", "low=8"),)).option("variants")
        'low=8'

        Parameters:
            name: the option's name.
            default: what to return when the config does not set it.

        Returns the option's value, or ``default``.
        """
        return dict(self.options).get(name, default)

    def to_json(self) -> str:
        """Write the config as ``run.json`` holds it: sorted keys, with the schema version.

        >>> print(RunConfig("showdown", "pls7", 10, 4, 3, 1).to_json().splitlines()[1])
          "deals": 10,

        Returns the JSON text (``from_json`` reads it back).
        """
        data = dataclasses.asdict(self)
        data["options"] = dict(self.options)
        return json.dumps({"schema_version": SCHEMA_VERSION, **data}, indent=2, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> RunConfig:
        """Read a config written by ``to_json`` (its schema version is dropped).

        >>> config = RunConfig("showdown", "pls7", 10, 4, 3, 1, low="8")
        >>> RunConfig.from_json(config.to_json()) == config
        True

        Parameters:
            text: the JSON text of ``run.json``.

        Returns the config. Raises ``ValueError`` if the text is not JSON. Raises ``TypeError`` if a
        field is missing or unknown. Raises ``AttributeError`` if the JSON is not an object.
        """
        data = json.loads(text)
        data.pop("schema_version", None)
        data["options"] = tuple(sorted(data.get("options", {}).items()))
        return cls(**data)

    @property
    def run_id(self) -> str:
        """Name the run: a short hash of the config and the schema version.

        >>> len(RunConfig("showdown", "pls7", 10, 4, 3, 1).run_id)
        12

        Returns 12 hex digits, the run directory's name; the same config always gives the same.
        """
        return hashlib.sha256(self.to_json().encode()).hexdigest()[:12]


@dataclasses.dataclass(frozen=True)
class ShardSpec:
    """One unit of work: ``deals`` deals from its own random stream.

    Parameters:
        index: the shard's number in the plan (0, 1, ...), also its stream's spawn key.
        deals: deals (or, for an exact study, pools) in the shard.
        root_seed: the run's seed.
    """

    index: int
    deals: int
    root_seed: int

    def generator(self) -> np.random.Generator:
        """Make the shard's random stream, the same on every worker.

        >>> a, b = (ShardSpec(index=2, deals=5, root_seed=7).generator() for _ in range(2))
        >>> a.integers(0, 100, 3).tolist() == b.integers(0, 100, 3).tolist()
        True

        Returns a fresh PCG64 generator seeded by ``SeedSequence(root_seed, spawn_key=(index,))``.
        """
        sequence = np.random.SeedSequence(self.root_seed, spawn_key=(self.index,))
        return np.random.Generator(np.random.PCG64(sequence))


def check_limits(config: RunConfig) -> None:
    """Refuse a seed, deal count, shard size or shard count out of range, before anything is written.

    >>> check_limits(RunConfig(job="showdown", game="pls7", deals=10, shard_deals=4, players=3, seed=-1))
    Traceback (most recent call last):
    ...
    evaluator.errors.SampyongError: bad seed -1: must be 0 to 2**64-1

    Parameters:
        config: the run's config.

    Raises ``SampyongError`` if the seed is not 0 to ``MAX_SEED``, the deals not 1 to ``MAX_DEALS``,
    the shard size not 1 to ``MAX_SHARD_DEALS``, or the shards more than ``MAX_SHARDS``.
    """
    if not 0 <= config.seed <= MAX_SEED:
        raise SampyongError(f"bad seed {config.seed}: must be 0 to 2**64-1")
    if not 0 < config.deals <= MAX_DEALS:
        raise SampyongError(f"bad deal count {config.deals}: must be 1 to {MAX_DEALS:,}")
    if not 0 < config.shard_deals <= MAX_SHARD_DEALS:
        raise SampyongError(f"bad shard size {config.shard_deals}: must be 1 to {MAX_SHARD_DEALS:,}")
    shards = -(-config.deals // config.shard_deals)
    if shards > MAX_SHARDS:
        raise SampyongError(
            f"{shards:,} shards of {config.shard_deals:,} deals: at most {MAX_SHARDS:,} (raise --shard-deals)"
        )


def plan_shards(config: RunConfig) -> list[ShardSpec]:
    """Split a run's deals into shards of ``shard_deals``, the last one shorter if need be.

    >>> plan_shards(RunConfig("showdown", "pls7", deals=9, shard_deals=3, players=2, seed=5))[-1]
    ShardSpec(index=2, deals=3, root_seed=5)

    Parameters:
        config: the run's config (``deals`` and ``shard_deals`` positive).

    Returns the shards in index order; their deals add up to ``config.deals``. Raises
    ``ZeroDivisionError`` if ``shard_deals`` is 0 (``check_limits`` refuses it first).
    """
    full, rest = divmod(config.deals, config.shard_deals)
    sizes = [config.shard_deals] * full + ([rest] if rest else [])
    return [ShardSpec(i, n, config.seed) for i, n in enumerate(sizes)]
