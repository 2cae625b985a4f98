"""The balance report as files: `report.json`, a self-contained `index.html` and each plot as a PNG.

Every figure is drawn from the report's data alone (the same numbers `report.json` holds), so what
the page shows and what a script reads cannot disagree. Plots are PNG data URIs: the page opens
offline, from a mail attachment or a CI artifact. matplotlib (`cogwork[report]`) is imported here only.
"""

from __future__ import annotations

import base64
import html
import io
import itertools
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from matplotlib.figure import Figure

TOP_COMPONENTS = 25      # the forest plot shows the strongest links; the table lists every component


def figures(report: dict[str, Any]) -> dict[str, Figure]:
    """name -> matplotlib figure, each drawn from `report` only."""
    import matplotlib

    matplotlib.use("Agg")
    out = {"win_rates": _win_rates(report), "scores": _scores(report), "length": _length(report)}
    if any(c["lift"] for c in report["components"]):
        out["components"] = _components(report)
    if report["bots"]:
        out["bots"] = _bots(report)
    return out


def _new(width: float = 8, height: float = 4) -> tuple[Figure, Any]:
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), layout="constrained")
    return fig, fig.add_subplot()


def _win_rates(report: dict[str, Any]) -> Figure:
    """Bars per seat, grouped by player count, with 95% intervals and the fair share as a dashed line."""
    fig, ax = _new()
    x, ticks, labels = 0.0, [], []
    for group in report["by_players"]:
        if group["players"] < 2:
            continue
        start = x
        for seat in group["seats"]:
            win = seat["win"]
            ax.bar(x, win["rate"], width=0.8, color=f"C{seat['seat'] - 1}")
            ax.errorbar(x, win["rate"], yerr=[[win["rate"] - win["ci"][0]], [win["ci"][1] - win["rate"]]],
                        color="black", capsize=3)
            ticks.append(x)
            labels.append(f"P{seat['seat']}")
            x += 1
        ax.hlines(group["fair_share"], start - 0.5, x - 0.5, colors="grey", linestyles="dashed")
        ax.text((start + x - 1) / 2, -0.12, f"{group['players']} players", ha="center",
                transform=ax.get_xaxis_transform())
        x += 1
    ax.set_xticks(ticks, labels)
    ax.set_ylabel("win rate (95% CI); dashed: fair share")
    ax.set_title("Seat win rates by player count")
    return fig


def _scores(report: dict[str, Any]) -> Figure:
    """Box plots of each seat's final score, grouped by player count (quartiles and extremes from the report)."""
    fig, ax = _new()
    stats, positions, x = [], [], 0.0
    for group in report["by_players"]:
        for seat in group["seats"]:
            s = seat["score"]
            stats.append({"med": s["median"], "q1": s["q1"], "q3": s["q3"], "whislo": s["min"], "whishi": s["max"],
                          "mean": s["mean"], "label": f"{group['players']}p P{seat['seat']}"})
            positions.append(x)
            x += 1
        x += 1
    ax.bxp(stats, positions=positions, showmeans=True, showfliers=False)
    ax.tick_params(axis="x", labelrotation=90)
    ax.set_ylabel("final score")
    ax.set_title("Score per seat (box: quartiles, whiskers: min to max, triangle: mean)")
    return fig


def _length(report: dict[str, Any]) -> Figure:
    hist = report["length"]["histogram"]
    fig, ax = _new(8, 3)
    edges, counts = hist["edges"], hist["counts"]
    ax.bar(edges[:-1], counts, width=[b - a for a, b in itertools.pairwise(edges)], align="edge",
           color="C0", edgecolor="white")
    ax.set_xlabel("decisions per game")
    ax.set_ylabel("games")
    ax.set_title("Game length")
    return fig


def _components(report: dict[str, Any]) -> Figure:
    """The strongest links between playing a component and winning: lift with its 95% interval."""
    rows = [c for c in report["components"] if c["lift"]][:TOP_COMPONENTS][::-1]
    fig, ax = _new(8, 0.3 * len(rows) + 1.2)
    for y, c in enumerate(rows):
        lift = c["lift"]
        ax.errorbar(lift["value"], y, xerr=[[lift["value"] - lift["ci"][0]], [lift["ci"][1] - lift["value"]]],
                    fmt="o", color="C3" if c["significant"] else "C0", capsize=3)
    ax.axvline(0, color="grey", linestyle="dashed")
    ax.set_yticks(range(len(rows)), [c["name"] for c in rows])
    ax.set_xlabel("win share above fair share: played it minus did not (95% CI; red: significant)")
    ax.set_title(f"Components most linked with winning (top {len(rows)})")
    return fig


