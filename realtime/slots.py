"""Slots: at most ``cap`` holders of one name at once, counted in the cache.

The cache is Redis when ``REDIS_URL`` is set, so the count holds across processes.
A holder claims one of the keys ``<prefix>:<i>`` (``i < cap``) with the cache's
atomic ``add`` (``SET NX`` on Redis, under LocMem's lock), keeps it with ``touch``
at each heartbeat of its socket (``constants.WS_HEARTBEAT_SECONDS``) and deletes it
when it goes.  A slot nobody deletes — its process died, its clean-up failed —
expires ``constants.WS_SLOT_TTL`` seconds after its last refresh: a leak costs a
place for under a minute, never a player locked out for an hour.  How many hold a
name is how many of its keys are alive: one ``get_many``.

The calls are the cache's own, synchronous: from an event loop, go through
``realtime.cache.in_cache``.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.cache import cache

from realtime import constants


@dataclass(frozen=True)
class Slots:
    """The ``cap`` slots of one name (a session's sockets, a player's waiting screens)."""

    prefix: str
    cap: int

    def keys(self) -> list[str]:
        return [f"{self.prefix}:{i}" for i in range(self.cap)]

    def claim(self) -> Claim | None:
        """Take a free slot; None when all ``cap`` are held."""
        keys = self.keys()
        held = cache.get_many(keys)
        for key in keys:
            # another holder may take a free one between the read and the add: try the next
            if key not in held and cache.add(key, 1, timeout=constants.WS_SLOT_TTL):
                return Claim(self, key)
        return None

    def count(self) -> int:
        """How many slots are held now (refreshed within the expiry)."""
        return len(cache.get_many(self.keys()))


@dataclass(eq=False)
class Claim:
    """One slot held: refreshed by its socket's heartbeat, released when it closes."""

    slots: Slots
    key: str
    released: bool = False

    def refresh(self) -> bool:
        """Keep the slot another ``WS_SLOT_TTL`` seconds; a slot lost meanwhile (a long
        pause, the cache restarted) is taken again, or another free one.  False: the
        holder is no longer counted (released, or no slot was free)."""
        if self.released:
            return False
        ttl = constants.WS_SLOT_TTL
        if cache.touch(self.key, timeout=ttl):
            return True
        if not cache.add(self.key, 1, timeout=ttl):
            again = self.slots.claim()
            if again is None:
                return False
            self.key = again.key
        if self.released:  # released on the event loop while this ran on a thread
            cache.delete(self.key)
            return False
        return True

    def release(self) -> None:
        self.released = True
        cache.delete(self.key)
