"""Patches: the one way a pack changes definitions it did not write (RimWorld-style operations).

A content file's `patches:` list holds operations applied, in load order,
after the pack's own definitions are merged:

    {op: replace, target: card/goblin, path: points, value: 3}

`target` names a definition as `[KIND/][PACK.]ID` (KIND a section such as
`zones`, `triggers`, `components` or a component type id; PACK the pack that
must have defined it) or is `flow` / `scoring`. `path` walks into it with
`/`-separated keys, list indexes, or the `id` of a list item; `-` is the end
of a list. Every patch that matches nothing is an error unless it says
`optional: true`, every change is recorded (`RawPack.history`), and two packs
changing the same field without one depending on the other is a warning:
overrides are explicit, failed patches loud, and "last loaded wins" visible.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping, MutableMapping
from dataclasses import dataclass
from typing import Any

from engine.diagnostics import Diagnostic, did_you_mean
from engine.packs.raw import Entry, RawPack
from engine.packs.schema_check import validate
from engine.packs.source import DataPath, SourceFile

OPS = ("add", "replace", "remove", "merge")
SINGLE_SECTIONS = ("flow", "scoring")
_VERBS = {"add": "added", "replace": "replaced", "remove": "removed", "merge": "merged"}
Steps = tuple[str, ...]


@dataclass(frozen=True)
class Patch:
    """One operation of a `patches:` list and where it was written."""

    op: str
    target: str
    path: str
    value: Any
    has_value: bool
    optional: bool
    pack: str
    src: SourceFile
    at: DataPath            # the operation's place in its file

    @property
    def steps(self) -> Steps:
        return tuple(s for s in self.path.split("/") if s)

    def diagnostic(self, code: str, message: str, hint: str | None = None, key: str = "target",
                   severity: str = "error") -> Diagnostic:
        return Diagnostic(code, message, self.src.display, *self.src.pos((*self.at, key)), severity, hint)

    def where(self) -> str:
        line, col = self.src.pos(self.at)
        return f"{self.src.display}:{line}:{col}"


def read_patches(src: SourceFile, pack: str) -> list[Patch]:
    """The well-formed operations of one file (the content schema reported the others)."""
    entries = src.data.get("patches")
    patches: list[Patch] = []
    for index, entry in enumerate(entries if isinstance(entries, list) else ()):
        if isinstance(entry, Mapping) and entry.get("op") in OPS and isinstance(entry.get("target"), str):
            patches.append(Patch(entry["op"], entry["target"], str(entry.get("path") or ""), entry.get("value"),
                                 "value" in entry, bool(entry.get("optional", False)), pack, src,
                                 ("patches", index)))
    return patches


Field = tuple[Steps, bool]       # a changed field, and whether the change only appended to a list


@dataclass(frozen=True)
class _Change:
    """A field one pack changed; additive changes (appending to a list) never clash with each other."""

    steps: Steps
    additive: bool
    pack: str
    where: str


class _MissError(Exception):
    """The patch's path matches nothing (PATCH002)."""

    def __init__(self, message: str, hint: str | None) -> None:
        super().__init__(message)
        self.hint = hint


class _InvalidError(Exception):
    """The operation does not fit what the path names (PATCH003)."""


