"""Prompt templates: `{EXPR}` inside a choosing statement's prompt is evaluated when the player is asked.

`choose a in jobs "assign the {u.speed}/{u.size} unit" { ... }` shows the
current values; names are resolved at load time like any expression, and a
typo inside the braces is reported at its own line and column.
"""

from __future__ import annotations

import ast
import re
from typing import TYPE_CHECKING

from lark import Token

from engine.compile.codegen import const, expr
from engine.compile.expr import plain_value
from engine.dsl.parse import DslText

if TYPE_CHECKING:
    from engine.compile.expr import ExprCompiler

_FIELD = re.compile(r"\{([^{}]*)\}")


def compile_prompt(compiler: ExprCompiler, token: Token | None, default: str) -> ast.expr:
    """The statement's own prompt (a string literal, maybe with `{EXPR}` fields), else `default`."""
    text = str(token)[1:-1] if token is not None else default
    if token is None or "{" not in text:
        return const(text)
    parts: list[ast.expr] = []
    start = (token.start_pos or 0) + 1  # offset of the text inside the DSL string (after the quote)
    pos = 0
    for m in _FIELD.finditer(text):
        parts.append(const(text[pos:m.start()]))
        # Pad with spaces so every offset in the field equals its offset in the whole DSL string:
        # positions in diagnostics and snippets stay exact.
        field = DslText(" " * (start + m.start(1)) + m.group(1), compiler.dsl.src, compiler.dsl.path)
        tree = field.parse("expr")
        compiler.dsl.diagnostics.extend(field.diagnostics)
        if tree is not None:
            value = compiler.expr(tree)
            shown = value if plain_value(value) else expr("show(X)", X=value)  # only an item shows differently
            parts.append(ast.FormattedValue(shown, -1, None))
        pos = m.end()
    parts.append(const(text[pos:]))
    return ast.JoinedStr([p for p in parts if not (isinstance(p, ast.Constant) and p.value == "")])
