"""Sampyong Lab's front door: the ``sampyong`` command (``sampyong.cli``), the one place that
imports the rules (``evaluator``), the studies (``jobs``) and the pipeline together."""