class Patcher:
    """Applies patches to a merged `RawPack`, recording history and clashes."""

    def __init__(self, raw: RawPack, ids: MutableMapping[str, Entry], ancestors: Mapping[str, set[str]],
                 diagnostics: list[Diagnostic]) -> None:
        self.raw = raw
        self.ids = ids                      # the pack-wide namespace, shared with the merger
        self.ancestors = ancestors
        self.diagnostics = diagnostics
        self.changes: dict[str, list[_Change]] = {}
        self.removed: dict[str, str] = {}   # history key -> who removed it

    def apply(self, patch: Patch) -> None:
        entry = self._target(patch)
        if entry is None:
            return
        if patch.op != "remove" and not patch.has_value:
            self.diagnostics.append(patch.diagnostic("PATCH003", f"'{patch.op}' needs a `value`", key="op"))
            return
        if patch.op == "remove" and not patch.steps:
            self._drop(entry, patch)
            self._record(patch, entry, [((), False)])
            return
        try:        # on a copy: the loaded file's data stays as written, and a failed patch changes nothing
            data, changed = _change(patch, copy.deepcopy(entry.data))
        except _MissError as miss:
            if not patch.optional:
                self.diagnostics.append(patch.diagnostic("PATCH002", f"path '{patch.path}' in {patch.target}: "
                                                         f"{miss}", miss.hint, key="path"))
            return
        except _InvalidError as exc:
            self.diagnostics.append(patch.diagnostic("PATCH003", str(exc), key="op"))
            return
        problems = _problems(patch, entry, data)
        self.diagnostics += problems
        if not problems:
            entry.data = data
            self._record(patch, entry, changed)

    # ------------------------------------------------------------------ targets
    def _target(self, patch: Patch) -> Entry | None:
        """The definition a target names, or None after reporting PATCH001 (unless optional)."""
        kind, _, rest = patch.target.rpartition("/")
        pack, _, name = rest.rpartition(".")
        if not kind and name in SINGLE_SECTIONS:
            entry = getattr(self.raw, name)
            pool: Mapping[str, Entry] = {name: entry} if entry is not None else {}
        elif kind == "triggers":
            pool = {t.id: t for t in self.raw.triggers}
        else:
            pool = {i: e for i, e in self.ids.items() if e.section != "options"}
        entry = pool.get(name)
        problem, hint = self._mismatch(entry, kind, pack, name, pool)
        if problem is None:
            return entry
        if not patch.optional:
            removed = self.removed.get(_key_of(kind, name))
            self.diagnostics.append(patch.diagnostic("PATCH001", f"patch target '{patch.target}' {problem}",
                                                     f"it was removed by {removed}" if removed else hint))
        return None

    @staticmethod
    def _mismatch(entry: Entry | None, kind: str, pack: str, name: str,
                  pool: Mapping[str, Entry]) -> tuple[str | None, str | None]:
        if entry is None:
            return "matches no definition", did_you_mean(name, pool)
        if kind and kind not in (entry.section, entry.ctype) and not (kind == "components" and entry.ctype):
            right = entry.ctype or entry.section
            return f"is a {right}, not in {kind}", f"write target: {right}/{name}"
        if pack and pack != entry.pack:
            plain = f"{kind}/{name}" if kind else name
            return f"is defined by pack '{entry.pack}', not '{pack}'", f"write target: {plain}"
        return None, None

    # ------------------------------------------------------------------ bookkeeping
    def _drop(self, entry: Entry, patch: Patch) -> None:
        """Remove a whole definition from the pack."""
        if entry.section in SINGLE_SECTIONS:
            setattr(self.raw, entry.section, None)
        elif entry.section == "triggers":
            self.raw.triggers = [t for t in self.raw.triggers if t is not entry]
        else:
            del getattr(self.raw, entry.section)[entry.id]
            del self.ids[entry.id]
        self.removed[history_key(entry)] = f"'{patch.pack}' at {patch.where()}"

    def _record(self, patch: Patch, entry: Entry, changed: list[Field]) -> None:
        """Log the change and report clashes with unrelated packs."""
        key = history_key(entry)
        line = f"{_VERBS[patch.op]} {patch.path or 'the whole definition'} by {patch.pack} ({patch.where()})"
        self.raw.history.setdefault(key, [f"defined in {entry.pack} ({entry.where()})"]).append(line)
        earlier = self.changes.setdefault(key, [])
        for steps, additive in changed:
            change = _Change(steps, additive, patch.pack, patch.where())
            clash = next((c for c in earlier if self._clash(c, change)), None)
            if clash is not None:
                self.diagnostics.append(patch.diagnostic(
                    "PATCH004", f"'{patch.pack}' and '{clash.pack}' ({clash.where}) both change "
                    f"{patch.target} {'/'.join(change.steps) or '(the whole definition)'}, and neither depends on "
                    "the other", f"the result depends on load order; declare a dependency (`kind: optional` is "
                    f"enough) between '{patch.pack}' and '{clash.pack}' to make it deliberate", severity="warning"))
            earlier.append(change)

    def _clash(self, old: _Change, new: _Change) -> bool:
        if old.pack == new.pack or (old.additive and new.additive):
            return False
        if old.pack in self.ancestors.get(new.pack, ()) or new.pack in self.ancestors.get(old.pack, ()):
            return False
        shorter = min(len(old.steps), len(new.steps))
        return old.steps[:shorter] == new.steps[:shorter]


def history_key(entry: Entry) -> str:
    """How `RawPack.history` names a definition: its id, `triggers/ID`, `flow` or `scoring`."""
    return _key_of("triggers" if entry.section == "triggers" else "", entry.id)


def _key_of(kind: str, name: str) -> str:
    return f"triggers/{name}" if kind == "triggers" else name


