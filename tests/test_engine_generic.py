"""Guard: the interpreter in ``engine/`` must never name a game's nouns.

Nouns come from ``tests/game_nouns.txt`` (one regex per line, ``#`` comments).
Each is matched case-insensitively as a whole word with an optional plural
``s`` (``\\b(?:NOUN)s?\\b``). Before matching, identifiers are split into words
(``duct_tape`` and ``DuctTape`` both read as ``duct tape``), so nouns hidden
inside snake_case or camelCase names are caught too.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple

TESTS_DIR = Path(__file__).resolve().parent
REPO_ROOT = TESTS_DIR.parent
ENGINE_DIR = REPO_ROOT / "engine"
NOUNS_FILE = TESTS_DIR / "game_nouns.txt"

_CAMEL_BOUNDARY = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")

# Words a generic rules engine must be free to use; no noun pattern may match them.
KERNEL_VOCABULARY = (
    "card",
    "deck",
    "hand",
    "player",
    "round",
    "phase",
    "turn",
    "score",
    "action",
    "cost",
    "resource",
    "token",
    "board",
    "zone",
    "slot",
    "tile",
    "dice",
    "die",
    "bag",
    "track",
    "counter",
    "wildcard",
    "trigger",
    "event",
    "flow",
    "step",
    "effect",
    "procedure",
    "component",
    "item",
    "attribute",
    "program",
    "module",
    "class",
    "generator",
    "factory",
    "core",
    "console",
    "scanner",
    "store",
    "design",
    "objective",
    "role",
)


class Hit(NamedTuple):
    """One game noun found in a source file."""

    path: Path
    line: int
    noun: str
    text: str


def load_nouns(path: Path = NOUNS_FILE) -> list[str]:
    """Return the noun patterns of ``path``, skipping blank and ``#`` lines."""
    lines = (raw.strip() for raw in path.read_text(encoding="utf-8").splitlines())
    return [line for line in lines if line and not line.startswith("#")]


def compile_nouns(nouns: Iterable[str]) -> list[tuple[str, re.Pattern[str]]]:
    """Compile each noun as a case-insensitive whole word with optional plural."""
    return [(noun, re.compile(rf"\b(?:{noun})s?\b", re.IGNORECASE)) for noun in nouns]


def split_identifiers(line: str) -> str:
    """Turn snake_case and camelCase identifiers into space-separated words."""
    return _CAMEL_BOUNDARY.sub(" ", line).replace("_", " ")


def scan_file(path: Path, patterns: list[tuple[str, re.Pattern[str]]]) -> list[Hit]:
    """Return every noun occurrence in one source file."""
    hits: list[Hit] = []
    text = path.read_text(encoding="utf-8", errors="replace")
    for number, line in enumerate(text.splitlines(), start=1):
        words = split_identifiers(line)
        hits.extend(Hit(path, number, noun, line.strip()) for noun, pattern in patterns if pattern.search(words))
    return hits


def scan_tree(root: Path, patterns: list[tuple[str, re.Pattern[str]]]) -> list[Hit]:
    """Scan every ``*.py`` file under ``root``; a missing folder has no hits."""
    if not root.is_dir():
        return []
    hits: list[Hit] = []
    for path in sorted(root.rglob("*.py")):
        hits.extend(scan_file(path, patterns))
    return hits


def format_hits(hits: list[Hit], base: Path) -> str:
    """Render hits as ``file:line: noun 'noun' in: source`` lines."""
    rows = []
    for hit in hits:
        try:
            shown = hit.path.relative_to(base)
        except ValueError:
            shown = hit.path
        rows.append(f"{shown}:{hit.line}: noun {hit.noun!r} in: {hit.text}")
    return "\n".join(rows)


def test_engine_names_no_game_nouns() -> None:
    """No engine source file mentions a game-specific noun."""
    hits = scan_tree(ENGINE_DIR, compile_nouns(load_nouns()))
    assert not hits, "game nouns in engine code:\n" + format_hits(hits, REPO_ROOT)


def test_noun_list_is_usable() -> None:
    """The list is non-empty, lowercase, duplicate-free and holds known entries."""
    nouns = load_nouns()
    assert len(nouns) >= 80
    assert {"duct.?tape", "inventor", "robot", "cylindroid", "guild"} <= set(nouns)
    assert all(noun == noun.lower() for noun in nouns)
    assert len(nouns) == len(set(nouns))
    compile_nouns(nouns)  # every line is a valid regex


def test_noun_list_spares_kernel_vocabulary() -> None:
    """Generic engine words (card, deck, zone, module, ...) are never flagged."""
    patterns = compile_nouns(load_nouns())
    flagged = [(word, noun) for word in KERNEL_VOCABULARY for noun, pattern in patterns if pattern.search(word)]
    assert not flagged


def test_scanner_catches_planted_noun(tmp_path: Path) -> None:
    """A planted noun is reported with its file and line; clean code is not."""
    package = tmp_path / "engine" / "sub"
    package.mkdir(parents=True)
    (package / "planted.py").write_text(
        "def pay(state):\n    state.duct_tape -= 1\n\nclass InventorCard:\n    '''Holds Batteries.'''\n",
        encoding="utf-8",
    )
    (package / "clean.py").write_text(
        "def draw(deck, hand):\n    hand.append(deck.pop())\n",
        encoding="utf-8",
    )
    (package / "notes.txt").write_text("robot\n", encoding="utf-8")

    patterns = compile_nouns(["duct.?tape", "inventor", "batteries", "robot"])
    hits = scan_tree(tmp_path / "engine", patterns)

    assert [(h.path.name, h.line, h.noun) for h in hits] == [
        ("planted.py", 2, "duct.?tape"),
        ("planted.py", 4, "inventor"),
        ("planted.py", 5, "batteries"),
    ]
    report = format_hits(hits, tmp_path)
    assert "engine/sub/planted.py:2: noun 'duct.?tape'" in report


def test_scanner_matches_whole_words_only(tmp_path: Path) -> None:
    """Nouns inside longer words do not count; plurals and identifiers do."""
    source = tmp_path / "words.py"
    source.write_text("gears = 1\nstrategy = 2\nshipment = 3\nMAX_SHIPS = 4\n", encoding="utf-8")
    hits = scan_file(source, compile_nouns(["gear", "gas", "ship"]))
    assert [(h.line, h.noun) for h in hits] == [(1, "gear"), (4, "ship")]


def test_missing_engine_folder_has_no_hits(tmp_path: Path) -> None:
    """Scanning a folder that does not exist yields nothing."""
    assert scan_tree(tmp_path / "missing", compile_nouns(["robot"])) == []
