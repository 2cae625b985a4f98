"""How a page lays out a pack's zones and counters: the pack's optional `display` section (pack.yaml),
with defaults filled in, else nothing (the page's generic layout: every zone as a list of cards)."""

from __future__ import annotations

from typing import Any

from engine.runtime.defs import Pack


def layout(pack: Pack) -> dict[str, Any]:
    """`{"zones": {zone id: {"as": "grid" | "row" | "list", ...}}, "counters": {id: {"as": "track", ...}}}`."""
    display = pack.display
    zones = {zid: {"as": "list", **spec} for zid, spec in display.get("zones", {}).items()}
    counters = {cid: {"as": "track", **spec} for cid, spec in display.get("counters", {}).items()}
    return {"zones": zones, "counters": counters}
