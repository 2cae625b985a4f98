"""Where the compiler's passes report problems: the builder and the flow compiler write to one sink.

Why a type of its own: the flow compiler used to append to the builder's list and call its `error`;
now both hold the sink (plus the pack and the procedure names), and neither knows the other's insides.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.diagnostics import Diagnostic
from engine.dsl.parse import DslText
from engine.packs.source import DataPath, SourceFile


class Diagnostics:
    """The problems found while compiling one pack, in the order they were found."""

    def __init__(self) -> None:
        self.found: list[Diagnostic] = []

    def error(self, src: SourceFile, path: DataPath, code: str, message: str, hint: str | None = None,
              key: bool = False) -> None:
        """An error at a YAML value (or, with `key`, at its key)."""
        line, col = src.key_pos(path) if key else src.pos(path)
        self.found.append(Diagnostic(code, message, src.display, line, col, hint=hint))

    def add(self, found: Iterable[Diagnostic]) -> None:
        self.found.extend(found)

    def text(self, src: SourceFile, path: DataPath, text: Any) -> DslText:
        """A DSL text whose problems (syntax, names, types) are reported straight here."""
        return DslText(str(text), src, path, self.found)

    def has_errors(self) -> bool:
        return any(d.severity == "error" for d in self.found)
