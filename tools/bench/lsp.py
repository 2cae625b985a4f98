"""`cogwork lsp`: the time from an edit to the diagnostics it publishes, on Raising Robots and on the
10,000-card bench pack (generated as tools/bench/lint.py makes it).

    python tools/bench/lsp.py [--cards 10000] [--edits 7]

A real client (pygls) starts `python -m engine.cli lsp` with an empty cache folder, opens a robots file
and waits for its first diagnostics (that fills the per-file cache, as opening a pack in an editor
does). Then, `--edits` times, it adds a comment line to the open buffer (new bytes, so the pack's lint
result is never the cached one, while the pack stays clean) and times until the server publishes the
file's diagnostics; before the next edit it waits for the full lint pass (with play-test games) that
follows a pause, as a user who stops typing would. Prints the median and the range per pack, ending
with `raising-robots: median X.XXX s` and `bench-robots (N cards): median X.XXX s`.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types as lsp
from pygls.lsp.client import LanguageClient

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools" / "bench"))

from lint import make_pack  # noqa: E402  (tools/bench/lint.py)

HANG_GUARD = 600.0


class Timer:
    """A client that counts the diagnostics published for one file."""

    def __init__(self, uri: str) -> None:
        self.uri = uri
        self.published = 0
        self.arrived = asyncio.Event()
        self.client = LanguageClient("cogwork-bench", "0")

        @self.client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def published(params: lsp.PublishDiagnosticsParams) -> None:
            if params.uri == self.uri:
                self.published += 1
                self.arrived.set()

    async def publishes(self, count: int) -> None:
        """Wait until `count` diagnostics have been published for the file in all."""
        while self.published < count:
            self.arrived.clear()
            await asyncio.wait_for(self.arrived.wait(), HANG_GUARD)


async def time_edits(path: Path, edits: int, env: dict[str, str]) -> list[float]:
    uri = path.resolve().as_uri()
    timer = Timer(uri)
    client = timer.client
    await client.start_io(sys.executable, "-m", "engine.cli", "lsp", env=env, cwd=str(ROOT))
    await client.initialize_async(lsp.InitializeParams(capabilities=lsp.ClientCapabilities()))
    client.initialized(lsp.InitializedParams())
    text = path.read_text(encoding="utf-8")
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(uri, "yaml", 1, text)))
    await timer.publishes(2)            # the quick pass and the full one
    times = []
    for edit in range(edits):
        top = lsp.Position(0, 0)
        change = lsp.TextDocumentContentChangePartial(range=lsp.Range(top, top), text=f"# edit {edit}\n")
        seen = timer.published
        start = time.perf_counter()
        client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            lsp.VersionedTextDocumentIdentifier(version=edit + 2, uri=uri), [change]))
        await timer.publishes(seen + 1)
        times.append(time.perf_counter() - start)
        await timer.publishes(seen + 2)
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return times


def report(name: str, times: list[float]) -> None:
    print(f"{name}: median {statistics.median(times):.3f} s (min {min(times):.3f}, max {max(times):.3f},"
          f" {len(times)} edits)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=10_000, help="robot cards in the bench pack (default 10000)")
    parser.add_argument("--edits", type=int, default=7, help="edits timed per pack (default 7)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "PYTHONPATH": str(ROOT), "COGWORK_CACHE_DIR": str(Path(tmp, "cache")),
               "XDG_CONFIG_HOME": str(Path(tmp, "config"))}
        shipped = asyncio.run(time_edits(ROOT / "content" / "raising-robots" / "robots.yaml", args.edits, env))
        make_pack(Path(tmp, "bench-robots"), args.cards)
        bench = asyncio.run(time_edits(Path(tmp, "bench-robots", "robots", "robots-000.yaml"), args.edits, env))
    report("raising-robots", shipped)
    report(f"bench-robots ({args.cards} cards)", bench)


if __name__ == "__main__":
    main()
