"""The protocol wiring: a pygls server on stdio that keeps, per pack, the open buffers' findings and index.

Diagnostics: a change waits `DEBOUNCE` seconds for the next keystroke, then lints the whole pack with the
open buffers in place of their files (engine/packs/overlay.py) and publishes each file's findings. The
first pass skips lint's play-test games (a keystroke re-checks in a fraction of a second; the per-file and
per-pack caches do the rest); when no newer change has come, the full `cogwork lint` follows and its
findings replace the first pass's, so the editor ends up showing exactly what `cogwork lint` prints.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from engine import __version__
from engine.authoring.formatter import FormatError, format_file
from engine.diagnostics import Diagnostic, PackError
from engine.lint.run import DEFAULT_GAMES, lint_pack
from engine.lsp import features
from engine.lsp.index import PackIndex, Span, build_index
from engine.packs import overlay
from engine.packs.files import MANIFEST

DEBOUNCE = 0.15          # seconds without a keystroke before a pack is re-checked
_QUOTED = re.compile(r"'([^'\s]+)'")
_WORD = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-"


@dataclass
class PackState:
    """One pack with a file open: its change count, the files it has findings in, its index."""

    root: Path
    version: int = 0
    published: set[Path] = field(default_factory=set)
    task: asyncio.Task | None = None
    index: PackIndex | None = None
    index_version: int = -1


class CogworkServer(LanguageServer):
    """The language server; `pack_of` finds a file's pack, `index` its up-to-date names."""

    def __init__(self) -> None:
        super().__init__("cogwork", __version__)
        self.packs: dict[Path, PackState] = {}
        self.reading = threading.Lock()     # the overlay of open buffers is one per process

    # ---------------------------------------------------------------- buffers and packs
    def buffers(self) -> dict[Path, str]:
        found: dict[Path, str] = {}
        for uri, doc in self.workspace.text_documents.items():
            path = to_fs_path(uri)
            if path is not None:
                found[Path(path).resolve()] = doc.source
        return found

    def pack_of(self, uri: str) -> PackState | None:
        path = to_fs_path(uri)
        if path is None:
            return None
        for folder in Path(path).resolve().parents:
            if (folder / MANIFEST).is_file():
                return self.packs.setdefault(folder, PackState(folder))
        return None

    def open_in(self, root: Path) -> set[Path]:
        """The open files of the pack at `root` (each gets its findings, none included)."""
        return {path for path in self.buffers() if root in path.parents}

    def lint(self, root: Path, games: int, texts: dict[Path, str]) -> tuple[list[Diagnostic], dict[str, Path]]:
        """`cogwork lint` of the pack with `texts` (the buffers, taken on the event loop) for their files."""
        with self.reading, overlay.buffers(texts):
            return lint_pack(root, games)

    def index(self, uri: str) -> PackIndex | None:
        """The pack's index for the buffers as they are now (the last one that loaded, if they do not)."""
        state = self.pack_of(uri)
        if state is None:
            return None
        if state.index_version != state.version:
            # a pack that does not load keeps the last index that did
            with self.reading, overlay.buffers(self.buffers()), contextlib.suppress(PackError):
                state.index = build_index(state.root)
            state.index_version = state.version
        return state.index

    def line_text(self, path: Path, line: int) -> str:
        """One line (1-based) of a file as the editor has it."""
        doc = self.workspace.text_documents.get(from_fs_path(str(path)) or "")
        try:
            lines = doc.lines if doc is not None else path.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError):
            return ""
        return lines[line - 1].rstrip("\r\n") if 0 < line <= len(lines) else ""

    # ---------------------------------------------------------------- diagnostics
    def changed(self, uri: str) -> None:
        state = self.pack_of(uri)
        if state is None:
            return
        state.version += 1
        if state.task is not None:
            state.task.cancel()
        state.task = asyncio.ensure_future(self.check_later(state, state.version))

    async def check_later(self, state: PackState, version: int) -> None:
        await asyncio.sleep(DEBOUNCE)
        for games in (0, DEFAULT_GAMES):
            found = await asyncio.to_thread(self.lint, state.root, games, self.buffers())
            if state.version != version:
                return
            self.publish(state, *found)

    def publish(self, state: PackState, found: list[Diagnostic], paths: dict[str, Path]) -> None:
        by_file: dict[Path, list[lsp.Diagnostic]] = {}
        for d in found:
            path = paths.get(d.file) or state.root.parent / d.file
            by_file.setdefault(path, []).append(self.to_lsp(path, d))
        for path in state.published | self.open_in(state.root):
            by_file.setdefault(path, [])
        for path, diagnostics in by_file.items():
            self.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(
                uri=from_fs_path(str(path)) or path.as_uri(), diagnostics=diagnostics))
        state.published = {path for path, diagnostics in by_file.items() if diagnostics}

    def unended(self, path: Path, d: Diagnostic) -> lsp.Range:
        """The range of a finding without an end: the name its message quotes when that name follows its
        column on the line, at most one word on (`unknown procedure 'x'` is reported at `call x`), else
        the word at the column (so a did-you-mean fix replaces just the misspelt name)."""
        text = self.line_text(path, d.line)
        start = d.col - 1
        for quoted in _QUOTED.findall(d.message):
            found = text.find(quoted, start)
            if found >= 0 and len(text[start:found].split()) <= 1:
                return lsp.Range(lsp.Position(d.line - 1, found), lsp.Position(d.line - 1, found + len(quoted)))
        stop = start
        while stop < len(text) and text[stop] in _WORD:
            stop += 1
        return lsp.Range(lsp.Position(d.line - 1, start), lsp.Position(d.line - 1, max(stop, start + 1)))

    def to_lsp(self, path: Path, d: Diagnostic) -> lsp.Diagnostic:
        if d.end_col and (d.end_line or d.line, d.end_col) > (d.line, d.col):
            where = lsp.Range(lsp.Position(d.line - 1, d.col - 1),
                              lsp.Position((d.end_line or d.line) - 1, d.end_col - 1))
        else:
            where = self.unended(path, d)
        return lsp.Diagnostic(
            range=where, message=d.message + (f"\nhint: {d.hint}" if d.hint else ""),
            severity=lsp.DiagnosticSeverity.Error if d.severity == "error" else lsp.DiagnosticSeverity.Warning,
            code=d.code, source="cogwork", data={"hint": d.hint} if d.hint else None)


