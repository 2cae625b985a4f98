"""`cogwork serve`: a pack's table in the browser for people and bots (docs/serve.md): `Table` (a match,
its seats and their feeds, undo, the log on disk), the Starlette app, the static page.

May import: shared top-level modules, `runtime`, `compile` (to load a pack) and `play` (matches, agents,
logs, rules text). Starlette and uvicorn come from the `serve` extra; only `engine.serve.app` and the
`serve` command import them.
"""
