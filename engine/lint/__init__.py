"""`cogwork lint`: targets and the lint result cache (`run`), semantic checks and play-test games
(`checks`), and the output formats (`report`).

May import: shared top-level modules, `packs`, `dsl`, `compile`, `runtime`, `play`.
"""
