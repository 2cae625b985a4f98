"""The `{EXPR}` fields of a prompt string (`choose a in jobs "assign the {u.speed}/{u.size} unit" { ... }`), parsed
where they stand: the compiler turns them into code, the type pass checks what they show (a value, not a rule)."""

from __future__ import annotations

import re

from lark import Token, Tree

from engine.dsl.parse import DslText

_FIELD = re.compile(r"\{([^{}]*)\}")


def prompt_text(token: Token) -> str:
    """The prompt as written, without its quotes."""
    return str(token)[1:-1]


def prompt_parts(token: Token, dsl: DslText) -> tuple[list[str], list[tuple[DslText, Tree | None]]]:
    """The prompt in `token` (a STRING of `dsl`) as its text pieces around the fields (one more piece than
    fields) and each field: a DslText of its own (syntax errors land in its `diagnostics`) and its parse tree
    (None when it does not parse). A field's text is padded with spaces so every offset in it is its offset
    in the whole DSL string: positions in diagnostics and snippets are those of `dsl`."""
    text = prompt_text(token)
    start = (token.start_pos or 0) + 1  # offset of the text inside the DSL string (after the quote)
    pieces: list[str] = []
    fields: list[tuple[DslText, Tree | None]] = []
    pos = 0
    for m in _FIELD.finditer(text):
        field = DslText(" " * (start + m.start(1)) + m.group(1), dsl.src, dsl.path)
        pieces.append(text[pos:m.start()])
        fields.append((field, field.parse("expr")))
        pos = m.end()
    pieces.append(text[pos:])
    return pieces, fields
