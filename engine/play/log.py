"""The game log: one type for what `play --log` writes and what `replay`, `play --resume` and `simulate` read.

A log is the match as data: the pack, the seed, the options and every answer by label. Logs come from
strangers (a bug report, a saved game), so reading one checks it against `schemas/log.schema.json`
and turns every problem into a diagnostic with a position, never a traceback. JSON is parsed fast
first; only a log with a problem is read again as YAML (JSON is YAML) to find its line and column.
"""

from __future__ import annotations

import json
import stat
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.diagnostics import Diagnostic, PackError, did_you_mean
from engine.packs.schema_check import is_valid, validate
from engine.packs.source import SourceFile, load_yaml
from engine.runtime.decision import KINDS, Decision, Prompt

LOG_FORMAT = 1
MAX_LOG_BYTES = 64 * 1024 * 1024
MANIFEST = "pack.yaml"


class Answer:
    """One answer in a match's log (`Match.log`): the decision and the index chosen. The label, which the
    written log holds, is made only when read (`Decision.labels`): a game played by bots that answer by index,
    and never written, never makes it. Reads like the written entry too (`answer["label"]`)."""

    __slots__ = ("decision", "index")

    def __init__(self, decision: Decision, index: int) -> None:
        self.decision = decision
        self.index = index

    @property
    def seat(self) -> int:
        return self.decision.seat

    @property
    def step(self) -> str:
        return self.decision.step

    @property
    def label(self) -> str:
        return self.decision.labels[self.index]

    def to_json(self) -> dict[str, Any]:
        """The entry as the log file holds it: {seat, step, label}."""
        decision = self.decision
        return {"seat": decision.seat, "step": decision.step, "label": decision.labels[self.index]}

    def __getitem__(self, key: str) -> Any:
        return self.to_json()[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.to_json().get(key, default)

    def __eq__(self, other: object) -> bool:
        """Equal to an answer, or a written entry, with the same seat, step and label."""
        if isinstance(other, Answer):
            return self.to_json() == other.to_json()
        if isinstance(other, dict):
            return self.to_json() == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Answer({self.to_json()!r})"


class LoggedAnswer(Answer):
    """An `Answer` whose two slots its maker stores itself (a match played through logs one a decision): a class
    call without an `__init__` frame or an argument tuple. The same object as `Answer(...)`'s."""

    __slots__ = ()
    __init__ = object.__init__


class UnmadeAnswer(Answer):
    """An answer of an agent that answers by the number of options alone (`agents.BySize`, in a match played
    through): `Interpreter.ask` stores the decision's fields here and makes no `Decision`; it is made, the same
    as the class call would make it, at the first read of `decision` (a game never read makes none). One object
    a decision instead of two: fewer to make, to free and for the collector to walk."""

    __slots__ = ("asked_kind", "asked_labels", "asked_open", "asked_prompt", "asked_rules", "asked_seat",
                 "asked_step", "asked_values", "made")
    __init__ = object.__init__
    asked_seat: int
    asked_kind: str
    asked_prompt: Prompt
    asked_labels: list[str] | None
    asked_values: list[Any]
    asked_step: str
    asked_rules: list[str] | None
    asked_open: bool
    made: Decision

    @property
    def decision(self) -> Decision:  # type: ignore[override]  # (the slot of `Answer` it overrides stays empty)
        try:
            return self.made
        except AttributeError:
            made = self.made = Decision(self.asked_seat, KINDS[self.asked_kind], self.asked_prompt, self.asked_labels,
                                        self.asked_values, self.asked_step, self.asked_rules or (), self.asked_open)
            return made

    @property
    def seat(self) -> int:
        return self.asked_seat

    @property
    def step(self) -> str:
        return self.asked_step


@dataclass
class GameLog:
    """A match's pack, seed, options and answers; the result too once it has ended."""

    pack: str
    version: str
    players: int
    seed: int
    options: dict[str, bool] = field(default_factory=dict)
    decisions: list[dict[str, Any]] = field(default_factory=list)   # {seat, step, label[, forced]} per answer
    pack_path: str | None = None
    finished: bool = False
    hash: str | None = None
    scores: list[int] | None = None
    winners: list[int] | None = None
    source: Path | None = None          # the file it was read from, for positions in later checks

    def check_options(self, known: Iterable[str]) -> None:
        """Every option the log turns on must be one of the pack's: else LOG002 at that option."""
        names = set(known)
        unknown = [name for name in self.options if name not in names]
        if not unknown:
            return
        where = ("options", unknown[0])
        src = load_yaml(self.source, str(self.source)) if self.source else None
        line, col = src.key_pos(where) if src else (1, 1)
        raise PackError([Diagnostic("LOG002", f"'{unknown[0]}' is not an option of pack '{self.pack}'"
                                    f" (its options: {', '.join(sorted(names)) or 'none'})",
                                    str(self.source or "<log>"), line, col, hint=did_you_mean(unknown[0], names))])

    def labels(self) -> list[str]:
        """The answers in order, as the labels `Match.replay` takes (decisions marked `forced` were not asked)."""
        return [d["label"] for d in self.decisions if not d.get("forced")]

    def pack_spec(self) -> str:
        """The folder the logged game was loaded from if it still holds a pack, else the pack's name."""
        path = self.pack_path
        return path if path and (Path(path) / MANIFEST).is_file() else self.pack

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "format": LOG_FORMAT, "pack": self.pack, "pack_path": self.pack_path, "version": self.version,
            "players": self.players, "seed": self.seed, "options": dict(self.options),
            "decisions": self.decisions, "finished": self.finished,
        }
        if self.finished:
            data.update(hash=self.hash, scores=self.scores, winners=self.winners)
        return data

    def write(self, path: Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=1))

    @classmethod
    def read(cls, path: Path) -> GameLog:
        """Read and check a log file; any problem raises `PackError` with positioned diagnostics."""
        path = Path(path)
        shown = str(path)
        data = _parse_json(path, shown)
        problems = _problems(data)
        if problems:
            src = load_yaml(path, shown)      # positions, for the message only
            found = validate(src, "log.schema.json") or [_at(src, path_, msg) for path_, msg in problems]
            raise PackError(found)
        return cls.from_json(data, path)

    @classmethod
    def from_json(cls, data: dict[str, Any], source: Path | None = None) -> GameLog:
        """A log from `to_json()`'s data (already checked: `read` checks a file against the schema first)."""
        return cls(pack=data["pack"], version=data.get("version", ""), players=data["players"], seed=data["seed"],
                   options={k: v for k, v in data.get("options", {}).items() if v},
                   decisions=data["decisions"], pack_path=data.get("pack_path"),
                   finished=data.get("finished", False), hash=data.get("hash"), scores=data.get("scores"),
                   winners=data.get("winners"), source=source)


