"""Who still has a waiting screen open: a count per player in the cache (Redis, when
``REDIS_URL`` is set, so it holds across processes).  A player whose last waiting
screen closed, and stayed closed for a short grace, leaves the queue: a reload keeps
the place, a closed tab does not seat an absent player with people."""

from __future__ import annotations

from django.core.cache import cache

#: Seconds a closed waiting screen has to come back (a reload, a network blip).
LEAVE_GRACE_SECONDS = 5.0
#: A count is forgotten this long after its last change (a process that died mid-count).
COUNT_TTL = 3600


def _key(user_id: int) -> str:
    return f"queue-screens:{user_id}"


def screen_opened(user_id: int) -> None:
    key = _key(user_id)
    cache.add(key, 0, timeout=COUNT_TTL)
    try:
        cache.incr(key)  # atomic: Redis INCR, or LocMem's lock
    except ValueError:  # expired between the two calls
        cache.set(key, 1, timeout=COUNT_TTL)
    cache.touch(key, timeout=COUNT_TTL)


def screen_closed(user_id: int) -> int:
    """One screen fewer; how many this player still has open."""
    try:
        return max(0, int(cache.decr(_key(user_id))))
    except ValueError:  # forgotten already
        return 0


def screens_open(user_id: int) -> int:
    return max(0, int(cache.get(_key(user_id), 0)))
