"""cogwork serve: a pack's table in the browser for people and bots, one secret URL per human seat."""

from __future__ import annotations

import argparse
import secrets
from pathlib import Path

from engine.commands.common import EXIT_OK, UsageError, options
from engine.play.bots import BotSpec, BotSpecError, parse_seats
from engine.play.log import GameLog
from engine.play.rules_text import load_with_rules
from engine.serve.table import BOT, HUMAN, Table

NAME = "serve"
HELP = "serve a table in the browser (people and bots)"
DESCRIPTION = ("Run a local web server with one or more tables of a pack. Each human seat gets its own URL"
               " with a secret token; the page shows only what that seat may see. Every answer is written to"
               " the table's log, so `--resume LOG` continues a table after a crash. Needs cogwork[serve].")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("pack", nargs="?", help="built-in pack name or a pack folder"
                   " (default with --resume: the logged one)")
    p.add_argument("--players", type=int, help="number of players (default: as many as --seats, else the minimum)")
    p.add_argument("--seats", help="who sits where, e.g. human,bot,bot (default: seat 1 human, the rest bots)")
    p.add_argument("--bot", action="append", metavar="SEAT=KIND[:PARAMS]",
                   help="the kind of a bot seat (1-based; repeatable): random (the default), greedy, or"
                        " mcts[:iterations=N,seconds=S,depth=N,exploration=C,rescale=0|1,epsilon=E,prior=N,"
                        "paired=0|1,settle=0|1]"
                        " (docs/analytics.md \"Bots\")")
    p.add_argument("--seed", type=int, help="random seed (default: a fresh one per table)")
    p.add_argument("--option", action="append", metavar="NAME", help="turn on a pack option (repeatable)")
    p.add_argument("--tables", type=int, default=1, help="how many tables to open (default 1)")
    p.add_argument("--resume", action="append", metavar="LOG", help="continue a table from its log (repeatable)")
    p.add_argument("--logs", default="cogwork-tables", metavar="DIR",
                   help="folder for the tables' logs (default ./cogwork-tables)")
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1; 0.0.0.0 to share on a LAN)")
    p.add_argument("--port", type=int, default=8765, help="port (default 8765)")
    p.add_argument("--bot-delay", type=float, default=0.8, metavar="SECONDS", help="pause before each bot answer")


def seat_kinds(text: str | None, players: int | None, minimum: int) -> list[str]:
    """`human,bot` -> ["human", "bot"]; without --seats: seat 1 human, the others bots."""
    if text:
        kinds = [k.strip().lower() for k in text.split(",")]
        bad = [k for k in kinds if k not in (HUMAN, BOT)]
        if bad:
            raise UsageError(f"--seats: '{bad[0]}' is neither human nor bot")
        if players is not None and players != len(kinds):
            raise UsageError(f"--seats names {len(kinds)} seats but --players is {players}")
        return kinds
    count = players if players is not None else minimum
    return [HUMAN] + [BOT] * (count - 1)


def bot_kinds(specs: list[str] | None, kinds: list[str]) -> dict[int, BotSpec]:
    """The `--bot` kinds by seat; each must name a bot seat."""
    try:
        bots = parse_seats(specs, len(kinds))
    except BotSpecError as exc:
        raise UsageError(str(exc)) from None
    for seat in bots:
        if kinds[seat] != BOT:
            raise UsageError(f"--bot: seat {seat + 1} is a human seat (see --seats)")
    return bots


def tables(args: argparse.Namespace) -> list[Table]:
    """The tables to serve: resumed from logs, else `--tables` new ones."""
    folder = Path(args.logs)
    folder.mkdir(parents=True, exist_ok=True)
    found: list[Table] = []
    for number, path in enumerate(args.resume or [], 1):
        log = GameLog.read(Path(path))
        pack, rules = load_with_rules(args.pack or log.pack_spec())
        kinds = seat_kinds(args.seats, log.players, log.players)
        if len(kinds) != log.players:
            raise UsageError(f"--seats names {len(kinds)} seats; the log has {log.players} players")
        found.append(Table.resume(str(number), pack, rules, log, kinds, Path(path), bot_kinds(args.bot, kinds)))
    if found:
        return found
    if args.pack is None:
        raise UsageError("serve needs a PACK (or --resume LOG)")
    pack, rules = load_with_rules(args.pack)
    kinds = seat_kinds(args.seats, args.players, pack.min_players)
    if not pack.min_players <= len(kinds) <= pack.max_players:
        raise UsageError(f"{pack.name} is for {pack.min_players}-{pack.max_players} players, not {len(kinds)}")
    chosen = options(args.option, pack)
    bots = bot_kinds(args.bot, kinds)
    for number in range(1, args.tables + 1):
        seed = args.seed + number - 1 if args.seed is not None else secrets.randbelow(10**6)
        log_path = folder / f"{pack.id}-table{number}-seed{seed}.json"
        found.append(Table.new(str(number), pack, rules, kinds, seed, chosen, log_path, bots))
    return found


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from engine.serve.app import Server, create_app
    except ImportError as exc:
        raise UsageError(f"serve needs the web extra: pip install 'cogwork[serve]' ({exc})") from None
    served = tables(args)
    for table in served:
        where = f" (log: {table.log_path})" if table.log_path else ""
        print(f"table {table.name}: {table.pack.name}, {len(table.seats)} players, seed {table.seed}{where}")
        for token, seat in table.tokens.items():
            print(f"  seat {seat + 1}: http://{args.host}:{args.port}/t/{table.name}/{token}")
        for seat, kind in table.bot_kinds.items():
            print(f"  seat {seat + 1}: {kind} bot")
    uvicorn.run(create_app(Server(served, bot_delay=args.bot_delay)), host=args.host, port=args.port,
                log_level="warning")
    return EXIT_OK
