"""Screenshots of each shipped pack's table as seat 1 sees it, for docs/screenshots/ and the README.

    python tools/screenshots.py                 # every pack in content/
    python tools/screenshots.py connect-four    # one

Each table is a seeded game with seat 1 human and bots elsewhere, played a few answers in (seat 1
answers its first option), then drawn by headless Chromium.
"""

from __future__ import annotations

import sys
from pathlib import Path

from engine.play.rules_text import load_with_rules
from engine.serve.table import BOT, HUMAN, Table
from tools.browser import chromium, serving

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "screenshots"
ANSWERS = 12     # answers played before the picture, so the table is not empty


def screenshot(spec: str, path: Path, seed: int = 7) -> None:
    pack, rules = load_with_rules(spec)
    seats = [HUMAN] + [BOT] * (max(pack.min_players, 2 if pack.max_players >= 2 else 1) - 1)
    table = Table.new("1", pack, rules, seats, seed, {}, None)
    for _ in range(ANSWERS):
        decision = table.match.decision
        if decision is None:
            break
        if table.bot_to_move():
            table.bot_step()
        else:
            table.answer(decision.seat, 0, table.page_version(decision.seat))
    while table.bot_to_move():
        table.bot_step()
    token = next(iter(table.tokens))
    with serving([table]) as url, chromium(1400, 1000) as driver:
        driver.get(f"{url}/t/1/{token}")
        from selenium.webdriver.support.ui import WebDriverWait
        WebDriverWait(driver, 30).until(
            lambda d: d.find_element("tag name", "body").get_attribute("data-version") == str(table.page_version(0)))
        path.parent.mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(path))


def main(names: list[str]) -> None:
    packs = names or sorted(p.name for p in (ROOT / "content").iterdir() if (p / "pack.yaml").is_file())
    for name in packs:
        target = OUT / f"{name}.png"
        screenshot(str(ROOT / "content" / name), target)
        print(f"wrote {target.relative_to(ROOT)}")


if __name__ == "__main__":
    main(sys.argv[1:])
