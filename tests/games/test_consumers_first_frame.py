"""The table socket's first frame brings a page up to date and redraws nothing it
already shows: a region swapped for an identical one would lose what the player was
pointing at, typing or looking at.  A reconnecting socket (no ``shown``) or one that
says something unreadable gets the whole view, as before."""

from __future__ import annotations

import re
from urllib.parse import quote

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from accounts.models import User
from games.models import Table
from games.view.regions import REGIONS

from .test_consumers import connect, current_version, play_the_first_legal_move, started_duello

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.usefixtures("close_connections_after"),  # tests/fixtures.py
]

SHOWN = re.compile(r'data-shown="([^"]*)"')
REGION_IDS = re.compile(r'<\w+ id="([\w-]+)"')


@sync_to_async
def page_shown(table: Table, user: User) -> str:
    """What the table page the player loads says it shows (for its first socket)."""
    client = Client()
    client.force_login(user)
    client.cookies["django_language"] = "en"
    page = client.get(f"/t/{table.code}/").content.decode()
    found = SHOWN.search(page)
    assert found, "the table page says nothing of what it shows"
    return found.group(1)


def regions_in(frame: str) -> set[str]:
    return {found for found in REGION_IDS.findall(frame) if found in REGIONS}


async def first_frame(path: str, user: User) -> str:
    comm = await connect(path, user)
    try:
        return str(await comm.receive_from(timeout=5))
    finally:
        await comm.disconnect()


async def test_a_page_just_loaded_is_not_redrawn_by_its_first_frame() -> None:
    table, anna, bruno, _ = await started_duello()
    shown = await page_shown(table, anna)
    comm: WebsocketCommunicator = await connect(f"/ws/table/{table.code}/?shown={shown}", anna)
    # the page could not know who is online at the table, nor the turn clock's
    # milliseconds left when the socket asked
    assert await comm.receive_nothing(timeout=0.5) or regions_in(await comm.receive_from()) <= {
        "seats",
        "status",
    }
    # the table moves: the next frame shows the move, the socket was not left behind
    version = await current_version(table.pk)
    assert await play_the_first_legal_move(table, (anna, bruno), version)
    moved = await comm.receive_from(timeout=5)
    assert {"board", "table-head", "status"} <= regions_in(moved)
    assert f'data-version="{version + 1}"' in moved
    await comm.disconnect()


async def test_the_first_frame_carries_what_changed_since_the_page_was_drawn() -> None:
    table, anna, bruno, _ = await started_duello()
    shown = await page_shown(table, bruno)
    version = await current_version(table.pk)
    assert await play_the_first_legal_move(table, (anna, bruno), version)
    frame = await first_frame(f"/ws/table/{table.code}/?shown={shown}", bruno)
    assert {"board", "table-head", "hand", "log"} <= regions_in(frame)
    assert f'data-version="{version + 1}"' in frame


@pytest.mark.parametrize(
    "said", ["", "garbage", "." * (len(REGIONS) - 1), quote("<script>"), "AAAAAAAA." * 40]
)
async def test_a_socket_that_says_nothing_readable_gets_the_whole_view(said: str) -> None:
    table, anna, _, _ = await started_duello()
    frame = await first_frame(f"/ws/table/{table.code}/?shown={said}", anna)
    assert set(REGIONS) - {"flash"} <= regions_in(frame)
