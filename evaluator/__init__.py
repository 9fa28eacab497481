"""Poker evaluation for Sampyong Lab: cards, games as data, the reference rule book, fast kernels."""

from evaluator import kernel_cache

kernel_cache.install()  # before any kernel of the project is decorated: see evaluator/kernel_cache.py
