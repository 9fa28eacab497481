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
    """Everything that decides a run's numbers. ``game`` is a preset; the knobs turn it."""

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
        return dict(self.options).get(name, default)

    def to_json(self) -> str:
        data = dataclasses.asdict(self)
        data["options"] = dict(self.options)
        return json.dumps({"schema_version": SCHEMA_VERSION, **data}, indent=2, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> RunConfig:
        data = json.loads(text)
        data.pop("schema_version", None)
        data["options"] = tuple(sorted(data.get("options", {}).items()))
        return cls(**data)

    @property
    def run_id(self) -> str:
        """A short hash of the config and the schema version."""
        return hashlib.sha256(self.to_json().encode()).hexdigest()[:12]


@dataclasses.dataclass(frozen=True)
class ShardSpec:
    """One unit of work: ``deals`` deals from its own random stream."""

    index: int
    deals: int
    root_seed: int

    def generator(self) -> np.random.Generator:
        """The shard's stream: ``SeedSequence(root_seed, spawn_key=(index,))``, independent of workers."""
        sequence = np.random.SeedSequence(self.root_seed, spawn_key=(self.index,))
        return np.random.Generator(np.random.PCG64(sequence))


def check_limits(config: RunConfig) -> None:
    """Raise ``SampyongError`` for a seed, deal count or shard size out of range.

    >>> check_limits(RunConfig(job="showdown", game="pls7", deals=10, shard_deals=4, players=3, seed=-1))
    Traceback (most recent call last):
    ...
    evaluator.errors.SampyongError: bad seed -1: must be 0 to 2**64-1
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
    full, rest = divmod(config.deals, config.shard_deals)
    sizes = [config.shard_deals] * full + ([rest] if rest else [])
    return [ShardSpec(i, n, config.seed) for i, n in enumerate(sizes)]
