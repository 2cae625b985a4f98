"""`cogwork lint`: every finding of one or more packs, for people, editors and CI.

Findings come from loading (YAML, schemas, duplicate ids), compiling (names,
DSL), the type pass (engine/dsl/typecheck.py) and the semantic checks
(engine/lint/checks.py), each with a stable code documented in
docs/diagnostics.md. Formats: `text` (GCC style, with the offending line and a
caret), `json` (ruff's fields), `sarif` (2.1.0, for code scanning) and
`github` (workflow annotations).
"""

from __future__ import annotations

import gc
import json
import os
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

from engine import __version__
from engine.compile.build import Builder
from engine.diagnostics import Diagnostic, PackError, did_you_mean
from engine.dsl.sites import pack_sites, parse_each
from engine.dsl.typecheck import typecheck
from engine.errors import CogworkError
from engine.lint.checks import semantic_checks
from engine.packs import cache, overlay
from engine.packs.files import MANIFEST, find_pack, load_pack_files, pack_inputs
from engine.packs.raw import RawPack
from engine.packs.source import MAX_FILE_BYTES

DOCS_URL = "docs/diagnostics.md#{code}"
DEFAULT_GAMES = 2
UNREADABLE = frozenset({"PACK001", "YAML008"})     # nothing could be checked: exit 2, not 1


@dataclass(frozen=True)
class Rule:
    """One stable code: what it means in a few words, and how serious it is by default."""

    code: str
    title: str
    level: str = "error"


