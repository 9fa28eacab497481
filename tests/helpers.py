"""Run a config the way ``sampyong run`` does: its study (``jobs.STUDIES``) validates and
configures it once, then the runner is handed the study."""

from evaluator.tables import cache_dir
from jobs import STUDIES
from pipeline import runner

UPSTREAM = cache_dir() / "runs"  # where the CLI keeps upstream runs (rankings): computed once per machine


def execute(config, backend, out, **options):
    study = STUDIES[config.job]
    study.validate(config)
    options.setdefault("upstream_out", UPSTREAM)
    return runner.execute(study, study.configure(config), backend, out, **options)


def ranking(game):
    """``game``'s starting-hand ranking as the CLI builds it (its strength run on an embedded Ray, cached)."""
    from jobs.hand_ranking import ranking as build
    from pipeline.backends import RayBackend

    return build(game, RayBackend(), UPSTREAM)


def execute_all(configs, backend, out, **options):
    runs = []
    for config in configs:
        study = STUDIES[config.job]
        study.validate(config)
        runs.append((study, study.configure(config)))
    return runner.execute_all(runs, backend, out, **options)
