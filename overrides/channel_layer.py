"""The embedded default's channel layer: Channels' in-memory layer, made cheaper
for a thousand sockets in one process.

- ``InMemoryChannelLayer`` walks every channel and every group on each send and
  receive to drop expired messages and memberships: with a thousand sockets that
  scan was most of the layer's cost (a group send of four makes five).  Messages
  expire after a minute, so sweeping every ten seconds changes nothing a client sees
  (once a second, the sweep still took 1.8% of the server's CPU at 800 tables).
- Its group send starts a task per member and waits for them all, though each
  member is a queue in this process: here the message is put in each queue in
  turn, in the same order, with no task.
- Its receive builds a new queue for a channel at every call (and drops it when
  emptied), so each message made two or three; here a channel keeps its queue
  while its consumer listens, and drops it when the consumer stops.  A channel's
  name is checked as its queue is made, not at every send and receive (a regular
  expression each time: 0.8% of a server under load).
- It deep-copies every message for every member; a message of plain values (what the
  site sends: a table's id and version) is copied as a dict, which is the same.

Written against Channels 4.3.2: ``InMemoryChannelLayer``'s ``channels`` and
``groups``, its private ``_clean_expired``, ``send``, ``receive`` and
``group_send`` (tests/overrides/test_written_against.py fails when they change).
Measured: with Channels' own layer, the server's CPU at human pace rose from 28% to
43% of a core, and at 200 moves a second it fell behind (146 moves a second).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from copy import deepcopy
from typing import Any

from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer

SWEEP_EVERY = 10.0  # seconds


class LocalChannelLayer(InMemoryChannelLayer):
    swept_at = 0.0

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now - self.swept_at >= SWEEP_EVERY:
            self.swept_at = now
            super()._clean_expired()  # type: ignore[misc]  # not in the stubs

    def _queue(self, channel: str) -> asyncio.Queue[tuple[float, dict[str, Any]]]:
        queue = self.channels.get(channel)
        if queue is None:
            self.require_valid_channel_name(channel)
            queue = self.channels[channel] = asyncio.Queue(maxsize=self.get_capacity(channel))
        return queue

    async def send(self, channel: str, message: dict[str, Any]) -> None:
        assert isinstance(message, dict), "message is not a dict"
        assert "__asgi_channel__" not in message
        try:
            self._queue(channel).put_nowait((time.time() + self.expiry, _copy(message)))
        except asyncio.QueueFull:
            raise ChannelFull(channel) from None

    async def receive(self, channel: str) -> dict[str, Any]:
        self._clean_expired()
        queue = self._queue(channel)
        try:
            _, message = await queue.get()
        except BaseException:  # the consumer stopped listening (cancelled)
            if queue.empty() and self.channels.get(channel) is queue:
                del self.channels[channel]
            raise
        return message

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        assert isinstance(message, dict), "Message is not a dict"
        self.require_valid_group_name(group)
        self._clean_expired()
        for channel in list(self.groups.get(group, ())):
            with contextlib.suppress(ChannelFull):  # as Channels': a full channel misses it
                await self.send(channel, message)


_PLAIN = frozenset({str, int, float, bool, bytes, type(None)})


def _copy(message: dict[str, Any]) -> dict[str, Any]:
    """The receiver's own copy of ``message``: a dict of plain values copied as a dict,
    anything else deep-copied (as Channels does)."""
    if all(type(value) in _PLAIN for value in message.values()):
        return dict(message)
    return deepcopy(message)
