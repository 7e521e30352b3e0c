"""Limits on websockets: commands per connection, and open connections per session.

The command limit is a token bucket kept by each connection (no shared state);
the connection cap is a counter in the Django cache (Redis when ``REDIS_URL`` is
set, so it holds across processes), raised on connect and lowered on disconnect.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Mapping
from typing import Any

from asgiref.sync import sync_to_async
from django.core.cache import cache

from games import constants


class TokenBucket:
    """``burst`` commands at once, then ``rate`` per second."""

    def __init__(
        self, *, burst: float, rate: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.burst, self.rate, self.clock = burst, rate, clock
        self.tokens = burst
        self.stamp = clock()

    def take(self) -> bool:
        """Spend a token if there is one; False means "too fast"."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


def command_bucket() -> TokenBucket:
    return TokenBucket(burst=constants.WS_COMMAND_BURST, rate=constants.WS_COMMANDS_PER_SECOND)


def connection_key(scope: Mapping[str, Any]) -> tuple[str, int] | None:
    """The cache key that counts this connection's siblings, and their cap.

    A signed-in session (the user was loaded from it, so it is real) counts per
    session; a visitor without one counts per address.  The session key itself is
    hashed: it never appears in the cache.
    """
    user = scope.get("user")
    session = scope.get("session")
    key = getattr(session, "session_key", None) if user and user.is_authenticated else None
    if key:
        digest = hashlib.sha256(key.encode()).hexdigest()[:32]
        return f"ws-open:s:{digest}", constants.WS_CONNECTIONS_PER_SESSION
    client = scope.get("client")
    if client:
        return f"ws-open:a:{client[0]}", constants.WS_CONNECTIONS_PER_ADDRESS
    return None


def _claim(key: str, cap: int) -> bool:
    # The cache's own incr/decr: atomic (Redis INCR, or LocMem's lock) and they keep the
    # expiry; Django's async variants are a get then a set, neither.
    ttl = constants.WS_CONNECTION_COUNT_TTL
    cache.add(key, 0, timeout=ttl)
    try:
        count = cache.incr(key)
    except ValueError:  # expired between the two calls
        cache.set(key, 1, timeout=ttl)
        count = 1
    if count > cap:
        _release(key)
        return False
    cache.touch(key, timeout=ttl)
    return True


def _release(key: str) -> None:
    try:
        if cache.decr(key) < 0:
            cache.set(key, 0, timeout=constants.WS_CONNECTION_COUNT_TTL)
    except ValueError:  # forgotten already (expired): nothing to give back
        pass


async def claim_connection(key: str, cap: int) -> bool:
    """Count one more connection under ``key``; False (and nothing counted) over the cap."""
    return await sync_to_async(_claim)(key, cap)


async def release_connection(key: str) -> None:
    await sync_to_async(_release)(key)
