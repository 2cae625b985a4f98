"""Guard: the stages of `engine/` import each other only along the allowed arrows (docs/architecture.md).

Every import counts, including those under `TYPE_CHECKING` and inside functions: an arrow is a
dependency whether or not it runs at import time.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[1] / "engine"

# modules at the top of engine/ that every stage may use; they import no stage themselves
SHARED = {"__init__", "diagnostics", "errors", "usage", "resources"}
# stage -> the stages it may import (besides itself and the shared modules)
ALLOWED: dict[str, set[str]] = {
    "packs": set(),
    "runtime": set(),
    "dsl": {"packs", "runtime"},
    "compile": {"packs", "dsl", "runtime"},
    "play": {"packs", "dsl", "compile", "runtime"},   # dsl: rules text for people (play/rules_text.py)
    "authoring": {"packs"},
    "lint": {"packs", "dsl", "compile", "runtime", "play"},
    "report": {"play", "runtime"},
    "lsp": {"packs", "dsl", "compile", "runtime", "lint", "authoring"},
    "serve": {"packs", "compile", "runtime", "play"},
    "commands": {"packs", "dsl", "compile", "runtime", "play", "lint", "authoring", "report", "lsp", "api", "serve"},
    "cli": {"commands"},
}
# the public API re-exports from every stage; nothing inside a stage may import it
API_MODULES = {"__init__", "api"}


def unit_of(module: str) -> str | None:
    """'engine.runtime.state' -> 'runtime'; 'engine.diagnostics' -> 'diagnostics'; other packages -> None."""
    parts = module.split(".")
    if parts[0] != "engine":
        return None
    return parts[1] if len(parts) > 1 else "__init__"


def imports_of(path: Path) -> set[str]:
    """Every `engine...` module named by an import statement in the file."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            if node.module == "engine":        # `from engine import x` names a submodule x or an API name
                found.update(f"engine.{a.name}" for a in node.names if (ENGINE / a.name).exists()
                             or (ENGINE / f"{a.name}.py").exists())
    return {m for m in found if m.startswith("engine")}


def module_units() -> dict[Path, str]:
    units: dict[Path, str] = {}
    for path in sorted(ENGINE.rglob("*.py")):
        rel = path.relative_to(ENGINE).with_suffix("")
        units[path] = rel.parts[0]   # a stage folder, or a top-level module's own name
    return units


def stage_arrows() -> set[tuple[str, str, str]]:
    """(importing unit, imported unit, file) for every import between different units."""
    arrows = set()
    for path, unit in module_units().items():
        for module in imports_of(path):
            target = unit_of(module)
            if target is not None and target != unit:
                arrows.add((unit, target, str(path.relative_to(ENGINE.parent))))
    return arrows


def test_stages_import_only_along_allowed_arrows() -> None:
    wrong = []
    for unit, target, file in sorted(stage_arrows()):
        if unit in API_MODULES or (target in SHARED and target != "__init__"):
            continue
        if target == "__init__" and unit not in API_MODULES:
            # `from engine import __version__` is the one name a stage may take from the package itself
            text = (ENGINE.parent / file).read_text(encoding="utf-8")
            if all(line.strip() == "from engine import __version__" for line in text.splitlines()
                   if line.strip().startswith("from engine import ")):
                continue
        if unit in SHARED and unit != "__init__":
            wrong.append(f"{file}: shared module imports {target}")
        elif target not in ALLOWED.get(unit, set()):
            wrong.append(f"{file}: {unit} imports {target}")
    assert not wrong, "imports against the stage rules (docs/architecture.md):\n" + "\n".join(wrong)


def test_no_cycles_between_stages() -> None:
    graph: dict[str, set[str]] = {}
    for unit, target, _ in stage_arrows():
        if unit in API_MODULES or target in SHARED or target in API_MODULES:
            continue
        graph.setdefault(unit, set()).add(target)

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        return any(nxt == goal or (nxt not in seen and reaches(nxt, goal, seen | {nxt}))
                   for nxt in graph.get(start, ()))

    assert [u for u in graph if reaches(u, u, set())] == []


def test_every_stage_is_in_the_rules() -> None:
    stages = {p.name for p in ENGINE.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert stages <= set(ALLOWED), stages - set(ALLOWED)


@pytest.mark.parametrize("stage", sorted(k for k in ALLOWED if (ENGINE / k / "__init__.py").exists()))
def test_every_stage_says_what_it_owns(stage: str) -> None:
    doc = ast.get_docstring(ast.parse((ENGINE / stage / "__init__.py").read_text(encoding="utf-8")))
    assert doc and "import" in doc, f"engine/{stage}/__init__.py needs a docstring saying what it owns and imports"


def test_the_guard_sees_a_wrong_arrow(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("from engine.compile.loading import load_pack\nimport engine.packs.files\n", encoding="utf-8")
    assert imports_of(bad) == {"engine.compile.loading", "engine.packs.files"}
    assert "compile" not in ALLOWED["runtime"] and unit_of("engine.compile.loading") == "compile"
