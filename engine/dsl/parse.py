"""Parsing DSL text with the Lark grammar, and mapping tokens back into YAML.

A `DslText` is one DSL string from a content file: it knows where the string
sits in its YAML file, so every syntax or name error points at the offending
token's own line and column.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache, partial
from typing import Any

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from engine.diagnostics import Diagnostic
from engine.dsl.grammar_cache import load_or_build
from engine.dsl.lalr import FastParser
from engine.packs.source import SourceFile
from engine.resources import data_dir

MAX_DSL_CHARS = 20_000
MAX_DSL_DEPTH = 100     # levels of nesting in one text's parse tree (the compilers recurse once per level)
MAX_DSL_DIGITS = 18     # digits of a number written in a text: at most the engine's value limit, 10**18
_TOKEN_NAMES = {
    "LBRACE": "'{'", "RBRACE": "'}'", "LPAR": "'('", "RPAR": "')'", "NAME": "a name",
    "INT": "a number", "_SEP": "';' or a new line", "$END": "the end of the text",
    "VBAR": "'|'", "EQUAL": "'='", "COLON": "':'", "COMMA": "','", "DOT": "'.'",
}


@lru_cache(maxsize=1)
def parser() -> Lark:
    """The LALR parser for every start rule: its tables from `grammar/cogwork.tables.json` when they are
    this grammar's, else built once (and kept in the on-disk cache as signed JSON)."""
    grammar = grammar_text()
    return load_or_build(grammar, lambda: build_parser(grammar), data_dir("grammar") / SHIPPED_TABLES)


SHIPPED_TABLES = "cogwork.tables.json"


def grammar_text() -> str:
    return (data_dir("grammar") / "cogwork.lark").read_text(encoding="utf-8")


def build_parser(grammar: str) -> Lark:
    """The parser built from the grammar text (what the shipped and cached tables hold)."""
    return Lark(grammar, parser="lalr", start=["effect", "expr", "cost"], propagate_positions=True,
                maybe_placeholders=True)


@lru_cache(maxsize=1)
def fast_parser() -> FastParser:
    """`parser()`'s tables run by the faster loop of `lalr.py` (Lark's own loop is used for texts that fail)."""
    return FastParser(parser())


@dataclass
class DslText:
    """A DSL string plus where it came from, collecting diagnostics about it."""

    text: str
    src: SourceFile | None
    path: tuple
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def position(self, offset: int) -> tuple[int, int]:
        if self.src is None:
            return (1, offset + 1)
        return self.src.dsl_pos(self.path, offset)

    @property
    def display(self) -> str:
        return self.src.display if self.src is not None else "<dsl>"

    def error(self, at: Tree | Token | int | None, code: str, message: str,
              hint: str | None = None, severity: str = "error") -> None:
        offset = _offset(at)
        line, col = self.position(offset)
        self.diagnostics.append(Diagnostic(code=code, message=message, file=self.display,
                                           line=line, col=col, severity=severity, hint=hint))

    def where(self, at: Tree | Token | int | None) -> str:
        line, col = self.position(_offset(at))
        return f"{self.display}:{line}:{col}"

    def place(self, at: Tree | Token | int | None) -> tuple[str, int, int]:
        line, col = self.position(_offset(at))
        return (self.display, line, col)

    def spot(self, at: Tree | Token | int | None) -> Callable[[], tuple[str, int, int]]:
        """`place(at)`, worked out only when asked for (the compiler records every use; few are shown)."""
        return partial(self.place, at)

    def snippet(self, node: Tree | Token) -> str:
        """The source text of a node, whitespace folded: used for option labels."""
        meta = node._meta if type(node) is Tree else None
        if meta is not None and not meta.empty and meta.end_pos:     # the common case, without the calls below
            return " ".join(self.text[meta.start_pos:meta.end_pos].split())
        start = _offset(node)
        end = getattr(node, "end_pos", None)
        if end is None and isinstance(node, Tree) and not node.meta.empty:
            end = node.meta.end_pos
        return " ".join(self.text[start:end].split()) if end else str(node)

    def parse(self, start: str) -> Tree | None:
        if len(self.text) > MAX_DSL_CHARS:
            self.error(0, "DSL003", f"DSL text is {len(self.text)} characters; the limit is {MAX_DSL_CHARS}")
            return None
        tree = _parse(self.text, start)
        if type(tree) is Tree:          # the common case, before the two failures below
            return tree
        if isinstance(tree, UnexpectedInput):
            self._syntax_error(tree)
            return None
        if isinstance(tree, TooComplex):
            self.error(tree.offset, tree.code, tree.message)
            return None
        return tree

    def _syntax_error(self, exc: UnexpectedInput) -> None:
        if isinstance(exc, UnexpectedToken):
            token = exc.token
            what = "the end of the text" if token.type == "$END" else f"'{token.value}'"
            offset = len(self.text) if token.type == "$END" else (token.start_pos or 0)
            self.error(offset, "DSL001", f"unexpected {what}", _expected(exc))
        elif isinstance(exc, UnexpectedCharacters):
            at = exc.pos_in_stream or 0
            self.error(at, "DSL002", f"unexpected character {self.text[at]!r}", _expected(exc))
        elif isinstance(exc, UnexpectedEOF):
            self.error(len(self.text), "DSL001", "unexpected end of the text", _expected(exc))
        else:  # pragma: no cover - Lark raises only the three above
            self.error(0, "DSL001", str(exc))


