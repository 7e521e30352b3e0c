"""A consumer's messages, one at a time, without a task per message (overrides/consumer_loop.py)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from channels.exceptions import StopConsumer

from overrides.consumer_loop import dispatch_in_turn
from tests.fixtures import tasks_started

pytestmark = pytest.mark.asyncio


async def _feed(queue: asyncio.Queue[dict[str, Any]], source: str, count: int) -> None:
    for n in range(count):
        await queue.put({"type": source, "n": n})
        await asyncio.sleep(0)


async def test_messages_of_both_sources_are_handled_one_at_a_time_in_each_sources_order() -> None:
    socket: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    layer: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    handled: list[tuple[str, int]] = []
    handling = 0

    async def dispatch(message: dict[str, Any]) -> None:
        nonlocal handling
        handling += 1
        assert handling == 1, "two messages handled at once"
        await asyncio.sleep(0)  # a handler that awaits (a render on a thread)
        handled.append((message["type"], message["n"]))
        handling -= 1
        if len(handled) == 100:
            raise StopConsumer

    feeding = asyncio.gather(_feed(socket, "socket", 50), _feed(layer, "layer", 50))
    with pytest.raises(StopConsumer):
        await dispatch_in_turn([socket.get, layer.get], dispatch)
    await feeding
    for source in ("socket", "layer"):
        assert [n for kind, n in handled if kind == source] == list(range(50))


async def test_messages_start_no_task_of_their_own() -> None:
    socket: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    layer: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    seen = 0

    async def dispatch(message: dict[str, Any]) -> None:
        nonlocal seen
        seen += 1
        if seen == 200:
            raise StopConsumer

    for n in range(100):
        socket.put_nowait({"type": "socket", "n": n})
        layer.put_nowait({"type": "layer", "n": n})
    with tasks_started() as started, pytest.raises(StopConsumer):
        await dispatch_in_turn([socket.get, layer.get], dispatch)
    assert seen == 200
    assert len(started) == 2  # one per source, for the consumer's life (Channels' own: 200 more)


async def test_a_failing_handler_ends_the_consumer_and_stops_its_other_source() -> None:
    socket: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    layer: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    socket.put_nowait({"type": "websocket.receive"})

    async def dispatch(message: dict[str, Any]) -> None:
        raise ValueError("a handler's bug")

    with pytest.raises(ValueError, match="a handler's bug"):
        await dispatch_in_turn([socket.get, layer.get], dispatch)
    # The layer's wait was cancelled: a message sent now is left for nobody to take.
    layer.put_nowait({"type": "table.version"})
    await asyncio.sleep(0)
    assert layer.qsize() == 1


async def test_a_consumer_cancelled_from_outside_stops_both_sources() -> None:
    socket: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    layer: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    handled: list[dict[str, Any]] = []

    async def dispatch(message: dict[str, Any]) -> None:
        handled.append(message)

    consumer = asyncio.ensure_future(dispatch_in_turn([socket.get, layer.get], dispatch))
    socket.put_nowait({"type": "websocket.receive"})
    for _ in range(1000):  # the consumer takes it within a few turns of the loop
        if handled:
            break
        await asyncio.sleep(0)
    consumer.cancel()  # daphne cancels an application that outlives its socket
    with pytest.raises(asyncio.CancelledError):
        await consumer
    socket.put_nowait({"type": "late"})
    layer.put_nowait({"type": "late"})
    for _ in range(10):  # turns of the loop enough for a live consumer to take them
        await asyncio.sleep(0)
    assert handled == [{"type": "websocket.receive"}]
