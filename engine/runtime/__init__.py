"""A running match's rules kernel: the compiled definitions (`defs`), the mutable state (`state`), the
operations generated code performs on it (`interpreter`, `costs`, `boards`, `dsl_values`), decisions,
scoring and seat views.

May import: shared top-level modules only. It never imports the loader, the DSL or the compiler, so
the kernel knows no YAML and no grammar.
"""
