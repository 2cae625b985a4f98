"""Prove a refactor changed no behaviour: record every seeded game's final state hash, then compare.

    python tools/behaviour_hashes.py record before/     # on the old commit
    python tools/behaviour_hashes.py record after/      # on the new one
    python tools/behaviour_hashes.py compare before/ after/

`record` runs `cogwork simulate --json --no-replay` for every shipped pack and option (1,000 games
each, all player counts) and keeps each game's seed, player count and final hash. `compare` exits 1
when any game differs. A change to the hash itself (what it covers) makes every game differ: record
the baseline again on the commit that changed it.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
RUNS = {
    "rr": ["raising-robots", "--games", "1000"],
    "rr-bidding": ["raising-robots", "--games", "1000", "--players", "2-6", "--option", "bidding"],
    "rr-solo": ["raising-robots", "--games", "300", "--players", "1", "--option", "solo_challenge"],
    "rr-exp": [str(REPO / "content" / "raising-robots-expansion"), "--games", "1000"],
    "rf": ["robot-factory", "--games", "1000"],
    "rf-adv": ["robot-factory", "--games", "1000", "--option", "advanced"],
}


def record(folder: Path) -> int:
    folder.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, PYTHONPATH=str(REPO))
    for name, args in RUNS.items():
        done = subprocess.run([sys.executable, "-m", "engine.cli", "simulate", *args, "--no-replay", "--json"],
                              env=env, capture_output=True, text=True, check=False)
        if done.returncode not in (0, 1):
            print(f"{name}: simulate failed ({done.returncode}): {done.stderr[-500:]}", file=sys.stderr)
            return 2
        (folder / f"{name}.json").write_text(done.stdout)
        print(f"{name}: recorded")
    return 0


def _key(game: dict) -> tuple:
    return game["seed"], game["players"], game["hash"], game["error"]


def compare(before: Path, after: Path) -> int:
    total = differ = 0
    for path in sorted(before.glob("*.json")):
        old = json.loads(path.read_text())["results"]
        new = json.loads((after / path.name).read_text())["results"]
        bad = sum(1 for a, b in zip(old, new, strict=False) if _key(a) != _key(b)) + abs(len(old) - len(new))
        print(f"{path.stem}: {len(old)} games, {len(old) - bad} identical" + ("  <-- DIFFERENT" if bad else ""))
        total, differ = total + len(old), differ + bad
    print(f"total: {total} games, {total - differ} identical, {differ} different")
    return 1 if differ else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("record").add_argument("folder", type=Path)
    c = sub.add_parser("compare")
    c.add_argument("before", type=Path)
    c.add_argument("after", type=Path)
    args = parser.parse_args()
    return record(args.folder) if args.command == "record" else compare(args.before, args.after)


if __name__ == "__main__":
    sys.exit(main())
