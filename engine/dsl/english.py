"""Small English helpers for rules text: identifiers as words, plurals and lists ("A, B and C")."""

from __future__ import annotations

_UNCOUNTED = ("gy", "ness", "ity", "ware", "ice")


def words(identifier: str) -> str:
    """An identifier as words: `draw_class` -> "draw class"."""
    return identifier.replace("_", " ")


def plural(name: str, amount: str) -> str:
    """`name` for `amount` of it: the singular for exactly 1, else a plain English plural.

    Names of things that are not counted one by one ("...gy", "...ness") stay as they are.
    """
    if amount == "1":
        last = name.split(" ")[-1]   # a word of 3 letters ending in s is rarely a plural ("Bus")
        return name[:-1] if name.endswith("s") and len(last) > 3 and not name.endswith(("ss", "us", "is")) else name
    if name.endswith(("s", *_UNCOUNTED)):
        return name
    if name.lower().endswith(" die") or name.lower() == "die":
        return name[:-3] + ("Dice" if name[-3] == "D" else "dice")
    if name.endswith("y") and name[-2:-1].lower() not in ("a", "e", "i", "o", "u", ""):
        return name[:-1] + "ies"
    return name + ("es" if name.endswith(("ch", "sh", "x", "z")) else "s")


def and_list(parts: list[str]) -> str:
    """"A", "A and B", "A, B and C"."""
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"


def sentences(clauses: list[str]) -> str:
    return " ".join(c[:1].upper() + c[1:] + "." for c in clauses if c)