def _change(patch: Patch, data: Any) -> tuple[Any, list[Field]]:
    """Apply the operation to `data` (a definition); the result and the fields it changed."""
    value = copy.deepcopy(patch.value)
    if not patch.steps:
        if patch.op == "replace":
            return value, [((), False)]
        if patch.op == "merge":
            return data, [(leaf, False) for leaf in _merge(data, value)]
        if not isinstance(data, list):
            raise _InvalidError(f"'add' needs a `path` naming where in {patch.target} to add; "
                                "new definitions go in their own section")
        data.append(value)
        return data, [((), True)]
    parent, walked = _walk(data, patch.steps[:-1])
    last = patch.steps[-1]
    if patch.op == "add":
        return data, [_add(parent, last, value, walked)]
    key = _find(parent, last)
    here = (*walked, _name(parent, key))
    if patch.op == "merge":
        return data, [((*here, *leaf), False) for leaf in _merge(parent[key], value)]
    if patch.op == "replace":
        parent[key] = value
    else:
        del parent[key]
    return data, [(here, False)]


def _problems(patch: Patch, entry: Entry, data: Any) -> list[Diagnostic]:
    """A patched definition must keep its id and still fit the content schema."""
    keeps_id = not isinstance(data, Mapping) or data.get("id", entry.id) == entry.id
    if entry.section in ("components", "triggers") and not keeps_id:
        return [patch.diagnostic("PATCH003", f"a patch cannot change the id of '{entry.id}'", key="op",
                                 hint="remove the definition and define a new one instead")]
    if entry.ctype:
        wrapped: dict[str, Any] = {"components": {entry.ctype: [data]}}
    elif entry.section == "triggers":
        wrapped = {"triggers": [data]}
    elif entry.section in SINGLE_SECTIONS:
        wrapped = {entry.section: data}
    else:
        wrapped = {entry.section: {entry.id: data}}
    view = SourceFile(patch.src.path, patch.src.display, patch.src.text, wrapped)
    return [patch.diagnostic(found.code, f"after this patch, {patch.target} is invalid: {found.message}", found.hint,
                             key="op") for found in validate(view, "content.schema.json")]


def _add(parent: Any, last: str, value: Any, walked: Steps) -> Field:
    """A new key, an item appended to a named list (or at `-`), or inserted before an item."""
    if isinstance(parent, MutableMapping):
        if last not in parent:
            parent[last] = value
            return (*walked, last), False
        if not isinstance(parent[last], list):
            raise _InvalidError(f"'{last}' already exists: use replace or merge to change it")
        parent[last].append(value)
        return (*walked, last), True
    if isinstance(parent, list) and last == "-":
        parent.append(value)
        return walked, True
    parent.insert(_find(parent, last), value)
    return walked, True


def _walk(data: Any, steps: Steps) -> tuple[Any, Steps]:
    """The container `steps` lead to, and the steps with list indexes named by item ids."""
    walked: list[str] = []
    for step in steps:
        key = _find(data, step)
        walked.append(_name(data, key))
        data = data[key]
    return data, tuple(walked)


def _find(container: Any, step: str) -> Any:
    """The key or index `step` names in `container`; `_MissError` with a hint if none."""
    if isinstance(container, Mapping):
        if step in container:
            return step
        keys = [str(k) for k in container]
        raise _MissError(f"no key '{step}'", did_you_mean(step, keys) or f"keys there: {', '.join(keys) or 'none'}")
    if isinstance(container, list):
        ids = [item.get("id") if isinstance(item, Mapping) else None for item in container]
        if step.isdigit() and int(step) < len(container):
            return int(step)
        if step in ids:
            return ids.index(step)
        named = [str(i) for i in ids if i is not None]
        listing = f"items there: 0..{len(container) - 1}" + (f" or {', '.join(named)}" if named else "")
        raise _MissError(f"no item '{step}'", did_you_mean(step, named) or (listing if container else "it is empty"))
    raise _MissError(f"'{step}' goes inside a value that is neither a mapping nor a list", None)


def _name(container: Any, key: Any) -> str:
    """A list item by its id when it has one (stable across packs), else by index."""
    if isinstance(container, list) and isinstance(container[key], Mapping) and "id" in container[key]:
        return str(container[key]["id"])
    return str(key)


def _merge(into: Any, value: Any) -> Iterator[Steps]:
    """Deep-merge mapping `value` into mapping `into`, yielding each field set."""
    if not isinstance(into, MutableMapping) or not isinstance(value, Mapping):
        raise _InvalidError("'merge' needs a mapping `value` and a `path` naming a mapping")
    for key, new in value.items():
        if isinstance(into.get(key), MutableMapping) and isinstance(new, Mapping):
            yield from ((key, *rest) for rest in _merge(into[key], new))
        else:
            into[key] = new
            yield (key,)
