"""What changed between two balance reports made on the same seeds (a base pack and a modified one).

Each shift comes with its 95% interval and two-sided p; `significant` means p < 0.05 for that one
test. Many shifts are tested, so a few will be flagged by chance: read them as leads to look at.
"""

from __future__ import annotations

from typing import Any

from engine.play.simulate import GameRecord
from engine.report.stats import difference_of_differences, mean_difference, proportion_difference

ALPHA = 0.05


def compare(base: dict[str, Any], modded: dict[str, Any], base_games: list[GameRecord],
            modded_games: list[GameRecord]) -> dict[str, Any]:
    """Shifts from `base` to `modded` (reports of `base_games` and `modded_games`, played on the same seeds)."""
    base_games = [g for g in base_games if g.error is None]
    modded_games = [g for g in modded_games if g.error is None]
    shifts: list[dict[str, Any]] = []
    groups = {g["players"]: g for g in base["by_players"]}
    for group in modded["by_players"]:
        n = group["players"]
        old = groups.get(n)
        if old is None:
            continue
        for s_old, s_new in zip(old["seats"], group["seats"], strict=True):
            seat = f"{n}p P{s_old['seat']}"
            if n > 1:
                w0, w1 = s_old["win"], s_new["win"]
                d = proportion_difference(w1["rate"] * w1["n"], w1["n"], w0["rate"] * w0["n"], w0["n"])
                _add(shifts, "win rate", seat, w0["rate"], w1["rate"], d)
            scores0 = [g.scores[s_old["seat"] - 1] for g in base_games if g.players == n]
            scores1 = [g.scores[s_old["seat"] - 1] for g in modded_games if g.players == n]
            _add(shifts, "mean score", seat, s_old["score"]["mean"], s_new["score"]["mean"],
                 mean_difference(scores1, scores0))
    for what, key in (("mean decisions", "decisions"), ("mean rounds", "rounds")):
        a, b = base["length"][key], modded["length"][key]
        if a and b:
            d = mean_difference([getattr(g, key) for g in modded_games], [getattr(g, key) for g in base_games])
            _add(shifts, what, "all games", a["mean"], b["mean"], d)
    old_components = {c["id"]: c for c in base["components"]}
    new_components = []
    for c in modded["components"]:
        before = old_components.get(c["id"])
        if before is None:
            new_components.append({"id": c["id"], "name": c["name"], "played": c["played"], "lift": c["lift"],
                                   "significant": c["significant"]})
        elif c["lift"] and before["lift"]:
            _add(shifts, "component lift", c["name"], before["lift"]["value"], c["lift"]["value"],
                 difference_of_differences(c["lift"], before["lift"]))
    shifts.sort(key=lambda s: (not s["significant"], s["p"]))
    return {"base": base["pack"], "modded": modded["pack"], "run": modded["run"],
            "shifts": shifts, "significant": sum(1 for s in shifts if s["significant"]),
            "expected_by_chance": round(ALPHA * len(shifts), 1),
            "new_components": new_components,
            "removed_components": sorted(set(old_components) - {c["id"] for c in modded["components"]})}


def _add(shifts: list[dict[str, Any]], what: str, where: str, before: float, after: float,
         d: dict[str, float] | None) -> None:
    if d is None:
        return
    shifts.append({"what": what, "where": where, "base": before, "modded": after, "change": d["value"],
                   "ci": d["ci"], "p": round(d["p"], 6), "significant": d["p"] < ALPHA})
