"""The game clock: bots' moves and the next hand happen when their time comes.

Deadlines are rows (``Table.next_action_at``), not sleeping coroutines, so a
restart loses nothing: whichever daphne process looks next does what is due.
Daphne has no lifespan events, so the clock starts with the first connection.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from channels.db import database_sync_to_async
from django.conf import settings

from games.constants import CLOCK_TICK
from games.services import run_due

log = logging.getLogger(__name__)


async def run_clock(tick: float = CLOCK_TICK) -> None:
    """Forever: advance every due table, then wait a tick."""
    while True:
        try:
            await database_sync_to_async(run_due)()
        except Exception:
            log.exception("game clock tick failed")
        await asyncio.sleep(tick)


class GameClockMiddleware:
    """ASGI wrapper that starts :func:`run_clock` in the server's event loop once."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.task: asyncio.Task[None] | None = None

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if self.task is None and settings.GAME_CLOCK_ENABLED:
            self.task = asyncio.get_running_loop().create_task(run_clock())
        return await self.app(scope, receive, send)
