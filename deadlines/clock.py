"""The deadline worker inside a daphne process, for the embedded default.

Daphne has no lifespan events, so the worker starts with the first connection.
It runs each pass on a thread of its own (``thread_sensitive=False``), not on
the thread that serves the consumers' database work, so a bot thinking never
queues a viewer's update; what it announces still goes through this process's
event loop (asgiref hands ``async_to_sync`` calls back to it).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.utils import timezone

from deadlines.worker import ensure_periodic, step

log = logging.getLogger(__name__)


async def run_clock(tick: float | None = None) -> None:
    """Forever: apply every due deadline, then wait a tick (``DEADLINE_TICK_SECONDS``)."""
    tick = tick or settings.DEADLINE_TICK_SECONDS
    await sync_to_async(ensure_periodic, thread_sensitive=False)(timezone.now())
    while True:
        try:
            done = await sync_to_async(step, thread_sensitive=False)()
        except Exception:
            log.exception("deadline worker pass failed")
            done = 0
        await asyncio.sleep(0 if done else tick)


class GameClockMiddleware:
    """ASGI wrapper that starts :func:`run_clock` in the server's event loop once."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.task: asyncio.Task[None] | None = None

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if self.task is None and settings.GAME_CLOCK_ENABLED:
            self.task = asyncio.get_running_loop().create_task(run_clock())
        return await self.app(scope, receive, send)
