"""Slots (realtime/slots.py): at most so many holders of a name, each one's place kept by
its heartbeat, and a place nobody gave back free again within a minute."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.core.cache import cache

from realtime import constants
from realtime.slots import Slots
from tests.cache_clock import Later, cache_later

__all__ = ["cache_later"]  # the fixture


@pytest.fixture(autouse=True)
def fresh_cache() -> None:
    cache.clear()


def test_a_name_has_at_most_cap_holders_and_a_released_place_is_free_again() -> None:
    slots = Slots("test-slots:anna", 3)
    claims = [slots.claim() for _ in range(3)]
    assert all(claims) and slots.count() == 3
    assert slots.claim() is None  # full
    assert Slots("test-slots:bruno", 3).claim() is not None  # another name: its own places
    first = claims[0]
    assert first is not None
    first.release()
    assert slots.count() == 2
    assert slots.claim() is not None and slots.count() == 3


async def test_a_place_never_given_back_expires_and_one_refreshed_does_not(
    cache_later: Later,
) -> None:
    slots = Slots("test-slots:anna", 2)
    claim = sync_to_async(slots.claim)
    kept, leaked = await claim(), await claim()
    assert kept is not None and leaked is not None
    assert await claim() is None
    for _ in range(3):  # three heartbeats: more than the expiry in all
        await cache_later(constants.WS_SLOT_TTL * 0.6)
        assert await sync_to_async(kept.refresh)()
    assert await sync_to_async(slots.count)() == 1  # the leaked place is free
    assert await claim() is not None


def test_a_place_lost_meanwhile_is_taken_again_at_the_next_refresh() -> None:
    slots = Slots("test-slots:anna", 2)
    claim = slots.claim()
    assert claim is not None
    cache.clear()  # the cache restarted
    assert slots.count() == 0
    assert claim.refresh() and slots.count() == 1
    claim.release()
    assert not claim.refresh() and slots.count() == 0  # given back: not taken again
