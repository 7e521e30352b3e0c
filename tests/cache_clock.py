"""Moving the cache's clock: expiries tested without waiting for them."""

from __future__ import annotations

import asyncio
import time
import types
from collections.abc import Awaitable, Callable

import pytest
from django.core.cache import caches
from django.core.cache.backends import base, locmem

from realtime import constants

Later = Callable[[float], Awaitable[None]]


@pytest.fixture
def cache_later(monkeypatch: pytest.MonkeyPatch) -> Later:
    """``await later(seconds)``: the cache's expiries come ``seconds`` closer.  Give
    times in ``constants.WS_SLOT_TTL``'s terms (``later(constants.WS_SLOT_TTL + 1)``).

    The embedded cache (LocMemCache) reads ``time.time`` when it stores an expiry and
    when it checks one: its clock is moved forward, without waiting (a moment is given
    to the event loop, for heartbeats due in it).  Redis's clock cannot be moved:
    there the slots' expiry is cut to one second, and ``later`` waits."""
    offset = [0.0]  # seconds the embedded cache's clock was moved
    local = isinstance(caches["default"], locmem.LocMemCache)
    if local:
        real_time = time.time
        moved = types.SimpleNamespace(time=lambda: real_time() + offset[0])
        monkeypatch.setattr(locmem, "time", moved)
        monkeypatch.setattr(base, "time", moved)
    else:
        monkeypatch.setattr(constants, "WS_SLOT_TTL", 1)

    async def later(seconds: float) -> None:
        if local:
            offset[0] += seconds
            await asyncio.sleep(0.05)
        else:
            await asyncio.sleep(seconds)

    return later
