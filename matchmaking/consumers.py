"""``/ws/queue/``: a waiting screen's live view of its player's queue."""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async

from games.consumers import _ViewerConsumer

from .live import pool_group, queue_group
from .selectors import queue_state


class QueueConsumer(_ViewerConsumer):
    """Sends the player's queue state on connect and whenever the queue changes;
    once seated, a fragment that takes the page to the table."""

    pool_id: int | None = None

    async def connect(self) -> None:
        await super().connect()
        if self.person is None:
            await self.close(code=4401)
            return
        if not await self.claim_slot():
            return
        await self.channel_layer.group_add(queue_group(self.person.pk), self.channel_name)
        await self.accept()
        await self.send_state()

    async def disconnect(self, code: int) -> None:
        await self.release_slot()
        if self.person is not None:
            await self.channel_layer.group_discard(queue_group(self.person.pk), self.channel_name)
        await self._follow_pool(None)

    async def queue_changed(self, event: dict[str, Any]) -> None:
        await self.send_state()

    async def send_state(self) -> None:
        html, pool_id = await database_sync_to_async(self._render_state)()
        if pool_id != self.pool_id:  # a change between the read and joining the group is not missed
            await self._follow_pool(pool_id)
            html, pool_id = await database_sync_to_async(self._render_state)()
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
        pool_id = state.ticket.pool_id if state.ticket is not None and state.table is None else None
        return self.render("matchmaking/_queue_status.html", {"state": state}), pool_id
