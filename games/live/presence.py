"""Who is at a table right now: a heartbeat per (table, user) in the Django cache.

The cache is Redis when ``REDIS_URL`` is set, so every server process sees the
same heartbeats.  The value counts the player's open table sockets (two tabs do
not cancel each other); each socket refreshes the expiry at its heartbeat (every
``realtime.constants.WS_HEARTBEAT_SECONDS``), so a process that dies without saying
goodbye lets its players drop out within ``PRESENCE_TTL`` seconds.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterable
from typing import Any

from django.core.cache import cache

from realtime.cache import cache_is_local, in_cache

PRESENCE_TTL = 40  # two heartbeats and a margin
#: How long a read of the embedded cache is reused while nothing here changed it.
REUSE_SECONDS = 0.5
KEEP_READS = 10_000  # tables' reads kept for reuse (all dropped past that)


def presence_key(table_id: int, user_id: int) -> str:
    return f"presence:{table_id}:{user_id}"


def _arrive(key: str) -> bool:
    # incr/decr are atomic in the cache (Redis INCR, LocMem's lock); async variants are not
    cache.add(key, 0, timeout=PRESENCE_TTL)
    try:
        count = cache.incr(key)
    except ValueError:  # expired between the two calls
        cache.set(key, 1, timeout=PRESENCE_TTL)
        count = 1
    cache.touch(key, timeout=PRESENCE_TTL)
    return count == 1


def _leave(key: str) -> bool:
    try:
        count = cache.decr(key)
    except ValueError:  # expired already: the player was counted out
        return False
    if count <= 0:
        cache.delete(key)
        return True
    return False


def _beat(key: str) -> bool:
    if cache.touch(key, timeout=PRESENCE_TTL):
        return False
    # expired (a long pause, a cache restart): this socket is still here
    return cache.add(key, 1, timeout=PRESENCE_TTL)


# Every viewer of a table reads its presence for each new version, within moments of
# each other.  With the embedded cache, every change to who is present is made in this
# process (an arrival, a last goodbye, a beat that found its player expired), each
# counted here once made, so a read made since the last change is reused; for a
# moment only, since a heartbeat may also expire.
_changes = itertools.count()
_changed = next(_changes)
_reads: dict[tuple[int, tuple[int, ...]], tuple[int, float, frozenset[int]]] = {}


def _counted_change(work: Callable[..., bool]) -> Callable[..., bool]:
    """``work`` (``_arrive``, ``_leave``, ``_beat``: True when the player came or
    went), counted as a change when it says so, or fails half-way."""

    def changing(*args: Any, **kwargs: Any) -> bool:
        global _changed
        changed = True
        try:
            changed = work(*args, **kwargs)
            return changed
        finally:  # after the write: a read made before it is not reused
            if changed:
                _changed = next(_changes)

    return changing


def forget() -> None:
    """Reuse no read made so far (tests: table ids come again after a rollback)."""
    _reads.clear()


async def arrive(*, table_id: int, user_id: int) -> bool:
    """Count one more socket of the player at the table; True when they were absent."""
    return await in_cache(_counted_change(_arrive), presence_key(table_id, user_id))


async def leave(*, table_id: int, user_id: int) -> bool:
    """Count one socket fewer; True when it was the player's last one."""
    return await in_cache(_counted_change(_leave), presence_key(table_id, user_id))


async def beat(*, table_id: int, user_id: int) -> bool:
    """Keep the player present; True when they had expired (and are present again)."""
    return await in_cache(_counted_change(_beat), presence_key(table_id, user_id))


async def present_now(*, table_id: int, user_ids: Iterable[int]) -> set[int]:
    """``present_users`` from an event loop."""
    return await in_cache(present_users, table_id=table_id, user_ids=list(user_ids))


def present_users(*, table_id: int, user_ids: Iterable[int]) -> set[int]:
    """Which of ``user_ids`` have a live socket at the table: one cache read (none
    when this process read them since its last change to the embedded cache)."""
    users = tuple(user_ids)
    if not users:
        return set()
    local = cache_is_local()
    if local:
        changed, now = _changed, time.monotonic()  # before the read: see _counted_change
        reused = _reads.get((table_id, users))
        if reused is not None and reused[0] == changed and now - reused[1] < REUSE_SECONDS:
            return set(reused[2])
    keys = {presence_key(table_id, uid): uid for uid in users}
    found = cache.get_many(list(keys))
    present = {keys[k] for k, count in found.items() if count and count > 0}
    if local:
        if len(_reads) > KEEP_READS:
            _reads.clear()
        _reads[table_id, users] = (changed, now, frozenset(present))
    return present
