"""Run a config the way ``sampyong run`` does: its study (``jobs.STUDIES``) validates and
configures it once, then the runner is handed the study."""

from jobs import STUDIES
from pipeline import runner


def execute(config, backend, out, **options):
    study = STUDIES[config.job]
    study.validate(config)
    return runner.execute(study, study.configure(config), backend, out, **options)


def execute_all(configs, backend, out, **options):
    runs = []
    for config in configs:
        study = STUDIES[config.job]
        study.validate(config)
        runs.append((study, study.configure(config)))
    return runner.execute_all(runs, backend, out, **options)
