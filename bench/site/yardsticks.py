"""The load benchmark's yardsticks: a bare websocket echo, a bare Django view, and the
event loop's own lag.

They measure what the server costs with no game in it, in the same process and
the same run as the load, so the game's overhead reads as a ratio.
"""

from __future__ import annotations

import asyncio
import time

from channels.generic.websocket import AsyncWebsocketConsumer
from django.http import HttpRequest, HttpResponse, JsonResponse


class EchoConsumer(AsyncWebsocketConsumer):
    """Sends every frame straight back: no session, no database, no template."""

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        await self.send(text_data=text_data, bytes_data=bytes_data)


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
