"""The deadline worker inside a daphne process, for the embedded default.

Daphne has no lifespan events, so the worker starts with the first connection.
It runs each pass on a thread of its own (``thread_sensitive=False``), not on
the thread that serves the consumers' database work, so a bot thinking never
queues a viewer's update; what it announces still goes through this process's
event loop (asgiref hands ``async_to_sync`` calls back to it).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any, ClassVar

from asgiref.sync import sync_to_async
from django.conf import settings
from django.utils import timezone

from deadlines.worker import ensure_periodic, step

log = logging.getLogger(__name__)


class Clock:
    """The deadline worker on this process's event loop: a pass on a thread, then a tick
    (``DEADLINE_TICK_SECONDS``) when it found nothing due."""

    #: The clocks this process runs (one: the middleware's), for a stopping server.
    running: ClassVar[list[Clock]] = []

    def __init__(self, tick: float | None = None) -> None:
        self.tick = settings.DEADLINE_TICK_SECONDS if tick is None else tick
        self.stopping = False
        self.passing = False
        self.task = asyncio.get_running_loop().create_task(self.run())
        Clock.running.append(self)

    async def run(self) -> None:
        await sync_to_async(ensure_periodic, thread_sensitive=False)(timezone.now())
        while not self.stopping:
            self.passing = True
            try:
                done = await sync_to_async(step, thread_sensitive=False)()
            except Exception:
                log.exception("deadline worker pass failed")
                done = 0
            finally:
                self.passing = False
            if not self.stopping:
                await asyncio.sleep(0 if done else self.tick)

    async def stop(self) -> None:
        """Stop once the pass in flight is done, while the event loop still runs: a pass
        announces what it applied through this loop (``async_to_sync``), and a thread
        left waiting on a stopped loop kept the process from ever exiting."""
        self.stopping = True
        if not self.passing:
            self.task.cancel()  # asleep, or yet to start its first pass
        with contextlib.suppress(asyncio.CancelledError):
            await self.task
        Clock.running.remove(self)


async def stop_clocks() -> None:
    """Stop every clock of this process (a server stopping gracefully)."""
    for clock in list(Clock.running):
        await clock.stop()


class GameClockMiddleware:
    """ASGI wrapper that starts a :class:`Clock` in the server's event loop once."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.clock: Clock | None = None

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if self.clock is None and settings.GAME_CLOCK_ENABLED:
            self.clock = Clock()
        return await self.app(scope, receive, send)
