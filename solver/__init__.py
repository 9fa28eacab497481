"""Equilibrium: game trees from bet sizes, DCFR over flat arrays, best response and exploitability."""
