"""YAML source files: safe, bounded loading, and the position of any value or DSL character.

Plain files are read by engine/packs/fast_yaml.py (libyaml). Any other file is
loaded with ruamel.yaml's round-trip loader, whose mappings and lists
remember where every key and value was written, and anything outside plain
YAML (custom tags, alias bombs, non-text keys, syntax errors) becomes a
`Diagnostic`. Neither loader builds arbitrary Python objects. Both give the
same data and the same `Layout` (where each key and value starts).
"""

from __future__ import annotations

import re
import stat
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, NoReturn

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.composer import MaxDepthExceededError
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from engine.diagnostics import Diagnostic, PackError
from engine.packs import fast_yaml, overlay
from engine.packs.fast_yaml import Kids, Layout, Loc

MAX_FILE_BYTES = 2 * 1024 * 1024
MAX_DEPTH = 100                 # nesting levels, also after expanding aliases
MAX_ALIASES = 1000              # alias uses per file
MAX_ALIAS_NODES = 100_000       # values added by expanding aliases (billion-laughs guard)

DataPath = tuple[str | int, ...]
# a string's start, its characters' locations (None: not traced), how many are usable, the last visible one
_StringLayout = tuple[Loc, Sequence[Loc] | None, int, int]

_YAML_TAG = "tag:yaml.org,2002:"
_STR, _MERGE = _YAML_TAG + "str", _YAML_TAG + "merge"
_STANDARD_TAGS = frozenset(
    _YAML_TAG + t for t in ("str", "int", "float", "bool", "null", "seq", "map", "merge", "timestamp")
)
_KINDS = {"int": "a number", "float": "a number", "bool": "a boolean", "null": "an empty value",
          "timestamp": "a date", "seq": "a list", "map": "a mapping", "str": "text"}
_LINE_BREAK = re.compile(r"\r\n|[\n\r\x85\u2028\u2029]")   # what ruamel counts as a new line
_ANCHOR = re.compile(r"&\S+[ \t]+")
_COMMENT_AT = re.compile(r"line: (\d+), col: (\d+)")
_SYNTAX_HINTS = {
    "found character '\\t'": "indent with spaces: YAML does not allow tabs there",
    "mapping values are not allowed here": "quote a value that contains ': '",
    "found undefined alias": "define the anchor (&name) before using it (*name)",
    "expected a single document": "a pack file holds one YAML document: remove the '---' line",
}
_ESCAPES = {"0": "\0", "a": "\a", "b": "\b", "t": "\t", "\t": "\t", "n": "\n", "v": "\v", "f": "\f",
            "r": "\r", "e": "\x1b", " ": " ", '"': '"', "/": "/", "\\": "\\", "N": "\x85",
            "_": "\xa0", "L": "\u2028", "P": "\u2029"}
_HEX_ESCAPES = {"x": 2, "u": 4, "U": 8}


@dataclass(eq=False)
class SourceFile:
    """One loaded YAML file: its text, its data, and where each key, value and DSL character is.

    `layout` records where every key and value starts (fast_yaml.Layout); None
    for data made in memory, whose positions are all 1:1.
    """

    path: Path
    display: str
    text: str
    data: Any
    layout: Layout | None = None
    _strings: dict[DataPath, _StringLayout] = field(default_factory=dict, init=False, repr=False)

    @cached_property
    def lines(self) -> list[str]:
        """The text split exactly where ruamel counts line breaks, so columns agree."""
        return _LINE_BREAK.split(self.text)

    def pos(self, path: DataPath) -> tuple[int, int]:
        """1-based (line, col) of the value at `path`, or of the deepest part of it that exists."""
        _, (line, col), _, _ = self._locate(path)
        return line + 1, col + 1

    def key_pos(self, path: DataPath) -> tuple[int, int]:
        """1-based position of the key naming the last step of `path` (its value's if none)."""
        if path:
            _, _, kids, found = self._locate(path[:-1])
            entry = _entry(kids, path[-1]) if found else None
            if entry is not None and entry[0] is not None:    # no key: a list item, or merged by `<<`
                line, col = entry[0]
                return line + 1, col + 1
        return self.pos(path)

    def dsl_pos(self, path: DataPath, offset: int) -> tuple[int, int]:
        """1-based position of character `offset` of the string at `path`, through quotes,
        escapes and block scalars; the string's start when its layout cannot be traced."""
        (line, col), positions, size, last = self._string(path)
        if positions is not None and 0 <= offset < size:
            line, col = positions[offset]
            return line + 1, col + 1
        if positions is None or last < 0:
            return line + 1, col + 1
        line, col = positions[last]     # the end: after the last visible character
        return line + 1, col + 2

    def _string(self, path: DataPath) -> _StringLayout:
        """Where the string at `path` is, worked out once (a DSL text is asked about many times)."""
        if path not in self._strings:
            value, loc, _, found = self._locate(path)
            positions = _scalar_positions(self.lines, *loc, value) if found and isinstance(value, str) else None
            if not positions:
                self._strings[path] = loc, None, 0, -1
            else:
                self._strings[path] = (loc, positions, min(len(value), len(positions)),
                                       min(len(value.rstrip("\n")), len(positions)) - 1)
        return self._strings[path]

    def _locate(self, path: DataPath) -> tuple[Any, Loc, Kids | None, bool]:
        """Walk `path`: the value reached, its 0-based location, its children's locations,
        and whether the whole path exists."""
        if self.layout is None:
            return self.data, (0, 0), None, not path
        node = self.data
        loc, top = self.layout
        kids: Kids | None = top
        for step in path:
            entry = _entry(kids, step)
            if entry is None:
                return node, loc, kids, False
            node, loc, kids = node[step], entry[1], entry[2]
        return node, loc, kids, True


