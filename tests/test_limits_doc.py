"""docs/limits.md gives each limit's value: the row naming a constant shows that constant's value."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.compile import effect, flow
from engine.dsl import parse
from engine.lint import checks, run
from engine.packs import cache, files, source
from engine.play import log, scenario
from engine.runtime import costs, interpreter, limits

DOC = Path(__file__).resolve().parents[1] / "docs" / "limits.md"
CONSTANTS = {
    "MAX_FILE_BYTES": source, "MAX_DEPTH": source, "MAX_ALIASES": source, "MAX_ALIAS_NODES": source,
    "MAX_FILES": files, "MAX_TOTAL_BYTES": files, "MAX_LOG_BYTES": log, "MAX_DSL_CHARS": parse,
    "MAX_DSL_DEPTH": parse, "MAX_DSL_DIGITS": parse, "MAX_BLOCK_DEPTH": effect, "MAX_ITEMS": limits,
    "MAX_WORK": limits, "MAX_GAME_WORK": limits, "MAX_VALUE": limits, "MAX_LIST": limits, "MAX_OPTIONS": limits,
    "MAX_ROUNDS": flow,
    "MAX_TRIGGER_DEPTH": interpreter, "MAX_TRIGGER_FIRINGS": interpreter, "MAX_CALL_DEPTH": limits,
    "MAX_DECISIONS": interpreter, "MAX_WAYS": costs, "MAX_PAYMENT_STEPS": costs, "COVER_CHECK_STEPS": costs,
    "SIZE_FREE": limits, "ELEMENTS_PER_UNIT": limits, "DEFAULT_GAMES": run, "MAX_PLAYTEST_DECISIONS": checks,
    "MAX_AUTO_DECISIONS": scenario, "MAX_ENTRY_BYTES": cache,
}


def _shown(value: int) -> set[str]:
    """The ways the page may write a value: 20,000; 2 MiB; 10^18; 2 (`--games N`)."""
    forms = {f"{value:,}", str(value)}
    if value >= 1 << 20 and value % (1 << 20) == 0:
        forms.add(f"{value >> 20} MiB")
    power = len(str(value)) - 1
    if value == 10**power:
        forms.add(f"10^{power}")
    return forms


@pytest.mark.parametrize("name", sorted(CONSTANTS))
def test_each_limit_row_shows_the_constants_value(name: str) -> None:
    rows = [line for line in DOC.read_text(encoding="utf-8").splitlines() if f"`{name}`" in line]
    assert rows, f"docs/limits.md has no row for {name}"
    value = getattr(CONSTANTS[name], name)
    cells = [cell.strip() for cell in rows[0].split("|")]
    assert any(cell.split(" ")[0] in _shown(value) or cell in _shown(value) for cell in cells), (name, value, rows[0])


def test_every_limit_constant_of_the_engine_is_listed() -> None:
    engine = Path(__file__).resolve().parents[1] / "engine"
    declared = {m[1] for path in engine.rglob("*.py")
                for m in re.finditer(r"^(MAX_[A-Z_]+) = ", path.read_text(encoding="utf-8"), re.MULTILINE)}
    # not limits on what a pack or a log may do: MAX_FAST_DEPTH picks a YAML reader, MAX_CHUNK batches games
    assert declared - {"MAX_FAST_DEPTH", "MAX_CHUNK"} <= set(CONSTANTS)
