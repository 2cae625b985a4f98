"""The packs a pack needs: reading `dependencies`, finding those packs, checking versions, load order.

Kinds follow Factorio: a `required` pack is loaded first (and the packs it
needs, transitively); an `optional` one is not loaded for it but, when another
pack brings it in, is loaded before it and must match its version test; an
`incompatible` one must not be loaded at all. The load order is deterministic:
every pack after the packs it depends on, ties broken by pack id.
"""

from __future__ import annotations

import heapq
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from engine import __version__
from engine.diagnostics import Diagnostic, did_you_mean
from engine.packs.source import SourceFile
from engine.packs.versions import ANY, Constraint, parse_constraint

KINDS = ("required", "optional", "incompatible")
_STRING = re.compile(r"\s*([?!]?)\s*([a-z][a-z0-9]*(?:-[a-z0-9]+)*)(.*)$", re.DOTALL)
_PREFIX_KINDS = {"": "required", "?": "optional", "!": "incompatible"}


@dataclass(frozen=True)
class Dependency:
    """One entry of a manifest's `dependencies` list."""

    id: str
    kind: str
    version: Constraint
    index: int          # its position in the list, for diagnostics


def parse_dependency(entry: Any, index: int) -> Dependency | None:
    """`{id, version?, kind?}` or a Factorio-style string ("? id >=1.0"); None if malformed
    (the manifest schema has reported it)."""
    if isinstance(entry, Mapping):
        pack_id, kind, text = entry.get("id"), entry.get("kind", "required"), entry.get("version", "")
    elif isinstance(entry, str) and (found := _STRING.match(entry)):
        pack_id, kind, text = found.group(2), _PREFIX_KINDS[found.group(1)], found.group(3)
    else:
        return None
    version = parse_constraint(str(text))
    if not isinstance(pack_id, str) or kind not in KINDS or version is None:
        return None
    return Dependency(pack_id, kind, version, index)


@dataclass(eq=False)
class PackInfo:
    """One pack of a load set: its folder and its loaded, schema-checked manifest."""

    root: Path
    manifest: SourceFile

    @property
    def id(self) -> str:
        return str(self.manifest.data.get("id", self.root.name))

    @property
    def version(self) -> str:
        return str(self.manifest.data.get("version", ""))

    @cached_property
    def dependencies(self) -> list[Dependency]:
        entries = self.manifest.data.get("dependencies")
        found = (parse_dependency(e, i) for i, e in enumerate(entries if isinstance(entries, list) else ()))
        return [d for d in found if d is not None]

    def diagnostic(self, code: str, message: str, dep: Dependency | None = None, hint: str | None = None,
                   key: str = "dependencies") -> Diagnostic:
        """A problem located at one of the pack's dependency entries (or at manifest key `key`)."""
        path: tuple[str | int, ...] = (key,) if dep is None else (key, dep.index)
        return Diagnostic(code, message, self.manifest.display, *self.manifest.pos(path), hint=hint)


ReadManifest = Callable[[Path], SourceFile | None]


def resolve(root: PackInfo, read: ReadManifest, builtins: Mapping[str, Path]) -> tuple[list[PackInfo],
                                                                                        list[Diagnostic]]:
    """Every pack `root` needs (itself included) in load order, and every dependency problem.

    `read` loads and schema-checks a manifest (reporting its own problems);
    a dependency is looked for in a sibling folder named by its id, then
    among the built-in packs.
    """
    packs: dict[str, PackInfo] = {root.id: root}
    diagnostics: list[Diagnostic] = []
    queue = [root]
    while queue:
        pack = queue.pop(0)
        for dep in pack.dependencies:
            if dep.kind == "required" and dep.id not in packs:
                found = _open(pack, dep, read, builtins, diagnostics)
                if found is not None:
                    packs[found.id] = found
                    queue.append(found)
    for pack in sorted(packs.values(), key=lambda p: p.id):
        diagnostics += _check(pack, packs)
    order, leftover = _order(packs)
    if leftover:
        diagnostics.append(_cycle(packs, leftover))
    return [packs[i] for i in order + sorted(leftover)], diagnostics


