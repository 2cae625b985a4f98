"""Driving matches: sessions (a match and whoever answers its decisions), agents, logs, simulation,
scenarios (rulebook examples as tests) and state paths used by scenarios.

May import: shared top-level modules, `runtime`, and `compile.loading` to load a pack a log or a
scenario names.
"""
