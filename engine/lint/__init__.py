"""`cogwork lint`: targets and the lint result cache (`run`), semantic checks and play-test games
(`checks`; what a seat may not see: `hidden` for reads, `simultaneous` for a simultaneous step's leaks),
and the output formats (`report`).

May import: shared top-level modules, `packs`, `dsl`, `compile`, `runtime`, `play`.
"""
