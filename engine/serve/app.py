"""The ASGI app of `cogwork serve` (Starlette): a page per human seat, pushed over a WebSocket.

A seat's URL carries its secret token (`/t/TABLE/TOKEN`); the page opens `/ws/TABLE/TOKEN` and receives
only `Table.payload(seat)`: its redacted view and feed, never the state. Messages from a page:
`{"type": "answer", "index": i, "version": v}`, `{"type": "undo", "version": v}`, `{"type": "sync"}` (with
an optional `"id"`, echoed as `"sync"` in the state it gets back). A page is pushed a state only when what it
shows changed, so the messages it receives do not count another seat's secret answers. Bots answer in a
task per table, one answer per `bot_delay` seconds, so people can follow them.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from engine.errors import CogworkError
from engine.serve.table import RefusedError, Table

STATIC = resources.files("engine.serve") / "static"


class _Page:
    """An open page: its seat, its socket, and the version of the last state it was sent."""

    __slots__ = ("seat", "socket", "version")

    def __init__(self, seat: int, socket: WebSocket) -> None:
        self.seat, self.socket, self.version = seat, socket, -1

    async def send(self, table: Table, extra: dict[str, Any] | None = None, *, if_changed: bool = False) -> None:
        """Send the seat's payload (`if_changed`: only if its version is not the one last sent)."""
        payload = table.payload(self.seat)
        if if_changed and payload["version"] == self.version:
            return
        self.version = payload["version"]
        await self.socket.send_json({"type": "state", **payload, **(extra or {})})


class Server:
    """The tables one server hosts, the pages connected to each, and their bots' pacing."""

    def __init__(self, tables: list[Table], bot_delay: float = 0.6) -> None:
        self.tables = {t.name: t for t in tables}
        self.bot_delay = bot_delay
        self.pages: dict[str, list[_Page]] = {name: [] for name in self.tables}
        self._bots: dict[str, asyncio.Task[None]] = {}

    def find(self, table: str, token: str) -> tuple[Table, int] | None:
        found = self.tables.get(table)
        seat = found.seat_of(token) if found else None
        return None if found is None or seat is None else (found, seat)

    async def push(self, table: Table) -> None:
        """Send every page of `table` whose seat's payload changed since it was last sent one."""
        for page in list(self.pages[table.name]):
            try:
                await page.send(table, if_changed=True)
            except (WebSocketDisconnect, RuntimeError):
                self._drop(table.name, page.socket)

    def _drop(self, name: str, socket: WebSocket) -> None:
        self.pages[name] = [p for p in self.pages[name] if p.socket is not socket]

    def wake_bots(self, table: Table) -> None:
        """Start the table's bot task unless it runs already."""
        task = self._bots.get(table.name)
        if table.bot_to_move() and (task is None or task.done()):
            self._bots[table.name] = asyncio.get_running_loop().create_task(self._run_bots(table))

    async def _run_bots(self, table: Table) -> None:
        while table.bot_to_move():
            await asyncio.sleep(self.bot_delay)
            thought = await asyncio.to_thread(table.bot_think)   # a searching bot may think for seconds
            if thought is not None:
                table.bot_answer(*thought)
            await self.push(table)

    async def settle(self) -> None:
        """Wait until no bot task runs (tests; a served table never needs it)."""
        while any(not t.done() for t in self._bots.values()):
            await asyncio.gather(*self._bots.values())


def create_app(server: Server) -> Starlette:
    page = (STATIC / "table.html").read_text(encoding="utf-8")

    async def index(request: Request) -> Response:
        return PlainTextResponse("cogwork serve: open the URL printed for your seat\n")

    async def table_page(request: Request) -> Response:
        if server.find(request.path_params["table"], request.path_params["token"]) is None:
            return PlainTextResponse("no such table or seat\n", status_code=404)
        return HTMLResponse(page)

    async def socket(ws: WebSocket) -> None:
        found = server.find(ws.path_params["table"], ws.path_params["token"])
        if found is None:
            await ws.close(code=4404)
            return
        table, seat = found
        await ws.accept()
        page = _Page(seat, ws)
        server.pages[table.name].append(page)
        try:
            await page.send(table)
            server.wake_bots(table)
            while True:
                message = await ws.receive_json()
                await _handle(server, table, page, message)
        except WebSocketDisconnect:
            pass
        finally:
            server._drop(table.name, ws)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        for table in server.tables.values():
            server.wake_bots(table)
        yield

    return Starlette(routes=[
        Route("/", index),
        Route("/t/{table}/{token}", table_page),
        WebSocketRoute("/ws/{table}/{token}", socket),
        Mount("/static", app=StaticFiles(directory=str(STATIC)), name="static"),
    ], lifespan=lifespan)


async def _handle(server: Server, table: Table, page: _Page, message: Any) -> None:
    kind = message.get("type") if isinstance(message, dict) else None
    seat = page.seat
    try:
        if kind == "answer":
            index, version = message.get("index"), message.get("version")
            if not isinstance(index, int) or not isinstance(version, int):
                raise RefusedError("an answer needs a whole-number index and version")
            table.answer(seat, index, version)
        elif kind == "undo":
            version = message.get("version")
            table.undo(seat, version if isinstance(version, int) else -1)
        elif kind == "sync":
            sync = message.get("id")
            await page.send(table, {"sync": sync} if isinstance(sync, int | str) else None)
            return
        else:
            raise RefusedError(f"unknown message type {kind!r}")
    except (RefusedError, CogworkError) as exc:
        await page.socket.send_json({"type": "refused", "message": str(exc)})
        await page.send(table)
        return
    await server.push(table)
    server.wake_bots(table)
