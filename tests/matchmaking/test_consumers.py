"""The waiting screen's websocket: live counts, the forming room, the way to the table."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Callable
from dataclasses import replace
from datetime import datetime, timedelta

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.core.cache import cache
from django.db import connections
from django.test import Client
from django.utils import timezone

from accounts.models import User
from deadlines.models import Deadline
from deadlines.services import run_due
from domino_site.asgi import application
from games.engine import PRESETS
from games.models import Table
from matchmaking.kinds import QUEUE_LEAVE
from matchmaking.models import Ticket
from matchmaking.services import leave_grace, queue_join, queue_leave

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

PAIRS = replace(PRESETS["domino"], players=4, teams=True, hand_size=7, target=100)


@pytest.fixture(autouse=True)
def fresh_counts() -> None:
    """Open-screen counts live in the cache: none left over from another test."""
    cache.clear()


@pytest.fixture(autouse=True)
async def close_connections_after() -> AsyncIterator[None]:
    """The consumers' database thread keeps a connection; close it so the test
    database can be dropped (PostgreSQL refuses while a session is open)."""
    yield
    await sync_to_async(connections.close_all)()


def session_cookie(user: User) -> bytes:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}".encode()


async def connect(user: User | None) -> tuple[WebsocketCommunicator, bool]:
    cookie = b"django_language=en"
    if user is not None:
        cookie += b"; " + await sync_to_async(session_cookie)(user)
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost"), (b"cookie", cookie)]
    communicator = WebsocketCommunicator(application, "/ws/queue/", headers=headers)
    connected, _ = await communicator.connect()
    return communicator, connected


async def frame(comm: WebsocketCommunicator) -> str:
    data = await comm.receive_from(timeout=5)
    assert isinstance(data, str)
    return data


def text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


async def test_the_waiting_screen_follows_the_room_live_until_the_table_starts(
    make_user: Callable[..., User],
) -> None:
    names = ("anna", "bruno", "carla", "dino")
    players = [await sync_to_async(make_user)(n) for n in names]
    await sync_to_async(queue_join)(user=players[0], rules=PAIRS)
    anna, connected = await connect(players[0])
    assert connected
    shown = await frame(anna)
    assert 'id="queue-status"' in shown
    assert "1 player waiting for these settings" in text(shown)
    found = re.search(r'data-remaining-ms="(\d+)"', shown)
    assert found is not None
    remaining = int(found.group(1))
    assert 15_000 < remaining <= 20_000  # from the server's deadline

    await sync_to_async(queue_join)(user=players[1], rules=PAIRS)
    shown = await frame(anna)
    assert "2 players waiting for these settings" in text(shown)
    assert "anna" in shown and "bruno" in shown and "Your room: 2 of 4" in shown

    await sync_to_async(queue_join)(user=players[2], rules=PAIRS)
    await frame(anna)
    await sync_to_async(queue_join)(user=players[3], rules=PAIRS)
    shown = await frame(anna)
    table = await sync_to_async(Table.objects.get)()
    assert f'href="/t/{table.code}/"' in shown  # a link, and htmx follows the redirect
    assert 'hx-get="/online/seated/" hx-trigger="load"' in shown
    await anna.disconnect()


async def test_a_seated_player_is_sent_the_way_to_the_table_once(
    make_user: Callable[..., User],
) -> None:
    """Another change in the queue after the seating sends nothing: the same "your table is
    ready" again would start a second navigation to the table, cutting the first short."""
    players = [await sync_to_async(make_user)(n) for n in ("anna", "bruno", "carla", "dino")]
    await sync_to_async(queue_join)(user=players[0], rules=PAIRS)
    anna, _ = await connect(players[0])
    await frame(anna)
    for player in players[1:]:
        await sync_to_async(queue_join)(user=player, rules=PAIRS)
        shown = await frame(anna)
    assert "/online/seated/" in shown
    other = await sync_to_async(make_user)("elena")
    await sync_to_async(queue_join)(user=other, rules=PAIRS)  # the pool changes again
    assert await anna.receive_nothing(timeout=0.3)
    await anna.disconnect()


async def test_leaving_in_another_tab_updates_the_waiting_screen(
    make_user: Callable[..., User],
) -> None:
    user = await sync_to_async(make_user)("anna")
    await sync_to_async(queue_join)(user=user, rules=PAIRS)
    screen, _ = await connect(user)
    await frame(screen)
    await sync_to_async(queue_leave)(user=user)
    assert "You are not in a queue." in await frame(screen)
    await screen.disconnect()


async def test_others_joining_other_settings_send_nothing(make_user: Callable[..., User]) -> None:
    anna, bruno = [await sync_to_async(make_user)(n) for n in ("anna", "bruno")]
    await sync_to_async(queue_join)(user=anna, rules=PAIRS)
    screen, _ = await connect(anna)
    await frame(screen)
    await sync_to_async(queue_join)(user=bruno, rules=replace(PAIRS, target=50))
    assert await screen.receive_nothing(timeout=0.3)
    await screen.disconnect()


async def ticket_status(user: User) -> str:
    return await sync_to_async(lambda: Ticket.objects.filter(user=user).latest("pk").status)()


async def run_due_at(moment: datetime) -> int:
    """The worker's pass as if it were ``moment``: time passes without waiting for it."""
    return await sync_to_async(run_due)(now=moment)


async def test_closing_the_last_waiting_screen_leaves_the_queue_after_a_grace(
    make_user: Callable[..., User],
) -> None:
    anna = await sync_to_async(make_user)("anna")
    await sync_to_async(queue_join)(user=anna, rules=PAIRS)
    first, _ = await connect(anna)
    second, _ = await connect(anna)  # two tabs
    await frame(first)
    await frame(second)
    await first.disconnect()
    await run_due_at(timezone.now() + leave_grace() + timedelta(seconds=1))
    assert await ticket_status(anna) == Ticket.Status.WAITING  # a screen is still open
    closing = timezone.now()
    await second.disconnect()
    deadline = await sync_to_async(Deadline.objects.get)(kind=QUEUE_LEAVE)
    assert closing + leave_grace() <= deadline.due_at <= timezone.now() + leave_grace()
    await run_due_at(deadline.due_at - timedelta(milliseconds=1))
    assert await ticket_status(anna) == Ticket.Status.WAITING  # not before the grace's end
    assert await run_due_at(deadline.due_at) == 1
    assert await ticket_status(anna) == Ticket.Status.LEFT


async def test_a_reload_within_the_grace_keeps_the_place(make_user: Callable[..., User]) -> None:
    anna = await sync_to_async(make_user)("anna")
    await sync_to_async(queue_join)(user=anna, rules=PAIRS)
    screen, _ = await connect(anna)
    await frame(screen)
    await screen.disconnect()
    screen, _ = await connect(anna)  # the page reloaded
    await frame(screen)
    await run_due_at(timezone.now() + leave_grace() + timedelta(seconds=1))
    assert await ticket_status(anna) == Ticket.Status.WAITING
    await screen.disconnect()


async def test_a_visitor_has_no_queue_socket() -> None:
    _screen, connected = await connect(None)
    assert not connected
