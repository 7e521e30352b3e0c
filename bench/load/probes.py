"""Beside the tables: the echo yardstick, page loads, and the players' own loop lag.

The echo sockets send at the tables' rate to ``/ws/echo/`` on the same server; the
pages are loaded one after another by a visitor (the bare view, ``/healthz``) and a
seated player's browser (home, the online lobby, its table).
"""

from __future__ import annotations

import asyncio
import random
import time
from typing import TYPE_CHECKING

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import WebSocketException
from websockets.typing import Origin

if TYPE_CHECKING:
    from bench.load.run import Bench


async def echo(bench: Bench, number: int) -> None:
    """A bare echo socket on the same server, at the tables' rate (reconnects)."""
    url = bench.urls[number % len(bench.urls)]  # --scaled: the processes round-robin
    while not bench.stopping:
        try:
            async with connect(
                "ws" + url.removeprefix("http") + "/ws/echo/",
                origin=Origin(url),
                ping_interval=None,
            ) as ws:
                await _echo_on(bench, ws, number)
        except (WebSocketException, OSError) as error:
            if not bench.stopping:
                bench.record.error("echo", repr(error))
                await asyncio.sleep(1)


async def _echo_on(bench: Bench, ws: ClientConnection, number: int) -> None:
    interval = bench.args.interval
    due = time.perf_counter() + random.uniform(0, interval)
    while not bench.stopping:
        if number >= bench.echo_target:
            await asyncio.sleep(0.5)
            due = time.perf_counter() + random.uniform(0, interval)
            continue
        await asyncio.sleep(max(0.0, due - time.perf_counter()))
        sent = time.perf_counter()
        payload = f"echo {number} {sent}"
        await ws.send(payload)
        try:  # a slow answer is a measurement too; one to an earlier ping is skipped
            while await asyncio.wait_for(ws.recv(), 60) != payload:
                pass
        except TimeoutError:
            bench.record.error("echo", "no echo in 60 s")
        else:
            bench.record.echoes.append((sent, time.perf_counter() - sent))
        due = max(due + interval, time.perf_counter())


async def pages(bench: Bench) -> None:
    """Page loads under the load: home, the online lobby, a table page, bare views."""
    args, record = bench.args, bench.record
    visitors = [httpx.AsyncClient(base_url=u, timeout=args.timeout * 3) for u in bench.urls]
    turn = 0
    try:
        while not bench.stopping:
            visitor = visitors[turn % len(visitors)]  # --scaled: the processes in turn
            turn += 1
            playing = [t for t in bench.tables if t.ready]
            if not playing:
                await asyncio.sleep(0.5)
                continue
            table = random.choice(playing)
            player = table.seats[random.randrange(4)].http  # a seated player's browser
            for name, client, path in (
                ("bare", visitor, "/bench/bare"),
                ("healthz", visitor, "/healthz"),
                ("home", player, "/"),
                ("lobby", player, "/online/"),
                ("table", player, f"/t/{table.code}/"),
            ):
                if bench.stopping:
                    return
                sent = time.perf_counter()
                try:
                    response = await client.get(path)
                except httpx.HTTPError as error:
                    record.error("http", f"GET {name}: {error!r}")
                    continue
                if response.status_code == 404 and name == "lobby":
                    continue  # no online lobby on this version of the site
                if response.status_code != 200:
                    record.error("http", f"GET {name}: {response.status_code}")
                    continue
                record.pages.append((sent, name, time.perf_counter() - sent))
                await asyncio.sleep(args.page_pause)
    finally:
        for visitor in visitors:
            await visitor.aclose()


async def watch_lag(bench: Bench) -> None:
    """How late this process's own loop runs (if it is, the figures are the client's)."""
    while not bench.stopping:
        before = time.perf_counter()
        await asyncio.sleep(0.05)
        bench.record.lag.append((before, time.perf_counter() - before - 0.05))