def _entry(kids: Kids | None, step: str | int) -> tuple[Loc | None, Loc, Kids | None] | None:
    """Where child `step` of a container is, if it has one."""
    if isinstance(kids, dict):
        return kids.get(step)
    if isinstance(kids, list) and isinstance(step, int) and 0 <= step < len(kids):
        return kids[step]
    return None


def _ruamel_layout(data: Any) -> Kids | None:
    """The layout of ruamel round-trip data, from the line/column records of its containers.

    ruamel records an alias (`*x`) at its anchor, and an empty value at the next token;
    both are earlier or later than the text that holds them, so the key (or list) is used.
    A key merged in by `<<` has no record of its own: its value's (or the mapping's) is used.
    """
    if isinstance(data, CommentedMap):
        kids: dict[Any, tuple[Loc | None, Loc, Kids | None]] = {}
        for step, value in data.items():
            try:
                key, at = tuple(data.lc.key(step)), tuple(data.lc.value(step))
                kids[step] = (key, key if value is None or at < key else at, _ruamel_layout(value))
            except KeyError:
                kids[step] = (None, _own_loc(value) or _own_loc(data) or (0, 0), _ruamel_layout(value))
        return kids
    if isinstance(data, CommentedSeq):
        own = _own_loc(data)
        items = [tuple(data.lc.item(i)) for i in range(len(data))]
        return [(None, own if own and item < own else item, _ruamel_layout(value))
                for item, value in zip(items, data, strict=True)]
    return None


def _own_loc(node: Any) -> Loc | None:
    lc = getattr(node, "lc", None)
    return (lc.line, lc.col) if lc is not None and lc.line is not None else None


# --- DSL character positions -------------------------------------------------------------

class _Run(Sequence[Loc]):
    """The locations of characters written one after another on one line."""

    def __init__(self, line: int, col: int, length: int) -> None:
        self.line, self.col, self.length = line, col, length

    def __len__(self) -> int:
        return self.length

    def __getitem__(self, index: int) -> Loc:     # type: ignore[override]
        if not 0 <= index < self.length:
            raise IndexError(index)
        return self.line, self.col + index


def _scalar_positions(lines: list[str], line: int, col: int, value: str) -> Sequence[Loc] | None:
    """0-based location of each character of `value`, rebuilt from its source text.

    The rebuilt string must equal `value`; otherwise None (layout not understood).
    """
    if line >= len(lines):
        return None
    anchor = _ANCHOR.match(lines[line], col)
    col = anchor.end() if anchor else col
    if col >= len(lines[line]):
        return None
    if lines[line][col] in "|>":
        return _block_positions(lines, line, col, value)
    return _verbatim(lines[line], line, col, value) or _flow_positions(lines, line, col, value)


def _verbatim(text: str, line: int, col: int, value: str) -> _Run | None:
    """The common case, without walking it character by character: the value written as it
    reads on one line, plain or quoted with no escapes (what `_flow_positions` would find)."""
    quote = text[col] if text[col] in "'\"" else ""
    start, end = col + len(quote), col + len(quote) + len(value)
    if text[start:end] != value or (quote and (text[end:end + 1] != quote or quote in value or "\\" in value)):
        return None
    return _Run(line, start, len(value))


