"""A room the simulated players could not complete: once its fill deadline is parked,
the waiting screen stops promising them, on the page and live."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connections
from django.test import Client

from accounts.models import User
from deadlines.models import Deadline
from deadlines.services import PARK_AFTER, run_due
from domino_site.asgi import application
from games.engine import PRESETS
from games.models import Table
from matchmaking import services
from matchmaking.kinds import POOL_FILL
from matchmaking.models import pool_key
from matchmaking.services import queue_join, queue_leave

PAIRS = replace(PRESETS["domino"], players=4, teams=True, hand_size=7, target=100)
PROMISE = "Simulated players complete the room in"
PARKED = (
    "The room could not be completed with simulated players right now. "
    "You can keep waiting for other players, or leave the queue."
)
PARKED_IT = "Per ora non è stato possibile completare il tavolo con giocatori simulati."


@pytest.fixture
def broken_fill(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every fill fails, as when the simulated players' table cannot be made."""

    def fail(count: int) -> list[str]:
        raise RuntimeError("no names today")

    monkeypatch.setattr(services, "filler_names", fail)


def fill_deadline() -> Deadline:
    return Deadline.objects.get(kind=POOL_FILL, key=pool_key(PAIRS))


def fail_the_fill(*, times: int) -> datetime:
    """Run the worker each time the fill is due, ``times`` times; the last run's time."""
    for _ in range(times):
        now = fill_deadline().due_at
        assert run_due(now=now) == 0
    return now


def text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def page_of(user: User, language: str) -> str:
    client = Client()
    client.force_login(user)
    client.cookies["django_language"] = language
    return text(client.get("/online/queue/").content.decode())


@pytest.mark.django_db
@pytest.mark.usefixtures("broken_fill")
def test_once_the_fill_is_parked_the_waiting_screen_offers_waiting_or_leaving(
    make_user: Callable[..., User],
) -> None:
    anna = make_user("anna")
    queue_join(user=anna, rules=PAIRS)
    fail_the_fill(times=PARK_AFTER - 1)
    assert PROMISE in page_of(anna, "en")  # still retrying: not given up yet
    fail_the_fill(times=1)
    assert fill_deadline().parked_at is not None and not Table.objects.exists()
    page = page_of(anna, "en")
    assert PARKED in page and PROMISE not in page
    assert "Your room: 1 of 4" in page and "Leave the queue" in page
    italian = page_of(anna, "it")
    assert PARKED_IT in italian and "completano il tavolo tra" not in italian


@pytest.mark.django_db
@pytest.mark.usefixtures("broken_fill")
def test_someone_joining_gives_the_fill_another_chance(make_user: Callable[..., User]) -> None:
    anna, bruno = make_user("anna"), make_user("bruno")
    queue_join(user=anna, rules=PAIRS)
    now = fail_the_fill(times=PARK_AFTER)
    queue_join(user=bruno, rules=PAIRS)  # the wave sets the fill deadline again
    deadline = fill_deadline()
    assert (deadline.parked_at, deadline.attempts) == (None, 0)
    assert deadline.due_at <= now  # anna has waited long enough: due at once
    assert PROMISE in page_of(anna, "en")


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@pytest.mark.usefixtures("broken_fill")
async def test_the_open_waiting_screen_is_told_when_the_fill_is_parked(
    make_user: Callable[..., User],
) -> None:
    anna = await sync_to_async(make_user)("anna")
    await sync_to_async(queue_join)(user=anna, rules=PAIRS)
    client = Client()
    await sync_to_async(client.force_login)(anna)
    cookie = f"django_language=en; sessionid={client.cookies['sessionid'].value}".encode()
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost"), (b"cookie", cookie)]
    screen = WebsocketCommunicator(application, "/ws/queue/", headers=headers)
    try:
        assert (await screen.connect())[0]
        assert PROMISE in text(await screen.receive_from(timeout=5))
        await sync_to_async(fail_the_fill)(times=PARK_AFTER - 1)
        assert await screen.receive_nothing(timeout=0.3)  # retries change nothing shown
        await sync_to_async(fail_the_fill)(times=1)
        shown = text(await screen.receive_from(timeout=5))
        assert PARKED in shown and PROMISE not in shown
        await sync_to_async(queue_leave)(user=anna)  # the way the new sentence offers
        assert "You are not in a queue." in text(await screen.receive_from(timeout=5))
        await screen.disconnect()
    finally:
        await sync_to_async(connections.close_all)()
