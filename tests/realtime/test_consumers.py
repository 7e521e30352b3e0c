"""A socket ended by the channel layer (Redis timing out or away) is closed with 1011
and gives back all it took: the player is not left "online", counted in the queue,
or holding one of the session's sockets; the error is logged once."""

from __future__ import annotations

import asyncio
import logging
import sys
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import pytest
import redis.exceptions
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.core.cache import cache
from django.db import connections
from django.utils import timezone

from accounts.models import User
from deadlines.services import run_due
from domino_site.asgi import application
from domino_site.log import NotTwice
from games import services
from games.live import presence
from games.models import Table
from matchmaking import presence as screens
from matchmaking.models import Ticket
from matchmaking.services import leave_grace, queue_join
from realtime import constants
from realtime.consumers import TOO_MANY_CONNECTIONS
from realtime.errors import ClosedOnError
from tests.fixtures import DUELLO, PAIRS, version_of
from tests.games.test_consumers import session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
async def close_connections_after() -> AsyncIterator[None]:
    """The consumers' database thread keeps a connection; close it so the test
    database can be dropped (PostgreSQL refuses while a session is open)."""
    yield
    await sync_to_async(connections.close_all)()


@pytest.fixture(autouse=True)
def fresh_cache() -> None:
    cache.clear()


@dataclass
class Outage:
    """Redis failing the channel layer for a while: a receive waiting then fails, and
    so does every group call (a leave too), until it is over."""

    error: Exception
    began: asyncio.Event = field(default_factory=asyncio.Event)
    over: bool = False

    def failing(self) -> bool:
        return self.began.is_set() and not self.over


ERRORS = {
    "timeout": (redis.exceptions.TimeoutError, "Timeout reading from 127.0.0.1:6379"),
    "connection": (redis.exceptions.ConnectionError, "Error 111 connecting to 127.0.0.1:6379."),
}


@pytest.fixture(params=ERRORS.values(), ids=ERRORS.keys())
def outage(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[Outage]:
    """The configured layer (in-memory, or channels_redis on Redis), failing on cue."""
    kind, text = request.param
    outage = Outage(kind(text))
    layer_class = type(get_channel_layer())
    plain_receive = layer_class.receive

    async def receive(layer: Any, channel: str) -> dict[str, Any]:
        if outage.over:
            return await plain_receive(layer, channel)
        await outage.began.wait()  # the socket under test waits here, then fails
        raise outage.error

    def failing(plain: Callable[..., Any]) -> Callable[..., Any]:
        async def call(layer: Any, *args: Any) -> Any:
            if outage.failing():
                raise outage.error
            return await plain(layer, *args)

        return call

    monkeypatch.setattr(layer_class, "receive", receive)
    for name in ("group_add", "group_discard", "group_send"):
        monkeypatch.setattr(layer_class, name, failing(getattr(layer_class, name)))
    yield outage


def headers(cookie: bytes) -> list[tuple[bytes, bytes]]:
    return [(b"origin", b"http://localhost"), (b"host", b"localhost"), (b"cookie", cookie)]


@sync_to_async
def seated_at_a_duel(anna: User) -> Table:
    bruno = User.objects.create_user("bruno", password="pw-bruno-123")
    table = services.table_create(host=anna, mode=Table.Mode.FRIENDS, rules=DUELLO)
    services.table_join(table_id=table.pk, user=bruno, version=version_of(table))
    services.table_start(table_id=table.pk, by=anna, version=version_of(table))
    return table


async def present(table: Table, user: User) -> bool:
    return bool(await presence.present_now(table_id=table.pk, user_ids=[user.pk]))


async def ticket_left_after_the_grace(user: User) -> bool:
    """Whether the player's ticket has left the queue once the waiting screens' grace
    is over (the worker's pass at that time, without waiting for it)."""
    await sync_to_async(run_due)(now=timezone.now() + leave_grace() + timedelta(seconds=1))
    latest = sync_to_async(lambda: Ticket.objects.filter(user=user).latest("pk").status)
    return await latest() == Ticket.Status.LEFT


@pytest.mark.parametrize("socket", ["table", "queue", "notify"])
async def test_a_channel_layer_error_closes_the_socket_1011_and_gives_back_all_it_took(
    socket: str,
    outage: Outage,
    make_user: Callable[..., User],
    caplog: pytest.LogCaptureFixture,
) -> None:
    anna = await sync_to_async(make_user)("anna")
    cookie = await sync_to_async(session_cookie)(anna) + b"; django_language=en"
    table = await seated_at_a_duel(anna)
    if socket == "queue":
        await sync_to_async(queue_join)(user=anna, rules=PAIRS)
    path = {"table": f"/ws/table/{table.code}/", "queue": "/ws/queue/", "notify": "/ws/notify/"}
    comm = WebsocketCommunicator(application, path[socket], headers=headers(cookie))
    assert (await comm.connect())[0]
    if socket != "notify":
        assert await comm.receive_from(timeout=5)  # the table, the waiting screen
    assert await present(table, anna) == (socket == "table")
    assert await sync_to_async(screens.screens_open)(anna.pk) == (socket == "queue")

    with caplog.at_level(logging.WARNING, logger="games"):
        outage.began.set()
        with pytest.raises(ClosedOnError):  # daphne closes the socket with 1011
            await comm.wait(timeout=5)
    outage.over = True
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1, "logged once"
    assert type(outage.error).__name__ in errors[0].getMessage()
    assert "leaving group" in caplog.text  # Redis was away for that too: the rest went on

    assert not await present(table, anna)
    assert await sync_to_async(screens.screens_open)(anna.pk) == 0
    if socket == "queue":
        assert await ticket_left_after_the_grace(anna)  # no waiting screen open meanwhile
    sockets = []
    for _ in range(constants.WS_CONNECTIONS_PER_SESSION):  # the slot is free again
        sockets.append(WebsocketCommunicator(application, "/ws/notify/", headers=headers(cookie)))
        assert (await sockets[-1].connect())[0]
    over = WebsocketCommunicator(application, "/ws/notify/", headers=headers(cookie))
    assert await over.connect() == (False, TOO_MANY_CONNECTIONS)
    for each in sockets:
        await each.disconnect()


def test_daphne_closes_a_socket_ended_so_with_1011_and_does_not_log_the_error_again() -> None:
    from daphne.ws_protocol import WebSocketProtocol  # type: ignore[import-untyped]

    frames: list[int | None] = []
    protocol = WebSocketProtocol()
    protocol.sendCloseFrame = lambda code=None, **kw: frames.append(code)
    protocol.handle_exception(ClosedOnError())  # what daphne does with the application's
    assert frames == [1011]
    record = logging.LogRecord("daphne.server", logging.ERROR, __file__, 1, "Exception", (), None)
    try:
        raise ClosedOnError
    except ClosedOnError:
        record.exc_info = sys.exc_info()
    assert not NotTwice().filter(record)
