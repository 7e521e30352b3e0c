"""Telling waiting screens that their queue changed — after the commit, with no data.

Each queue consumer re-reads its own player's ticket (``selectors.queue_state``)."""

from __future__ import annotations

from collections.abc import Iterable

from realtime.announce import send_on_commit


def pool_group(pool_id: int) -> str:
    return f"pool-{pool_id}"


def queue_group(user_id: int) -> str:
    return f"queue-{user_id}"


def queue_changed(*, pool_ids: Iterable[int] = (), user_ids: Iterable[int] = ()) -> None:
    """Once committed, the waiting screens of these pools and players re-render."""
    groups = [pool_group(p) for p in pool_ids] + [queue_group(u) for u in user_ids]
    send_on_commit(groups, {"type": "queue.changed"})
