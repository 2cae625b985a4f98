"""Scenario files: rulebook examples as executable tests (format: docs/scenarios.md)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

from engine.compile.loading import load_pack
from engine.diagnostics import Diagnostic, PackError, did_you_mean
from engine.errors import RuleError
from engine.packs.files import MANIFEST
from engine.packs.schema_check import validate
from engine.packs.source import SourceFile, load_yaml
from engine.play.session import Session
from engine.play.state_paths import PathError, ValueTypeError, read, write
from engine.runtime.defs import Pack

MAX_AUTO_DECISIONS = 20_000


@dataclass
class Failure:
    where: str
    message: str


@dataclass
class ScenarioResult:
    name: str
    file: str
    failures: list[Failure] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.failures


class Runner:
    """Runs one scenario's steps against a session, collecting failures."""

    def __init__(self, src: SourceFile, pack_cache: dict[str, Pack]) -> None:
        self.src = src
        data = src.data
        location = pack_location(str(data["pack"]), src.path.parent)
        if location not in pack_cache:
            pack_cache[location] = load_pack(location)
        pack = pack_cache[location]
        options = data.get("options", []) or []
        for i, name in enumerate(options):
            if name not in pack.options:
                self.broken(("options", i), f"'{name}' is not an option of {pack.name}"
                            f" (its options: {', '.join(pack.options) or 'none'})", did_you_mean(name, pack.options))
        self.session = Session(pack, int(data.get("players", 2)), int(data.get("seed", 1)),
                               dict.fromkeys(options, True))
        self.result = ScenarioResult(str(data.get("name", src.path.stem)), src.display)
        self.verbose = False

    def broken(self, path: tuple, message: str, hint: str | None = None) -> NoReturn:
        """Input the pack cannot take at all (SCEN001): the scenario stops, the file counts as broken."""
        line, col = self.src.pos(path)
        raise PackError([Diagnostic("SCEN001", message, self.src.display, line, col, hint=hint)])

    def where(self, path: tuple) -> str:
        line, col = self.src.pos(path)
        return f"{self.src.display}:{line}:{col}"

    def fail(self, path: tuple, message: str) -> None:
        self.result.failures.append(Failure(self.where(path), message))

    def run(self) -> ScenarioResult:
        for i, step in enumerate(self.src.data.get("steps", []) or []):
            path = ("steps", i)
            kind = next(iter(step))
            try:
                ok = getattr(self, f"_{kind}")(step[kind], (*path, kind))
            except (RuleError, PathError) as exc:
                self.fail(path, str(exc))
                ok = False
            if self.verbose:
                print(f"  {'ok ' if ok else 'FAIL'} {kind}: {step[kind]}")
            if ok is False and kind in ("answer", "until"):
                break  # the game is no longer where the rest of the script expects it
        return self.result

    # ---------------------------------------------------------------- steps
    def _answer(self, labels: Any, path: tuple) -> bool:
        for i, label in enumerate(labels if isinstance(labels, list) else [labels]):
            try:
                self.session.answer_label(str(label))
            except RuleError as exc:
                self.fail((*path, i) if isinstance(labels, list) else path, exc.message)
                return False
        return True

    def _until(self, spec: Any, path: tuple) -> bool:
        """Answer every decision with its first option until the pending one matches `spec`."""
        s = self.session
        for _ in range(MAX_AUTO_DECISIONS):
            d = s.pending
            if d is None:
                self.fail(path, f"the game ended before reaching {dict(spec)}")
                return False
            if _matches(d, spec):
                return True
            s.answer(0)
        self.fail(path, f"no decision matching {dict(spec)} within {MAX_AUTO_DECISIONS} decisions")
        return False

    def _set(self, values: Any, path: tuple) -> bool:
        for key, value in values.items():
            try:
                write(self.session, str(key), _plain(value))
            except ValueTypeError as exc:
                self.broken((*path, key), str(exc))
            except PathError as exc:
                self.fail((*path, key), str(exc))
                return False
        return True

    def _expect(self, values: Any, path: tuple) -> bool:
        ok = True
        for key, want in values.items():
            try:
                got = read(self.session, str(key))
            except PathError as exc:
                self.fail((*path, key), str(exc))
                ok = False
                continue
            if got != _plain(want):
                self.fail((*path, key), f"{key}: expected {_plain(want)!r}, got {got!r}")
                ok = False
        return ok

    def _legal(self, labels: Any, path: tuple) -> bool:
        return self._options(labels, path, want=True)

    def _illegal(self, labels: Any, path: tuple) -> bool:
        return self._options(labels, path, want=False)

    def _options(self, labels: Any, path: tuple, want: bool) -> bool:
        d = self.session.pending
        if d is None:
            self.fail(path, "no decision is pending (the game is over)")
            return False
        ok = True
        for i, label in enumerate(labels):
            present = str(label).casefold() in (x.casefold() for x in d.labels)
            if present != want:
                verb = "is not" if want else "is"
                self.fail((*path, i), f"'{label}' {verb} a legal option for '{d.prompt}'"
                          f" (seat {d.seat + 1}); legal: {', '.join(d.labels)}")
                ok = False
        return ok

    def _finish(self, spec: Any, path: tuple) -> bool:
        """Play out the rest of the game with first options."""
        s = self.session
        for _ in range(MAX_AUTO_DECISIONS):
            if s.pending is None:
                return True
            s.answer(0)
        self.fail(path, "the game did not end")
        return False


