"""``/ws/queue/``: a waiting screen's live view of its player's queue."""

from __future__ import annotations

import functools
from typing import Any

from channels.db import database_sync_to_async

from realtime.cache import in_cache
from realtime.consumers import ViewerConsumer
from realtime.slots import Claim

from . import presence
from .announce import pool_group, queue_group
from .selectors import queue_state
from .services import screens_closed


class QueueConsumer(ViewerConsumer):
    """Sends the player's queue state on connect and whenever the queue changes;
    once seated, a fragment that takes the page to the table.  When the player's
    last waiting screen closes for good, they leave the queue."""

    socket_kind = "queue"
    pool_id: int | None = None
    waiting_ticket: int | None = None
    sent: str | None = None  # the last state sent: the same state is not sent again

    async def connect(self) -> None:
        await super().connect()
        if self.person is None:
            await self.close(code=4401)
            return
        if not await self.claim_slot():
            return
        await self.join(queue_group(self.person.pk))
        self.on_close("leaving the pool's group", functools.partial(self._follow_pool, None))
        await self.accept()
        screen = await in_cache(presence.screen_opened, self.person.pk)
        if screen is not None:
            self.hold(screen)
            self.on_close("closing the waiting screen", functools.partial(self._closed, screen))
        await self.send_state()

    async def _closed(self, screen: Claim) -> None:
        """One waiting screen fewer: the player's last one starts the grace (a deadline
        row, so a process ending meanwhile loses nothing)."""
        if not await in_cache(presence.screen_closed, screen) and self.waiting_ticket is not None:
            await database_sync_to_async(screens_closed)(
                user=self.person, ticket_id=self.waiting_ticket
            )

    async def queue_changed(self, event: dict[str, Any]) -> None:
        await self.send_state()

    async def send_state(self) -> None:
        html, pool_id = await database_sync_to_async(self._render_state)()
        if pool_id != self.pool_id:  # a change between the read and joining the group is not missed
            await self._follow_pool(pool_id)
            html, pool_id = await database_sync_to_async(self._render_state)()
        if html != self.sent:  # "your table is ready" twice would start a second navigation
            self.sent = html
            await self.send(text_data=html)

    async def _follow_pool(self, pool_id: int | None) -> None:
        """Listen to the pool the player now waits in (they may have changed queue)."""
        if pool_id == self.pool_id:
            return
        if self.pool_id is not None:
            await self.channel_layer.group_discard(pool_group(self.pool_id), self.channel_name)
        if pool_id is not None:
            await self.channel_layer.group_add(pool_group(pool_id), self.channel_name)
        self.pool_id = pool_id

    def _render_state(self) -> tuple[str, int | None]:
        state = queue_state(user=self.person)
        waiting = state.ticket is not None and state.table is None
        self.waiting_ticket = state.ticket.pk if waiting and state.ticket else None
        pool_id = state.ticket.pool_id if waiting and state.ticket else None
        return self.render("matchmaking/_queue_status.html", {"state": state}), pool_id
