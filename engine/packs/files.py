"""Finding a pack and loading all of its YAML files, and those of the packs it depends on,
into one merged `RawPack`.

Every file is loaded and schema-checked even after a problem, so one run
reports everything; the merge keeps each definition's file, path and pack for
later diagnostics (DSL errors, unknown references). Packs are merged in load
order (engine/packs/dependencies.py) into one flat namespace, so the compiler looks
names up as for a single pack: a pack may not redefine another pack's id
(DUP004), only change it with a patch (engine/packs/patches.py).
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
from collections.abc import Iterator, Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any, NoReturn

from engine.diagnostics import Diagnostic, PackError, did_you_mean
from engine.packs import cache, overlay
from engine.packs.dependencies import PackInfo, ancestors, resolve
from engine.packs.patches import SINGLE_SECTIONS, Patcher, read_patches
from engine.packs.raw import Entry, RawPack
from engine.packs.schema_check import validate
from engine.packs.source import MAX_FILE_BYTES, SourceFile, load_yaml
from engine.resources import data_dir

MANIFEST = "pack.yaml"
MAX_FILES = 500
MAX_TOTAL_BYTES = 20 * 1024 * 1024
SKIPPED_DIRS = frozenset({"tests", "scenarios"})
ID_SECTIONS = ("counters", "wildcards", "dice", "zones", "component_types", "procedures")
NAMESPACE = "counters, wildcards, dice, zones, component types, components, procedures and options"


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
    """Load, schema-check and merge every YAML file of the pack at `root` and of the packs it needs.

    Raises one `PackError` holding every problem of every file; warnings
    are left in `RawPack.warnings`.
    """
    base = Path(os.path.abspath(root))
    if not (base / MANIFEST).is_file():
        raise PackError([Diagnostic("PACK001", f"folder has no {MANIFEST}", base.name, 1, 1)])
    diagnostics: list[Diagnostic] = []
    manifest_src, packs = _load_set(base, diagnostics)
    if manifest_src is None:
        try:
            _content(base, diagnostics)
        except PackError as exc:        # too large: said after the manifest's own problem
            diagnostics += exc.diagnostics
        raise PackError(diagnostics)
    raw = RawPack(root=base, manifest=manifest_src.data, manifest_src=manifest_src, packs=[p.id for p in packs])
    merger = _Merger(raw, ancestors(packs), diagnostics)
    for pack in packs:
        sources = _content(pack.root, diagnostics)
        raw.files += [pack.manifest, *sources]
        merger.merge(pack, sources)
    merger.add_options()
    if any(d.severity == "error" for d in diagnostics):
        raise PackError(diagnostics)
    raw.warnings = diagnostics
    return raw


def pack_inputs(root: Path) -> list[Path] | None:
    """Every file that loading the pack at `root` reads: the manifests and content files of it and
    of the packs it needs, in load order. None when a manifest or a dependency has a problem, or
    the pack is too large: then what is read depends on more than these files."""
    base = Path(os.path.abspath(root))
    if not (base / MANIFEST).is_file():
        return None
    diagnostics: list[Diagnostic] = []
    manifest_src, packs = _load_set(base, diagnostics)
    if manifest_src is None or diagnostics:
        return None
    try:
        return [path for pack in packs for path in (pack.root / MANIFEST, *_checked_paths(pack.root))]
    except PackError:
        return None


def _load_set(base: Path, diagnostics: list[Diagnostic]) -> tuple[SourceFile | None, list[PackInfo]]:
    """The pack's loaded manifest and every pack it needs, itself included, in load order."""

    def read_manifest(folder: Path) -> SourceFile | None:
        return _load(folder / MANIFEST, folder, "pack.schema.json", diagnostics)

    manifest_src = read_manifest(base)
    if manifest_src is None:
        return None, []
    packs, found = resolve(PackInfo(base, manifest_src), read_manifest, _builtin_packs())
    diagnostics += found
    return manifest_src, packs