def _block_positions(lines: list[str], line: int, col: int, value: str) -> list[Loc] | None:
    """Literal `|` keeps each line; folded `>` joins neighbouring text lines with a space."""
    rows = _block_rows(lines, line + 1)
    if rows is None:
        return None
    indent, numbers = rows
    folded = lines[line][col] == ">"
    chars: list[str] = []
    positions: list[Loc] = []
    previous: tuple[str, int] | None = None      # last text line and the index of its line break
    for row in numbers:
        text = lines[row][indent:]
        if folded and text and previous and not _more_indented(text, previous[0]):
            if previous[1] == len(chars) - 1:
                chars[-1] = " "                  # a single break between text lines becomes a space
            else:
                del chars[previous[1]], positions[previous[1]]   # before blank lines it just goes
        chars.extend(text)
        positions.extend((row, indent + offset) for offset in range(len(text)))
        chars.append("\n")
        positions.append((row, len(lines[row])))
        previous = (text, len(chars) - 1) if text else previous
    return positions if "".join(chars).rstrip("\n") == value.rstrip("\n") else None


def _more_indented(text: str, previous: str) -> bool:
    """Folding never joins lines that start with white space (YAML spec 8.1.3)."""
    return text[0] in " \t" or previous[0] in " \t"


def _block_rows(lines: list[str], first: int) -> tuple[int, list[int]] | None:
    """The block's indentation (from its first text line) and the rows it spans."""
    indent: int | None = None
    rows: list[int] = []
    for row in range(first, len(lines)):
        stripped = lines[row].lstrip(" ")
        if not stripped:
            rows.append(row)
            continue
        depth = len(lines[row]) - len(stripped)
        if indent is None:
            indent = depth
        if depth < indent:
            break
        rows.append(row)
    while rows and not lines[rows[-1]].strip(" "):
        rows.pop()                       # trailing blank lines belong to chomping, not text
    return (indent, rows) if indent is not None else None


def _flow_positions(lines: list[str], line: int, col: int, value: str) -> list[Loc] | None:
    """Plain, 'single' or "double" quoted scalars, including escapes and line folding."""
    quote = lines[line][col] if lines[line][col] in "'\"" else ""
    col += len(quote)
    chars: list[str] = []
    positions: list[Loc] = []
    while line < len(lines) and (quote or len(chars) < len(value)):
        text = lines[line]
        if col >= len(text):
            line, col = _fold(lines, line, chars, positions, escaped=False)
            continue
        ch, width = text[col], 1
        if quote == "'" and ch == "'":
            if text[col + 1:col + 2] != "'":
                break
            width = 2
        elif quote == '"' and ch == '"':
            break
        elif quote == '"' and ch == "\\":
            if col + 1 >= len(text):
                line, col = _fold(lines, line, chars, positions, escaped=True)
                continue
            escaped, width = _unescape(text, col)
            if escaped is None:
                return None
            ch = escaped
        chars.append(ch)
        positions.append((line, col))
        col += width
    return positions if "".join(chars) == value else None


def _unescape(text: str, col: int) -> tuple[str | None, int]:
    """The character a backslash escape at `col` stands for, and the escape's source width."""
    kind = text[col + 1]
    digits = _HEX_ESCAPES.get(kind)
    if digits is None:
        return _ESCAPES.get(kind), 2
    try:
        return chr(int(text[col + 2:col + 2 + digits], 16)), 2 + digits
    except ValueError:
        return None, 2


def _fold(lines: list[str], line: int, chars: list[str], positions: list[Loc], *, escaped: bool) -> Loc:
    """Apply flow line folding at the end of `line`; return where the scalar's text resumes."""
    if not escaped:
        while chars and chars[-1] in " \t" and positions[-1][0] == line:
            chars.pop()
            positions.pop()
    end = (line, len(lines[line]))
    line += 1
    blank = 0
    while line < len(lines) and not lines[line].strip(" \t"):
        chars.append("\n")
        positions.append((line, 0))
        blank, line = blank + 1, line + 1
    if not blank and not escaped:
        chars.append(" ")
        positions.append(end)
    if line >= len(lines):
        return line, 0
    return line, len(lines[line]) - len(lines[line].lstrip(" \t"))


# --- loading -------------------------------------------------------------------------------