RULES: tuple[Rule, ...] = (
    Rule("YAML001", "not valid YAML"),
    Rule("YAML002", "a key appears twice in one mapping"),
    Rule("YAML003", "file larger than 2 MiB"),
    Rule("YAML004", "file is empty or its top level is not a mapping"),
    Rule("YAML005", "data nested too deeply or expanded by too many aliases"),
    Rule("YAML006", "a key that is not text"),
    Rule("YAML007", "a YAML tag the loader does not accept"),
    Rule("YAML008", "file cannot be read"),
    Rule("SCH001", "unknown key"),
    Rule("SCH002", "a required key is missing"),
    Rule("SCH003", "value of the wrong type"),
    Rule("SCH004", "value not allowed (range, pattern, list of choices)"),
    Rule("SCH005", "not exactly one of the allowed forms"),
    Rule("PACK001", "no pack here"),
    Rule("PACK002", "pack too large"),
    Rule("PACK003", "pack has no flow"),
    Rule("PACK004", "the running Cogwork is outside the pack's engine range"),
    Rule("PACK005", "a required pack is not found"),
    Rule("PACK006", "a dependency's version fails the version tests"),
    Rule("PACK007", "a pack is loaded together with one it declares incompatible"),
    Rule("PACK008", "packs depend on each other in a cycle"),
    Rule("PACK009", "a file or folder of the pack is a symbolic link to outside it"),
    Rule("PACK010", "a sub-folder holds another pack", "warning"),
    Rule("PACK011", "a YAML file in a sub-folder is not content", "warning"),
    Rule("PACK012", "a game of the pack would hold more than 1,000,000 items"),
    Rule("DUP001", "id defined twice"),
    Rule("DUP002", "flow or scoring written in two files"),
    Rule("DUP003", "trigger id used twice"),
    Rule("DUP004", "id already defined by another pack"),
    Rule("PATCH001", "patch target matches no definition"),
    Rule("PATCH002", "patch path matches nothing in the target"),
    Rule("PATCH003", "patch operation does not fit the target"),
    Rule("PATCH004", "two packs change the same field, neither depending on the other", "warning"),
    Rule("REF001", "unknown name"),
    Rule("REF002", "reference to a component of the wrong type"),
    Rule("REF003", "a supply that is not a global counter"),
    Rule("DISP001", "display names an unknown zone or counter"),
    Rule("DISP002", "a display grid without its attributes"),
    Rule("ITEMS001", "an item-backed counter's exhaust attribute is not a declared bool"),
    Rule("ITEMS002", "an item-backed counter discards to a zone without discard_to"),
    Rule("ITEMS003", "an item-backed counter gained, lost or set"),
    Rule("ITEMS004", "a global item-backed counter reading a zone each player has"),
    Rule("ZONE001", "a zone's face_down attribute is not a declared bool"),
    Rule("TRACK001", "a pushing track on a counter with one marker (global)"),
    Rule("TRACK002", "a track on a counter that counts items"),
    Rule("HELD001", "a counter held in containers that no component type can hold"),
    Rule("HELD002", "a counter held in containers that is also backed by a zone, items, a supply or a track"),
    Rule("HELD003", "a counter held in containers set"),
    Rule("ATTR001", "attribute the component type does not declare"),
    Rule("ATTR002", "attribute value of the wrong type"),
    Rule("ATTR003", "attribute value not one of its allowed values"),
    Rule("TYPE001", "unknown attribute type"),
    Rule("TYPE002", "shared component type starting in a zone each player has"),
    Rule("TYPE003", "board links or derived locations that cannot be built"),
    Rule("BOARD001", "a grid space without a cell"),
    Rule("BOARD002", "two grid spaces on one cell"),
    Rule("BOARD003", "a grid function on a type that is no grid, or listed cells on a grid declared by size"),
    Rule("BOARD004", "a direction the grid does not have"),
    Rule("TYPE010", "a number is needed here"),
    Rule("TYPE011", "a zone is needed here"),
    Rule("TYPE012", "an item is needed here"),
    Rule("TYPE013", "a collection is needed here"),
    Rule("TYPE014", "a player is needed here"),
    Rule("TYPE015", "reading an attribute of a value that has none"),
    Rule("TYPE016", "paying an attribute that is not a cost"),
    Rule("TYPE017", "a counter named through an attribute that is not a counter"),
    Rule("TYPE018", "text is needed here (a direction)"),
    Rule("TYPE019", "a prompt field shows a rule (an effect or cost attribute), not a value"),
    Rule("FLOW001", "flow step without exactly one kind"),
    Rule("DSL001", "DSL syntax error"),
    Rule("DSL002", "character the DSL does not use"),
    Rule("DSL003", "DSL text longer than 20,000 characters"),
    Rule("DSL004", "DSL text nested more than 100 levels deep"),
    Rule("DSL005", "number longer than 18 digits"),
    Rule("DSL006", "blocks nested too deeply to compile"),
    Rule("DSL011", "wrong number of arguments"),
    Rule("DSL012", "a counter name missing where a function needs one (cost_uses, held, room)"),
    Rule("DSL013", "value that cannot be set"),
    Rule("DSL014", "`pay` without a cost"),
    Rule("DSL015", "a counter named through an attribute no type declares a counter"),
    Rule("DSL016", "an option label that cannot name one option"),
    Rule("DSL017", "a `let` or parameter that would hide a name"),
    Rule("DSL018", "two parts of one `choose` with the same name"),
    Rule("DSL019", "a procedure's card phrase (`text`) naming no parameter or left open"),
    Rule("DICE001", "`roll`/`reroll` of a name that is no kind of die"),
    Rule("EVENT001", "trigger on an event nothing emits", "warning"),
    Rule("COST001", "cost naming a counter nothing can produce", "warning"),
    Rule("UNUSED001", "definition nothing uses", "warning"),
    Rule("HIDDEN001", "a rule reads another player's hidden zone before it is revealed", "warning"),
    Rule("HIDDEN002", "a simultaneous step writes, after a choice, to state the seats choosing later see", "warning"),
    Rule("HIDDEN003", "a rule counts another player's zone whose size is secret while a simultaneous step runs",
         "warning"),
    Rule("TEXT001", "printed text disagrees with the rules", "warning"),
    Rule("DECK001", "a zone runs out at some player count", "warning"),
    Rule("RUN001", "a rule failed while playing"),
    Rule("RUN002", "a game went past an engine limit (work, value size, options)"),
    Rule("LOG001", "game log unreadable: missing, too large, not UTF-8 or not JSON"),
    Rule("LOG002", "game log does not match the log format"),
    Rule("SCEN001", "scenario input the pack cannot take (a value of the wrong kind, an unknown option)"),
)
RULE_INDEX = {rule.code: i for i, rule in enumerate(RULES)}


class LintUsageError(CogworkError):
    """A path that does not exist, or a --select/--ignore code no rule starts with."""


