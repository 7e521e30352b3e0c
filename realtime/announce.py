"""Telling connected browsers that something changed: after the commit, never before.

A group message carries no data a viewer could not see: only "table N is at version
v", "you have a new invitation", "your queue changed".  Each consumer then reads its
own viewer's view.  A websocket command's messages are held (``collecting``) for its
consumer to send from its event loop once the database thread returns
(``send_told``), rather than that thread waiting while the loop gets round to them.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import BaseChannelLayer, get_channel_layer
from django.db import transaction


class Told:
    """A websocket command's group messages, held for its consumer to send.  Once
    taken, it holds nothing more: a message committed after that (the consumer stopped
    waiting, say on a shutdown) is sent at once, by the thread that committed it."""

    def __init__(self) -> None:
        self._messages: list[tuple[str, dict[str, Any]]] = []
        self._open = True
        self._lock = threading.Lock()

    def hold(self, group: str, message: dict[str, Any]) -> bool:
        with self._lock:
            if self._open:
                self._messages.append((group, message))
            return self._open

    def take(self) -> list[tuple[str, dict[str, Any]]]:
        with self._lock:
            self._open = False
            messages, self._messages = self._messages, []
        return messages


#: The messages of the websocket command being run, if any.
_collecting: ContextVar[Told | None] = ContextVar("collecting", default=None)


@contextmanager
def collecting(told: Told) -> Iterator[Told]:
    """Messages sent inside are held in ``told``."""
    token = _collecting.set(told)
    try:
        yield told
    finally:
        _collecting.reset(token)


async def send_told(layer: BaseChannelLayer | None, told: Told) -> None:
    for group, message in told.take():
        if layer is not None:
            await layer.group_send(group, message)


def send_now(group: str, message: dict[str, Any]) -> None:
    """Send to ``group`` (from a thread; held instead inside a command's ``collecting``).
    Call it once the change is committed."""
    told = _collecting.get()
    if told is not None and told.hold(group, message):
        return
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(group, message)


def send_on_commit(groups: Iterable[str], message: dict[str, Any]) -> None:
    """Once the transaction commits, send ``message`` to each of ``groups``."""
    targets = sorted(set(groups))

    def send() -> None:
        for group in targets:
            send_now(group, message)

    transaction.on_commit(send)
