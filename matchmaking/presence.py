"""Who still has a waiting screen open: a slot per open screen in the cache (Redis,
when ``REDIS_URL`` is set, so it holds across processes; ``realtime/slots.py``).  A
player whose last waiting screen closed, and stayed closed for a short grace, leaves
the queue (a ``QUEUE_LEAVE`` deadline the worker applies): a reload keeps the place, a
closed tab does not seat an absent player with people.  A screen whose process died
stops counting when its slot expires.

The calls are the cache's own, synchronous: from an event loop, go through
``realtime.cache.in_cache``."""

from __future__ import annotations

from realtime.slots import Claim, Slots

#: Seconds a closed waiting screen has to come back (a reload, a network blip).
LEAVE_GRACE_SECONDS = 5.0
#: Waiting screens of one player counted at once; one more works, uncounted.
SCREENS_COUNTED = 20


def _screens(user_id: int) -> Slots:
    return Slots(f"queue-screens:{user_id}", SCREENS_COUNTED)


def screen_opened(user_id: int) -> Claim | None:
    """Count one more open screen; its claim, to refresh and to close."""
    return _screens(user_id).claim()


def screen_closed(screen: Claim) -> int:
    """One screen fewer; how many this player still has open."""
    screen.release()
    return screen.slots.count()


def screens_open(user_id: int) -> int:
    return _screens(user_id).count()
