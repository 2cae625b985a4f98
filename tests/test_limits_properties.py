"""Property tests of the engine's limits (docs/limits.md): generated DSL texts and mutated packs end in a
diagnostic or a finished game, never in a Python exception, and every game stays within its work budget.

The work budget is lowered for these tests (the same code paths, a smaller number), so a runaway text
ends in milliseconds; the full-size limits are exercised by tests/hostile/ under CPU and memory bounds.
"""

from __future__ import annotations

import copy
import os
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
import yaml
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from engine.compile.loading import load_pack
from engine.diagnostics import PackError
from engine.errors import RuleError
from engine.lint.run import lint
from engine.play.agents import RandomAgent
from engine.play.match import Match
from engine.runtime import interpreter

SMALL_BUDGET = 20_000
MANIFEST = {"id": "case", "name": "Case", "version": "0.1.0", "engine": ">=0.1,<1.0", "players": {"min": 1, "max": 2}}
BASE = {
    "counters": {"coin": {"name": "Coin"}, "depth": {"name": "Depth", "max": 50}},
    "zones": {"deck": {"name": "Deck", "scope": "global", "refill_from": "discard"},
              "discard": {"name": "Discard", "scope": "global"}, "hand": {"name": "Hand"}},
    "component_types": {"card": {"name": "Card", "zone": "deck", "attrs": {"points": {"type": "int", "default": 1},
                                                                            "tags": {"type": "list", "default": []}}}},
    "components": {"card": [{"id": "low", "name": "Low", "copies": 3}, {"id": "high", "name": "High", "points": 3}]},
    "procedures": {"again": "gain 1 coin"},
    "flow": [{"id": "turns", "each_player": [{"id": "act", "do": "gain 1 coin"}]}],
    "scoring": {"score": "coin"},
}
SETTINGS = settings(max_examples=40, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

# ---------------------------------------------------------------- DSL texts

NUMBERS = st.one_of(st.integers(0, 12).map(str),
                    st.sampled_from(["1000000000", "2000000000", str(10**18), str(10**30)]),
                    st.sampled_from([18, 19, 5000]).map(lambda n: "9" * n))   # past 4,300 digits int(text) fails
ATOMS = st.one_of(NUMBERS, st.sampled_from(["coin", "depth", "count(deck)", "count(hand)", "low.points",
                                                     "players", "true", "false", "[1, 2]", "n", "x"]))


def _expr(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.one_of(
        st.tuples(inner, st.sampled_from(["+", "-", "*", "/", "%", "==", "<", "and", "or"]), inner).map(
            lambda t: f"({t[0]} {t[1]} {t[2]})"),
        inner.map(lambda e: f"not {e}"),
        st.tuples(inner, inner).map(lambda t: f"count(range({t[0]}, {t[1]}))"),
        st.tuples(inner, inner).map(lambda t: f"sum(range(1, {t[0]}), {t[1]})"),
        st.sampled_from([2, 30, 90, 400]).map(lambda n: " + ".join(["coin"] * n)),
        st.sampled_from([1, 50, 3000]).map(lambda n: "not " * n + "true"),
    )


EXPRS = st.recursive(ATOMS, _expr, max_leaves=8)
SIMPLE = st.one_of(
    EXPRS.map(lambda e: f"gain {e} coin"), EXPRS.map(lambda e: f"set coin = {e}"),
    EXPRS.map(lambda e: f"set low.points = {e}"), st.just("set low.tags = low.tags + low.tags"),
    EXPRS.map(lambda e: f"draw {e} from deck to discard"), st.just("call again"), st.just("call grow"),
    st.just("stop"), st.just("end_game"), EXPRS.map(lambda e: f"lose {e} coin"),
)


def _block(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    body = st.lists(inner, min_size=1, max_size=3).map("; ".join)
    return st.one_of(
        st.tuples(EXPRS, body).map(lambda t: f"repeat {t[0]} {{ {t[1]} }}"),
        st.tuples(EXPRS, body).map(lambda t: f"if {t[0]} {{ {t[1]} }}"),
        st.tuples(EXPRS, body).map(lambda t: f"for x in range(1, {t[0]}) {{ {t[1]} }}"),
        st.tuples(EXPRS, body).map(lambda t: f"choose n from 1 to {t[0]} {{ {t[1]} }}"),
        st.tuples(st.integers(1, 12), body).map(lambda t: "repeat 1 { " * t[0] + t[1] + " }" * t[0]),
        body.map(lambda b: f"repeat choose c in deck {{ {b} }}"),
        st.lists(inner, min_size=2, max_size=4).map(lambda bs: "choose { " + " | ".join(bs) + " }"),
    )


EFFECTS = st.recursive(SIMPLE, _block, max_leaves=6)


def _write(root: Path, content: dict[str, Any], manifest: dict[str, Any] = MANIFEST) -> Path:
    pack = root / "pack"
    pack.mkdir(parents=True, exist_ok=True)
    (pack / "pack.yaml").write_text(yaml.safe_dump(manifest), encoding="utf-8")
    (pack / "game.yaml").write_text(yaml.safe_dump(content, width=10**9), encoding="utf-8")
    return pack


def _exercise(pack: Path) -> None:
    """Lint the pack (one random game per player count) and play it: diagnostics and rule errors only."""
    with mock.patch.object(interpreter, "MAX_WORK", SMALL_BUDGET), \
            mock.patch.dict(os.environ, {"COGWORK_NO_CACHE": "1"}):
        lint(pack, games=1)
        try:
            loaded = load_pack(str(pack))
        except PackError:
            return
        for players in (1, 2):
            try:
                session = Match(loaded, players, 7)
                session.run([RandomAgent(7, seat) for seat in range(players)], stop_after=2_000)
            except RuleError:
                continue
            assert session.game.state.work <= SMALL_BUDGET


@SETTINGS
@given(text=EFFECTS)
@example(text="repeat 1000000000 { gain 1 coin }")
@example(text="call grow")
@example(text="for x in range(1, 100000) { for y in range(1, 100000) { gain 1 coin } }")
@example(text="repeat 40 { set coin = coin * coin }")
@example(text="repeat 40 { set low.tags = low.tags + [1] + low.tags }")
def test_generated_effects_end_in_a_diagnostic_or_a_game(text: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    content = copy.deepcopy(BASE)
    content["procedures"]["grow"] = "if depth < 40 { gain 1 depth; call grow; call grow; lose 1 depth }"
    content["flow"][0]["each_player"][0]["do"] = text
    _exercise(_write(tmp_path_factory.mktemp("dsl"), content))


# ---------------------------------------------------------------- mutated packs

HOSTILE_INTS = st.sampled_from([-1, 0, 10**18, 10**19, 2 * 10**9, 20_000_000, int("9" * 4000)])
HOSTILE_TEXTS = st.sampled_from([
    "", "x" * 5000, "repeat 1000000000 { gain 1 coin }", "gain count(range(1, 30000000)) coin",
    "choose n from 1 to 30000000 { gain n coin }", "not " * 3000 + "true", "9" * 5000,
    "repeat 1 { " * 10 + "gain 1 coin" + " }" * 10, ">=0.1,<" + "9" * 5000, "call again; call again",
    "for x in range(1, 100000) { for y in range(1, 100000) { gain 1 coin } }", "draw 1000000000 from deck to discard",
])
HOSTILE_VALUES = st.one_of(HOSTILE_INTS, HOSTILE_TEXTS, st.sampled_from([[], {}, None, True, [[[[]]]]]))


def data_paths(node: Any, at: tuple = (), leaves_only: bool = True) -> list[tuple]:
    """Every path inside nested mappings and lists: to each scalar, or (`leaves_only=False`) to every node."""
    found = [] if leaves_only and isinstance(node, (dict, list)) else [at]
    if isinstance(node, dict):
        for key, value in node.items():
            found += data_paths(value, (*at, key), leaves_only)
    elif isinstance(node, list):
        for i, value in enumerate(node):
            found += data_paths(value, (*at, i), leaves_only)
    return found


def _get(node: Any, path: tuple) -> Any:
    for step in path:
        node = node[step]
    return node


def _set(node: Any, path: tuple, value: Any) -> None:
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = value


@SETTINGS
@given(data=st.data())
def test_mutated_packs_end_in_a_diagnostic_or_a_game(data: st.DataObject,
                                                      tmp_path_factory: pytest.TempPathFactory) -> None:
    documents = {"content": copy.deepcopy(BASE), "manifest": copy.deepcopy(MANIFEST)}
    for _ in range(data.draw(st.integers(1, 3))):
        name = data.draw(st.sampled_from(sorted(documents)))
        path = data.draw(st.sampled_from(data_paths(documents[name])))
        old = _get(documents[name], path)
        like = HOSTILE_INTS if type(old) is int else HOSTILE_TEXTS if isinstance(old, str) else HOSTILE_VALUES
        _set(documents[name], path, data.draw(st.one_of(like, like, HOSTILE_VALUES)))
    _exercise(_write(tmp_path_factory.mktemp("mutant"), documents["content"], documents["manifest"]))