def _bots(report: dict[str, Any]) -> Figure:
    fig, ax = _new(5, 3)
    for x, b in enumerate(report["bots"]):
        win = b["win"]
        ax.bar(x, win["rate"], color=f"C{x}")
        ax.errorbar(x, win["rate"], yerr=[[win["rate"] - win["ci"][0]], [win["ci"][1] - win["rate"]]],
                    color="black", capsize=3)
    ax.set_xticks(range(len(report["bots"])), [b["kind"] for b in report["bots"]])
    ax.set_ylabel("win rate (95% CI)")
    ax.set_title("Bot kinds")
    return fig


def png(fig: Figure) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100)
    return buf.getvalue()


def write(report: dict[str, Any], folder: Path, comparison: dict[str, Any] | None = None) -> Path:
    """report.json, index.html (plots inlined) and <figure>.png in `folder`; the page's path.

    With `comparison` (from `compare.compare`, `report` being the modified pack's) the page opens with
    what changed, and compare.json is written too.
    """
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "report.json").write_text(json.dumps(report, indent=1))
    if comparison is not None:
        (folder / "compare.json").write_text(json.dumps(comparison, indent=1))
    images = {}
    for name, fig in figures(report).items():
        data = png(fig)
        (folder / f"{name}.png").write_bytes(data)
        images[name] = "data:image/png;base64," + base64.b64encode(data).decode("ascii")
    page = folder / "index.html"
    page.write_text(render(report, images, comparison), encoding="utf-8")
    return page


def _e(value: Any) -> str:
    return html.escape(str(value))


def _num(x: float | None) -> str:
    return "-" if x is None else f"{x:.1f}" if isinstance(x, float) else str(x)


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _ci(ci: list[float]) -> str:
    return f"{100 * ci[0]:.1f}–{100 * ci[1]:.1f}%"


def _img(images: dict[str, str], name: str, alt: str) -> str:
    return f'<img src="{images[name]}" alt="{_e(alt)}">' if name in images else ""


def render(report: dict[str, Any], images: dict[str, str], comparison: dict[str, Any] | None = None) -> str:
    pack, run = report["pack"], report["run"]
    parts = [f"<h1>Balance report: {_e(pack['name'])} {_e(pack['version'])}</h1>",
             _comparison(comparison) if comparison else "",
             _interrupted(run),
             f"<p>{run['games']} games, seeds {_seeds(run)}, players {_e(run['players'])},"
             f" options {_e(', '.join(run['options']) or 'none')}, bots {_e(run['bots'])};"
             f" {run['errors']} errors, {run['replay_mismatches']} replay mismatches.</p>",
             "<h2>Seat win rates</h2>", _img(images, "win_rates", "seat win rates"), _seat_table(report),
             "<h2>Scores</h2>", _img(images, "scores", "score distributions"), _score_table(report),
             "<h2>Game length and outcomes</h2>", _img(images, "length", "game length"), _length_table(report),
             "<h2>Components</h2>",
             "<p>Lift: the mean win share above the fair share (win share − 1/players) of seats that played the"
             " component, minus that of seats that did not, in multiplayer games. An association, not a cause;"
             " <b>significant</b> uses a Bonferroni bound over the components tested. Sorted by |z|.</p>",
             _img(images, "components", "component lift"), _component_table(report),
             "<h2>Bots</h2>", _img(images, "bots", "bot kinds"), _bot_table(report)]
    return ("<!DOCTYPE html><html lang=en><head><meta charset=utf-8>"
            f"<title>Balance report: {_e(pack['name'])}</title><style>{_CSS}</style></head><body>"
            + "\n".join(parts) + "</body></html>\n")


def _seeds(run: dict[str, Any]) -> str:
    seeds = run["seeds"]
    if not seeds:
        return "none"
    skipped = ", ".join(f"{a}–{b}" if a != b else str(a) for a, b in run.get("seeds_skipped", []))
    return f"{seeds[0]}–{seeds[1]}" + (f" (not {skipped})" if skipped else "")


def _interrupted(run: dict[str, Any]) -> str:
    """A warning at the top of an interrupted run's page: fewer games than planned."""
    if not run.get("interrupted"):
        return ""
    first, last = run["planned"]
    return (f'<p class=warn><b>Interrupted</b>: the run was stopped (Ctrl-C) after {run["games"]} of'
            f" {last - first + 1} planned games (seeds {first}–{last}); every figure below is of the games"
            " played.</p>")


_CSS = ("body{font-family:sans-serif;max-width:70em;margin:2em auto;padding:0 1em}"
        "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:.2em .5em;text-align:right}"
        ".warn{background:#fed;border:1px solid #c96;padding:.5em}"
        "th{background:#eee}td.l,th.l{text-align:left}tr.sig{background:#fde}img{max-width:100%}")


