"""JSON Schema validation of loaded YAML, reported as positioned, human-worded diagnostics.

The schemas in `schemas/` are Draft-07 so editors (the VS Code YAML extension)
and this checker agree; they `$ref` each other by file name through one
`referencing.Registry`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping
from functools import cache
from typing import TYPE_CHECKING, Any

from referencing import Registry, Resource
from referencing.jsonschema import DRAFT7
from ruamel.yaml.scalarbool import ScalarBoolean

from engine.diagnostics import Diagnostic, did_you_mean
from engine.packs.schema_fast import Check, compile_check
from engine.packs.source import DataPath, SourceFile
from engine.resources import data_dir

if TYPE_CHECKING:       # jsonschema itself is imported only for data the quick check does not pass
    from jsonschema import Draft7Validator
    from jsonschema.exceptions import ValidationError

_TYPE_NAMES = {"integer": "an integer", "number": "a number", "string": "a string", "boolean": "a boolean",
               "object": "a mapping", "array": "a list", "null": "nothing"}
_CONSTRAINTS = {
    "minimum": "at least {v}", "maximum": "at most {v}",
    "exclusiveMinimum": "more than {v}", "exclusiveMaximum": "less than {v}",
    "minItems": "at least {v} item(s)", "maxItems": "at most {v} item(s)",
    "minProperties": "at least {v} key(s)", "maxProperties": "at most {v} key(s)",
    "minLength": "at least {v} character(s)", "maxLength": "at most {v} character(s)",
    "multipleOf": "a multiple of {v}",
}


def _is_boolean(checker: Any, value: Any) -> bool:
    return isinstance(value, bool | ScalarBoolean)


@cache
def _yaml_validator_class() -> Any:
    """Draft 7 with YAML's types: ruamel loads an anchored `true` as ScalarBoolean, an int subclass,
    which is a boolean here and not a number."""
    from jsonschema import Draft7Validator, validators

    def not_boolean(kind: str) -> Callable[[Any, Any], bool]:
        return lambda checker, value: not _is_boolean(checker, value) and \
            Draft7Validator.TYPE_CHECKER.is_type(value, kind)

    return validators.extend(Draft7Validator, type_checker=Draft7Validator.TYPE_CHECKER.redefine_many(
        {"boolean": _is_boolean, "integer": not_boolean("integer"), "number": not_boolean("number")}))


@cache
def _registry() -> Registry:
    """Every schema file, keyed by its file name (and `$id`), so cross-file `$ref`s resolve."""
    resources: list[tuple[str, Resource]] = []
    for path in sorted(data_dir("schemas").glob("*.json")):
        contents = _ecma_ends(json.loads(path.read_text(encoding="utf-8")))
        resource = Resource.from_contents(contents, default_specification=DRAFT7)
        resources.append((path.name, resource))
        if contents.get("$id") and contents["$id"] != path.name:
            resources.append((contents["$id"], resource))
    return Registry().with_resources(resources)


def _ecma_ends(schema: Any) -> Any:
    """The schema with each pattern's final `$` meaning what it means in JSON Schema (ECMA 262): the
    end of the text. Python's `$` also matches before a final line break, so `coin\\n` would pass
    as an id; `(?!\\n)$` is the same pattern in ECMA and the intended one in Python."""
    if isinstance(schema, list):
        return [_ecma_ends(v) for v in schema]
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key == "pattern" and isinstance(value, str):
            out[key] = _strict_end(value)
        elif key == "patternProperties" and isinstance(value, dict):
            out[key] = {_strict_end(k): _ecma_ends(v) for k, v in value.items()}
        else:
            out[key] = _ecma_ends(value)
    return out


def _strict_end(pattern: str) -> str:
    if pattern.endswith("$") and not pattern.endswith("\\$"):
        return pattern[:-1] + r"(?!\n)$"
    return pattern


@cache
def _validator(schema_id: str) -> Draft7Validator:
    """A compiled validator per schema file name, e.g. "content.schema.json"."""
    registry = _registry()
    validator: Draft7Validator = _yaml_validator_class()(registry.contents(schema_id), registry=registry)
    return validator


@cache
def _fast_check(schema_id: str) -> Check:
    """The quick yes/no for the schema file `schema_id` (engine/packs/schema_fast.py)."""
    registry = _registry()
    return compile_check(registry.contents(schema_id), registry.resolver_with_root(registry[schema_id]))


def is_valid(data: Any, schema_id: str) -> bool:
    """Whether `data` matches the schema file `schema_id` (no diagnostics: for data read without positions)."""
    return _quick_yes(data, schema_id) or _validator(schema_id).is_valid(data)


def validate(src: SourceFile, schema_id: str) -> list[Diagnostic]:
    """Check `src.data` against the schema file `schema_id`; diagnostics sorted by position.

    Valid data (most files) is recognised by the quick check; jsonschema runs on the rest.
    """
    if _quick_yes(src.data, schema_id):
        return []
    found: set[Diagnostic] = set()
    for error in _validator(schema_id).iter_errors(src.data):
        found.update(_diagnose(src, error))
    return sorted(found, key=lambda d: (d.line, d.col, d.code, d.message))


def _quick_yes(data: Any, schema_id: str) -> bool:
    """The quick check's "valid", on ruamel's data too: its mappings, lists and scalars (subclasses of
    the plain types, which the quick check does not take) are read as the plain values they are to
    jsonschema; data holding anything else (a date, a set, a tagged value) is left to jsonschema."""
    check = _fast_check(schema_id)
    if check(data):
        return True
    if type(data) is dict:      # plain data (fast_yaml's): the quick check was sure
        return False
    plain = _plain(data)
    return plain is not _NOT_PLAIN and check(plain)


_NOT_PLAIN: Any = object()


def _plain(value: Any) -> Any:
    """`value` made of plain dicts, lists, str, int, float, bool and None, or _NOT_PLAIN. Recursive:
    ruamel refuses data nested past source.MAX_DEPTH."""
    if value is None or type(value) in (str, int, float, bool):
        return value
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            if not isinstance(key, str):
                return _NOT_PLAIN
            item = _plain(item)
            if item is _NOT_PLAIN:
                return _NOT_PLAIN
            out[str.__str__(key)] = item
        return out
    if isinstance(value, list):
        items = [_plain(item) for item in value]
        return _NOT_PLAIN if any(item is _NOT_PLAIN for item in items) else items
    if isinstance(value, ScalarBoolean):
        return _NOT_PLAIN       # an int to jsonschema's `enum` and `const`, a boolean to its `type`
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return float(value)
    return _NOT_PLAIN


def _diagnose(src: SourceFile, error: ValidationError) -> list[Diagnostic]:
    """Turn one jsonschema error into diagnostics at the offending key or value."""
    path: DataPath = tuple(error.absolute_path)
    kind = error.validator
    if "propertyNames" in error.absolute_schema_path and isinstance(error.instance, str):
        return [_at(src, (*path, error.instance), "SCH004", f"invalid key: {_message(error)}",
                    _hint(error), key=True)]
    if kind == "additionalProperties":
        return _unknown_keys(src, path, error)
    if kind == "required":
        missing = [k for k in _wanted(error) if k not in _instance(error)]
        return [_at(src, path, "SCH002", f"missing required key '{k}'") for k in missing]
    if kind == "dependencies":
        return _dependencies(src, path, error)
    if kind in ("anyOf", "oneOf"):
        return _alternatives(src, path, error)
    code = "SCH003" if kind == "type" else "SCH004"
    return [_at(src, path, code, _message(error), _hint(error))]


def _at(src: SourceFile, path: DataPath, code: str, message: str, hint: str | None = None,
        key: bool = False) -> Diagnostic:
    line, col = src.key_pos(path) if key else src.pos(path)
    return Diagnostic(code, message, src.display, line, col, hint=hint)


def _unknown_keys(src: SourceFile, path: DataPath, error: ValidationError) -> list[Diagnostic]:
    """SCH001 at each extra key, with a did-you-mean over the keys the schema allows."""
    allowed = list(_schema_of(error).get("properties", {}))
    patterns = [re.compile(p) for p in _schema_of(error).get("patternProperties", {})]
    extras = [k for k in _instance(error) if k not in allowed and not any(p.search(str(k)) for p in patterns)]
    listing = f"allowed keys: {', '.join(allowed)}" if allowed else None
    return [_at(src, (*path, k), "SCH001", f"unknown key '{k}'", did_you_mean(str(k), allowed) or listing,
                key=True) for k in extras]


def _dependencies(src: SourceFile, path: DataPath, error: ValidationError) -> list[Diagnostic]:
    """A key that needs other keys (list-form dependencies), reported at that key."""
    return [_at(src, (*path, key), "SCH002", f"'{key}' needs key '{n}'", key=True)
            for key, needs in _wanted(error).items() if key in _instance(error) and isinstance(needs, list)
            for n in needs if n not in _instance(error)]


def _alternatives(src: SourceFile, path: DataPath, error: ValidationError) -> list[Diagnostic]:
    """anyOf/oneOf: name the key choices, merge pure type mismatches, else the best sub-error."""
    alternatives = _required_sets(_wanted(error))
    schema_path = list(error.absolute_schema_path)
    if alternatives and len(schema_path) > 2 and schema_path[-3] == "dependencies":
        key = schema_path[-2]               # {"dependencies": {key: {"anyOf": [required...]}}}
        return [_at(src, (*path, key), "SCH002", f"'{key}' needs one of the keys {_keys(alternatives)}", key=True)]
    if alternatives and not isinstance(error.instance, Mapping):
        return []                       # key choices say nothing about a non-mapping: its type error does
    if alternatives:
        present = [keys[0] for keys in alternatives if all(k in _instance(error) for k in keys)]
        if len(present) > 1:
            message = f"only one of the keys {_keys(alternatives)} may be used; found {_quoted(present)}"
        else:
            exactly = "exactly " if error.validator == "oneOf" else ""
            message = f"expected {exactly}one of the keys {_keys(alternatives)}"
        return [_at(src, path, "SCH005", message)]
    if not error.context:
        return [_at(src, path, "SCH005", "matches more than one of the allowed forms")]
    if all(sub.validator == "type" and not sub.relative_path for sub in error.context):
        types = [t for sub in error.context for t in _as_list(sub.validator_value)]
        return [_at(src, path, "SCH003", f"expected {_type_names(types)}, got {_describe(error.instance)}",
                    _quote_hint(types, error.instance))]
    from jsonschema.exceptions import best_match
    return _diagnose(src, best_match(error.context))


def _schema_of(error: ValidationError) -> Mapping[str, Any]:
    """The failing subschema's keywords (a `true`/`false` schema has none)."""
    return error.schema if isinstance(error.schema, Mapping) else {}


