"""A fast yes/no JSON Schema check, so that jsonschema only runs on data that has errors.

jsonschema walks the schema for every value through layers of calls, since
it gathers every error with its path; most files have none. `compile_check`
turns a schema, once, into nested closures that answer only "is this
valid?", for exactly the Draft-07 keywords `schemas/` use, with the type
rules of schema_check's validator (a boolean is not a number). Where it
cannot answer exactly (a keyword it does not implement, a value of a type
other than plain dict, list, str, int, float, bool or None, such as
ruamel's), the answer is "no" and schema_check asks jsonschema: a "yes" here
is always jsonschema's "yes", and every error is still worded by
schema_check from jsonschema's report.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from referencing._core import Resolver

Check = Callable[[Any], bool]

_ANNOTATIONS = frozenset({"title", "description", "$schema", "$id", "$comment", "definitions", "default",
                          "examples"})
# JSON Schema types of the plain Python values fast_yaml builds (an integral float is also an integer)
_TYPES: dict[type, tuple[str, ...]] = {str: ("string",), dict: ("object",), list: ("array",),
                                       type(None): ("null",), bool: ("boolean",), int: ("integer", "number"),
                                       float: ("number",)}


class _UnsureError(Exception):
    """The check cannot tell exactly; jsonschema must."""


def compile_check(schema: Any, resolver: Resolver) -> Check:
    """A function telling whether a value is valid against `schema` (refs looked up with `resolver`)."""
    check = _Compiler().compile(schema, resolver)

    def is_valid(value: Any) -> bool:
        try:
            return check(value)
        except _UnsureError:
            return False
    return is_valid


def _yes(value: Any) -> bool:
    return True


def _no(value: Any) -> bool:
    return False


def _unsure(value: Any) -> bool:
    raise _UnsureError


def _all(checks: list[Check]) -> Check:
    if not checks:
        return _yes
    if len(checks) == 1:
        return checks[0]
    return lambda value: all(one(value) for one in checks)


def _plain_types(value: Any) -> tuple[str, ...]:
    kinds = _TYPES.get(type(value))
    if kinds is None:
        raise _UnsureError
    return kinds


class _Compiler:
    """Compiles each (sub)schema once; `$ref` cycles (steps within steps) go through a cell."""

    def __init__(self) -> None:
        self.cells: dict[int, list[Check | None]] = {}

    def compile(self, schema: Any, resolver: Resolver) -> Check:
        if schema is True or schema is False:
            return _yes if schema else _no
        if not isinstance(schema, Mapping):
            return _unsure
        pending = self.cells.get(id(schema))
        if pending is not None:
            return pending[0] or _when_compiled(pending)
        cell: list[Check | None] = [None]
        self.cells[id(schema)] = cell
        check = cell[0] = self._schema(schema, resolver)
        return check

    def _schema(self, schema: Mapping[str, Any], resolver: Resolver) -> Check:
        if "$ref" in schema:            # Draft 7: a $ref's sibling keywords are ignored
            resolved = resolver.lookup(schema["$ref"])
            return self.compile(resolved.contents, resolved.resolver)
        checks: list[Check] = []
        for keyword, value in schema.items():
            if keyword in _ANNOTATIONS or keyword in ("then", "else", "patternProperties"):
                continue                # then/else belong to `if`, patternProperties to the object check
            make = _KEYWORDS.get(keyword)
            if make is None:
                return _unsure
            checks.append(make(self, value, schema, resolver))
        if "patternProperties" in schema and "additionalProperties" not in schema:
            checks.append(self._additional_properties(True, schema, resolver))
        return _all(checks)

    # ---------------------------------------------------------------- keywords, each as jsonschema has it
    def _type(self, value: Any, schema: Any, resolver: Resolver) -> Check:
        wanted = frozenset(value if isinstance(value, list) else [value])

        def check(instance: Any) -> bool:
            if not wanted.isdisjoint(_plain_types(instance)):
                return True
            return "integer" in wanted and type(instance) is float and instance.is_integer()
        return check

    def _enum(self, value: Any, schema: Any, resolver: Resolver) -> Check:
        if not all(isinstance(member, str) for member in value):
            return _unsure
        members = frozenset(value)
        return lambda instance: isinstance(instance, str) and instance in members

    def _pattern(self, value: Any, schema: Any, resolver: Resolver) -> Check:
        search = re.compile(value).search
        return lambda instance: not isinstance(instance, str) or search(instance) is not None

    def _min_length(self, value: Any, schema: Any, resolver: Resolver) -> Check:
        return lambda instance: not isinstance(instance, str) or len(instance) >= value

    def _min_items(self, value: Any, schema: Any, resolver: Resolver) -> Check:
        return lambda instance: not isinstance(instance, list) or len(instance) >= value

    def _max_items(self, value: Any, schema: Any, resolver: Resolver) -> Check:
        return lambda instance: not isinstance(instance, list) or len(instance) <= value

    def _min_properties(self, value: Any, schema: Any, resolver: Resolver) -> Check:
        return lambda instance: not isinstance(instance, dict) or len(instance) >= value

    def _max_properties(self, value: Any, schema: Any, resolver: Resolver) -> Check:
        return lambda instance: not isinstance(instance, dict) or len(instance) <= value

    def _minimum(self, value: Any, schema: Any, resolver: Resolver) -> Check:
        return lambda instance: "number" not in _plain_types(instance) or instance >= value

    def _maximum(self, value: Any, schema: Any, resolver: Resolver) -> Check:
        return lambda instance: "number" not in _plain_types(instance) or instance <= value

    def _required(self, value: Any, schema: Any, resolver: Resolver) -> Check:
        return lambda instance: not isinstance(instance, dict) or all(key in instance for key in value)

    def _items(self, value: Any, schema: Any, resolver: Resolver) -> Check:
        if isinstance(value, list):
            return _unsure              # tuple validation: not used by the schemas
        item = self.compile(value, resolver)
        return lambda instance: not isinstance(instance, list) or all(item(x) for x in instance)

    def _property_names(self, value: Any, schema: Any, resolver: Resolver) -> Check:
        name = self.compile(value, resolver)
        return lambda instance: not isinstance(instance, dict) or all(name(key) for key in instance)

    def _properties(self, value: Any, schema: Any, resolver: Resolver) -> Check:
        known = {key: self.compile(sub, resolver) for key, sub in value.items()}

        def check(instance: Any) -> bool:
            if not isinstance(instance, dict):
                return True
            for key, item in instance.items():
                sub = known.get(key)
                if sub is not None and not sub(item):
                    return False
            return True
        return check

    def _additional_properties(self, value: Any, schema: Any, resolver: Resolver) -> Check:
        """Also patternProperties: keys matching a pattern are checked by it, and are not additional."""
        known = frozenset(schema.get("properties", {}))
        patterns = [(re.compile(p).search, self.compile(s, resolver))
                    for p, s in schema.get("patternProperties", {}).items()]
        extra = self.compile(value, resolver)

        def check(instance: Any) -> bool:
            if not isinstance(instance, dict):
                return True
            for key, item in instance.items():
                matched = False
                for search, sub in patterns:
                    if search(key):
                        matched = True
                        if not sub(item):
                            return False
                if not matched and key not in known and not extra(item):
                    return False
            return True
        return check

    def _all_of(self, value: Any, schema: Any, resolver: Resolver) -> Check:
        return _all([self.compile(sub, resolver) for sub in value])

    def _any_of(self, value: Any, schema: Any, resolver: Resolver) -> Check:
        subs = [self.compile(sub, resolver) for sub in value]
        return lambda instance: any(sub(instance) for sub in subs)

    def _one_of(self, value: Any, schema: Any, resolver: Resolver) -> Check:
        subs = [self.compile(sub, resolver) for sub in value]
        return lambda instance: sum(1 for sub in subs if sub(instance)) == 1

    def _if(self, value: Any, schema: Any, resolver: Resolver) -> Check:
        test = self.compile(value, resolver)
        then = self.compile(schema.get("then", True), resolver)
        otherwise = self.compile(schema.get("else", True), resolver)
        return lambda instance: then(instance) if test(instance) else otherwise(instance)

    def _dependencies(self, value: Any, schema: Any, resolver: Resolver) -> Check:
        needs = {key: _has_all(tuple(dep)) if isinstance(dep, list)
                 else self.compile(dep, resolver) for key, dep in value.items()}

        def check(instance: Any) -> bool:
            if not isinstance(instance, dict):
                return True
            return all(need(instance) for key, need in needs.items() if key in instance)
        return check


_KEYWORDS: dict[str, Callable[[_Compiler, Any, Mapping[str, Any], Resolver], Check]] = {
    "type": _Compiler._type, "enum": _Compiler._enum, "pattern": _Compiler._pattern,
    "minLength": _Compiler._min_length, "minItems": _Compiler._min_items, "maxItems": _Compiler._max_items,
    "minProperties": _Compiler._min_properties, "maxProperties": _Compiler._max_properties,
    "minimum": _Compiler._minimum, "maximum": _Compiler._maximum, "required": _Compiler._required,
    "items": _Compiler._items, "propertyNames": _Compiler._property_names, "properties": _Compiler._properties,
    "additionalProperties": _Compiler._additional_properties, "allOf": _Compiler._all_of,
    "anyOf": _Compiler._any_of, "oneOf": _Compiler._one_of, "if": _Compiler._if,
    "dependencies": _Compiler._dependencies,
}


def _when_compiled(cell: list[Check | None]) -> Check:
    """A check for a schema that is still being compiled (it refers to itself): runs it once it is."""
    def check(value: Any) -> bool:
        compiled = cell[0]
        assert compiled is not None       # compiling finishes before any instance is checked
        return compiled(value)
    return check


def _has_all(keys: tuple[str, ...]) -> Check:
    return lambda instance: all(k in instance for k in keys)
