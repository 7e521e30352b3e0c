"""A websocket knows its player from the session its cookie names, as a page does; a
socket whose cookie names no session (signed out, expired, made up) is a visitor's."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from accounts.models import User
from domino_site.asgi import application
from tests.games.test_consumers import session_cookie

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_connections_after"),  # tests/fixtures.py
]

#: The notifications' socket: a player's, closed with 4401 for a visitor.
NOTIFY = "/ws/notify/"


async def notify_socket(cookie: bytes) -> tuple[bool, int | None]:
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost"), (b"cookie", cookie)]
    comm = WebsocketCommunicator(application, NOTIFY, headers=headers)
    connected, code = await comm.connect()
    await comm.disconnect()
    return connected, code


async def test_a_signed_in_players_socket_is_theirs() -> None:
    anna = await User.objects.acreate(username="anna")
    assert await notify_socket(await sync_to_async(session_cookie)(anna)) == (True, None)


@pytest.mark.parametrize("made_up", [b"sessionid=nosuchsession0123456789abcdef", b""])
async def test_a_socket_without_a_session_is_a_visitors(made_up: bytes) -> None:
    assert await notify_socket(made_up) == (False, 4401)


async def test_a_socket_of_a_session_signed_out_since_is_a_visitors() -> None:
    anna = await User.objects.acreate(username="anna")
    cookie = await sync_to_async(session_cookie)(anna)

    def sign_out() -> None:
        client = Client()
        client.cookies["sessionid"] = cookie.decode().split("=", 1)[1]
        client.logout()

    await sync_to_async(sign_out)()
    assert await notify_socket(cookie) == (False, 4401)