def _wanted(error: ValidationError) -> Any:
    """The failing keyword's value (`required`'s list, `enum`'s values, ...): JSON, so typed Any."""
    return error.validator_value


def _instance(error: ValidationError) -> Any:
    return error.instance


def _required_sets(schemas: Iterable[Any]) -> list[list[str]]:
    """The key lists of alternatives that only say `required: [...]`, or [] if any says more."""
    sets = [s["required"] for s in schemas if isinstance(s, Mapping) and set(s) == {"required"}]
    return sets if sets and len(sets) == len(list(schemas)) else []


def _keys(alternatives: list[list[str]]) -> str:
    return _quoted(["+".join(keys) for keys in alternatives])


def _quoted(names: Iterable[str]) -> str:
    return ", ".join(f"'{n}'" for n in names)


def _message(error: ValidationError) -> str:
    """Plain-words text for a single-value error (type, enum, pattern, bounds)."""
    kind, value, got = error.validator, _wanted(error), _describe(error.instance)
    if kind == "type":
        return f"expected {_type_names(_as_list(value))}, got {got}"
    if kind == "enum":
        return f"expected one of {_quoted(map(str, value))}, got {got}"
    if kind == "const":
        return f"expected '{value}', got {got}"
    if kind == "pattern":
        title = _schema_of(error).get("title")
        return f"'{error.instance}' is not a valid {title}" if title else f"'{error.instance}' does not match {value}"
    if kind == "minLength" and value == 1:
        return "must not be empty"
    if kind in _CONSTRAINTS:
        return f"expected {_CONSTRAINTS[kind].format(v=value)}, got {got}"
    if kind == "uniqueItems":
        return "items must not repeat"
    return error.message


