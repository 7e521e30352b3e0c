"""Telling a table's viewers and a player's pages that something changed, after the
commit (``realtime.announce``): "table N is at version v", "you have a new invitation".
Each consumer then asks the redacting selector for its own viewer's view.
"""

from __future__ import annotations

import logging

from django.db import transaction

from games import states
from realtime.announce import send_now, send_on_commit

log = logging.getLogger("games")


def table_group(table_id: int) -> str:
    return f"table-{table_id}"


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


def new_version(*, table_id: int, version: int, state: states.TableState | None = None) -> None:
    """Once committed, every viewer of the table re-renders its own view.
    ``state``: the table at ``version`` as its writer built it (else it is read)."""

    def tell() -> None:
        if state is not None:
            states.remember(state)
        else:
            _prime(table_id, version)
        send_now(table_group(table_id), {"type": "table.version", "version": version})

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
    send_on_commit([user_group(user_id)], {"type": "user.invited"})
