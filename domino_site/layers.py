"""The embedded default's channel layer: Channels' in-memory layer, with its expiry
scan run at most once a second.

``InMemoryChannelLayer`` walks every channel and every group on each send and
receive to drop expired messages and memberships: with a thousand sockets that
scan was most of the layer's cost (a group send of four makes five).  Messages
expire after a minute, so sweeping once a second changes nothing a client sees.
"""

from __future__ import annotations

import time

from channels.layers import InMemoryChannelLayer

SWEEP_EVERY = 1.0  # seconds


class LocalChannelLayer(InMemoryChannelLayer):
    swept_at = 0.0

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now - self.swept_at >= SWEEP_EVERY:
            self.swept_at = now
            super()._clean_expired()  # type: ignore[misc]  # not in the stubs
