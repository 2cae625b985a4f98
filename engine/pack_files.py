"""Finding a pack and loading all of its YAML files into one merged `RawPack`.

Every file is loaded and schema-checked even after a problem, so one run
reports everything; the merge keeps each definition's file and path for
later diagnostics (DSL errors, unknown references).
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

from engine import cache
from engine.diagnostics import Diagnostic, PackError, did_you_mean
from engine.resources import data_dir
from engine.schema_check import validate
from engine.source import DataPath, SourceFile, load_yaml

MANIFEST = "pack.yaml"
MAX_FILES = 500
MAX_TOTAL_BYTES = 20 * 1024 * 1024
SKIPPED_DIRS = frozenset({"tests", "scenarios"})
ID_SECTIONS = ("counters", "wildcards", "zones", "component_types", "procedures")
NAMESPACE = "counters, wildcards, zones, component types, components, procedures and options"


@dataclass
class Entry:
    """One definition and where it came from."""

    id: str
    section: str
    data: Any
    src: SourceFile
    path: DataPath
    ctype: str | None = None    # components only: the component type key they are listed under


@dataclass
class RawPack:
    """All files of a pack, merged by section; names are not yet resolved."""

    root: Path
    manifest: Any
    manifest_src: SourceFile
    counters: dict[str, Entry] = field(default_factory=dict)
    wildcards: dict[str, Entry] = field(default_factory=dict)
    zones: dict[str, Entry] = field(default_factory=dict)
    component_types: dict[str, Entry] = field(default_factory=dict)
    procedures: dict[str, Entry] = field(default_factory=dict)
    components: dict[str, Entry] = field(default_factory=dict)
    triggers: list[Entry] = field(default_factory=list)
    flow: Entry | None = None
    scoring: Entry | None = None
    files: list[SourceFile] = field(default_factory=list)


def find_pack(spec: str) -> Path:
    """A folder holding pack.yaml (or that file itself), else a built-in pack by name."""
    path = Path(spec)
    if path.name == MANIFEST and path.is_file():
        return path.parent
    if (path / MANIFEST).is_file():
        return path
    builtins = _builtin_packs()
    if spec in builtins:
        return builtins[spec]
    message = f"folder '{spec}' has no {MANIFEST}" if path.is_dir() else f"no pack folder or built-in pack '{spec}'"
    listing = f"built-in packs: {', '.join(builtins)}" if builtins else None
    raise PackError([Diagnostic("PACK001", message, spec, 1, 1, hint=did_you_mean(spec, builtins) or listing)])


def _builtin_packs() -> dict[str, Path]:
    try:
        content = data_dir("content")
    except FileNotFoundError:
        return {}
    return {d.name: d for d in sorted(content.iterdir()) if (d / MANIFEST).is_file()}


def load_pack_files(root: Path) -> RawPack:
    """Load, schema-check and merge every YAML file of the pack at `root`.

    Raises one `PackError` holding every problem of every file.
    """
    base = Path(os.path.abspath(root))
    if not (base / MANIFEST).is_file():
        raise PackError([Diagnostic("PACK001", f"folder has no {MANIFEST}", base.name, 1, 1)])
    paths = _content_paths(base)
    _check_limits(base, [base / MANIFEST, *paths])
    diagnostics: list[Diagnostic] = []
    manifest_src = _load(base / MANIFEST, base, "pack.schema.json", diagnostics)
    sources = [src for path in paths if (src := _load(path, base, "content.schema.json", diagnostics))]
    if manifest_src is None:
        raise PackError(diagnostics)
    raw = RawPack(root=base, manifest=manifest_src.data, manifest_src=manifest_src, files=[manifest_src, *sources])
    diagnostics += _Merger(raw).merge(sources)
    if any(d.severity == "error" for d in diagnostics):
        raise PackError(diagnostics)
    return raw


def _display(path: Path, base: Path) -> str:
    """Paths in messages start at the pack folder's name: `my-pack/cards.yaml`."""
    return path.relative_to(base.parent).as_posix()


def _content_paths(base: Path) -> list[Path]:
    """Every *.yaml / *.yml except the manifest; hidden, tests and scenarios folders skipped."""
    found: list[Path] = []
    for folder, dirs, names in os.walk(base):
        dirs[:] = [d for d in dirs if not d.startswith(".") and d not in SKIPPED_DIRS]
        found += [Path(folder, n) for n in names if n.endswith((".yaml", ".yml")) and not n.startswith(".")]
    return sorted(p for p in found if p != base / MANIFEST and p.is_file())


def _check_limits(base: Path, paths: list[Path]) -> None:
    """Refuse packs too big to be hand-written content before reading any of them."""
    if len(paths) > MAX_FILES:
        _too_big(base, f"pack has {len(paths)} YAML files; the limit is {MAX_FILES}")
    total = sum(p.stat().st_size for p in paths)
    if total > MAX_TOTAL_BYTES:
        _too_big(base, f"pack's YAML files total {total:,} bytes; the limit is {MAX_TOTAL_BYTES:,} (20 MiB)")