def _parse_json(path: Path, shown: str) -> Any:
    try:
        info = path.stat()
        if not stat.S_ISREG(info.st_mode):          # a pipe or a device (/dev/zero) would never end
            _fail(shown, "LOG001", "cannot read log: not a regular file")
        size = info.st_size
        if size > MAX_LOG_BYTES:
            _fail(shown, "LOG001", f"log is {size:,} bytes; the limit is {MAX_LOG_BYTES:,}")
        raw = path.read_bytes()
    except OSError as exc:
        _fail(shown, "LOG001", f"cannot read log: {exc.strerror or exc}")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        _fail(shown, "LOG001", f"log is not valid UTF-8 (byte 0x{raw[exc.start]:02x} at offset {exc.start})")
    try:
        return json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        _fail(shown, "LOG001", f"not valid JSON: {exc.msg}", exc.lineno, exc.colno)
    except RecursionError:
        _fail(shown, "LOG001", "JSON nested too deeply")
    except ValueError as exc:     # NaN/Infinity, or an integer longer than Python will convert
        _fail(shown, "LOG001", f"not valid JSON: {exc}")


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number a log may hold")


def _problems(data: Any) -> list[tuple[tuple[Any, ...], str]]:
    """Quick checks beyond the schema: `true` is no seat and no seed, and a float seed gives another game."""
    if not isinstance(data, dict):
        return [((), "expected a JSON object at the top level")]
    found: list[tuple[tuple[Any, ...], str]] = [
        ((key,), f"'{key}' must be a whole number, not {data[key]!r}")
        for key in ("players", "seed", "format") if isinstance(data.get(key), float | bool)]
    if not found and not is_valid(data, "log.schema.json"):
        found.append(((), "the log does not match the log format"))
    return found


def _at(src: SourceFile, path: tuple[Any, ...], message: str) -> Diagnostic:
    line, col = src.pos(path)
    return Diagnostic("LOG002", message, src.display, line, col)


def _fail(shown: str, code: str, message: str, line: int = 1, col: int = 1) -> Any:
    raise PackError([Diagnostic(code, message, shown, line, col)])