def load_yaml(path: Path, display: str | None = None) -> SourceFile:
    """Load one YAML file whose top level is a mapping; any problem raises `PackError`."""
    shown = str(path) if display is None else display
    text = _read_text(path, shown)
    plain = fast_yaml.load(text)
    if plain is not None:
        return SourceFile(path, shown, text, *plain)
    yaml = YAML(typ="rt")
    yaml.max_depth = MAX_DEPTH
    yaml.composer.warn_double_anchors = False       # re-defining an anchor is valid YAML
    node = _check_document(_compose(yaml, text, shown), shown)
    data = _construct(yaml, node, shown)
    # a mapping (checked above) always has a layout; `{}` finds no child, as None did
    return SourceFile(path, shown, text, data, (_own_loc(data) or (0, 0), _ruamel_layout(data) or {}))


def _fail(code: str, message: str, file: str, loc: Loc = (0, 0), hint: str | None = None) -> NoReturn:
    raise PackError([Diagnostic(code, message, file, loc[0] + 1, loc[1] + 1, hint=hint)])


def _read_text(path: Path, shown: str) -> str:
    """The file's text, refusing oversized files before reading them."""
    try:
        buffered = overlay.size(path)
        info = path.stat() if buffered is None else None
        if info is not None and not stat.S_ISREG(info.st_mode):
            _fail("YAML008", "not a regular file", shown)
        length = info.st_size if info is not None else buffered or 0
        if length > MAX_FILE_BYTES:
            _fail("YAML003", f"file is {length:,} bytes; the limit is {MAX_FILE_BYTES:,} (2 MiB)", shown,
                  hint="split the content over several files")
        raw = overlay.read_bytes(path)
    except OSError as exc:
        _fail("YAML008", f"cannot read file: {exc.strerror or exc}", shown)
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        start = raw.rfind(b"\n", 0, exc.start) + 1
        loc = (raw.count(b"\n", 0, exc.start), len(raw[start:exc.start].decode("utf-8", "replace")))
        _fail("YAML001", f"file is not valid UTF-8 (byte 0x{raw[exc.start]:02x})", shown, loc,
              hint="save the file with UTF-8 encoding")


def _compose(yaml: YAML, text: str, shown: str) -> Node | None:
    """Parse to a node graph, mapping ruamel's errors to diagnostics."""
    try:
        return yaml.compose(text)
    except MaxDepthExceededError as exc:
        mark = exc.problem_mark
        _fail("YAML005", f"data nested more than {MAX_DEPTH} levels deep", shown, (mark.line, mark.column))
    except MarkedYAMLError as exc:
        raise PackError([_marked(exc, "YAML001", shown)]) from None
    except YAMLError as exc:            # the reader's errors carry a character index only
        index = getattr(exc, "position", 0) or 0
        before = _LINE_BREAK.split(text[:index])
        reason = getattr(exc, "reason", None) or str(exc)
        _fail("YAML001", f"unacceptable character: {reason}", shown, (len(before) - 1, len(before[-1])))
    except NotImplementedError as exc:  # ruamel gives up placing some comments ("overlap in comment")
        found = _COMMENT_AT.search(str(exc))
        _fail("YAML001", "the YAML reader cannot place this comment", shown,
              (int(found[1]), int(found[2])) if found else (0, 0), hint="put the comment on a line of its own")


def _construct(yaml: YAML, root: Node, shown: str) -> Any:
    """Build the round-trip data; a value that does not fit its tag (`!!int abc`,
    a date like 2024-13-45) is then looked for node by node, off the normal path."""
    try:
        return yaml.constructor.construct_document(root)
    except MarkedYAMLError as exc:
        raise PackError([_marked(exc, "YAML001", shown)]) from None
    except (ValueError, KeyError, TypeError, OverflowError):
        bad = _unconstructable(yaml, root) or root
        kind = _KINDS.get((bad.tag or "").removeprefix(_YAML_TAG), "value")
        _fail("YAML001", f"'{bad.value}' is not a valid {kind.removeprefix('a ').removeprefix('an ')}",
              shown, (bad.start_mark.line, bad.start_mark.column), hint="quote it to keep it as text")


def _unconstructable(yaml: YAML, root: Node) -> Node | None:
    """The first scalar whose tag cannot be applied to its text."""
    seen: set[int] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, ScalarNode):
            try:
                yaml.constructor.construct_non_recursive_object(node)
            except (ValueError, KeyError, TypeError, OverflowError):
                return node
        stack.extend(reversed(_children(node)))
    return None


def _marked(exc: MarkedYAMLError, code: str, shown: str) -> Diagnostic:
    """A ruamel error at its problem mark, with the context it names (e.g. an unclosed '[')."""
    mark = exc.problem_mark or exc.context_mark
    problem = str(exc.problem or exc.context or "invalid YAML").split("\n")[0]
    context = exc.context if exc.problem and exc.context and exc.context_mark else None
    if context and problem.startswith("but "):
        problem = f"{context}, {problem}"
    elif context:
        problem += f" ({context} at line {exc.context_mark.line + 1}, col {exc.context_mark.column + 1})"
    hint = next((h for key, h in _SYNTAX_HINTS.items() if key in problem), None)
    line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
    return Diagnostic(code, problem, shown, line, col, hint=hint)


