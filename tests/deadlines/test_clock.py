"""The deadline worker inside a daphne process (``deadlines.clock``): a server that
stops gracefully stops its clock first, so that a pass in flight, which announces what
it applied through the event loop, ends while that loop still runs."""

from __future__ import annotations

import asyncio
import threading

import pytest
from asgiref.sync import async_to_sync

from deadlines import clock as clocks
from deadlines.clock import Clock, stop_clocks


@pytest.fixture
def passes(monkeypatch: pytest.MonkeyPatch) -> dict[str, object]:
    """A pass that waits for ``release`` (a deadline being applied), then announces
    through the event loop, as ``realtime.announce`` does from the worker's thread."""
    seen: dict[str, object] = {"started": threading.Event(), "release": threading.Event()}
    seen["announced"] = []

    async def announce() -> None:
        seen["announced"].append("told")  # type: ignore[attr-defined]

    def step() -> int:
        seen["started"].set()  # type: ignore[attr-defined]
        seen["release"].wait(10)  # type: ignore[attr-defined]
        async_to_sync(announce)()
        return 0

    monkeypatch.setattr(clocks, "step", step)
    monkeypatch.setattr(clocks, "ensure_periodic", lambda now: None)
    return seen


async def test_a_stopping_server_lets_the_pass_in_flight_announce_before_its_loop_stops(
    passes: dict[str, object],
) -> None:
    clock = Clock(tick=60)
    await asyncio.to_thread(passes["started"].wait, 10)  # type: ignore[attr-defined]
    stopping = asyncio.ensure_future(stop_clocks())
    await asyncio.sleep(0.01)
    assert not stopping.done()  # it waits for the pass, which waits for its deadline
    passes["release"].set()  # type: ignore[attr-defined]
    await asyncio.wait_for(stopping, 10)
    assert passes["announced"] == ["told"]  # through this loop, before it stopped
    assert clock.task.done() and Clock.running == []


async def test_a_clock_asleep_between_passes_stops_at_once(passes: dict[str, object]) -> None:
    passes["release"].set()  # type: ignore[attr-defined]
    clock = Clock(tick=60)
    await asyncio.to_thread(passes["started"].wait, 10)  # type: ignore[attr-defined]
    while clock.passing:
        await asyncio.sleep(0.01)
    await asyncio.wait_for(stop_clocks(), 1)  # not the 60 s tick
    assert clock.task.done() and Clock.running == []
