"""grammar/cogwork.tables.json holds the tables of today's grammar, and the parser loaded from them parses alike."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.dsl import grammar_cache
from engine.dsl.lalr import FastParser
from engine.dsl.parse import SHIPPED_TABLES, build_parser, grammar_text
from engine.resources import data_dir

TEXTS = [("gain 2 coin; if x > 1 { draw 1 from deck to hand } else { lose 1 coin }", "effect"),
         ("count(hand where it.cost <= 3) + 1", "expr"), ("2 gear + (n) sensor", "cost")]


def test_the_shipped_tables_are_this_grammars() -> None:
    grammar = grammar_text()
    shipped = grammar_cache.read_shipped(data_dir("grammar") / SHIPPED_TABLES, grammar)
    assert shipped is not None, ("grammar/cogwork.tables.json was made from another grammar or Lark version:"
                                 " run python tools/grammar_tables.py")


def test_the_shipped_tables_parse_like_a_fresh_build(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COGWORK_NO_CACHE", "1")
    grammar = grammar_text()

    def no_build() -> None:
        raise AssertionError("built instead of loaded")
    loaded = grammar_cache.load_or_build(grammar, no_build, data_dir("grammar") / SHIPPED_TABLES)  # type: ignore[arg-type]
    fresh = build_parser(grammar)
    for text, start in TEXTS:
        assert loaded.parse(text, start=start) == fresh.parse(text, start=start)
        assert FastParser(loaded).parse(text, start) == fresh.parse(text, start=start)


def test_tables_for_another_grammar_are_not_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COGWORK_NO_CACHE", "1")
    grammar = grammar_text()
    stale = json.loads((data_dir("grammar") / SHIPPED_TABLES).read_text(encoding="utf-8"))
    stale["grammar_sha256"] = "0" * 64
    (tmp_path / "tables.json").write_text(json.dumps(stale), encoding="utf-8")
    built = []

    def build() -> object:
        built.append(True)
        return build_parser(grammar)
    grammar_cache.load_or_build(grammar, build, tmp_path / "tables.json")  # type: ignore[arg-type]
    assert built == [True]
