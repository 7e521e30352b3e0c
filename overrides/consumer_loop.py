"""A consumer's loop, leaner than Channels' own: its messages handled one at a time
without a task per message, and its handlers called without a hop to the database
thread before each.  Written against Channels 4.3.2 (``AsyncConsumer.__call__`` and
``dispatch``; tests/overrides/test_written_against.py fails when they change).
Measured: without it, the server's CPU at 200 moves a second rose 8-14% and the
p99 16-18% (docs/performance.md).

Channels' consumers (``await_many_dispatch``) wait on the client's socket and on
the channel layer by starting a new task for each source after each message and
racing them with ``asyncio.wait``: per message a task, its coroutine and context,
a waiter future and a set, which live until the next message.  With a thousand
sockets those were about a third of the objects each middle-generation garbage
collection walked under load (docs/performance.md).  Here each source has
one task for the consumer's life, which takes a message and handles it when its
turn comes: the same one-at-a-time handling, in each source's order.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import get_channel_layer

Message = dict[str, Any]


async def dispatch_in_turn(
    sources: Sequence[Callable[[], Awaitable[Message]]],
    dispatch: Callable[[Message], Awaitable[None]],
) -> None:
    """Hands every message of every source to ``dispatch``, one at a time, until
    ``dispatch`` raises (Channels' ``StopConsumer`` ends a consumer so); raises it."""
    turn = asyncio.Lock()

    async def take(receive: Callable[[], Awaitable[Message]]) -> None:
        while True:
            message = await receive()
            async with turn:
                await dispatch(message)

    takers = [asyncio.ensure_future(take(receive)) for receive in sources]
    try:
        done, _ = await asyncio.wait(takers, return_when=asyncio.FIRST_EXCEPTION)
        for taker in done:
            taker.result()  # the one that raised
    finally:
        for taker in takers:
            taker.cancel()
        for taker in takers:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await taker


class InTurnConsumer(AsyncWebsocketConsumer):
    """Channels' ``AsyncWebsocketConsumer`` on the loop above.

    ``dispatch``: Channels closes stale database connections before every handler,
    on the one database thread, so each move queued there once per viewer; every
    database call of these consumers goes through ``database_sync_to_async``, which
    does that itself around the call."""

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        """As Channels' own, its messages handled by ``dispatch_in_turn``."""
        self.scope = scope
        layer = self.channel_layer = get_channel_layer(self.channel_layer_alias)  # type: ignore[assignment]
        sources = [receive]
        if layer is not None:
            self.channel_name = await layer.new_channel()
            sources.append(functools.partial(layer.receive, self.channel_name))
        self.base_send = send
        with contextlib.suppress(StopConsumer):
            await dispatch_in_turn(sources, self.dispatch)

    async def dispatch(self, message: dict[str, Any]) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            await super().dispatch(message)  # Channels' answer to an unknown type
        else:
            await handler(message)