def _check_document(root: Node | None, shown: str) -> MappingNode:
    """Refuse empty or non-mapping documents and anything found by `_node_problems`."""
    if root is None:
        _fail("YAML004", "file is empty; expected a mapping of keys to values", shown)
    if not isinstance(root, MappingNode):
        kind = _KINDS.get((root.tag or "").removeprefix(_YAML_TAG), "a tagged value")
        _fail("YAML004", f"expected a mapping at the top level, got {kind}", shown,
              (root.start_mark.line, root.start_mark.column))
    problems = _node_problems(root, shown)
    if problems:
        raise PackError(sorted(problems, key=lambda d: (d.line, d.col)))
    return root


def _children(node: Node) -> list[Node]:
    if isinstance(node, MappingNode):
        return [part for pair in node.value for part in pair]
    return list(node.value) if isinstance(node, SequenceNode) else []


def _node_problems(root: Node, shown: str) -> list[Diagnostic]:
    """Tags and keys of every node, plus alias limits, on the node graph before construction.

    Aliases make the graph a DAG; sizes and depths are memoised so a billion-laughs
    document is measured, never expanded.
    """
    measured: dict[int, tuple[int, int]] = {}       # id(node) -> (expanded size, expanded depth)
    open_nodes: set[int] = set()
    problems: list[Diagnostic] = []
    aliases = expanded = 0
    stack: list[tuple[Node, bool]] = [(root, False)]
    while stack:
        node, finished = stack.pop()
        key = id(node)
        if finished:
            kids = [measured[id(kid)] for kid in _children(node)]
            measured[key] = (1 + sum(s for s, _ in kids), 1 + max((d for _, d in kids), default=0))
            open_nodes.discard(key)
            if measured[key][1] > MAX_DEPTH:
                return [_limit(node, f"aliases nest data more than {MAX_DEPTH} levels deep", shown)]
        elif key in open_nodes:
            return [_limit(node, "an alias refers to a value that contains it (recursive alias)", shown)]
        elif key in measured:
            aliases, expanded = aliases + 1, expanded + measured[key][0]
            if aliases > MAX_ALIASES or expanded > MAX_ALIAS_NODES:
                return [_limit(node, f"too many alias expansions (limits: {MAX_ALIASES} uses, "
                                     f"{MAX_ALIAS_NODES:,} expanded values)", shown)]
        else:
            open_nodes.add(key)
            problems.extend(_own_problems(node, shown))
            stack.append((node, True))
            stack.extend((kid, False) for kid in reversed(_children(node)))
    return problems


def _limit(node: Node, message: str, shown: str) -> Diagnostic:
    name = f"anchor '&{node.anchor}': " if node.anchor else ""
    return Diagnostic("YAML005", name + message, shown, node.start_mark.line + 1, node.start_mark.column + 1)


def _at(node: Node) -> tuple[int, int]:
    return node.start_mark.line + 1, node.start_mark.column + 1


def _own_problems(node: Node, shown: str) -> list[Diagnostic]:
    """Unsupported tags; in mappings, keys that are not text and duplicate keys."""
    problems: list[Diagnostic] = []
    if node.tag not in _STANDARD_TAGS:
        problems.append(Diagnostic("YAML007", f"unsupported tag '{node.tag}'", shown, *_at(node),
                                   hint="remove the tag: packs hold plain YAML values only"))
    if not isinstance(node, MappingNode):
        return problems
    seen: dict[str, Node] = {}
    for key, _ in node.value:
        if key.tag in (_STR, _MERGE) and isinstance(key, ScalarNode):
            first = seen.setdefault(key.value, key)
            if first is not key:
                line, col = _at(first)
                problems.append(Diagnostic("YAML002", f"duplicate key '{key.value}' (first at line {line}, "
                                           f"col {col})", shown, *_at(key)))
        elif key.tag in _STANDARD_TAGS:
            kind = _KINDS[key.tag.removeprefix(_YAML_TAG)]
            hint = f"quote it: '{key.value}':" if isinstance(key, ScalarNode) else None
            problems.append(Diagnostic("YAML006", f"keys must be text, this key is {kind}", shown,
                                       *_at(key), hint=hint))
    return problems
