"""Pack versions and version constraints (a pack's `engine` range, its dependencies' `version`).

One reader for both spellings packs use: comma-separated (">=0.1,<1.0", as in
`engine:`) and space-separated (">=0.1 <1.0", as in Factorio dependency
strings). Versions compare as MAJOR.MINOR.PATCH numbers, missing parts being
0; pre-release and build suffixes are ignored.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable
from dataclasses import dataclass

Version = tuple[int, int, int]

_VERSION = re.compile(r"\s*(\d{1,9})(?:\.(\d{1,9}))?(?:\.(\d{1,9}))?(?:[-+][0-9A-Za-z.+-]*)?\s*$")
_TEST = re.compile(r"\s*(==|!=|>=|<=|>|<|~=)\s*(\d{1,9}(?:\.\d{1,9}){0,2})\s*,?")
_COMPARE: dict[str, Callable[[Version, Version], bool]] = {
    "==": operator.eq, "!=": operator.ne, ">=": operator.ge, "<=": operator.le, ">": operator.gt, "<": operator.lt,
}


def parse_version(text: str) -> Version | None:
    """(major, minor, patch) of "1", "1.2" or "1.2.3-beta"; None if it is not a version."""
    found = _VERSION.match(str(text))
    if found is None:
        return None
    major, minor, patch = (int(part or 0) for part in found.groups())
    return major, minor, patch


@dataclass(frozen=True)
class Constraint:
    """Version tests that must all hold; no tests allows every version."""

    text: str
    tests: tuple[tuple[str, Version, int], ...]      # (operator, version, number of parts written)

    def allows(self, version: str) -> bool:
        found = parse_version(version)
        return found is not None and all(_holds(op, found, bound, parts) for op, bound, parts in self.tests)


ANY = Constraint("", ())


def parse_constraint(text: str) -> Constraint | None:
    """">=0.1,<1.0" or ">=0.1 <1.0" (or "" for any version); None if malformed."""
    tests: list[tuple[str, Version, int]] = []
    position, text = 0, str(text)
    while position < len(text.rstrip()):
        found = _TEST.match(text, position)
        if found is None:
            return None
        numbers = [int(part) for part in found.group(2).split(".")]
        major, minor, patch = (*numbers, 0, 0)[:3]
        tests.append((found.group(1), (major, minor, patch), len(numbers)))
        position = found.end()
    return Constraint(text.strip(), tuple(tests))


def _holds(op: str, version: Version, bound: Version, parts: int) -> bool:
    """`~=X.Y` means >=X.Y and <X+1; `~=X.Y.Z` means >=X.Y.Z and <X.Y+1 (compatible release)."""
    if op != "~=":
        return _COMPARE[op](version, bound)
    keep = max(parts - 1, 1)
    ceiling = (*bound[:keep - 1], bound[keep - 1] + 1, 0, 0)[:3]
    return bound <= version < ceiling
