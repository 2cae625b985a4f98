"""The DSL is described once: the function registry, the grammar's node kinds and the list of DSL sites
agree with the compiler, the type pass and the renderer."""

from __future__ import annotations

from pathlib import Path

import pytest
from lark import Tree

from engine.compile.build import Builder
from engine.compile.effect import EffectCompiler
from engine.dsl.functions import FUNCTIONS
from engine.dsl.parse import DslText, parse, parser
from engine.dsl.render import Renderer
from engine.dsl.sites import pack_sites
from engine.dsl.typecheck import Checker
from engine.dsl.walk import EXPRESSION, STATEMENT, UnknownNodeError
from engine.packs.files import find_pack, load_pack_files

REPO = Path(__file__).resolve().parent.parent
PACKS = sorted(str(d) for folder in ("content", "tests/fixtures/packs") for d in (REPO / folder).iterdir()
               if (d / "pack.yaml").is_file())


def grammar_nodes() -> tuple[set[str], set[str]]:
    """(statement, expression) node kinds the grammar produces."""
    rules = parser().rules
    statements = {r.expansion[0].name for r in rules if r.origin.name == "stmt"}
    expressions = {r.alias for r in rules if r.alias} | {"collection"}
    return statements, expressions


def test_every_statement_and_expression_has_a_compiler_a_type_rule_and_english() -> None:
    statements, expressions = grammar_nodes()
    assert "gain" in statements and "call_fn" in expressions
    for walker in (EffectCompiler, Checker, Renderer):
        missing = {s for s in statements if not hasattr(walker, f"{STATEMENT}{s}")}
        missing |= {x for x in expressions if not hasattr(walker, f"{EXPRESSION}{x}")}
        assert not missing, f"{walker.__name__} has no method for {sorted(missing)}"


def test_a_node_no_walker_knows_fails_the_same_way_in_each() -> None:
    pack = Builder(load_pack_files(find_pack("robot-factory"))).build()
    dsl = DslText("x", None, ())
    unknown = Tree("no_such_rule", [])
    walkers = [EffectCompiler(pack, dsl, set()), Checker(pack, dsl, {}), Renderer(pack)]
    for walker in walkers:
        for family in (EXPRESSION, STATEMENT):
            with pytest.raises(UnknownNodeError, match="no_such_rule"):
                walker.walk(family, unknown)


def test_each_function_compiles_from_its_template_or_its_own_lowering() -> None:
    lowered = {n.removeprefix("lower_") for n in dir(EffectCompiler) if n.startswith("lower_")}
    assert lowered == {name for name, fn in FUNCTIONS.items() if fn.code is None}
    assert not [n for n in dir(EffectCompiler) if n.startswith("_fn_")]


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_each_function_has_a_type_and_english_for_a_call_of_every_accepted_size(name: str) -> None:
    raw = load_pack_files(find_pack("robot-factory"))
    pack = Builder(raw).build()
    fn = FUNCTIONS[name]
    low, high = fn.arity
    for count in {low, high if high is not None else low + 2}:
        text = f"{name}({', '.join(['1'] * count)})"
        tree = parse(text, "expr")
        assert tree is not None, text
        dsl = DslText(text, None, ())
        Checker(pack, dsl, {}).infer(tree)
        assert Renderer(pack).text(text, "expr") != text or count == 0, text


@pytest.mark.parametrize("spec", PACKS)
def test_every_text_the_builder_compiles_is_a_site_so_it_is_type_checked_and_rendered(
        spec: str, monkeypatch: pytest.MonkeyPatch) -> None:
    raw = load_pack_files(find_pack(spec))
    compiled: set[tuple[str, tuple, str]] = set()
    parse_text = DslText.parse

    def noting(self: DslText, start: str):  # type: ignore[no-untyped-def]
        if self.src is not None:
            compiled.add((self.src.display, tuple(self.path), start))
        return parse_text(self, start)

    monkeypatch.setattr(DslText, "parse", noting)
    pack = Builder(raw).build()
    monkeypatch.undo()
    sites = list(pack_sites(raw))
    texts = {(s.src.display, tuple(s.path), s.start) for s in sites}
    # a `{EXPR}` field of a prompt is parsed at its effect's own path: part of that site, not one of its own
    # (the type pass checks it with its statement: `Checker.prompt`, TYPE019)
    fields = {(f, p, "expr") for f, p, start in texts if start == "effect"}
    assert compiled - fields == texts
    renderer = Renderer(pack)
    for site in sites:  # the type pass (lint) and `explain` walk exactly these
        assert renderer.text(site.text, site.start).strip(), site.path


def test_scoring_rank_conditions_are_sites() -> None:
    raw = load_pack_files(find_pack("raising-robots"))
    assert [s.text for s in pack_sites(raw) if "ranks" in s.path] == ["option.solo_challenge"]