def _content(base: Path, diagnostics: list[Diagnostic]) -> list[SourceFile]:
    """The loaded content files (all but the manifest) of the pack at `base`."""
    paths = _checked_paths(base, diagnostics)
    return [src for path in paths if (src := _load(path, base, "content.schema.json", diagnostics,
                                                   in_subfolder=path.parent != base))]


def _checked_paths(base: Path, diagnostics: list[Diagnostic] | None = None) -> list[Path]:
    """The content files of the pack at `base`, once their number and size are checked; links
    to outside the pack and folders holding another pack are left out (and reported)."""
    found = diagnostics if diagnostics is not None else []
    paths = _content_paths(base, found)
    if diagnostics is None and found:
        raise PackError(found)
    _check_limits(base, [base / MANIFEST, *paths])
    return paths


def _display(path: Path, base: Path) -> str:
    """Paths in messages start at the pack folder's name: `my-pack/cards.yaml`."""
    return path.relative_to(base.parent).as_posix()


def _content_paths(base: Path, diagnostics: list[Diagnostic]) -> list[Path]:
    """Every *.yaml / *.yml except the manifest; hidden, tests and scenarios folders skipped, and
    folders holding a pack.yaml of their own (another pack: PACK010). A file or folder that is a
    symbolic link to outside the pack is not read (PACK009): packs are read only inside their folder."""
    found: list[Path] = []
    real_base = os.path.realpath(base)
    for folder, dirs, names in os.walk(base):
        kept = []
        for d in sorted(dirs):
            path = Path(folder, d)
            if d.startswith(".") or d in SKIPPED_DIRS:
                continue
            if path.is_symlink():
                _refuse_link(path, base, real_base, diagnostics)
            elif (path / MANIFEST).is_file():
                diagnostics.append(Diagnostic(
                    "PACK010", "folder holds another pack (its own pack.yaml): not loaded as part of this one",
                    _display(path / MANIFEST, base), 1, 1, severity="warning",
                    hint="load it on its own, or name it in `requires:`"))
            else:
                kept.append(d)
        dirs[:] = kept
        for n in sorted(names):
            path = Path(folder, n)
            if not n.endswith((".yaml", ".yml")) or n.startswith(".") or path == base / MANIFEST:
                continue
            if path.is_symlink() and not _inside(path, real_base):
                _refuse_link(path, base, real_base, diagnostics)
            elif path.is_file():
                found.append(path)
    return sorted(found)


def _inside(path: Path, real_base: str) -> bool:
    """Whether `path`, links followed, is within the pack folder."""
    return os.path.commonpath([os.path.realpath(path), real_base]) == real_base


def _refuse_link(path: Path, base: Path, real_base: str, diagnostics: list[Diagnostic]) -> None:
    """A link to outside the pack: an error (never naming or reading its target); links to folders
    inside it are not followed either (each file is read once, through its own folder)."""
    if path.is_dir() and _inside(path, real_base):
        return
    diagnostics.append(Diagnostic(
        "PACK009", "symbolic link to outside the pack: not read", _display(path, base), 1, 1,
        hint="packs are read only inside their own folder; copy the file into the pack"))


def _check_limits(base: Path, paths: list[Path]) -> None:
    """Refuse packs too big to be hand-written content before reading any of them."""
    if len(paths) > MAX_FILES:
        _too_big(base, f"pack has {len(paths)} YAML files; the limit is {MAX_FILES}")
    total = sum(p.stat().st_size for p in paths)
    if total > MAX_TOTAL_BYTES:
        _too_big(base, f"pack's YAML files total {total:,} bytes; the limit is {MAX_TOTAL_BYTES:,} (20 MiB)")


def _too_big(base: Path, message: str) -> NoReturn:
    raise PackError([Diagnostic("PACK002", message, base.name, 1, 1, hint="split it into several packs")])


