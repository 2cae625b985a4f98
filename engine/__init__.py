"""Cogwork: a data-driven rules interpreter for tabletop games."""

__version__ = "0.1.0"
