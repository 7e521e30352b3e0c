"""Websockets under a clumsy or hostile client: unreadable frames, missing versions,
floods, too many sockets, and a bug in a command — each gets a message, changes
nothing, and leaves the connection usable (or closes it cleanly)."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from accounts.models import User
from domino_site.asgi import application
from games import services
from games.engine import PRESETS
from games.models import Move, Table
from games.records import load_match
from realtime import constants, limits, slots
from realtime.consumers import TOO_MANY_CONNECTIONS
from tests.cache_clock import Later, cache_later
from tests.fixtures import PAIRS
from tests.games.test_consumers import (
    TILE_TEXT,
    close_connections_after,
    commands,
    connect,
    current_version,
    frame_at_least,
    new_friends_table,
    session_cookie,
)

__all__ = ["cache_later", "close_connections_after"]  # fixtures (one shared with test_consumers)
pytestmark = pytest.mark.django_db(transaction=True)

UNREADABLE = "could not be read"


NO_VERSION = "did not say which state of the table"


@sync_to_async
def started_duel() -> tuple[Table, dict[int, User]]:
    """anna and bruno in a duello that has started; returns the table and who sits where."""
    anna = User.objects.create_user("anna", password="pw-anna-123")
    bruno = User.objects.create_user("bruno", password="pw-bruno-123")
    table = services.table_create(host=anna, mode=Table.Mode.FRIENDS, rules=PRESETS["duello"])
    services.table_join(table_id=table.pk, user=bruno, version=0)
    services.table_start(table_id=table.pk, by=anna, version=1)
    table.refresh_from_db()
    return table, {0: anna, 1: bruno}


@sync_to_async
def turn_of(table: Table) -> int:
    return load_match(Table.objects.get(pk=table.pk)).round.turn


@sync_to_async
def hand_of(table: Table, seat: int) -> list[str]:
    return [str(t) for t in load_match(Table.objects.get(pk=table.pk)).round.hands[seat]]


@sync_to_async
def moves_stored(table: Table) -> int:
    return Move.objects.filter(hand__table_id=table.pk).count()


async def message(comm: WebsocketCommunicator) -> str:
    """The next message frame, past any view frame (a stale command gets the latest view first)."""
    while True:
        text = await comm.receive_from(timeout=5)
        if 'id="table-head"' not in text:
            return text


async def still_answers(comm: WebsocketCommunicator, table: Table) -> None:
    """The socket reads and answers a valid command (one that changes nothing)."""
    version = await current_version(table.pk)
    await comm.send_json_to({"action": "next", "version": version})
    assert "still being played" in await comm.receive_from(timeout=5)


async def player_to_move() -> tuple[Table, WebsocketCommunicator, dict[str, Any]]:
    """A started duel, the socket of the player whose turn it is, and a legal move command."""
    table, people = await started_duel()
    comm = await connect(f"/ws/table/{table.code}/", people[await turn_of(table)])
    frame = await frame_at_least(comm, table.version)
    move = next(c for c in commands(frame) if c["action"] == "move")
    return table, comm, move


DEEP = "[" * 1000  # the 1,000-byte frame of the report
MALFORMED = {
    "deeply nested list": DEEP,
    "deeply nested object": '{"a":' * 600,
    "a list": '[{"action": "next", "version": 2}]',
    "a string": '"next"',
    "a number": "2",
    "null": "null",
    "not JSON": "next please",
    "blank": "   ",
    "NaN": '{"action": "next", "version": NaN}',
    "Infinity": '{"action": "next", "version": Infinity}',
    "a repeated key": '{"action": "next", "version": 2, "version": 2}',
    "an oversized frame": json.dumps({"action": "next", "version": 2, "pad": "x" * 5000}),
}


@pytest.mark.parametrize("frame", MALFORMED.values(), ids=MALFORMED.keys())
async def test_a_deeply_nested_or_malformed_frame_gets_could_not_be_read_and_the_socket_lives(
    frame: str,
) -> None:
    table, people = await started_duel()
    comm = await connect(f"/ws/table/{table.code}/", people[0])
    await frame_at_least(comm, table.version)
    await comm.send_to(text_data=frame)
    assert UNREADABLE in await comm.receive_from(timeout=5)
    await still_answers(comm, table)
    assert await current_version(table.pk) == table.version
    await comm.disconnect()


@pytest.mark.parametrize("data", [b'{"action": "next", "version": 2}', b"\xff\xfe\xfd"])
async def test_a_binary_or_invalid_utf8_frame_gets_could_not_be_read(data: bytes) -> None:
    table, people = await started_duel()
    comm = await connect(f"/ws/table/{table.code}/", people[0])
    await frame_at_least(comm, table.version)
    await comm.send_to(bytes_data=data)
    assert UNREADABLE in await comm.receive_from(timeout=5)
    await still_answers(comm, table)
    await comm.disconnect()


async def test_a_lone_surrogate_in_a_username_gets_a_message_not_a_server_error() -> None:
    table, anna, _bruno, _carla = await new_friends_table(PRESETS["duello"])
    comm = await connect(f"/ws/table/{table.code}/", anna)
    await frame_at_least(comm, 0)
    await comm.send_to(text_data='{"action": "invite", "username": "\\ud800", "version": 0}')
    assert "Write the username" in await comm.receive_from(timeout=5)
    await comm.send_json_to({"action": "invite", "username": "nobody", "version": 0})
    assert "No player is called" in await comm.receive_from(timeout=5)
    await comm.disconnect()


async def test_a_move_sent_twice_without_a_version_stores_nothing() -> None:
    table, comm, move = await player_to_move()
    del move["version"]
    for _ in range(2):
        await comm.send_json_to(move)
        assert NO_VERSION in await comm.receive_from(timeout=5)
    assert await moves_stored(table) == 0
    assert await current_version(table.pk) == table.version
    await comm.disconnect()


BAD_VERSIONS = {
    "1x": lambda v: f"{v}x",
    "digits in a string": str,
    "a float": lambda v: v + 0.5,
    "a whole float": float,
    "true": lambda v: True,
    "null": lambda v: None,
    "a list": lambda v: [v],
    "an object": lambda v: {"version": v},
    "negative": lambda v: -1,
    "huge": lambda v: 10**30,
}


@pytest.mark.parametrize("bad", BAD_VERSIONS.values(), ids=BAD_VERSIONS.keys())
async def test_a_malformed_version_is_refused_and_no_move_is_stored(bad: Any) -> None:
    table, comm, move = await player_to_move()
    await comm.send_json_to({**move, "version": bad(table.version)})
    assert NO_VERSION in await comm.receive_from(timeout=5)
    assert await moves_stored(table) == 0
    assert await current_version(table.pk) == table.version
    await comm.send_json_to(move)  # the same move with its version goes through
    await frame_at_least(comm, table.version + 1)
    assert await moves_stored(table) == 1
    await comm.disconnect()


@sync_to_async
def waiting_pairs_table() -> tuple[Table, User, User]:
    """A 4-seat friends table: anna hosts in seat 0, bruno sits in seat 1, two seats free."""
    anna = User.objects.create_user("anna", password="pw-anna-123")
    bruno = User.objects.create_user("bruno", password="pw-bruno-123")
    User.objects.create_user("carla", password="pw-carla-123")
    table = services.table_create(host=anna, mode=Table.Mode.FRIENDS, rules=PAIRS)
    services.table_join(table_id=table.pk, user=bruno, version=0)
    table.refresh_from_db()
    return table, anna, bruno


# Each would change the table if it carried the right version.
TABLE_COMMANDS = {
    "join": ("dora", {"action": "join", "seat": 2}),
    "leave": ("bruno", {"action": "leave"}),
    "start": ("anna", {"action": "start"}),  # refused anyway (free seats): nothing to lose
    "fill": ("anna", {"action": "fill", "level": "easy"}),
    "bot": ("anna", {"action": "bot", "seat": 2, "level": "hard"}),
    "swap": ("anna", {"action": "swap", "a": 1, "b": 2}),
    "invite": ("anna", {"action": "invite", "username": "carla"}),
    "cancel": ("anna", {"action": "cancel"}),
}


@pytest.mark.parametrize("who, command", TABLE_COMMANDS.values(), ids=TABLE_COMMANDS.keys())
@pytest.mark.parametrize("version", ["missing", "stale"])
async def test_every_table_command_without_a_current_version_is_refused_and_changes_nothing(
    who: str, command: dict[str, Any], version: str
) -> None:
    table, anna, bruno = await waiting_pairs_table()
    people = {"anna": anna, "bruno": bruno}
    if who not in people:
        people[who] = await sync_to_async(User.objects.create_user)(who, password="pw-dora-123")
    comm = await connect(f"/ws/table/{table.code}/", people[who])
    await frame_at_least(comm, table.version)
    sent = dict(command) if version == "missing" else {**command, "version": table.version - 1}
    await comm.send_json_to(sent)
    reply = await message(comm)
    assert (NO_VERSION if version == "missing" else "The table has changed") in reply
    assert await current_version(table.pk) == table.version
    if command["action"] != "start":
        await comm.send_json_to({**command, "version": table.version})
        await frame_at_least(comm, table.version + 1)  # with its version it goes through
    await comm.disconnect()


@sync_to_async
def status_of(table: Table) -> str:
    return Table.objects.get(pk=table.pk).status


HOST_COMMANDS = {"end": {"action": "end"}, "standin": {"action": "standin", "seat": 1}}


@pytest.mark.parametrize("command", HOST_COMMANDS.values(), ids=HOST_COMMANDS.keys())
async def test_ending_a_game_or_handing_a_seat_to_the_computer_needs_the_current_version(
    command: dict[str, Any],
) -> None:
    table, people = await started_duel()
    comm = await connect(f"/ws/table/{table.code}/", people[0])  # anna hosts
    await frame_at_least(comm, table.version)
    await comm.send_json_to(command)
    assert NO_VERSION in await message(comm)
    await comm.send_json_to({**command, "version": table.version - 1})
    assert "The table has changed" in await message(comm)
    assert await current_version(table.pk) == table.version
    await comm.send_json_to({**command, "version": table.version})
    await frame_at_least(comm, table.version + 1)
    if command["action"] == "end":
        assert await status_of(table) == Table.Status.ABANDONED
    await comm.disconnect()


async def test_im_back_is_sent_to_seat_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table, comm, _move = await player_to_move()
    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(services, "seat_back", lambda **kw: calls.append(kw), raising=False)
    await comm.send_json_to({"action": "back"})
    assert NO_VERSION in await comm.receive_from(timeout=5)
    await comm.send_json_to({"action": "back", "version": table.version})
    await still_answers(comm, table)
    assert [c["table_id"] for c in calls] == [table.pk]
    await comm.disconnect()


async def test_a_flood_of_commands_gets_slow_down_then_the_socket_closes_4429(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(constants, "WS_COMMANDS_PER_SECOND", 0.001)  # no refill during the test
    table, people = await started_duel()
    comm = await connect(f"/ws/table/{table.code}/", people[0])
    await frame_at_least(comm, table.version)
    for _ in range(constants.WS_COMMAND_BURST):
        await comm.send_to(text_data="?")
        assert UNREADABLE in await comm.receive_from(timeout=5)
    await comm.send_to(text_data="?")
    assert "Slow down" in await comm.receive_from(timeout=5)
    for _ in range(constants.WS_FLOOD_CLOSE_AFTER - 2):
        await comm.send_to(text_data="?")
    assert await comm.receive_nothing(timeout=0.3)  # refused silently: one "slow down" is enough
    await comm.send_to(text_data="?")
    assert await comm.receive_output(timeout=5) == {"type": "websocket.close", "code": 4429}
    await comm.disconnect()


def test_the_bucket_allows_a_burst_then_a_steady_rate() -> None:
    now = [0.0]
    bucket = limits.TokenBucket(burst=10, rate=5, clock=lambda: now[0])
    assert all(bucket.take() for _ in range(10)) and not bucket.take()
    now[0] += 0.2  # one more token
    assert bucket.take() and not bucket.take()
    now[0] += 60  # a quiet minute refills the burst, no more
    assert sum(bucket.take() for _ in range(20)) == 10


async def _socket_for(table: Table, cookie: bytes) -> WebsocketCommunicator:
    headers = [(b"origin", b"http://localhost"), (b"cookie", cookie)]
    return WebsocketCommunicator(application, f"/ws/table/{table.code}/", headers=headers)


async def test_a_session_opens_at_most_twelve_sockets_and_a_closed_one_frees_its_slot() -> None:
    table, anna, _bruno, _carla = await new_friends_table(PRESETS["duello"])
    cookie = await sync_to_async(session_cookie)(anna)
    cap = constants.WS_CONNECTIONS_PER_SESSION
    open_ones = []
    for _ in range(cap):
        comm = await _socket_for(table, cookie)
        assert (await comm.connect())[0]
        open_ones.append(comm)
    refused = await _socket_for(table, cookie)
    assert await refused.connect() == (False, 4429)
    other_session = await _socket_for(table, await sync_to_async(session_cookie)(anna))
    assert (await other_session.connect())[0]  # another browser of anna's still gets in
    await open_ones.pop().disconnect()
    again = await _socket_for(table, cookie)
    assert (await again.connect())[0]
    for comm in (*open_ones, other_session, again):
        await comm.disconnect()


async def _notifications(cookie: bytes) -> WebsocketCommunicator:
    headers = [(b"origin", b"http://localhost"), (b"cookie", cookie)]
    return WebsocketCommunicator(application, "/ws/notify/", headers=headers)


async def test_a_session_whose_sockets_all_leaked_gets_in_again_once_their_slots_expire(
    monkeypatch: pytest.MonkeyPatch, cache_later: Later, caplog: pytest.LogCaptureFixture
) -> None:
    """Twelve sockets closed while the cache could not take their slots back (or in a
    process that died): their slots expire, so the player is not locked out for long."""
    anna = await sync_to_async(User.objects.create_user)("anna", password="pw-anna-123")
    cookie = await sync_to_async(session_cookie)(anna)

    def cache_away(self: slots.Claim) -> None:
        raise ConnectionError("the cache is restarting")

    with monkeypatch.context() as patched:
        patched.setattr(slots.Claim, "release", cache_away)
        for _ in range(constants.WS_CONNECTIONS_PER_SESSION):
            comm = await _notifications(cookie)
            assert (await comm.connect())[0]
            await comm.disconnect()  # its slot not given back
    assert "giving back the socket's slot failed" in caplog.text
    refused = await _notifications(cookie)
    assert await refused.connect() == (False, TOO_MANY_CONNECTIONS)

    await cache_later(constants.WS_SLOT_TTL + 1)
    again = await _notifications(cookie)
    assert (await again.connect())[0]
    await again.disconnect()


async def test_an_open_socket_keeps_its_slot_past_the_expiry(
    monkeypatch: pytest.MonkeyPatch, cache_later: Later
) -> None:
    """Its heartbeat refreshes the slot: a long-open tab never frees a place for a 13th."""
    monkeypatch.setattr(constants, "WS_HEARTBEAT_SECONDS", 0.01)
    anna = await sync_to_async(User.objects.create_user)("anna", password="pw-anna-123")
    cookie = await sync_to_async(session_cookie)(anna)
    open_ones = []
    for _ in range(constants.WS_CONNECTIONS_PER_SESSION):
        comm = await _notifications(cookie)
        assert (await comm.connect())[0]
        open_ones.append(comm)
    for _ in range(3):  # more than the expiry in all, with heartbeats in between
        await cache_later(constants.WS_SLOT_TTL * 0.6)
    refused = await _notifications(cookie)
    assert await refused.connect() == (False, TOO_MANY_CONNECTIONS)
    for comm in open_ones:
        await comm.disconnect()


def test_visitors_without_a_session_are_counted_by_address_and_the_session_key_is_hashed() -> None:
    class Session:
        session_key = "s3cr3t-session-key"

    class Person:
        is_authenticated = True

    key, cap = limits.connection_key({"user": Person(), "session": Session()}) or ("", 0)
    assert "s3cr3t" not in key and cap == constants.WS_CONNECTIONS_PER_SESSION
    anonymous = {"user": None, "session": Session(), "client": ["203.0.113.9", 5000]}
    assert limits.connection_key(anonymous) == (
        "ws-open:a:203.0.113.9",
        constants.WS_CONNECTIONS_PER_ADDRESS,
    )


async def test_an_unexpected_error_in_a_command_is_logged_once_without_secrets_socket_open(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    table, people = await started_duel()
    hand = await hand_of(table, 0)

    def broken(**kwargs: Any) -> None:
        raise RuntimeError(f"boom while holding {' '.join(hand)}")

    monkeypatch.setattr(services, "hand_next", broken)
    cookie = await sync_to_async(session_cookie)(people[0])
    comm = await _socket_for(table, cookie + b"; django_language=en")
    assert (await comm.connect())[0]
    await frame_at_least(comm, table.version)
    with caplog.at_level(logging.ERROR, logger="games"):
        await comm.send_json_to({"action": "next", "version": table.version})
        assert "Something went wrong" in await comm.receive_from(timeout=5)
    records = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(records) == 1 and records[0].name == "games"
    logged = caplog.text
    assert "next" in logged and f"table {table.pk}" in logged and "RuntimeError" in logged
    session_key = cookie.decode().split("=", 1)[1]
    assert session_key not in logged and "sessionid" not in logged
    assert not TILE_TEXT.search(logged)
    await comm.send_json_to({"action": "move", "move": "9|9L", "version": table.version})
    assert await comm.receive_from(timeout=5)  # still open, still answering
    await comm.disconnect()
