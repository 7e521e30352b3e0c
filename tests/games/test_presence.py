"""Presence: each seat shows whether its player has the table open, and the others
are told within moments when a player closes it."""

from __future__ import annotations

import os
import re
import time
import urllib.request
from collections.abc import AsyncIterator
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from autobahn.exception import Disconnected
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.testing import WebsocketCommunicator
from django.core.cache import cache
from django.db import connection, connections

from accounts.models import User
from games import services
from games.live import presence
from games.models import Table
from realtime import constants
from realtime.cache import cache_is_local
from tests.cache_clock import Later, cache_later
from tests.fixtures import DUELLO, play_a_legal_move, version_of
from tests.games.test_consumers import connect, frame_at_least

__all__ = ["cache_later"]  # a fixture

pytestmark = pytest.mark.django_db(transaction=True)  # async tests: asyncio_mode auto


@pytest.fixture(autouse=True)
async def close_connections_after() -> AsyncIterator[None]:
    """The consumers' database thread keeps a connection; close it so the test
    database can be dropped (PostgreSQL refuses while a session is open)."""
    yield
    await sync_to_async(connections.close_all)()


@pytest.fixture(autouse=True)
def fresh_presence() -> None:
    """Heartbeats live in the shared cache: none left over from another test."""
    cache.clear()


SEAT = re.compile(r'<div class="seat [^"]*" data-seat="(\d)">(.*?)</div>', re.S)


def offline_seats(frame: str) -> set[int]:
    return {int(n) for n, body in SEAT.findall(frame) if "tag offline" in body}


@sync_to_async
def started_duello() -> tuple[Table, User, User]:
    anna = User.objects.create_user("anna", password="pw-anna-123")
    bruno = User.objects.create_user("bruno", password="pw-bruno-123")
    table = services.table_create(host=anna, mode=Table.Mode.FRIENDS, rules=DUELLO)
    services.table_join(table_id=table.pk, version=table.version, user=bruno)
    table.refresh_from_db()
    services.table_start(table_id=table.pk, version=table.version, by=anna)
    table.refresh_from_db()
    return table, anna, bruno


async def next_seats(comm: WebsocketCommunicator) -> str:
    """The next frame that carries the seats (within seconds)."""
    while True:
        frame = await comm.receive_from(timeout=5)
        assert isinstance(frame, str)
        if 'id="seats"' in frame:
            return frame


async def test_a_player_who_closes_the_table_is_shown_offline_to_the_others() -> None:
    table, anna, bruno = await started_duello()
    path = f"/ws/table/{table.code}/"
    anna_socket = await connect(path, anna)
    # bruno has not opened the table yet: anna sees him offline, herself never
    assert offline_seats(await frame_at_least(anna_socket, 0)) == {1}

    bruno_socket = await connect(path, bruno)
    assert offline_seats(await frame_at_least(bruno_socket, 0)) == set()
    assert offline_seats(await next_seats(anna_socket)) == set()

    await bruno_socket.disconnect()
    assert offline_seats(await next_seats(anna_socket)) == {1}
    await anna_socket.disconnect()


