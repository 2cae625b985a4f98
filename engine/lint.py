"""`cogwork lint`: every diagnostic of one or more packs, for people, editors and CI.

Formats: `text` (GCC style, with the offending line and a caret), `json`
(ruff-like records) and `github` (workflow annotations).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from engine.diagnostics import Diagnostic, PackError
from engine.loading import load_pack

DOCS_URL = "docs/diagnostics.md#{code}"


@dataclass
class LintResult:
    pack: Path
    diagnostics: list[Diagnostic]


class LintUsageError(Exception):
    """A path that is neither a pack, a file inside one, nor a folder of packs."""


def pack_roots(paths: list[Path]) -> list[Path]:
    """The packs to lint: a pack folder, a folder of packs, or the pack a file belongs to."""
    roots: list[Path] = []
    for path in paths:
        path = path.resolve()
        if not path.exists():
            raise LintUsageError(f"{path}: no such file or folder")
        found = _pack_of(path)
        if found is not None:
            roots.append(found)
        elif path.is_dir():
            packs = sorted(p.parent for p in path.glob("*/pack.yaml"))
            if not packs:
                raise LintUsageError(f"{path}: no pack.yaml here, above, or in its sub-folders")
            roots.extend(packs)
        else:
            raise LintUsageError(f"{path}: not inside a pack (no pack.yaml above it)")
    return list(dict.fromkeys(roots))


def _pack_of(path: Path) -> Path | None:
    for folder in [path, *path.parents] if path.is_dir() else path.parents:
        if (folder / "pack.yaml").is_file():
            return folder
    return None


def lint(root: Path) -> LintResult:
    try:
        load_pack(str(root))
    except PackError as exc:
        return LintResult(root, exc.diagnostics)
    return LintResult(root, [])


def _source_line(root: Path, diag: Diagnostic) -> str | None:
    try:
        lines = (root.parent / diag.file).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    return lines[diag.line - 1] if 0 < diag.line <= len(lines) else None


def format_text(results: list[LintResult]) -> str:
    out: list[str] = []
    for result in results:
        for d in result.diagnostics:
            out.append(f"{d.file}:{d.line}:{d.col}: {d.severity}: {d.message} [{d.code}]")
            line = _source_line(result.pack, d)
            if line is not None:
                out.append(f"  {line}")
                out.append("  " + " " * (d.col - 1) + "^")
            if d.hint:
                out.append(f"  hint: {d.hint}")
    return "\n".join(out)


def format_json(results: list[LintResult]) -> str:
    records = []
    for result in results:
        for d in result.diagnostics:
            records.append({
                "code": d.code, "message": d.message, "severity": d.severity,
                "filename": str(result.pack.parent / d.file),
                "location": {"row": d.line, "column": d.col},
                "end_location": {"row": d.end_line or d.line, "column": d.end_col or d.col},
                "fix": None, "hint": d.hint, "url": DOCS_URL.format(code=d.code.lower()),
            })
    return json.dumps(records, indent=1)


def format_github(results: list[LintResult]) -> str:
    out = []
    for result in results:
        for d in result.diagnostics:
            kind = "error" if d.severity == "error" else "warning"
            message = d.message + (f" (hint: {d.hint})" if d.hint else "")
            out.append(f"::{kind} file={result.pack.parent / d.file},line={d.line},col={d.col},"
                       f"title={d.code}::{message}")
    return "\n".join(out)


FORMATS = {"text": format_text, "json": format_json, "github": format_github}


def exit_code(results: list[LintResult], strict: bool) -> int:
    counted = [d for r in results for d in r.diagnostics if d.severity == "error" or strict]
    return 1 if counted else 0