@dataclass(frozen=True)
class Target:
    """What to lint: a pack folder, and which of its files to report (None: all of them)."""

    root: Path
    files: frozenset[str] | None = None
    missing: str | None = None          # why `root` is not a pack (reported as PACK001)


@dataclass
class LintResult:
    pack: Path                          # the pack folder (or the path that is not in a pack)
    diagnostics: list[Diagnostic]
    paths: dict[str, Path] = field(default_factory=dict)     # where each file named in a diagnostic is

    def path(self, d: Diagnostic) -> Path:
        return self.paths.get(d.file) or self.pack.parent / d.file


# ---------------------------------------------------------------- what to lint


def targets(paths: list[Path]) -> list[Target]:
    """Packs to lint: pack folders, folders of packs, files (their pack, reporting only them)."""
    found: dict[Path, set[str] | None] = {}
    missing: list[Target] = []
    for given in paths:
        path = given.resolve()
        if not path.exists():
            raise LintUsageError(f"{given}: no such file or folder")
        root = _pack_of(path)
        if root is not None:
            _add(found, root, None if path.is_dir() else path.relative_to(root.parent).as_posix())
        elif path.is_dir() and (packs := sorted(p.parent for p in path.glob(f"*/{MANIFEST}"))):
            for pack in packs:
                _add(found, pack, None)
        else:
            where = "here, above, or in its sub-folders" if path.is_dir() else "above it"
            missing.append(Target(path, missing=f"no {MANIFEST} {where}: not a pack"))
    return [*(Target(root, None if files is None else frozenset(files)) for root, files in found.items()), *missing]


def _add(found: dict[Path, set[str] | None], root: Path, file: str | None) -> None:
    """Record a pack; once any path asks for the whole pack, it stays whole."""
    if root in found and found[root] is None:
        return
    found[root] = None if file is None else {*(found.get(root) or ()), file}


def _pack_of(path: Path) -> Path | None:
    """The nearest folder holding a pack.yaml: the path itself or one above it."""
    for folder in [path, *path.parents] if path.is_dir() else path.parents:
        if (folder / MANIFEST).is_file():
            return folder
    return None


# ---------------------------------------------------------------- linting


def lint(root: Path, games: int = DEFAULT_GAMES) -> list[Diagnostic]:
    """Every finding of the pack at `root` (and errors of the packs it needs), sorted by file and position."""
    return lint_pack(root, games)[0]


def lint_pack(root: Path, games: int = DEFAULT_GAMES) -> tuple[list[Diagnostic], dict[str, Path]]:
    """The findings, and where each file they name is (packs it depends on may live elsewhere).

    The result is cached, keyed by every file the pack's load reads (engine/packs/cache.py): re-linting
    an unchanged pack only reads its manifests and hashes its files.
    """
    key = _result_key(root, games)
    hit = _decoded(cache.get(key)) if key else None
    if hit is not None:
        return hit
    with _collector_paused():
        try:
            raw = load_pack_files(root)
        except PackError as exc:
            result: tuple[list[Diagnostic], dict[str, Path]] = _sorted(exc.diagnostics), {}
        else:
            result = _sorted(_findings(raw, games)), {src.display: src.path for src in raw.files}
    if key:
        cache.put(key, {"diagnostics": [asdict(d) for d in result[0]],
                        "files": {name: str(path) for name, path in result[1].items()}})
    return result


def _decoded(entry: Any) -> tuple[list[Diagnostic], dict[str, Path]] | None:
    """A cached lint result back from its JSON form; None (lint again) for anything else."""
    try:
        return ([Diagnostic(**d) for d in entry["diagnostics"]],
                {str(name): Path(path) for name, path in entry["files"].items()})
    except (TypeError, KeyError, AttributeError):
        return None


def _result_key(root: Path, games: int) -> str | None:
    """What a lint result depends on: the options, and the path and bytes of every file it reads."""
    inputs = pack_inputs(root)
    if inputs is None:
        return None
    try:
        parts = [part for path in inputs for part in (str(path), overlay.read_bytes(path))]
    except OSError:
        return None
    return cache.key("lint", str(games), *parts)