server = CogworkServer()


class _AtPosition(Protocol):
    """A request about one position of a document (hover, definition, completion, ...)."""

    @property
    def text_document(self) -> lsp.TextDocumentIdentifier: ...

    @property
    def position(self) -> lsp.Position: ...


def _where(params: _AtPosition) -> tuple[Path, int, int]:
    """A request's file and 1-based line and column."""
    return Path(to_fs_path(params.text_document.uri) or "").resolve(), params.position.line + 1, \
        params.position.character + 1


def _location(span: Span) -> lsp.Location:
    return lsp.Location(uri=from_fs_path(str(span.path)) or span.path.as_uri(), range=_range(span))


def _range(span: Span) -> lsp.Range:
    return lsp.Range(lsp.Position(span.line - 1, span.col - 1), lsp.Position(span.line - 1, span.end_col - 1))


@server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: CogworkServer, params: lsp.DidOpenTextDocumentParams) -> None:
    ls.changed(params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: CogworkServer, params: lsp.DidChangeTextDocumentParams) -> None:
    ls.changed(params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: CogworkServer, params: lsp.DidSaveTextDocumentParams) -> None:
    ls.changed(params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: CogworkServer, params: lsp.DidCloseTextDocumentParams) -> None:
    ls.changed(params.text_document.uri)       # the file's text on disk counts again


@server.feature(lsp.TEXT_DOCUMENT_HOVER)
def hover(ls: CogworkServer, params: lsp.HoverParams) -> lsp.Hover | None:
    index = ls.index(params.text_document.uri)
    text = None if index is None else features.hover(index, *_where(params))
    return None if text is None else lsp.Hover(lsp.MarkupContent(lsp.MarkupKind.Markdown, text))


