"""A player: a browser's cookie jar and the table's websocket, reading its screen.

A seat finds its legal moves in its own fragments (the buttons' ``hx-vals``) and
sends them as htmx's websocket extension would.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import os
import re
import time
from typing import TYPE_CHECKING, Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, WebSocketException
from websockets.typing import Origin

from bench.load.record import Action

if TYPE_CHECKING:
    from bench.load.run import Bench
    from bench.load.tables import Table

TRACE = os.environ.get("LOADBENCH_TRACE") == "1"  # print every command sent

HX_VALS_RE = re.compile(r"hx-vals='([^']*)'")
STATUS_CLASS_RE = re.compile(r'<section id="status" class="([^"]*)"')


def commands_in(fragment: str) -> list[dict[str, Any]]:
    """The commands the buttons of ``fragment`` would send (their ``hx-vals``)."""
    out = []
    for raw in HX_VALS_RE.findall(fragment):
        with contextlib.suppress(ValueError):
            value = json.loads(html.unescape(raw))
            if isinstance(value, dict):
                out.append(value)
    return out


def region(frame: str, name: str) -> str:
    start = frame.find(f'<section id="{name}"')
    if start < 0:
        return ""
    end = frame.find("</section>", start)
    return frame[start : end if end > 0 else len(frame)]


def tag_with_id(frame: str, element_id: str) -> str:
    """The opening tag of the element with this id ('' if none)."""
    at = frame.find(f'id="{element_id}"')
    if at < 0:
        return ""
    return frame[frame.rfind("<", 0, at) : frame.find(">", at) + 1]


class Seat:
    """One player: a browser's cookie jar and the table's websocket."""

    def __init__(self, bench: Bench, table: Table, index: int) -> None:
        self.bench, self.table, self.index = bench, table, index
        # --scaled: the four seats of a table on the processes round-robin, or
        # (--by-table) all on one, as a proxy hashing on the table's address puts them.
        offset = 0 if bench.args.by_table else index
        self.process = (table.number + offset) % len(bench.urls)
        self.url = bench.urls[self.process]
        self.http = httpx.AsyncClient(
            base_url=self.url, follow_redirects=True, timeout=bench.args.timeout * 3
        )
        self.ws: ClientConnection | None = None
        self.reader: asyncio.Task[None] | None = None
        self.version = -1
        self.regions: dict[str, str] = {}  # the page's regions as the frames left them
        self.closing = False
        self.broken = False
        self.last_action: Action | None = None

    @property
    def table_url(self) -> str:
        return f"{self.url}/t/{self.table.code}/"

    def cookie_header(self) -> str:
        return "; ".join(f"{c.name}={c.value}" for c in self.http.cookies.jar)

    async def page(self, path: str) -> str:
        response = await self.http.get(path)
        if response.status_code != 200:
            self.bench.record.error("http", f"GET {path}: {response.status_code}")
        return response.text

    async def open_ws(self, code: str) -> None:
        await self.close_ws()
        self.version, self.regions, self.broken, self.closing = -1, {}, False, False
        self.ws = await connect(
            "ws" + self.url.removeprefix("http") + f"/ws/table/{code}/",
            origin=Origin(self.url),
            additional_headers={"Cookie": self.cookie_header()},
            ping_interval=None,  # a browser sends no pings; a late pong is no error here
            max_size=2**22,
            open_timeout=self.bench.args.timeout * 3,
        )
        self.reader = asyncio.create_task(self.read(self.ws))

    async def close_ws(self) -> None:
        if self.ws is not None:
            self.closing = True
            with contextlib.suppress(WebSocketException, OSError):
                await self.ws.close()
            if self.reader is not None:
                with contextlib.suppress(asyncio.CancelledError):
                    await self.reader
            self.ws = self.reader = None

    async def read(self, ws: ClientConnection) -> None:
        try:
            async for message in ws:
                if isinstance(message, str):
                    self.table.on_frame(self, message, time.perf_counter())
        except ConnectionClosed as closed:
            if not (self.closing or self.bench.stopping):
                self.bench.record.error("closed socket", f"table {self.table.number}: {closed}")
        if not (self.closing or self.bench.stopping):
            self.broken = True
            self.table.changed.set()

    async def send(self, command: dict[str, Any], kind: str) -> None:
        if self.ws is None:
            return
        others = {s.index for s in self.table.seats if s is not self and s.ws is not None}
        action = Action(
            self.table.number,
            kind,
            int(command.get("version", -1)),
            time.perf_counter(),
            others,
            process=self.process,
        )
        # What htmx's ws extension sends: the button's values and its headers.
        frame = {**command, "HEADERS": {"HX-Request": "true", "HX-Current-URL": self.table_url}}
        self.last_action = action
        if TRACE:
            print(f"  trace table {self.table.number} seat {self.index}: {command}", flush=True)
        self.table.pending.append(action)
        self.table.record.actions.append(action)
        try:
            await self.ws.send(json.dumps(frame))
        except ConnectionClosed:
            self.table.pending.remove(action)
            action.refused = "closed"

    # What this seat's own latest frame offers.
    def playing(self) -> bool:
        found = STATUS_CLASS_RE.search(self.regions.get("status", ""))
        return found is not None and "hidden" not in found.group(1).split()

    def moves(self) -> list[dict[str, Any]]:
        hand = self.regions.get("hand", "")
        return [c for c in commands_in(hand) if c.get("action") == "move"]

    def command(self, action: str, within: str | None = None) -> dict[str, Any] | None:
        fragment = self.regions.get(within, "") if within else "".join(self.regions.values())
        for c in commands_in(fragment):
            if c.get("action") == action and "seat" not in c:
                return c
        return None

    def can_start(self) -> dict[str, Any] | None:
        tag = tag_with_id(self.regions.get("lobby", ""), "start-game")
        if not tag or "disabled" in tag:
            return None
        return self.command("start", within="lobby")