async def test_a_frame_for_a_tab_closing_at_that_moment_still_shows_the_player_offline(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """daphne refuses a frame once the browser's close has begun; the consumer
    ended there, skipping its disconnect, and the player stayed "online"."""
    table, anna, bruno = await started_duello()
    path = f"/ws/table/{table.code}/"
    anna_socket = await connect(path, anna)
    await frame_at_least(anna_socket, 0)
    bruno_socket = await connect(path, bruno)
    await frame_at_least(bruno_socket, 0)
    assert offline_seats(await next_seats(anna_socket)) == set()
    plain_send = AsyncWebsocketConsumer.send

    async def closing(self: Any, *args: Any, **kwargs: Any) -> None:
        if getattr(self, "present_as", None) == bruno.pk:  # bruno's tab is closing
            raise Disconnected("Attempt to send on a closed protocol")
        await plain_send(self, *args, **kwargs)

    monkeypatch.setattr(AsyncWebsocketConsumer, "send", closing)
    await sync_to_async(play_a_legal_move)(table)  # a frame for each of them
    await frame_at_least(anna_socket, await sync_to_async(version_of)(table))
    monkeypatch.undo()
    await bruno_socket.disconnect()
    assert offline_seats(await next_seats(anna_socket)) == {1}
    await anna_socket.disconnect()


async def test_closing_one_of_two_tabs_keeps_the_player_online() -> None:
    table, anna, bruno = await started_duello()
    path = f"/ws/table/{table.code}/"
    first_tab, second_tab = await connect(path, bruno), await connect(path, bruno)
    await frame_at_least(first_tab, 0)
    await frame_at_least(second_tab, 0)
    await first_tab.disconnect()
    present = await sync_to_async(presence.present_users)(
        table_id=table.pk, user_ids=[anna.pk, bruno.pk]
    )
    assert present == {bruno.pk}

    anna_socket = await connect(path, anna)
    assert offline_seats(await frame_at_least(anna_socket, 0)) == set()
    await second_tab.disconnect()
    assert offline_seats(await next_seats(anna_socket)) == {1}
    await anna_socket.disconnect()


async def test_a_heartbeat_keeps_an_open_tab_present_past_the_expiry(
    monkeypatch: pytest.MonkeyPatch, cache_later: Later
) -> None:
    monkeypatch.setattr(presence, "PRESENCE_TTL", 1)
    monkeypatch.setattr(constants, "WS_HEARTBEAT_SECONDS", 0.02)
    table, _anna, bruno = await started_duello()
    tab = await connect(f"/ws/table/{table.code}/", bruno)
    await frame_at_least(tab, 0)
    for _step in range(4):  # twice the expiry in all, with beats between the steps
        await cache_later(0.5)
    read = sync_to_async(presence.present_users)
    assert await read(table_id=table.pk, user_ids=[bruno.pk]) == {bruno.pk}
    await tab.disconnect()
    assert await read(table_id=table.pk, user_ids=[bruno.pk]) == set()


async def test_a_heartbeat_that_fails_once_beats_again_next_time(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, cache_later: Later
) -> None:
    monkeypatch.setattr(presence, "PRESENCE_TTL", 1)
    monkeypatch.setattr(constants, "WS_HEARTBEAT_SECONDS", 0.02)
    real_beat, calls = presence._beat, []

    def flaky_beat(key: str) -> bool:
        calls.append(key)
        if len(calls) == 1:
            raise ConnectionError("the cache is restarting")
        return real_beat(key)

    monkeypatch.setattr(presence, "_beat", flaky_beat)
    table, _anna, bruno = await started_duello()
    tab = await connect(f"/ws/table/{table.code}/", bruno)
    await frame_at_least(tab, 0)
    for _step in range(4):
        await cache_later(0.5)
    read = sync_to_async(presence.present_users)
    assert await read(table_id=table.pk, user_ids=[bruno.pk]) == {bruno.pk}
    assert len(calls) > 2 and "heartbeat" in caplog.text
    await tab.disconnect()


async def test_a_player_whose_server_process_died_drops_out_when_the_heartbeat_expires(
    monkeypatch: pytest.MonkeyPatch, cache_later: Later
) -> None:
    monkeypatch.setattr(presence, "PRESENCE_TTL", 1)
    monkeypatch.setattr(presence, "REUSE_SECONDS", 0)  # a read, not the one reused
    # a process counted bruno present, then died without a goodbye or another beat
    assert await presence.arrive(table_id=7, user_id=42)
    read = sync_to_async(presence.present_users)
    assert await read(table_id=7, user_ids=[42, 43]) == {42}
    await cache_later(1.3)
    assert await read(table_id=7, user_ids=[42, 43]) == set()


async def test_the_others_see_offline_when_a_dead_process_players_heartbeat_expires(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table, anna, bruno = await started_duello()
    # bruno's socket lives in another server process, which then dies: no goodbye is sent
    await presence.arrive(table_id=table.pk, user_id=bruno.pk)
    monkeypatch.setattr(constants, "WS_HEARTBEAT_SECONDS", 0.2)  # anna's beats check the others
    anna_socket = await connect(f"/ws/table/{table.code}/", anna)
    assert offline_seats(await frame_at_least(anna_socket, 0)) == set()
    await sync_to_async(cache.touch)(presence.presence_key(table.pk, bruno.pk), 1)
    assert offline_seats(await next_seats(anna_socket)) == {1}
    await anna_socket.disconnect()


async def test_a_spectator_coming_and_going_sends_the_players_nothing() -> None:
    table, anna, _bruno = await started_duello()
    carla = await sync_to_async(User.objects.create_user)("carla", password="pw-carla-123")
    anna_socket = await connect(f"/ws/table/{table.code}/", anna)
    await frame_at_least(anna_socket, 0)
    watcher = await connect(f"/ws/table/{table.code}/", carla)
    await frame_at_least(watcher, 0)
    await watcher.disconnect()
    assert await anna_socket.receive_nothing(timeout=1)
    await anna_socket.disconnect()


@pytest.mark.skipif(
    connection.vendor != "postgresql" or not os.environ.get("REDIS_URL"),
    reason="needs PostgreSQL and Redis (make test-scaleout)",
)
def test_a_player_closing_the_table_on_one_process_shows_offline_on_another() -> None:
    from websockets.sync.client import connect as ws_connect

    from domino_site import scaled
    from tests.site.test_scaled import session_cookie as cookie_of

    table, anna, bruno = async_to_sync(started_duello)()
    env = dict(os.environ)
    env["DATABASE_URL"] = f"postgres://postgres@127.0.0.1:5432/{connection.settings_dict['NAME']}"
    port = scaled.free_ports(2)
    children = scaled.start(scaled.scaled_env(env), processes=2, port=port, host="127.0.0.1")
    try:
        for n in range(2):
            for _ in range(150):
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{port + n}/healthz", timeout=1)
                    break
                except OSError:
                    time.sleep(0.1)
        sockets = [
            ws_connect(
                f"ws://127.0.0.1:{port + n}/ws/table/{table.code}/",
                additional_headers={"Origin": "http://127.0.0.1", "Cookie": cookie_of(user)},
            )
            for n, user in enumerate((anna, bruno))
        ]
        anna_socket, bruno_socket = sockets

        def anna_sees(offline: set[int]) -> bool:
            deadline = time.monotonic() + 5
            while time.monotonic() < deadline:
                try:
                    frame = anna_socket.recv(timeout=deadline - time.monotonic())
                except TimeoutError:
                    return False
                if 'id="seats"' in str(frame) and offline_seats(str(frame)) == offline:
                    return True
            return False

        assert anna_sees(set())  # bruno is connected, through the other process
        bruno_socket.close()
        assert anna_sees({1})  # and has gone, told across processes within seconds
        anna_socket.close()
    finally:
        scaled.stop(children)


async def test_a_thousand_players_at_250_tables_all_stay_present() -> None:
    """The embedded cache once kept 300 entries: past 75 full tables the oldest
    players' heartbeats were dropped, and they flickered "offline" to the others."""
    for user_id in range(1000):
        await presence.arrive(table_id=user_id // 4, user_id=user_id)
    for table_id in (0, 125, 249):
        players = range(table_id * 4, table_id * 4 + 4)
        assert presence.present_users(table_id=table_id, user_ids=players) == set(players)


async def test_a_versions_viewers_share_one_presence_read_and_an_arrival_shows_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each viewer's frame asks who is present; with the embedded cache, the process
    reads it once for them all, and reads again as soon as someone comes or goes.
    With Redis, other processes change it too: each viewer reads it."""
    local = cache_is_local()
    reads = []
    plain_get_many = cache.get_many
    monkeypatch.setattr(cache, "get_many", lambda keys: reads.append(keys) or plain_get_many(keys))
    await presence.arrive(table_id=7, user_id=42)
    for _viewer in range(4):
        assert presence.present_users(table_id=7, user_ids=[42, 43]) == {42}
    assert len(reads) == (1 if local else 4)
    await presence.arrive(table_id=7, user_id=43)
    assert presence.present_users(table_id=7, user_ids=[42, 43]) == {42, 43}
    await presence.leave(table_id=7, user_id=42)
    assert presence.present_users(table_id=7, user_ids=[42, 43]) == {43}
    assert len(reads) == (3 if local else 6)


async def test_a_heartbeat_of_a_present_player_does_not_make_the_table_read_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    reads = []
    plain_get_many = cache.get_many
    monkeypatch.setattr(cache, "get_many", lambda keys: reads.append(keys) or plain_get_many(keys))
    await presence.arrive(table_id=7, user_id=42)
    assert presence.present_users(table_id=7, user_ids=[42]) == {42}
    assert not await presence.beat(table_id=7, user_id=42)  # still present: nothing new
    assert presence.present_users(table_id=7, user_ids=[42]) == {42}
    assert len(reads) == (1 if cache_is_local() else 2)  # Redis: always read
