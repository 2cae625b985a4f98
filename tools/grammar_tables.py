"""Write grammar/cogwork.tables.json: the DSL parser's LALR tables, shipped so a first run need not build them.

    python tools/grammar_tables.py

Run it after changing grammar/cogwork.lark or upgrading Lark (tests/test_grammar_tables.py fails until
then; the engine still works, building the tables on its first run and caching them).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.dsl.grammar_cache import shipped_form
from engine.dsl.parse import SHIPPED_TABLES, build_parser, grammar_text
from engine.resources import data_dir


def main() -> None:
    grammar = grammar_text()
    path = data_dir("grammar") / SHIPPED_TABLES
    path.write_text(json.dumps(shipped_form(grammar, build_parser(grammar)), separators=(",", ":")) + "\n",
                    encoding="utf-8")
    print(f"wrote {path} ({path.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()
