"""Prompt templates: `{EXPR}` inside a choosing statement's prompt is evaluated when the player is asked.

`choose a in jobs "assign the {u.speed}/{u.size} unit" { ... }` shows the
current values; names are resolved at load time like any expression, and a
typo inside the braces is reported at its own line and column (the type pass
checks what each field shows: engine/dsl/typecheck.py).

A prompt with fields compiles to a tuple, `(PIECES, v1, v2, ...)`: the fields'
values are worked out at the `ask`, so a field that fails (an empty zone's
`[1]`) fails there, with the same error as ever, but the text is joined only
when someone reads the decision's prompt (`Decision.prompt`: views, the
terminal, a served table, scripts and scenarios), which a bot answering by
index never does. A value is kept as it is only when the type pass knows its
text cannot change by then (a number, true or false, text, an item (shown by
its name), a player); any other value (a zone, a list, what the pass cannot
tell) is turned into its text at the `ask`, as before.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from lark import Token

from engine.compile.codegen import const, expr
from engine.dsl.parse import DslText
from engine.dsl.prompt_fields import prompt_parts, prompt_text
from engine.dsl.typecheck import Checker
from engine.dsl.types import ANY

if TYPE_CHECKING:
    from engine.compile.expr import ExprCompiler

# values whose text cannot change between the `ask` and a read of the prompt (an item shows its name)
_STEADY_KINDS = frozenset({"int", "bool", "str", "item", "player"})


def compile_prompt(compiler: ExprCompiler, token: Token | None, default: str) -> ast.expr:
    """The statement's own prompt (a string literal, maybe with `{EXPR}` fields), else `default`."""
    if token is None or "{" not in prompt_text(token):
        return const(prompt_text(token) if token is not None else default)
    pieces, fields = prompt_parts(token, compiler.dsl)
    values: list[ast.expr] = []
    for field, tree in fields:
        compiler.dsl.diagnostics.extend(field.diagnostics)   # (a field that does not parse: the pack does not load)
        if tree is None:
            values.append(const(""))
            continue
        value = compiler.expr(tree)
        # what the value is, by the type pass (its findings are lint's to report: they go to a copy here)
        quiet = Checker(compiler.pack, DslText(field.text, field.src, field.path), dict.fromkeys(compiler.scope, ANY))
        values.append(value if quiet.infer(tree).kind in _STEADY_KINDS else expr("show(X)", X=value))
    return ast.Tuple([ast.Tuple([const(p) for p in pieces], ast.Load()), *values], ast.Load())