def _table(head: list[str], rows: list[list[str]], classes: list[str] | None = None) -> str:
    heads = "".join(f"<th>{_e(h)}</th>" for h in head)
    body = "".join(f'<tr class="{classes[i] if classes else ""}">' + "".join(f"<td>{c}</td>" for c in row) + "</tr>"
                   for i, row in enumerate(rows))
    return f"<table><tr>{heads}</tr>{body}</table>"


def _comparison(result: dict[str, Any]) -> str:
    base = result["base"]
    rows = [[_e(s["what"]), _e(s["where"]), str(s["base"]), str(s["modded"]), f"{s['change']:+}",
             f"{s['ci'][0]:+}…{s['ci'][1]:+}", f"{s['p']:.3g}", "yes" if s["significant"] else ""]
            for s in result["shifts"]]
    new = ", ".join(f"{c['name']} (played {c['played']})" for c in result["new_components"]) or "none"
    return (f"<h2>Changes from {_e(base['name'])} {_e(base['version'])} (same seeds)</h2>"
            f"<p>{result['significant']} of {len(result['shifts'])} shifts have p &lt; 0.05, each test alone"
            f" (about {result['expected_by_chance']} expected by chance alone). New components: {_e(new)}. Removed:"
            f" {_e(', '.join(result['removed_components']) or 'none')}.</p>"
            + _table(["what", "where", "base", "modded", "change", "95% CI", "p", "significant"], rows,
                     ["sig" if s["significant"] else "" for s in result["shifts"]]))


def _seat_table(report: dict[str, Any]) -> str:
    rows = []
    for g in report["by_players"]:
        if g["players"] < 2:
            continue
        fpa = g["first_player_advantage"]
        for s in g["seats"]:
            rows.append([str(g["players"]), f"P{s['seat']}", _pct(s["win"]["rate"]), _ci(s["win"]["ci"]),
                         _pct(g["fair_share"]),
                         (f"{100 * fpa['difference']:+.1f} pts{' (significant)' if fpa['significant'] else ''}"
                          if s["seat"] == 1 else "")])
    return _table(["players", "seat", "win rate", "95% CI", "fair share", "first-player advantage"], rows)


def _score_table(report: dict[str, Any]) -> str:
    rows = []
    for g in report["by_players"]:
        for s in g["seats"]:
            sc = s["score"]
            rows.append([str(g["players"]), f"P{s['seat']}", *(_num(sc[k]) for k in ("mean", "sd", "min", "median",
                                                                                       "max"))])
        if g.get("ranks"):
            ranks = ", ".join(f"{k} {v}" for k, v in g["ranks"].items())
            rows.append([str(g["players"]), "ranks", "", "", "", _e(ranks), ""])
    return _table(["players", "seat", "mean", "sd", "min", "median", "max"], rows)


def _length_table(report: dict[str, Any]) -> str:
    kinds = list(report["verdicts"])
    rows = [[str(g["players"]), str(g["games"]), _num(g["length"]["decisions"]["mean"]),
             _num(g["length"]["rounds"]["mean"]), *(_pct(g["verdicts"][k]["rate"]) for k in kinds)]
            for g in report["by_players"]]
    rows.append(["all", str(sum(g["games"] for g in report["by_players"])), _num(report["length"]["decisions"]["mean"]),
                 _num(report["length"]["rounds"]["mean"]),
                 *(f"{_pct(report['verdicts'][k]['rate'])} ({_ci(report['verdicts'][k]['ci'])})" for k in kinds)])
    return _table(["players", "games", "mean decisions", "mean rounds", *(k.replace("_", " ") for k in kinds)], rows)


def _component_table(report: dict[str, Any]) -> str:
    rows, classes = [], []
    for c in report["components"]:
        lift = c["lift"]
        rows.append([f'<span title="{_e(c["id"])}">{_e(c["name"])}</span>', _e(c["type"]), str(c["drawn"]),
                     str(c["played"]), str(c["activated"]), _pct(c["games_played"]), str(c["seat_games_played"]),
                     f"{100 * lift['value']:+.1f} pts" if lift else "-",
                     f"{100 * lift['ci'][0]:+.1f}…{100 * lift['ci'][1]:+.1f}" if lift else "-",
                     "yes" if c["significant"] else ""])
        classes.append("sig" if c["significant"] else "")
    return _table(["component", "type", "drawn", "played", "activated", "games played in", "seat-games played",
                   "lift", "95% CI", "significant"], rows, classes)


def _bot_table(report: dict[str, Any]) -> str:
    rows = [[_e(b["kind"]), _e(", ".join(b["seats"])), str(b["seat_games"]), _pct(b["win"]["rate"]),
             _ci(b["win"]["ci"]), f"{100 * b['excess_win_share']:+.1f} pts", _num(b["score"]["mean"])]
            for b in report["bots"]]
    return _table(["bot", "seats", "seat-games", "win rate", "95% CI", "above fair share", "mean score"], rows)
