"""engine/dsl/lalr.py builds exactly Lark's trees, and fails exactly where Lark fails.

Every string value of every YAML file of the repository (content, test packs, the lint corpus)
is parsed from each start rule by both parsers; most are not DSL at all, so this checks the
failures as much as the trees. Then seeded mutations of the DSL texts (a character deleted,
inserted or swapped) check texts near the valid ones, where a lexer or table slip would show.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from lark import Token, Tree
from lark.exceptions import UnexpectedInput

from engine.dsl.lalr import FastParser
from engine.dsl.parse import parser

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = [ROOT / "content", ROOT / "tests" / "fixtures", ROOT / "tests" / "lint_corpus"]
STARTS = ("effect", "expr", "cost")
MUTATION_CHARS = [*'(){}[];.,:+-*/%<>=!"\n\t #a_1', "and ", "or ", "not ", "if ", "else ", "->"]


def _scalars(text: str) -> Iterator[str]:
    """The scalars of a YAML text as written (aliases are not expanded: the corpus has alias bombs);
    a file broken on purpose gives the scalars before its break."""
    try:
        for token in yaml.scan(text, Loader=yaml.SafeLoader):
            if isinstance(token, yaml.ScalarToken):
                yield token.value
    except yaml.YAMLError:
        return


def _repository_strings() -> list[str]:
    found: dict[str, None] = {}
    for folder in FOLDERS:
        for path in sorted(folder.rglob("*.yaml")):
            if path.stat().st_size > 1_000_000:
                continue
            try:
                text = path.read_text(encoding="utf-8")
            except ValueError:      # not UTF-8, on purpose
                continue
            found.update(dict.fromkeys(s for s in _scalars(text) if len(s) <= 5000))
    return list(found)


def _lark(text: str, start: str) -> Tree | None:
    try:
        return parser().parse(text, start=start)
    except UnexpectedInput:
        return None


def _same(fast: Any, lark: Any, where: str = "") -> None:
    """The two trees agree in every field the engine could read."""
    assert type(fast) is type(lark), where
    if isinstance(lark, Token):
        fields = ("type", "value", "start_pos", "end_pos", "line", "column", "end_line", "end_column")
        assert [getattr(fast, f) for f in fields] == [getattr(lark, f) for f in fields], where
        return
    if lark is None:
        return
    assert fast.data == lark.data and len(fast.children) == len(lark.children), where
    assert fast.meta.empty == lark.meta.empty, where
    if not lark.meta.empty:
        fields = ("start_pos", "end_pos", "container_start_pos", "container_end_pos")
        assert [getattr(fast.meta, f) for f in fields] == [getattr(lark.meta, f) for f in fields], where
    for i, (a, b) in enumerate(zip(fast.children, lark.children, strict=True)):
        _same(a, b, f"{where}/{lark.data}[{i}]")


def _check(fast: FastParser, text: str, start: str) -> bool:
    """Compare the two parsers on one text; whether it parsed."""
    expected = _lark(text, start)
    got = fast.parse(text, start)
    assert (got is None) == (expected is None), (text, start)
    _same(got, expected, f"{start}: {text!r}")
    return expected is not None


@pytest.fixture(scope="module")
def fast() -> FastParser:
    return FastParser(parser())


@pytest.fixture(scope="module")
def dsl_texts(fast: FastParser) -> list[tuple[str, str]]:
    """Every repository string from every start rule, compared; the ones that parse."""
    parsed = [(text, start) for text in _repository_strings() for start in STARTS if _check(fast, text, start)]
    assert len(parsed) > 1000       # the corpus really holds DSL
    return parsed


def test_every_repository_string_parses_alike(dsl_texts: list[tuple[str, str]]) -> None:
    starts = {start for _, start in dsl_texts}
    assert starts == set(STARTS)


def test_mutated_texts_parse_alike(fast: FastParser, dsl_texts: list[tuple[str, str]]) -> None:
    rng = random.Random(17)
    sample = rng.sample(dsl_texts, min(1500, len(dsl_texts)))
    outcomes = set()
    for text, start in sample:
        for _ in range(3):
            at = rng.randrange(len(text) + 1)
            kind = rng.randrange(3)
            if kind == 0 and text:
                mutated = text[:at] + text[at + 1:]
            elif kind == 1:
                mutated = text[:at] + rng.choice(MUTATION_CHARS) + text[at:]
            else:
                mutated = text[:at] + text[at + 1:at + 2] + text[at:at + 1] + text[at + 2:]
            outcomes.add(_check(fast, mutated, start))
    assert outcomes == {True, False}     # both kinds were met


@pytest.mark.parametrize("text, start", [
    ("", "effect"), ("\n\n# only a comment\n", "effect"), ("gain 1 coin\n  # then\nlose 2 coin", "effect"),
    ("(((1)))", "expr"), ("-(a + b) * c.d[0]", "expr"), ("not not x in y", "expr"),
    ("2 gear + (n) sensor", "cost"), ('choose "x" { "a": gain 1 c | gain 2 c }', "effect"),
    ("reroll d where it == 0 up to 2 \"again\"", "effect"), ("f(a, b where c)", "expr"),
    ("if a { } else if b { stop } else { }", "effect"), ("gain", "effect"), ("1 +", "expr"), ("@", "expr"),
])
def test_edge_cases(fast: FastParser, text: str, start: str) -> None:
    _check(fast, text, start)