@contextmanager
def _collector_paused() -> Iterator[None]:
    """No cyclic garbage collection while a pack is read, compiled and checked: that builds
    hundreds of thousands of objects that all stay alive, and the collector would walk them
    over and over (a third of the time on a 10,000-card pack)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


@contextmanager
def _collector_on_new_objects() -> Iterator[None]:
    """The play checks' games do leave garbage cycles: collect those, leaving the pack alone."""
    gc.freeze()
    gc.enable()
    try:
        yield
    finally:
        gc.disable()
        gc.unfreeze()


def _findings(raw: RawPack, games: int) -> list[Diagnostic]:
    """Compiler, type pass and semantic findings of a loaded pack (the type pass also when compiling fails)."""
    listed = list(pack_sites(raw))
    sites = list(parse_each(listed))
    builder = Builder(raw, listed)
    try:
        pack = builder.build()
    except PackError as exc:
        return [*raw.warnings, *exc.diagnostics, *typecheck(sites, builder.pack)]
    found = [*raw.warnings, *builder.sink.found, *typecheck(sites, pack)]
    playable = not any(d.severity == "error" for d in found)    # play only packs with no known errors
    with _collector_on_new_objects():
        semantic = semantic_checks(raw, pack, sites, games if playable else 0)
    # semantic warnings about the packs this one builds on are theirs to fix, not this pack's
    return [*found, *(d for d in semantic if d.severity == "error" or d.file.split("/")[0] == raw.root.name)]


def lint_target(target: Target, games: int = DEFAULT_GAMES) -> LintResult:
    """Lint one target; a path that is not a pack is one PACK001 finding."""
    if target.missing is not None:
        return LintResult(target.root, [Diagnostic("PACK001", target.missing, target.root.name, 1, 1)])
    found, paths = lint_pack(target.root, games)
    if target.files is not None:
        found = [d for d in found if d.file in target.files]
    for d in found:
        paths.setdefault(d.file, _elsewhere(target.root, d.file))
    return LintResult(target.root, found, paths)


def _elsewhere(root: Path, display: str) -> Path:
    """A file of a pack beside `root` or of a built-in pack, from its display name `PACK/FILE`."""
    beside = root.parent / display
    if beside.exists():
        return beside
    try:
        return find_pack(display.split("/")[0]).parent / display
    except PackError:
        return beside


def _sorted(found: Iterable[Diagnostic]) -> list[Diagnostic]:
    return sorted(dict.fromkeys(found), key=lambda d: (d.file, d.line, d.col, d.code, d.message))


def check_codes(selectors: list[str]) -> None:
    """Each --select/--ignore entry must start some code (prefixes, like ruff: REF selects REF001...)."""
    for selector in selectors:
        if not any(rule.code.startswith(selector) for rule in RULES):
            hint = did_you_mean(selector, [r.code for r in RULES])
            raise LintUsageError(f"no code starts with '{selector}'" + (f"; {hint}" if hint else ""))


def select(results: list[LintResult], chosen: list[str] | None, ignored: list[str] | None) -> list[LintResult]:
    """Keep the findings whose code starts with a selected prefix and with no ignored one."""
    def keep(d: Diagnostic) -> bool:
        return ((not chosen or d.code.startswith(tuple(chosen)))
                and not (ignored and d.code.startswith(tuple(ignored))))
    return [LintResult(r.pack, [d for d in r.diagnostics if keep(d)]) for r in results]


def exit_status(results: list[LintResult], strict: bool) -> str:
    """"unreadable", "findings" (errors; with `strict` warnings too) or "clean"."""
    found = [d for r in results for d in r.diagnostics]
    if any(d.code in UNREADABLE for d in found):
        return "unreadable"
    return "findings" if any(d.severity == "error" or strict for d in found) else "clean"


# ---------------------------------------------------------------- formats


def _shown(path: Path) -> str:
    """A path as the user can open it: relative to the working directory when under it."""
    try:
        return path.relative_to(Path.cwd()).as_posix()
    except ValueError:
        return str(path)


def _source_line(path: Path, line: int, result: LintResult) -> str | None:
    """The line to show under a finding: only from a pack's own YAML (a file it loaded, or a YAML
    file inside the pack folder, links resolved) of a size a pack file may have; never from a
    file a link points to outside the pack (docs/security.md)."""
    loaded = path in result.paths.values()
    if not loaded and not (path.suffix in (".yaml", ".yml") and _within(path, result.pack)):
        return None
    try:
        if not path.is_file() or path.stat().st_size > MAX_FILE_BYTES:
            return None
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    return lines[line - 1] if 0 < line <= len(lines) else None