def _too_big(base: Path, message: str) -> NoReturn:
    raise PackError([Diagnostic("PACK002", message, base.name, 1, 1, hint="split it into several packs")])


def _load(path: Path, base: Path, schema_id: str, diagnostics: list[Diagnostic]) -> SourceFile | None:
    """Load and schema-check one file, adding its problems to `diagnostics` (clean files are cached)."""
    display = _display(path, base)
    try:
        key = cache.file_key(path.read_bytes(), display, schema_id)
    except OSError:
        key = None
    hit = cache.get(key) if key else None
    if hit is not None:
        text, data = hit
        return SourceFile(path=path, display=display, text=text, data=data)
    try:
        src = load_yaml(path, display)
    except PackError as exc:
        diagnostics += exc.diagnostics
        return None
    found = validate(src, schema_id)
    diagnostics += found
    if key and not found:
        cache.put(key, (src.text, src.data))
    return src


def _items(value: Any) -> Iterator[tuple[Any, Any]]:
    """Key/value pairs of a mapping section; nothing for a malformed one (the schema reported it)."""
    return iter(value.items()) if isinstance(value, Mapping) else iter(())


class _Merger:
    """Merges sections file by file into `raw`, reporting ids defined twice."""

    def __init__(self, raw: RawPack) -> None:
        self.raw = raw
        self.ids: dict[str, Entry] = {}
        self.trigger_ids: dict[str, Entry] = {}
        self.diagnostics: list[Diagnostic] = []
        src = raw.manifest_src
        for name, data in _items(raw.manifest.get("options")):
            self._define(Entry(str(name), "options", data, src, ("options", name)))

    def merge(self, sources: list[SourceFile]) -> list[Diagnostic]:
        for src in sources:
            for section, value in src.data.items():
                self._section(src, section, value)
        return self.diagnostics

    def _section(self, src: SourceFile, section: str, value: Any) -> None:
        if section in ID_SECTIONS:
            for key, data in _items(value):
                self._define(Entry(str(key), section, data, src, (section, key)))
        elif section == "components":
            self._components(src, value)
        elif section == "triggers" and isinstance(value, list):
            for index, data in enumerate(value):
                self._trigger(src, index, data)
        elif section in ("flow", "scoring"):
            self._single(Entry(section, section, value, src, (section,)))

    def _components(self, src: SourceFile, value: Any) -> None:
        for ctype, items in _items(value):
            for index, data in enumerate(items if isinstance(items, list) else ()):
                comp_id = data.get("id") if isinstance(data, Mapping) else None
                if isinstance(comp_id, str):
                    self._define(Entry(comp_id, "components", data, src, ("components", ctype, index), str(ctype)))

    def _define(self, entry: Entry) -> None:
        """Add to the one namespace of ids; a second definition is DUP001."""
        first = self.ids.setdefault(entry.id, entry)
        if first is not entry:
            self._duplicate("DUP001", f"'{entry.id}' is already defined at {_where(first)}", entry,
                            f"the first is in {first.section}; {NAMESPACE} share one set of ids")
        elif entry.section != "options":
            getattr(self.raw, entry.section)[entry.id] = entry

    def _trigger(self, src: SourceFile, index: int, data: Any) -> None:
        """Global triggers get `trigger_N` (1-based, pack-wide) when they have no id."""
        given = data.get("id") if isinstance(data, Mapping) else None
        trigger_id = given if isinstance(given, str) else f"trigger_{len(self.raw.triggers) + 1}"
        entry = Entry(trigger_id, "triggers", data, src, ("triggers", index))
        first = self.trigger_ids.setdefault(entry.id, entry)
        if first is not entry:
            self._duplicate("DUP003", f"trigger id '{entry.id}' is already used at {_where(first)}", entry)
        self.raw.triggers.append(entry)

    def _single(self, entry: Entry) -> None:
        """`flow` and `scoring` may each appear in one file only."""
        first = getattr(self.raw, entry.section)
        if first is None:
            setattr(self.raw, entry.section, entry)
        else:
            self._duplicate("DUP002", f"'{entry.section}' is already defined at {_where(first)}", entry,
                            f"keep the whole {entry.section} section in one file")

    def _duplicate(self, code: str, message: str, entry: Entry, hint: str | None = None) -> None:
        line, col = _position(entry)
        self.diagnostics.append(Diagnostic(code, message, entry.src.display, line, col, hint=hint))


def _position(entry: Entry) -> tuple[int, int]:
    """A definition's key; for list items (components, triggers) their `id` value if any."""
    if isinstance(entry.path[-1], int):
        return entry.src.pos((*entry.path, "id"))
    return entry.src.key_pos(entry.path)


def _where(entry: Entry) -> str:
    line, col = _position(entry)
    return f"{entry.src.display}:{line}:{col}"
