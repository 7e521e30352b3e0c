"""Limits on websockets: commands per connection, and open connections per session.

The command limit is a token bucket kept by each connection (no shared state);
the connection cap is a set of slots in the Django cache (``realtime/slots.py``:
Redis when ``REDIS_URL`` is set, so it holds across processes), one claimed on
connect, refreshed by the socket's heartbeat and given back on disconnect.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Mapping
from typing import Any

from realtime import constants
from realtime.slots import Slots


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
    """The cache key (the slots' prefix) that counts this connection's siblings, and
    their cap.

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


def connection_slots(scope: Mapping[str, Any]) -> Slots | None:
    """The slots this connection takes one of (None: it is not counted)."""
    key = connection_key(scope)
    return None if key is None else Slots(*key)
