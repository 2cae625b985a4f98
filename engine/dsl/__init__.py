"""The rules language: parsing DSL text with the Lark grammar (`parse`), where DSL text sits in a pack
(`sites`), the built-in functions described once (`functions`), the one dispatcher every walker of parse
trees uses (`walk`), the static type pass (`types`, `typecheck`), and the English rendering used by
`cogwork explain` (`render`, `english`).

May import: shared top-level modules, `packs` (raw packs and source positions), and `runtime.defs`
(the compiled definitions a type pass looks names up in).
"""
