"""An invitation arriving while the home page is open: the toast says who invites
and to what, and the page's invitations panel lists it at once."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connections
from django.urls import reverse

from accounts.models import User
from domino_site.asgi import application
from games import services
from games.engine import PRESETS
from games.models import Table
from tests.games.test_consumers import connect, session_cookie

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture(autouse=True)
async def close_connections_after() -> AsyncIterator[None]:
    """The consumers' database thread keeps a connection; close it so the test
    database can be dropped (PostgreSQL refuses while a session is open)."""
    yield
    await sync_to_async(connections.close_all)()


@sync_to_async
def invite(host: str, guest: str, preset: str) -> int:
    """``host`` opens a friends' table and invites ``guest``; the invitation's id."""
    anna = User.objects.get_or_create(username=host)[0]
    User.objects.get_or_create(username=guest)
    table = services.table_create(host=anna, mode=Table.Mode.FRIENDS, rules=PRESETS[preset])
    return services.table_invite(
        table_id=table.pk, by=anna, username=guest, version=table.version
    ).pk


async def next_frame(comm: WebsocketCommunicator) -> str:
    """The next frame, its white space collapsed as a browser shows it."""
    frame = await comm.receive_from(timeout=5)
    assert isinstance(frame, str)
    return " ".join(frame.split())


def panel(frame: str) -> str:
    found = re.search(r'<section class="panel" id="my-invitations">.*?</section>', frame, re.S)
    assert found, "the frame carries no invitations panel"
    return found.group(0)


async def test_the_home_pages_invitations_panel_lists_an_invitation_as_it_arrives() -> None:
    bruno = await sync_to_async(User.objects.create_user)("bruno", password="pw-bruno-123")
    home = await connect("/ws/notify/?page=home", bruno)

    first = await invite("anna", "bruno", "duello")
    frame = await next_frame(home)
    assert "anna invites you to a table." in frame
    assert "Classic duel · 2 players · 7 tiles each · draw game · to 100 points" in frame
    listed = panel(frame)
    assert "anna invites you" in listed
    assert reverse("invitation_accept", args=[first]) in listed
    assert reverse("invitation_decline", args=[first]) in listed

    second = await invite("carla", "bruno", "domino")
    listed = panel(await next_frame(home))
    assert "carla invites you" in listed and "anna invites you" in listed
    assert reverse("invitation_accept", args=[second]) in listed
    await home.disconnect()


async def test_other_pages_get_the_toast_and_badge_but_no_panel() -> None:
    bruno = await sync_to_async(User.objects.create_user)("bruno", password="pw-bruno-123")
    elsewhere = await connect("/ws/notify/", bruno)
    await invite("anna", "bruno", "blocco")
    frame = await next_frame(elsewhere)
    assert "anna invites you to a table." in frame and 'id="invite-badge"' in frame
    assert "Block dominoes" in frame
    assert 'id="my-invitations"' not in frame
    await elsewhere.disconnect()


async def test_the_toast_speaks_the_invitees_language() -> None:
    bruno = await sync_to_async(User.objects.create_user)("bruno", password="pw-bruno-123")
    cookie = b"django_language=it; " + await sync_to_async(session_cookie)(bruno)
    italian = WebsocketCommunicator(
        application,
        "/ws/notify/?page=home",
        headers=[(b"origin", b"http://localhost"), (b"cookie", cookie)],
    )
    assert (await italian.connect())[0]
    await invite("anna", "bruno", "duello")
    frame = await next_frame(italian)
    assert "anna ti invita a un tavolo." in frame
    assert (
        "Domino classico, duello · 2 giocatori · 7 tessere a testa · con pesca · a 100 punti"
        in frame
    )
    assert "Inviti" in panel(frame)
    await italian.disconnect()
