"""The data model of a pack as read from its files: each definition (`Entry`) with the file and path it
came from, merged by section into one `RawPack`. Names are not resolved yet; the loader
(engine/packs/files.py) fills it, patches (engine/packs/patches.py) change it, the compiler reads it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.diagnostics import Diagnostic
from engine.packs.source import DataPath, SourceFile


@dataclass
class Entry:
    """One definition and where it came from."""

    id: str
    section: str
    data: Any
    src: SourceFile
    path: DataPath
    ctype: str | None = None    # components only: the component type key they are listed under
    pack: str = ""              # id of the pack that defined it

    def position(self) -> tuple[int, int]:
        """A definition's key; for list items (components, triggers) their `id` value if any."""
        if isinstance(self.path[-1], int):
            return self.src.pos((*self.path, "id"))
        return self.src.key_pos(self.path)

    def where(self) -> str:
        line, col = self.position()
        return f"{self.src.display}:{line}:{col}"


@dataclass
class RawPack:
    """All files of a pack and of the packs it depends on, merged by section; names are not yet resolved.

    `manifest` is the loaded pack's own, with its dependencies' options added.
    """

    root: Path
    manifest: Any
    manifest_src: SourceFile
    counters: dict[str, Entry] = field(default_factory=dict)
    wildcards: dict[str, Entry] = field(default_factory=dict)
    dice: dict[str, Entry] = field(default_factory=dict)
    zones: dict[str, Entry] = field(default_factory=dict)
    component_types: dict[str, Entry] = field(default_factory=dict)
    procedures: dict[str, Entry] = field(default_factory=dict)
    components: dict[str, Entry] = field(default_factory=dict)
    triggers: list[Entry] = field(default_factory=list)
    flow: Entry | None = None
    scoring: Entry | None = None
    files: list[SourceFile] = field(default_factory=list)
    packs: list[str] = field(default_factory=list)      # pack ids in load order; the loaded pack last
    # changed definitions (by id, `triggers/ID`, `flow`, `scoring`): "defined in A (file:line:col)", then
    # one line per patch, e.g. "replaced points by B (file:line:col)"
    history: dict[str, list[str]] = field(default_factory=dict)
    warnings: list[Diagnostic] = field(default_factory=list)   # problems that do not stop loading
