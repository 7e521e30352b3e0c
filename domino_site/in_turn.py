"""A consumer's messages, handled one at a time, without a task per message.

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
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

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
