"""Telling viewers: after the commit, and — for a websocket command — from the
consumer's own event loop, not from the database thread."""

from __future__ import annotations

from typing import Any

import pytest

from games.live import announce
from games.models import Table
from realtime import announce as realtime_announce
from tests.fixtures import play_a_legal_move, version_of


@pytest.mark.django_db(transaction=True)  # on_commit
def test_a_commands_messages_wait_for_its_consumer_to_send_them(
    friends_table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    sent: list[tuple[Any, ...]] = []
    monkeypatch.setattr(
        realtime_announce, "async_to_sync", lambda send: lambda *args: sent.append(args)
    )
    told = realtime_announce.Told()
    with realtime_announce.collecting(told):
        play_a_legal_move(friends_table)
        version = version_of(friends_table)
        assert sent == []  # the database thread did not wait for the event loop
        assert told.take() == [
            (announce.table_group(friends_table.pk), {"type": "table.version", "version": version})
        ]
        # the consumer took them (or stopped waiting): what is committed now goes at once
        play_a_legal_move(friends_table)
        assert len(sent) == 1
    play_a_legal_move(friends_table)  # the worker's moves and the pages': at once
    assert [message["version"] for _group, message in sent] == [version + 1, version + 2]