def _hint(error: ValidationError) -> str | None:
    if error.validator == "enum" and isinstance(error.instance, str):
        return did_you_mean(error.instance, map(str, _wanted(error)))
    if error.validator == "pattern":
        return _schema_of(error).get("description")
    if error.validator == "type":
        return _quote_hint(_as_list(_wanted(error)), error.instance)
    return None


def _quote_hint(types: list[str], value: Any) -> str | None:
    """YAML reads 1.0, true and dates as non-text (quoting fixes that), but yes/no as text."""
    if "string" in types and value is not None and not isinstance(value, Mapping | list):
        return "put the value in quotes to make it text"
    if "boolean" in types and isinstance(value, str):
        return "write true or false"
    return None


def _as_list(value: Any) -> list[str]:
    return list(value) if isinstance(value, list) else [value]


def _type_names(types: list[str]) -> str:
    names = [_TYPE_NAMES.get(t, t) for t in dict.fromkeys(types)]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


def _describe(value: Any) -> str:
    """How a YAML value reads to a pack author: "string 'abc'", "a list"."""
    if isinstance(value, bool | ScalarBoolean):
        return f"boolean {str(bool(value)).lower()}"
    if isinstance(value, int):
        return f"integer {value}"
    if isinstance(value, float):
        return f"number {value}"
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:37] + "..."
        return f"string '{shown}'"
    if value is None:
        return "nothing (an empty value)"
    if isinstance(value, Mapping):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return f"{type(value).__name__} {value}"
