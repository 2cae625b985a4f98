"""A seat's view drawn as text for a person at the terminal: counters by name, every zone it may see,
what happened since its last answer, the decision with readable options.

Plain lines when stdout is not a terminal (pipes, tests, logs); `rich` tables and colour when it is
and `rich` is installed (it is a dependency of the `serve` extra and optional here).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TextIO

from engine.dsl.english import plural
from engine.play.layout import layout
from engine.play.rules_text import RulesText
from engine.runtime.decision import Decision

Section = tuple[str, list[tuple[str, str]]]   # a titled table of (name, value) rows


def _items(zone: Any) -> str:
    if isinstance(zone, dict):     # hidden: how many (None: that is secret too)
        return "(hidden)" if zone.get("hidden", 0) is None else f"({zone.get('hidden', 0)} hidden)"
    return ", ".join(str(i["name"]) for i in zone) if zone else "—"


def grid_text(items: list[dict[str, Any]], spec: dict[str, Any]) -> str:
    """A `display` grid as lines of cells: the `show` attribute's value, `.` for 0 or none."""
    x, y = spec["x"], spec["y"]
    xs = sorted({int(i[x]) for i in items})
    ys = sorted({int(i[y]) for i in items}, reverse=spec.get("origin") == "bottom")
    cells = {(int(i[x]), int(i[y])): i.get(spec.get("show", ""), 0) for i in items}
    width = max(len(str(v)) for v in cells.values())
    def cell(value: Any) -> str:
        return ("." if not value else str(value)).rjust(width)
    return "\n".join("    " + " ".join(cell(cells.get((col, row))) for col in xs) for row in ys)


def _runs(lines: list[str]) -> list[tuple[str, int]]:
    """Consecutive equal lines as (line, how many): four cards set aside read as one line."""
    out: list[tuple[str, int]] = []
    for line in lines:
        if out and out[-1][0] == line:
            out[-1] = (line, out[-1][1] + 1)
        else:
            out.append((line, 1))
    return out


class TableText:
    """Draws views, decisions, rules text and events for one seat on one stream."""

    def __init__(self, rules: RulesText, out: TextIO, fancy: bool | None = None) -> None:
        self.rules, self.out = rules, out
        self.zones = layout(rules.pack)["zones"]
        if fancy is None:
            fancy = bool(getattr(out, "isatty", lambda: False)())
        self.console: Any = None
        if fancy:
            try:
                from rich.console import Console
            except ImportError:   # rich is optional at the terminal: plain text then
                pass
            else:
                self.console = Console(file=out, highlight=False)

    # ---------------------------------------------------------------- what the seat sees
    def sections(self, view: Mapping[str, Any], seat: int) -> list[Section]:
        name = self.rules.name
        out: list[Section] = []
        shared = [(name(k), str(v)) for k, v in view["counters"].items()]
        shared += [(plural(name(d), "2"), " ".join(f"[{f}]" for f in faces) or "none")
                   for d, faces in view.get("dice", {}).items()]      # dice pools lie on the table
        shared += [(name(z), self._zone(z, items)) for z, items in view["zones"].items()
                   if self.zones.get(z, {}).get("as") != "off"]
        if shared:
            out.append(("Table", shared))
        for player in view["players"]:
            who = "You" if player["seat"] == seat else f"P{player['seat'] + 1}"
            rows = [(name(k), str(v)) for k, v in player["counters"].items() if v]
            rows += [(name(z), self._zone(z, items)) for z, items in player["zones"].items()
                     if not (isinstance(items, dict) and items.get("hidden", 0) == 0)
                     and self.zones.get(z, {}).get("as") != "off"]
            out.append((f"{who} (seat {player['seat'] + 1})", rows))
        return out

    def _zone(self, zid: str, items: Any) -> str:
        spec = self.zones.get(zid, {})
        if spec.get("as") == "grid" and isinstance(items, list) and items:
            return "\n" + grid_text(items, spec)
        return _items(items)

    def show_view(self, view: Mapping[str, Any], seat: int) -> None:
        for title, rows in self.sections(view, seat):
            if self.console is not None and not rows:
                self.console.print(title, style="bold", markup=False)
            elif self.console is not None:
                from rich.table import Table
                table = Table(title=title, show_header=False, title_justify="left", expand=False)
                table.add_column(style="bold cyan")
                table.add_column()
                for k, v in rows:
                    table.add_row(k, v)
                self.console.print(table)
            else:
                self.out.write(f"-- {title} --\n")
                for k, v in rows:
                    self.out.write(f"  {k}: {v}\n")

    def show_events(self, events: list[dict[str, Any]], seat: int, title: str) -> None:
        lines = [line for line in (self.rules.event(e, seat) for e in events) if line]
        if not lines:
            return
        self._line(f"-- {title} --", "bold")
        for line, repeats in _runs(lines):
            self.out.write(f"  {line}" + (f" (×{repeats})" if repeats > 1 else "") + "\n")

    def show_decision(self, decision: Decision) -> None:
        self._line(f"{self.rules.prompt(decision)}:", "bold yellow")
        for i in range(len(decision.labels)):
            self.out.write(f"  {i + 1}) {self.rules.short(decision, i)}\n")
        self.out.write("  (?N or help N: option N's rules text; log: recent events)\n")

    def show_option(self, decision: Decision, index: int) -> None:
        text = self.rules.option(decision, index) or "(no further rules text)"
        self.out.write(f"  {index + 1}) {decision.labels[index]}\n")
        for line in text.splitlines():
            self.out.write(f"     {line}\n")

    def _line(self, text: str, style: str) -> None:
        if self.console is not None:
            self.console.print(text, style=style, markup=False)
        else:
            self.out.write(text + "\n")
