"""`cogwork lsp`: a Language Server Protocol server for pack files (optional extra `cogwork[lsp]`, pygls).

It adds nothing to what a pack means: diagnostics are `cogwork lint`'s (engine/lint/run.py, with unsaved
buffers read through engine/packs/overlay.py), names and DSL texts come from the loaded pack and the one
iterator over DSL sites (engine/dsl/sites.py), built-ins from the function registry
(engine/dsl/functions.py), hover text from `cogwork explain`'s renderer, formatting from `cogwork fmt`.
`index` finds what a pack defines and where each name is used; `features` answers the editor's questions
from it; `server` is the protocol wiring.

May import: `packs`, `dsl`, `compile`, `runtime`, `lint`, `authoring` (and the shared modules).
"""