def parse(text: str, start: str) -> Tree | None:
    """The parse tree of a DSL text, or None if it does not parse (compiling it reports why).

    Trees are shared (kept by text): never change one.
    """
    return DslText(text, None, ()).parse(start)


@dataclass(frozen=True)
class TooComplex:
    """A text that parses but goes past a compile-time limit: nested too deeply, or a number too long."""

    code: str
    message: str
    offset: int


@lru_cache(maxsize=65536)
def _parse(text: str, start: str) -> Tree | UnexpectedInput | TooComplex:
    """The tree of a text, or why it does not parse or cannot be compiled; kept because the type pass
    and the compiler both read every text, and cards repeat texts. Trees are shared: never change one."""
    try:
        tree = fast_parser().parse(text, start) or parser().parse(text, start=start)
    except UnexpectedInput as exc:
        return exc
    except RecursionError:  # pragma: no cover - Lark's LALR parser builds trees without recursing
        return TooComplex("DSL004", f"this text nests more than {MAX_DSL_DEPTH} levels deep", 0)
    return _too_complex(tree, _LONG_NUMBER.search(text) is not None) or tree


_LONG_NUMBER = re.compile(rf"\d{{{MAX_DSL_DIGITS + 1}}}")     # a run of digits a too-long number needs


def _too_complex(tree: Tree, numbers: bool = True) -> TooComplex | None:
    """The first compile-time limit the tree goes past, walked without recursion (it may be very deep).

    `numbers`: whether the text may hold a number too long (some run of digits is); if not, tokens
    are not visited at all (the trees are visited in the same order, so the same one is reported).
    """
    if not numbers and _shallow(tree):
        return None
    stack: list[tuple[Tree | Token, int]] = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, Token):
            if node.type == "INT" and len(node.value.lstrip("0")) > MAX_DSL_DIGITS:
                return TooComplex("DSL005", f"a number of {len(node.value):,} digits; numbers have at most"
                                  f" {MAX_DSL_DIGITS} (the engine's limit is 10**{MAX_DSL_DIGITS})", _offset(node))
            continue
        if depth > MAX_DSL_DEPTH:
            return TooComplex("DSL004", f"this text nests more than {MAX_DSL_DEPTH} levels deep (operators,"
                              f" brackets and blocks inside one another)", _offset(node))
        stack.extend((child, depth + 1) for child in node.children
                     if child is not None and (numbers or type(child) is not Token))
    return None


def _shallow(tree: Tree) -> bool:
    """Whether the tree is at most MAX_DSL_DEPTH levels deep: a level at a time, which is quicker than
    the walk of `_too_complex` (that finds the node to report, for the rare tree that is not)."""
    level: list[Any] = [tree]
    for _ in range(MAX_DSL_DEPTH):
        level = [c for node in level for c in node.children if c is not None and type(c) is not Token]
        if not level:
            return True
    return False


def counter_chain(tree: Tree) -> Tree:
    """`c.colour.cube` in a counter's place (a `counter_of` tree) as the attribute expression it reads."""
    first, *names = tree.children
    node = Tree("name", [first])
    for name in names:
        node = Tree("attr", [node, name])
    return node


def branch_parts(tree: Tree) -> tuple[Token | None, Tree]:
    """A `branch` (a `choose { ... }` alternative, a `may`'s block): its label token, if written, and its effect."""
    *label, effect = tree.children
    token = label[0] if label and isinstance(label[0], Token) else None
    return token, effect if isinstance(effect, Tree) else Tree("effect", [])


def choice_binders(tree: Tree) -> list[tuple[Token, Any]]:
    """The `NAME in COLLECTION` parts of a `choose`, `repeat choose` or `for`, in order (a `choose` of
    several chooses their combinations in one decision: `choose p in board, t in row(cell, p.row + 1)`)."""
    children = tree.children
    out: list[tuple[Token, Any]] = []
    i = 0
    while i + 1 < len(children):
        name = children[i]
        if not (isinstance(name, Token) and name.type == "NAME"):
            break
        out.append((name, children[i + 1]))
        i += 2
    return out


def label_text(token: Token) -> str:
    """A label token's text, without the quotes and with runs of blanks as one space."""
    return " ".join(str(token)[1:-1].split())


def _offset(at: Tree | Token | int | None) -> int:
    if at is None:
        return 0
    if isinstance(at, int):
        return at
    if isinstance(at, Token):
        return at.start_pos or 0
    return 0 if at.meta.empty else at.meta.start_pos


def _describe(name: str) -> str:
    if name in _TOKEN_NAMES:
        return _TOKEN_NAMES[name]
    return f"'{name.lower()}'" if name.isupper() else name


def _expected(exc: UnexpectedInput) -> str | None:
    names = sorted({_describe(n) for n in getattr(exc, "expected", None) or ()
                    if not n.startswith("__")})
    if not names:
        return None
    shown = ", ".join(names[:8]) + (", ..." if len(names) > 8 else "")
    return f"expected one of: {shown}"
