"""`cogwork serve`: a pack's table in the browser, for people and bots (see docs/serve.md)."""