@server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
def definition(ls: CogworkServer, params: lsp.DefinitionParams) -> lsp.Location | None:
    index = ls.index(params.text_document.uri)
    span = None if index is None else features.definition(index, *_where(params))
    return None if span is None else _location(span)


@server.feature(lsp.TEXT_DOCUMENT_REFERENCES)
def references(ls: CogworkServer, params: lsp.ReferenceParams) -> list[lsp.Location]:
    index = ls.index(params.text_document.uri)
    if index is None:
        return []
    return [_location(s) for s in features.references(index, *_where(params), params.context.include_declaration)]


@server.feature(lsp.TEXT_DOCUMENT_PREPARE_RENAME)
def prepare_rename(ls: CogworkServer, params: lsp.PrepareRenameParams) -> lsp.Range | None:
    index = ls.index(params.text_document.uri)
    target = None if index is None else features.rename_target(index, *_where(params))
    return None if target is None else _range(target[1])


@server.feature(lsp.TEXT_DOCUMENT_RENAME)
def rename(ls: CogworkServer, params: lsp.RenameParams) -> lsp.WorkspaceEdit | None:
    index = ls.index(params.text_document.uri)
    spans = None if index is None else features.rename(index, *_where(params), params.new_name)
    if not spans:
        return None
    changes: dict[str, list[lsp.TextEdit]] = {}
    for span in dict.fromkeys(spans):
        changes.setdefault(from_fs_path(str(span.path)) or span.path.as_uri(), []).append(
            lsp.TextEdit(_range(span), params.new_name))
    return lsp.WorkspaceEdit(changes=changes)


@server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=["."]))
def completion(ls: CogworkServer, params: lsp.CompletionParams) -> lsp.CompletionList:
    path, line, col = _where(params)
    index = ls.index(params.text_document.uri)
    before = ls.line_text(path, line)[:col - 1]
    site = index.site_at(path, line, col) if index is not None else None
    in_dsl = site is not None or _dsl_key(index, before)
    items = features.completions(index, before, in_dsl, path.name, site[0].self_type if site else None)
    return lsp.CompletionList(is_incomplete=False, items=[
        lsp.CompletionItem(label=i.label, kind=getattr(lsp.CompletionItemKind, i.kind), detail=i.detail,
                           documentation=lsp.MarkupContent(lsp.MarkupKind.Markdown, i.doc) if i.doc else None)
        for i in items])


def _dsl_key(index: PackIndex | None, before: str) -> bool:
    """A line `key: "...` whose key is one DSL texts sit under (a text being typed is not a site yet)."""
    if index is None or ":" not in before:
        return False
    key = before.split(":", 1)[0].strip().lstrip("- ").strip()
    keys = {str(step) for site, _, _ in index.sites for step in site.path[-1:]}
    return key in keys


@server.feature(lsp.TEXT_DOCUMENT_CODE_ACTION)
def code_action(ls: CogworkServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
    actions = []
    for d in params.context.diagnostics:
        hint = d.data.get("hint") if isinstance(d.data, dict) else None
        name = features.suggestion(hint)
        if name is None:
            continue
        edit = lsp.WorkspaceEdit(changes={params.text_document.uri: [lsp.TextEdit(d.range, name)]})
        actions.append(lsp.CodeAction(title=f"Change to '{name}'", kind=lsp.CodeActionKind.QuickFix,
                                      diagnostics=[d], edit=edit, is_preferred=True))
    return actions


@server.feature(lsp.TEXT_DOCUMENT_FORMATTING)
def formatting(ls: CogworkServer, params: lsp.DocumentFormattingParams) -> list[lsp.TextEdit] | None:
    path = Path(to_fs_path(params.text_document.uri) or "").resolve()
    try:
        with ls.reading, overlay.buffers(ls.buffers()):
            found = format_file(path)
    except FormatError:
        return None         # a file that does not load: its diagnostics say why
    if found is None or found[0] == found[1]:
        return []
    text, formatted = found
    lines = text.split("\n")
    whole = lsp.Range(lsp.Position(0, 0), lsp.Position(len(lines), 0))
    return [lsp.TextEdit(whole, formatted)]


def serve() -> None:
    server.start_io()
