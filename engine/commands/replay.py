"""cogwork replay: re-run a game log and check that it reaches the logged final state."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from engine.commands.common import EXIT_FINDINGS, EXIT_OK
from engine.compile.loading import load_pack
from engine.errors import RuleError
from engine.play.log import GameLog
from engine.play.match import Match

NAME = "replay"
HELP = "re-run a game log and check the final state hash"
DESCRIPTION = "Exit 0 if the replay reaches the logged final state, 1 if not."


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("log", help="log file written by `cogwork play --log`")
    p.add_argument("--pack", help="pack to use instead of the one named in the log")


def run(args: argparse.Namespace) -> int:
    log = GameLog.read(Path(args.log))
    pack = load_pack(args.pack or log.pack_spec())
    log.check_options(pack.options)
    if pack.version != log.version:
        print(f"warning: log was made with {log.pack} {log.version}, replaying with {pack.version}",
              file=sys.stderr)
    try:
        session = Match(pack, log.players, log.seed, log.options)
    except Exception as exc:   # reproducing a saved failure: setting up the game is where it failed
        print(f"replay failed while setting up the game: {_describe(exc)}")
        return EXIT_FINDINGS
    try:
        session.replay(log.labels())
    except Exception as exc:   # a rule error, or an engine fault a failed simulation saved for us
        print(f"replay diverged at decision {len(session.log) + 1}: {_describe(exc)}")
        return EXIT_FINDINGS
    if not session.done:
        print(f"replay ended with the game still running (after {len(session.log)} decisions)")
        return EXIT_FINDINGS
    outcome = session.outcome()
    expected = log.hash
    if expected != outcome.hash:
        print(f"MISMATCH: final state hash {outcome.hash}, log says {expected}")
        return EXIT_FINDINGS
    print(f"OK: {outcome.decisions} decisions replayed, final state hash {outcome.hash}")
    return EXIT_OK


def _describe(exc: Exception) -> str:
    return str(exc) if isinstance(exc, RuleError) else f"{type(exc).__name__}: {exc}"
