"""Poker evaluation for Sampyong Lab: cards, games as data, the reference rule book, fast kernels."""
