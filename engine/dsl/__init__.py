"""The rules language: parsing DSL text with the Lark grammar, where DSL text sits in a pack (`sites`),
the static type pass, and the English rendering used by `cogwork explain`.

May import: shared top-level modules, `packs` (raw packs and source positions), and `runtime.defs`
(the compiled definitions a type pass looks names up in).
"""
