"""The load benchmark's yardsticks: a bare websocket echo, a bare Django view, and the
event loop's own lag.

They measure what the server costs with no game in it, in the same process and
the same run as the load, so the game's overhead reads as a ratio.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse


async def echo(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """Sends every frame straight back: a bare ASGI socket, so no session, no database
    and no Channels consumer (whose dispatch hops to the database thread before every
    message: at 800 echo sockets, 3% of the server's CPU went to the yardstick)."""
    while True:
        message = await receive()
        if message["type"] == "websocket.connect":
            await send({"type": "websocket.accept"})
        elif message["type"] == "websocket.receive":
            if message.get("text") is not None:
                await send({"type": "websocket.send", "text": message["text"]})
            else:
                await send({"type": "websocket.send", "bytes": message.get("bytes") or b""})
        elif message["type"] == "websocket.disconnect":
            return


def bare(request: HttpRequest) -> HttpResponse:
    """The cheapest page Django can serve: the middleware and nothing else."""
    return HttpResponse("ok", content_type="text/plain")


#: How late the server's event loop woke up for a 20 ms sleep, in ms, since last asked.
_lags: list[float] = []
_watching: list[asyncio.Task[None]] = []


async def _watch_loop() -> None:
    while True:
        before = time.perf_counter()
        await asyncio.sleep(0.02)
        _lags.append((time.perf_counter() - before - 0.02) * 1000)


async def loop_lag(request: HttpRequest) -> JsonResponse:
    """The loop's lag since the last call (the first call starts watching), as the
    samples themselves: the bench takes their percentiles.  An async view: it runs on
    the loop that serves the sockets."""
    if not _watching:
        _watching.append(asyncio.get_running_loop().create_task(_watch_loop()))
    samples = [round(x, 2) for x in _lags]
    _lags.clear()
    return JsonResponse({"lag_ms": samples})
