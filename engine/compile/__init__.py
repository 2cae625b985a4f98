"""From a `RawPack` to a compiled, immutable `runtime.defs.Pack`: resolving names, compiling every DSL
text (effects, expressions, the flow) to a Python function through a checked code generator, and the
one entry point `loading.load_pack` that goes from a pack name or folder to a `Pack`.

May import: shared top-level modules, `packs`, `dsl`, `runtime`.
"""