def _load(path: Path, base: Path, schema_id: str, diagnostics: list[Diagnostic],
          in_subfolder: bool = False) -> SourceFile | None:
    """Load and schema-check one file, adding its problems to `diagnostics` (clean files are cached).

    A file in a sub-folder with none of the content sections (a CI or documentation config, say)
    is not content: skipped with a warning (PACK011) rather than failing the pack.
    """
    display = _display(path, base)
    if path.is_symlink() and not _inside(path, os.path.realpath(base)):
        _refuse_link(path, base, os.path.realpath(base), diagnostics)
        return None
    try:
        info = path.stat()
        small = stat.S_ISREG(info.st_mode) and info.st_size <= MAX_FILE_BYTES    # else load_yaml refuses it
        raw = overlay.read_bytes(path) if small else None
        key = cache.file_key(raw, display, schema_id) if raw is not None else None
    except OSError:
        raw = key = None
    hit = cache.get(key) if key else None
    if raw is not None and isinstance(hit, dict) and "data" in hit:
        with contextlib.suppress(UnicodeDecodeError):   # it did decode when it was stored
            return SourceFile(path, display, raw.decode("utf-8-sig"), hit["data"], hit.get("layout"))
    try:
        src = load_yaml(path, display)
    except PackError as exc:
        diagnostics += exc.diagnostics
        return None
    if in_subfolder and isinstance(src.data, Mapping) and not set(map(str, src.data)) & content_sections():
        diagnostics.append(Diagnostic(
            "PACK011", "file in a sub-folder has none of the content sections: not loaded", display, 1, 1,
            severity="warning", hint=f"content files have {', '.join(sorted(content_sections()))}"))
        return None
    found = validate(src, schema_id)
    diagnostics += found
    data = _exact_json(src.data) if key and not found else None
    layout = cache.encode(src.layout) if data is not None else None
    if key and data is not None and layout is not None:
        # its text is not stored: it is the file's bytes, read anyway to make the key
        cache.put_encoded(key, f'{{"data":{data},"layout":{layout}}}')
    return src


def _exact_json(data: Any) -> str | None:
    """`data` as JSON if JSON gives it back unchanged, else None: keys that are not text (`1:`, `true:`)
    or NaN would come back different, so such a file is not cached. (Its layout's tuples come back as
    lists, which `SourceFile` reads alike.) Data fast_yaml read (a plain `dict`: ruamel's is a
    CommentedMap) is JSON's own kind of data, so it is not read back to compare."""
    body = cache.encode(data)
    if type(data) is dict:
        return body
    try:
        return body if body is not None and json.loads(body) == data else None
    except (ValueError, RecursionError):
        return None


@lru_cache(maxsize=1)
def content_sections() -> frozenset[str]:
    """The top-level keys a content file may have (content.schema.json)."""
    schema = json.loads((data_dir("schemas") / "content.schema.json").read_text(encoding="utf-8"))
    return frozenset(schema["properties"])


def _items(value: Any) -> Iterator[tuple[Any, Any]]:
    """Key/value pairs of a mapping section; nothing for a malformed one (the schema reported it)."""
    return iter(value.items()) if isinstance(value, Mapping) else iter(())


