"""Diagnostics: every problem found in a pack, with a file position, never a traceback."""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass

from engine.errors import CogworkError


@dataclass(frozen=True)
class Diagnostic:
    """One finding; positions are 1-based so they match editors and linters."""

    code: str
    message: str
    file: str
    line: int
    col: int
    severity: str = "error"
    hint: str | None = None
    end_line: int | None = None
    end_col: int | None = None

    def format(self) -> str:
        """`file:line:col: severity: message [CODE]`, plus an indented hint line."""
        text = f"{self.file}:{self.line}:{self.col}: {self.severity}: {self.message} [{self.code}]"
        return f"{text}\n  hint: {self.hint}" if self.hint else text


class PackError(CogworkError):
    """Raised once a pack cannot be used; carries every diagnostic found, not just the first."""

    def __init__(self, diagnostics: Iterable[Diagnostic]) -> None:
        self.diagnostics: list[Diagnostic] = list(diagnostics)
        super().__init__(str(self))

    def __str__(self) -> str:
        return "\n".join(d.format() for d in self.diagnostics)


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    """A "did you mean 'x'?" hint for a misspelt name, or None when nothing is close."""
    pool = [c for c in candidates if isinstance(c, str) and c != name]
    folded = {c.lower(): c for c in pool}
    if name.lower() in folded:
        return f"did you mean '{folded[name.lower()]}'?"
    close = difflib.get_close_matches(name, pool, n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else None
