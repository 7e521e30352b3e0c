"""The lobby pushed over the websocket offers each viewer the seat they can take:
a visitor (no user yet) the plain sit form, a known player the websocket join."""

from __future__ import annotations

import html
from collections.abc import AsyncIterator

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connections
from django.test import Client
from django.urls import reverse

from accounts.models import User
from domino_site.asgi import application
from games import services
from games.models import Table
from tests.fixtures import DUELLO

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture(autouse=True)
async def close_connections_after() -> AsyncIterator[None]:
    yield
    await sync_to_async(connections.close_all)()


def session_cookie(user: User) -> str:
    client = Client()
    client.force_login(user)
    return f"; sessionid={client.cookies['sessionid'].value}"


async def first_frame(code: str, user: User | None) -> str:
    cookie = "django_language=en"
    if user is not None:
        cookie += await sync_to_async(session_cookie)(user)
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
    comm = WebsocketCommunicator(
        application, f"/ws/table/{code}/", headers=[*headers, (b"cookie", cookie.encode())]
    )
    connected, _ = await comm.connect()
    assert connected
    frame = html.unescape(await comm.receive_from(timeout=5))
    await comm.disconnect()
    return frame


async def test_the_pushed_lobby_offers_a_visitor_the_form_and_a_player_the_socket(
    anna: User, bruno: User
) -> None:
    table = await sync_to_async(services.table_create)(
        host=anna, mode=Table.Mode.FRIENDS, rules=DUELLO
    )
    sit_url = reverse("table_sit", args=[table.code])
    for_visitor = await first_frame(table.code, None)
    assert f'action="{sit_url}"' in for_visitor and '"action": "join"' not in for_visitor
    for_player = await first_frame(table.code, bruno)
    assert '"action": "join"' in for_player and sit_url not in for_player