class _Merger:
    """Merges packs (in load order) file by file into `raw`, reporting ids defined twice, then
    applies each pack's patches."""

    def __init__(self, raw: RawPack, ancestors: dict[str, set[str]], diagnostics: list[Diagnostic]) -> None:
        self.raw = raw
        self.ids: dict[str, Entry] = {}
        self.trigger_ids: dict[str, Entry] = {}
        self.triggers_seen = 0
        self.diagnostics = diagnostics
        self.patcher = Patcher(raw, self.ids, ancestors, diagnostics)
        self.pack = ""

    def merge(self, pack: PackInfo, sources: list[SourceFile]) -> None:
        self.pack = pack.id
        for name, data in _items(pack.manifest.data.get("options")):
            self._define(Entry(str(name), "options", data, pack.manifest, ("options", name)))
        for src in sources:
            for section, value in src.data.items():
                self._section(src, section, value)
        for src in sources:
            for patch in read_patches(src, pack.id):
                self.patcher.apply(patch)

    def add_options(self) -> None:
        """Options of the dependencies join the loaded pack's own (the compiler reads them there)."""
        if any(e.section == "options" and e.pack != self.pack for e in self.ids.values()):
            options = {i: e.data for i, e in self.ids.items() if e.section == "options"}
            self.raw.manifest = {**self.raw.manifest, "options": options}

    def _section(self, src: SourceFile, section: str, value: Any) -> None:
        if section in ID_SECTIONS:
            for key, data in _items(value):
                self._define(Entry(str(key), section, data, src, (section, key)))
        elif section == "components":
            self._components(src, value)
        elif section == "triggers" and isinstance(value, list):
            for index, data in enumerate(value):
                self._trigger(src, index, data)
        elif section in SINGLE_SECTIONS:
            self._single(Entry(section, section, value, src, (section,)))

    def _components(self, src: SourceFile, value: Any) -> None:
        for ctype, items in _items(value):
            for index, data in enumerate(items if isinstance(items, list) else ()):
                comp_id = data.get("id") if isinstance(data, Mapping) else None
                if isinstance(comp_id, str):
                    self._define(Entry(comp_id, "components", data, src, ("components", ctype, index), str(ctype)))

    def _define(self, entry: Entry) -> None:
        """Add to the one namespace of ids; a second definition is DUP001 (same pack) or DUP004."""
        entry.pack = self.pack
        first = self.ids.setdefault(entry.id, entry)
        if first is not entry:
            self._duplicate("DUP001", f"'{entry.id}' is already defined at {first.where()}", first, entry,
                            f"the first is in {first.section}; {NAMESPACE} share one set of ids")
        elif entry.section != "options":
            getattr(self.raw, entry.section)[entry.id] = entry

    def _trigger(self, src: SourceFile, index: int, data: Any) -> None:
        """Global triggers get `trigger_N` (1-based, over all packs) when they have no id."""
        self.triggers_seen += 1
        given = data.get("id") if isinstance(data, Mapping) else None
        trigger_id = given if isinstance(given, str) else f"trigger_{self.triggers_seen}"
        entry = Entry(trigger_id, "triggers", data, src, ("triggers", index), pack=self.pack)
        first = self.trigger_ids.setdefault(entry.id, entry)
        if first is not entry:
            self._duplicate("DUP003", f"trigger id '{entry.id}' is already used at {first.where()}", first, entry)
        self.raw.triggers.append(entry)

    def _single(self, entry: Entry) -> None:
        """`flow` and `scoring` may each appear in one file only."""
        entry.pack = self.pack
        first = getattr(self.raw, entry.section)
        if first is None:
            setattr(self.raw, entry.section, entry)
        else:
            self._duplicate("DUP002", f"'{entry.section}' is already defined at {first.where()}", first, entry,
                            f"keep the whole {entry.section} section in one file")

    def _duplicate(self, code: str, message: str, first: Entry, entry: Entry, hint: str | None = None) -> None:
        """`code` within one pack; across packs DUP004, pointing at patches as the way to change it."""
        if first.pack != entry.pack:
            code, message = "DUP004", f"'{entry.id}' is already defined by pack '{first.pack}' at {first.where()}"
            hint = "choose another id" if first.section == "options" else (
                f"change it with a patch, e.g. patches: [{{op: replace, target: {_target(first)}, path: ..., "
                "value: ...}], or choose another id")
        line, col = entry.position()
        self.diagnostics.append(Diagnostic(code, message, entry.src.display, line, col, hint=hint))


def _target(entry: Entry) -> str:
    """How a patch names `entry`."""
    if entry.section in SINGLE_SECTIONS:
        return entry.section
    return f"{entry.ctype or entry.section}/{entry.id}"
