"""Driving matches: `Match` (a game and whoever answers its decisions), agents, logs, simulation,
scenarios (rulebook examples as tests) and state paths used by scenarios; tables for people (rules text,
seat feeds, the terminal player).

May import: shared top-level modules, `runtime`, `compile.loading` to load a pack a log or a scenario
names, and `dsl` for rules text (the English renderer of `cogwork explain`).
"""
