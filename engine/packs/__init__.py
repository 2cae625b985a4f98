"""Pack folders as data: finding a pack, reading its YAML (fast path and ruamel fallback, with positions),
checking files against the JSON Schemas, resolving dependencies and versions, applying patches, and the
on-disk cache of loaded files. The result is a merged `RawPack` (`packs.raw`).

May import: the shared top-level modules (`diagnostics`, `errors`, `usage`, `resources`). Knows no DSL,
no compiler and no runtime.
"""
