"""A procedure's card phrase: how `explain` reads a call of it, the way the printed card words it.

`text: "draw {n} cards"` on a procedure with `params: [n]` makes `call draw_cards(2)` read
"draw 2 cards" instead of the generic "draw cards with 2". A template is plain words with
`{PARAM}` fields; each field is replaced by the English of the call's argument for that parameter.
A field `{PARAM|ONE|MANY}` is a word that agrees with the argument: ONE when it reads "1", MANY otherwise
(`draw {n} {n|card|cards}`: "draw 1 card", "draw 2 cards", "draw X cards").
Checked when the pack is compiled (DSL019), so explain only ever fills templates that are whole.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

_FIELD = re.compile(r"\{([^{}]*)\}")


def phrase_problems(template: str, params: Sequence[str]) -> list[tuple[int, str]]:
    """(offset into the template, message) for each field that names no parameter, each `{` never closed
    and each `}` never opened: a template explain could not fill."""
    problems: list[tuple[int, str]] = []
    i = 0
    while i < len(template):
        char = template[i]
        if char == "}":
            problems.append((i, "'}' closes no '{'"))
        elif char == "{":
            end = template.find("}", i + 1)
            reopened = template.find("{", i + 1)
            if end < 0 or 0 <= reopened < end:
                problems.append((i, "'{' is never closed"))
            else:
                name, *forms = template[i + 1:end].split("|")
                if forms and (len(forms) != 2 or not all(form.strip() for form in forms)):
                    problems.append((i, f"'{{{template[i + 1:end]}}}' needs two word forms: {{{name}|ONE|MANY}}"))
                elif name not in params:
                    known = ", ".join(params) if params else "none"
                    problems.append((i, f"'{{{name}}}' names no parameter of the procedure (its parameters: {known})"))
                i = end
        i += 1
    return problems


def fill_phrase(template: str, values: Mapping[str, str]) -> str:
    """The template with each `{PARAM}` replaced by its value's English and each `{PARAM|ONE|MANY}` by the
    form that agrees with it (a checked template: every field names a parameter)."""
    return _FIELD.sub(lambda m: _field(m.group(1), values), template)


def _field(field: str, values: Mapping[str, str]) -> str:
    name, *forms = field.split("|")
    if not forms:
        return values[name]
    return forms[0] if values[name] == "1" else forms[1]