def ancestors(packs: Iterable[PackInfo]) -> dict[str, set[str]]:
    """For each pack id, every loaded pack it depends on, directly or not."""
    edges = _edges({p.id: p for p in packs})
    found: dict[str, set[str]] = {}
    for start in edges:
        seen: set[str] = set()
        stack = list(edges[start])
        while stack:
            current = stack.pop()
            if current not in seen:
                seen.add(current)
                stack.extend(edges.get(current, ()))
        found[start] = seen
    return found


def _open(pack: PackInfo, dep: Dependency, read: ReadManifest, builtins: Mapping[str, Path],
          diagnostics: list[Diagnostic]) -> PackInfo | None:
    sibling = pack.root.parent / dep.id
    folder = sibling if (sibling / "pack.yaml").is_file() else builtins.get(dep.id)
    if folder is None:
        siblings = [p.parent.name for p in pack.root.parent.glob("*/pack.yaml")]
        hint = did_you_mean(dep.id, [*siblings, *builtins]) or (
            f"looked for a folder {sibling} and a built-in pack; built-in packs: {', '.join(builtins) or 'none'}")
        diagnostics.append(pack.diagnostic("PACK005", f"required pack '{dep.id}' not found", dep, hint))
        return None
    manifest = read(folder)
    if manifest is None:
        return None
    found = PackInfo(folder, manifest)
    if found.id != dep.id:
        diagnostics.append(pack.diagnostic("PACK005", f"folder {folder} holds pack '{found.id}', not '{dep.id}'",
                                           dep, "rename the folder to the pack's id"))
        return None
    return found


def _check(pack: PackInfo, packs: Mapping[str, PackInfo]) -> list[Diagnostic]:
    """The engine range, the version tests on loaded dependencies, and incompatibilities."""
    found: list[Diagnostic] = []
    engine = parse_constraint(str(pack.manifest.data.get("engine", ""))) or ANY
    if not engine.allows(__version__):
        found.append(pack.diagnostic("PACK004", f"pack '{pack.id}' needs engine {engine.text}; this is cogwork "
                                     f"{__version__}", key="engine",
                                     hint="use a Cogwork version in that range, or update the pack's `engine`"))
    for dep in pack.dependencies:
        other = packs.get(dep.id)
        if other is None:
            continue
        if dep.kind == "incompatible" and dep.version.allows(other.version):
            found.append(pack.diagnostic("PACK007", f"'{pack.id}' cannot be loaded together with '{other.id}' "
                                         f"{other.version}", dep, "leave one of the two packs out"))
        elif dep.kind != "incompatible" and not dep.version.allows(other.version):
            found.append(pack.diagnostic("PACK006", f"'{pack.id}' needs '{dep.id}' {dep.version.text}; found "
                                         f"version {other.version} in {other.root}", dep))
    return found


def _edges(packs: Mapping[str, PackInfo]) -> dict[str, set[str]]:
    """pack id -> ids of the loaded packs it must come after (required and optional dependencies)."""
    return {i: {d.id for d in p.dependencies if d.kind != "incompatible" and d.id in packs}
            for i, p in packs.items()}


def _order(packs: Mapping[str, PackInfo]) -> tuple[list[str], set[str]]:
    """Topological order, smallest id first among the ready ones; the ids left in a cycle."""
    waiting = _edges(packs)
    ready = [i for i, deps in waiting.items() if not deps]
    heapq.heapify(ready)
    order: list[str] = []
    while ready:
        current = heapq.heappop(ready)
        order.append(current)
        for other, deps in waiting.items():
            if current in deps:
                deps.discard(current)
                if not deps:
                    heapq.heappush(ready, other)
    return order, set(packs) - set(order)


def _cycle(packs: Mapping[str, PackInfo], leftover: set[str]) -> Diagnostic:
    """PACK008 at the dependency entry that closes one cycle among `leftover`."""
    edges = _edges(packs)
    path = [min(leftover)]
    while path.count(path[-1]) < 2:
        path.append(min(edges[path[-1]] & leftover))
    start = path.index(path[-1])
    cycle = path[start:]
    pack = packs[cycle[-2]]
    dep = next(d for d in pack.dependencies if d.id == cycle[-1])
    return pack.diagnostic("PACK008", f"dependency cycle: {' → '.join(cycle)}", dep,
                           "packs cannot depend on each other in a circle; move the shared part into its own pack")