def _matches(d: Any, spec: Any) -> bool:
    if "seat" in spec and d.seat + 1 != int(spec["seat"]):
        return False
    if "step" in spec and str(spec["step"]) not in d.step:
        return False
    if "prompt" in spec and str(spec["prompt"]) not in d.prompt:
        return False
    return "option" not in spec or str(spec["option"]).casefold() in (x.casefold() for x in d.labels)


def _plain(value: Any) -> Any:
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def pack_location(spec: str, folder: Path) -> str:
    """Where a scenario's `pack:` is: a folder (or pack.yaml) relative to the scenario file if one is
    there (`..`, `../my-pack`), else a built-in pack's name. The result is also the key packs are
    shared by across scenario files, so two files naming one folder differently share it, and two
    files writing `../` from different folders do not."""
    here = folder / spec
    if (here / MANIFEST).is_file() or (here.name == MANIFEST and here.is_file()):
        return str(here.resolve())
    return spec


def run_scenario(path: Path, pack_cache: dict[str, Pack] | None = None, verbose: bool = False) -> ScenarioResult:
    """Load, validate and run one scenario file; raises PackError on a malformed file."""
    src = load_yaml(path)
    problems = [d for d in validate(src, "scenario.schema.json") if d.severity == "error"]
    if problems:
        raise PackError(problems)
    runner = Runner(src, pack_cache if pack_cache is not None else {})
    runner.verbose = verbose
    return runner.run()


def run_scenario_files(paths: list[Path], verbose: bool = False) -> int:
    """The `cogwork scenario` command: 0 all pass, 1 any failure, 2 a file could not be run."""
    cache: dict[str, Pack] = {}
    found, broken = _expand(paths)
    failed = 0
    for path in found:
        try:
            result = run_scenario(path, cache, verbose)
        except PackError as exc:
            print(str(exc))
            broken += 1
            continue
        if result.passed:
            print(f"PASS {result.file}: {result.name}")
            continue
        failed += 1
        print(f"FAIL {result.file}: {result.name}")
        for f in result.failures:
            print(f"  {f.where}: {f.message}")
    if broken:
        return 2
    return 1 if failed else 0


def _expand(paths: list[Path]) -> tuple[list[Path], int]:
    """The given files, and the *.yaml files under the given folders; a file found in a folder that is
    a link to outside that folder is left out (a downloaded pack's scenarios/ may hold one) and
    reported; how many were."""
    out: list[Path] = []
    refused = 0
    for p in paths:
        if not p.is_dir():
            out.append(p)
            continue
        root = os.path.realpath(p)
        for found in sorted(p.rglob("*.yaml")):
            if os.path.commonpath([os.path.realpath(found), root]) == root:
                out.append(found)
            else:
                print(Diagnostic("PACK009", "symbolic link to outside the folder: not read", str(found), 1, 1).format())
                refused += 1
    return out, refused


