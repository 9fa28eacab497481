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

from evaluator.games import Game, resolve_game

# Part of every run_id: bump it whenever the numbers a config gives change (3: xoshiro dealing),
# so a run directory from older code is never resumed with new shards.
SCHEMA_VERSION = 3


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

    @property
    def game_rules(self) -> Game:
        return resolve_game(self.game, hole_use=self.hole_use, ranking=self.ranking, low=self.low)

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


def plan_shards(config: RunConfig) -> list[ShardSpec]:
    full, rest = divmod(config.deals, config.shard_deals)
    sizes = [config.shard_deals] * full + ([rest] if rest else [])
    return [ShardSpec(i, n, config.seed) for i, n in enumerate(sizes)]
