"""cogwork lsp: the language server for pack files on stdio (needs the `lsp` extra: pygls)."""

from __future__ import annotations

import argparse

from engine.commands.common import EXIT_OK, UsageError

NAME = "lsp"
HELP = "run the language server for pack files (stdio)"
DESCRIPTION = ("Speak the Language Server Protocol on stdin/stdout: live `cogwork lint` diagnostics, completion"
               " inside DSL strings, hover, go to definition, references, rename, did-you-mean fixes and"
               " `cogwork fmt` formatting. Editor set-up: docs/editor.md. Needs `pip install cogwork[lsp]`.")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--stdio", action="store_true", help="use stdio (the default and only transport)")


def run(args: argparse.Namespace) -> int:
    try:
        from engine.lsp.server import serve
    except ImportError as exc:
        raise UsageError(f"the language server needs pygls: pip install 'cogwork[lsp]' ({exc})") from exc
    serve()
    return EXIT_OK