def _within(path: Path, folder: Path) -> bool:
    real = os.path.realpath(folder)
    return os.path.commonpath([os.path.realpath(path), real]) == real


def _caret(line: str, d: Diagnostic) -> str:
    """Spaces (tabs kept, so it lines up) to the column, then ^ and ~ under the rest of the range."""
    pad = "".join(c if c == "\t" else " " for c in line[:d.col - 1])
    width = (d.end_col - d.col) if d.end_col and (d.end_line or d.line) == d.line and d.end_col > d.col else 1
    return pad + "^" + "~" * (width - 1)


def format_text(results: list[LintResult]) -> str:
    out: list[str] = []
    for result in results:
        for d in result.diagnostics:
            path = result.path(d)
            out.append(f"{_shown(path)}:{d.line}:{d.col}: {d.severity}: {d.message} [{d.code}]")
            line = _source_line(path, d.line, result)
            if line is not None:
                out += [f"  {line}", f"  {_caret(line, d)}"]
            if d.hint:
                out.append(f"  hint: {d.hint}")
    return "\n".join(out)


def _url(code: str) -> str:
    return DOCS_URL.format(code=code.lower())


def format_json(results: list[LintResult]) -> str:
    records = [{
        "code": d.code, "message": d.message, "severity": d.severity,
        "filename": str(result.path(d)),
        "location": {"row": d.line, "column": d.col},
        "end_location": {"row": d.end_line or d.line, "column": d.end_col or d.col},
        "fix": None, "hint": d.hint, "url": _url(d.code),
    } for result in results for d in result.diagnostics]
    return json.dumps(records, indent=1)


def _sarif_result(result: LintResult, d: Diagnostic) -> dict:
    region = {"startLine": d.line, "startColumn": d.col}
    if d.end_line or d.end_col:
        region |= {"endLine": d.end_line or d.line, "endColumn": d.end_col or d.col}
    record: dict[str, Any] = {
        "ruleId": d.code,
        "level": "error" if d.severity == "error" else "warning",
        "message": {"text": d.message + (f"\nhint: {d.hint}" if d.hint else "")},
        "locations": [{"physicalLocation": {
            "artifactLocation": {"uri": quote(os.path.relpath(result.path(d)).replace(os.sep, "/")),
                                 "uriBaseId": "%SRCROOT%"},
            "region": region}}],
    }
    if d.code in RULE_INDEX:
        record["ruleIndex"] = RULE_INDEX[d.code]
    return record


def format_sarif(results: list[LintResult]) -> str:
    """SARIF 2.1.0 for GitHub code scanning: one run, every rule described, paths relative to the cwd."""
    rules = [{"id": r.code, "shortDescription": {"text": r.title}, "helpUri": _url(r.code),
              "defaultConfiguration": {"level": r.level}} for r in RULES]
    log = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "cogwork", "version": __version__, "rules": rules}},
            "originalUriBaseIds": {"%SRCROOT%": {"uri": Path.cwd().as_uri() + "/"}},
            "results": [_sarif_result(r, d) for r in results for d in r.diagnostics],
        }],
    }
    return json.dumps(log, indent=1)


def _escape(text: str, prop: bool = False) -> str:
    """GitHub workflow-command escaping (properties also escape ':' and ',')."""
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return text.replace(":", "%3A").replace(",", "%2C") if prop else text


def format_github(results: list[LintResult]) -> str:
    out = []
    for result in results:
        for d in result.diagnostics:
            kind = "error" if d.severity == "error" else "warning"
            message = d.message + (f" (hint: {d.hint})" if d.hint else "")
            out.append(f"::{kind} file={_escape(_shown(result.path(d)), True)},line={d.line},col={d.col},"
                       f"title={d.code}::{_escape(message)}")
    return "\n".join(out)


FORMATS: dict[str, Callable[[list[LintResult]], str]] = {
    "text": format_text, "json": format_json, "sarif": format_sarif, "github": format_github}
