"""A study is an object handed to the pipeline: what its shards compute and how its counts
become tables, figures and a report. The pipeline never looks a study up by name.

>>> import pyarrow as pa, polars as pl
>>> def coin(config, shard):
...     heads = int(shard.generator().integers(0, 2, shard.deals).sum())
...     return {"flips": pa.table({"heads": pa.array([heads], pa.uint64())})}
>>> toy = Study(
...     name="coin", description="heads in fair coin flips", tables=("flips",), run_shard=coin,
...     summarize=lambda counts, config: {"flips": counts["flips"]},
...     report=lambda tables, config, figures: "# coin\\n",
... )
>>> config = RunConfig(job="coin", game="-", deals=10, shard_deals=4, players=1, seed=0)
>>> toy.plan(config)
[ShardSpec(index=0, deals=4, root_seed=0), ShardSpec(index=1, deals=4, root_seed=0), ShardSpec(index=2, deals=2, root_seed=0)]
>>> toy.is_exact(config), toy.figures({}, config)
(False, {})
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from pipeline.plan import RunConfig, ShardSpec, plan_shards

if TYPE_CHECKING:
    from matplotlib.figure import Figure


@dataclasses.dataclass(frozen=True)
class Option:
    """One option of ``sampyong run STUDY``, declared once by the study: the API's keyword with
    its default, and the CLI's flag with its help.

    Parameters:
        name: the keyword (``shard_deals``); the CLI writes it ``--shard-deals``.
        help: one or two sentences of plain text for ``--help``.
        kind: ``str``, ``int``, ``bool`` (a flag: off unless given, or with ``default=True`` on
            unless ``--no-NAME``) or ``list`` (of paths).
        default: the value when the option is not given (None: the study decides).
        aliases: further CLI spellings (``--hands``).
        argument: the CLI takes it as its arguments (``sampyong run records PATH...``), not as
            an option.

    >>> Option("shard_deals", "Deals per shard.", default="1M").flags
    ('--shard-deals',)
    """

    name: str
    help: str
    kind: type = str
    default: object = None
    aliases: tuple[str, ...] = ()
    argument: bool = False

    @property
    def flags(self) -> tuple[str, ...]:
        """The CLI's spellings, ``--name`` first; a flag on by default also has ``--no-name``.

        >>> Option("duplicate", "Duplicate form.", bool, default=True).flags
        ('--duplicate', '--no-duplicate')
        """
        name = self.name.replace("_", "-")
        return (f"--{name}", *([f"--no-{name}"] if self.kind is bool and self.default is True else []), *self.aliases)

    def but(self, **changes) -> Option:
        """This option with other fields (a study's own help or default)."""
        return dataclasses.replace(self, **changes)


# The options that sample deals, which an exact enumeration has no use for.
DEALS = Option("deals", "Deals to simulate: 1e6, 200M or 1_000_000.", default="20M")
SEED = Option("seed", "Root seed, 0 to 2**64-1; the same seed gives bit-identical tables.", int, default=0)
SHARD_DEALS = Option("shard_deals", "Deals per shard, the unit of work and of resume.", default="1M")
SAMPLING = (DEALS, SEED, SHARD_DEALS)
SAMPLING_OPTIONS = frozenset(option.name for option in SAMPLING)


def _no_checks(config: RunConfig) -> None:
    return None


def _unchanged(config: RunConfig) -> RunConfig:
    return config


def _no_figures(tables: Mapping, config: RunConfig) -> dict:
    return {}


@dataclasses.dataclass(frozen=True)
class Study:
    """One study the pipeline can run: its name, its shards' work and how their counts are read.

    Only ``name``, ``description``, ``tables``, ``run_shard``, ``summarize`` and ``report`` are
    required; every other field has a shared default.

    Parameters:
        name: the name ``sampyong run NAME`` knows it by (and its runs' folder).
        description: one line for ``sampyong jobs``.
        tables: the count tables every shard returns; a shard is finished only with all of them.
        run_shard: ``(config, shard) -> {table: pyarrow.Table}`` of unsigned 64-bit counts; pure:
            the same shard gives the same bytes on any worker. A study with ``inputs`` is called
            ``run_shard(config, shard, inputs)``.
        summarize: ``(counts, config) -> {table: polars.DataFrame}``, the summed counts made rates
            with standard errors (or exact shares); each is written to ``tables/``. A study with
            ``inputs`` is called ``summarize(counts, config, inputs)`` (tables set beside upstream
            runs').
        report: ``(tables, config, figure_files) -> str``, the Markdown of ``report.md``;
            ``figure_files`` are the file names (``NAME.png``, in ``figures/``) of ``figures``'
            figures, in their order.
        figures: ``(tables, config) -> {name: matplotlib.figure.Figure}``, the figures of the
            summaries, by file name without ``.png``; the pipeline saves each as
            ``figures/NAME.png`` at the figure's own dpi (default: none). Make them with
            ``matplotlib.figure.Figure``: no pyplot, no backend to choose.
        options: the ``sampyong run`` options the study uses (``Option``s, in the order its help
            lists them, each with its default); the API and the CLI refuse any other.
        validate: ``config -> None``, raises ``SampyongError`` for a config the study cannot run
            (default: accepts every config).
        configure: ``config -> config``, fixes the fields that do not apply (an exact study has no
            seed; default: unchanged).
        plan: ``config -> [ShardSpec]``, the shards (default: ``plan_shards``, even shards of
            ``shard_deals``).
        prepare: ``config -> None`` (``(config, inputs) -> None`` with ``inputs``), warms tables and
            compiled kernels in the driver before workers need them (None: one 4-deal shard).
        exact: ``config -> bool``, whether the config is enumerated rather than sampled (None:
            always sampled).
        upstream: ``config -> [(Study, RunConfig)]``, runs whose tables this run needs (None: none).
            The runner runs them first, on the same backend (resuming, or reading them when
            complete), and hands their tables to ``inputs``.
        inputs: ``(config, [{table: polars.DataFrame}, ...]) -> data``, built once in the driver
            from the upstream runs' tables (in ``upstream``'s order) and handed to every shard with
            its task: shards never run a pipeline or read a cache to get it.
        outputs: ``{file name: (tables, config, inputs, options) -> str | None}``, files of the run
            folder besides the tables (a page, records), written atomically after ``report.md``;
            None writes nothing. ``options`` are the ``output_options`` given.
        output_options: the ``Option``s of ``outputs`` (``sampyong run --record N``): they change no
            number, so they are not part of the config.

    On construction; the callables raise what they document.
    """

    name: str
    description: str
    tables: tuple[str, ...]
    # run_shard, summarize and prepare take one more argument, the inputs, in a study with ``inputs``.
    run_shard: Callable[..., dict]
    summarize: Callable[..., dict]
    report: Callable[[dict, RunConfig, list], str]
    figures: Callable[[dict, RunConfig], Mapping[str, Figure]] = _no_figures
    options: tuple[Option, ...] = SAMPLING
    validate: Callable[[RunConfig], None] = _no_checks
    configure: Callable[[RunConfig], RunConfig] = _unchanged
    plan: Callable[[RunConfig], list] = plan_shards
    prepare: Callable[..., None] | None = None
    exact: Callable[[RunConfig], bool] | None = None
    upstream: Callable[[RunConfig], list] | None = None
    inputs: Callable[[RunConfig, list], object] | None = None
    outputs: Mapping[str, Callable] = dataclasses.field(default_factory=dict)
    output_options: tuple[Option, ...] = ()

    def option(self, name: str) -> Option | None:
        """The option ``name`` of the study or of its outputs (None when it has no such option)."""
        return next((o for o in (*self.options, *self.output_options) if o.name == name), None)

    def warm(self, config: RunConfig, inputs=None) -> None:
        """Run ``prepare``, or by default one tiny shard, in the driver.

        Parameters:
            config: the run's config (validated and configured).
            inputs: what ``inputs`` built for this run (None without upstream runs).

        Raises ``SampyongError`` if the study refuses ``config`` while preparing.
        """
        if self.prepare is not None:
            self.prepare(config, inputs) if self.inputs is not None else self.prepare(config)
        else:
            self.shard_fn(inputs)(config, ShardSpec(index=0, deals=4, root_seed=0))

    def shard_fn(self, inputs=None) -> Callable[[RunConfig, ShardSpec], dict]:
        """``run_shard`` with the run's ``inputs`` bound: what a shard task calls.

        Parameters:
            inputs: what ``inputs`` built for this run (None without upstream runs).

        Returns ``(config, shard) -> tables``.
        """
        return self.run_shard if self.inputs is None else functools.partial(self.run_shard, inputs=inputs)

    def is_exact(self, config: RunConfig) -> bool:
        """Tell whether ``config`` is an exact enumeration (no sampling options apply).

        Parameters:
            config: the run's config.

        Returns ``exact(config)``, or False when the study has no ``exact``. But what ``exact``
        raises.
        """
        return self.exact is not None and self.exact(config)
