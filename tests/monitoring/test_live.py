"""The admin's live page: staff only, and its figures follow what happens."""

from __future__ import annotations

import logging
import re
from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.utils import timezone

from accounts.models import User
from deadlines.models import Deadline
from deadlines.services import set_deadline
from deadlines.worker import HOUSEKEEPING
from tests.games.test_consumers import (
    connect,
    current_version,
    frame_at_least,
    play_the_first_legal_move,
    started_duello,
)

FIGURE = re.compile(r'<th scope="row">([^<]+)</th>\s*<td><strong>(\d+)</strong>')


def shown(client: Client) -> dict[str, int]:
    response = client.get("/admin/live/")
    assert response.status_code == 200
    return {name: int(n) for name, n in FIGURE.findall(response.content.decode())}


@pytest.mark.django_db
def test_only_staff_see_the_live_page(client: Client, anna: User) -> None:
    assert client.get("/admin/live/")["Location"].startswith("/admin/login/")
    client.force_login(anna)
    assert client.get("/admin/live/")["Location"].startswith("/admin/login/")
    anna.is_staff = True
    anna.save()
    assert client.get("/admin/live/").status_code == 200
    assert 'href="/admin/live/"' in client.get("/admin/").content.decode()


@sync_to_async
def staff_client() -> Client:
    boss = User.objects.create_user("boss", password="pw-boss-123", is_staff=True)
    client = Client()
    client.force_login(boss)
    return client


@sync_to_async
def a_late_and_a_parked_deadline() -> None:
    now = timezone.now()
    set_deadline(HOUSEKEEPING, now - timedelta(minutes=1), key="late")
    set_deadline(HOUSEKEEPING, now - timedelta(minutes=1), key="parked")
    Deadline.objects.filter(key="parked").update(parked_at=now)


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_connections_after")
async def test_the_figures_follow_players_moves_deadlines_and_errors() -> None:
    client = await staff_client()
    before = await sync_to_async(shown)(client)
    assert before["People online"] == before["Tables playing"] == 0
    assert before["Moves in the last minute"] == before["Deadlines late"] == 0

    table, anna, bruno, _carla = await started_duello()
    comms = [await connect(f"/ws/table/{table.code}/", p) for p in (anna, bruno)]
    await frame_at_least(comms[0], 2)
    await play_the_first_legal_move(table, (anna, bruno), await current_version(table.pk))
    await a_late_and_a_parked_deadline()
    logging.getLogger("games").error("something broke")  # as the site logs an error

    now = await sync_to_async(shown)(client)
    assert now["People online"] == 2
    assert now["Tables playing"] == 1
    assert now["Moves in the last minute"] == 1
    assert now["Deadlines late"] == 1  # the parked one is counted apart
    assert now["Errors in the last hour"] == before["Errors in the last hour"] + 1
    for comm in comms:
        await comm.disconnect()
    assert (await sync_to_async(shown)(client))["People online"] == 0


def test_an_error_while_counting_errors_is_not_counted_again(
    monkeypatch: pytest.MonkeyPatch, caplog: Any
) -> None:
    from monitoring import errors

    def broken(*args: Any, **kwargs: Any) -> None:
        logging.getLogger("games").error("the cache broke too")
        raise ConnectionError

    monkeypatch.setattr(errors.cache, "add", broken)
    logging.getLogger("games").error("something broke")  # returns: nothing loops
    logged = sorted(r.getMessage() for r in caplog.records)
    assert logged == ["something broke", "the cache broke too"]
