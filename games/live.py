"""Telling connected browsers that something changed — after the commit, never before.

A group message carries no game data: only "table N is at version v" or "you
have a new invitation".  Each consumer then asks the redacting selector for its
own viewer's view.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import BaseChannelLayer, get_channel_layer
from django.db import transaction

from games import states

log = logging.getLogger("games")


def table_group(table_id: int) -> str:
    return f"table-{table_id}"


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


class Told:
    """A websocket command's group messages, held for its consumer to send from its
    event loop once the database thread returns (``send_told``), rather than that
    thread waiting while the loop gets round to them.  Once taken, it holds nothing
    more: a message committed after that (the consumer stopped waiting, say on a
    shutdown) is sent at once, by the thread that committed it."""

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
    """Messages committed inside are held in ``told``."""
    token = _collecting.set(told)
    try:
        yield told
    finally:
        _collecting.reset(token)


async def send_told(layer: BaseChannelLayer | None, told: Told) -> None:
    for group, message in told.take():
        if layer is not None:
            await layer.group_send(group, message)


def _send(group: str, message: dict[str, Any]) -> None:
    told = _collecting.get()
    if told is not None and told.hold(group, message):
        return
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(group, message)


def table_changed(*, table_id: int, version: int, state: states.TableState | None = None) -> None:
    """Once committed, every viewer of the table re-renders its own view.
    ``state``: the table at ``version`` as its writer built it (else it is read)."""

    def tell() -> None:
        if state is not None:
            states.remember(state)
        else:
            _prime(table_id, version)
        _send(table_group(table_id), {"type": "table.changed", "version": version})

    transaction.on_commit(tell)


def _prime(table_id: int, version: int) -> None:
    """Read the new state here, once, so that this process's viewers find it in
    memory and render without queuing on the database thread."""
    try:
        states.table_state(table_id, at_least=version)
    except Exception:  # the viewers read it themselves
        log.exception("reading table %s at version %s after a change failed", table_id, version)


def user_invited(*, user_id: int) -> None:
    """Once committed, the invitee's open pages show the invitation."""
    transaction.on_commit(lambda: _send(user_group(user_id), {"type": "user.invited"}))
