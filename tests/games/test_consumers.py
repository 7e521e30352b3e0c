"""Websockets: two people play a whole game through them, and nobody sees a hidden tile."""

from __future__ import annotations

import asyncio
import html
import json
import random
import re
from collections.abc import AsyncIterator
from dataclasses import replace
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connections
from django.test import Client
from django.utils import translation

from accounts.models import User
from domino_site.asgi import application
from games import services
from games.engine import PRESETS, Tile
from games.engine.deals import commitment
from games.live import fragments
from games.models import Hand, Move, Table
from games.records import load_match
from games.selectors import table_view
from realtime import constants
from tests.fixtures import Screen, tasks_started

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture(autouse=True)
async def close_connections_after() -> AsyncIterator[None]:
    """The consumers' database thread keeps a connection; close it so the test
    database can be dropped (PostgreSQL refuses while a session is open)."""
    yield
    await sync_to_async(connections.close_all)()


TILE_TEXT = re.compile(r"\b([0-6])\|([0-6])")
BUTTON_VALS = re.compile(r"hx-vals='([^']*)'")
VERSION = re.compile(r'data-version="(\d+)"')


def session_cookie(user: User) -> bytes:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}".encode()


async def connect(path: str, user: User | None) -> WebsocketCommunicator:
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
    cookie = b"django_language=en"  # assertions below read English
    if user is not None:
        cookie += b"; " + await sync_to_async(session_cookie)(user)
    headers.append((b"cookie", cookie))
    communicator = WebsocketCommunicator(application, path, headers=headers)
    communicator.screen = Screen()  # type: ignore[attr-defined]
    connected, _ = await communicator.connect()
    assert connected
    return communicator


async def frame_at_least(comm: WebsocketCommunicator, version: int) -> str:
    """Read frames until one shows ``version`` or later; return the whole screen
    then (a frame carries only the regions that changed)."""
    if not hasattr(comm, "screen"):
        comm.screen = Screen()  # type: ignore[attr-defined]
    screen: Screen = comm.screen  # type: ignore[attr-defined]
    shown = VERSION.search(screen.regions.get("table-head", ""))
    if shown and int(shown.group(1)) >= version:
        return screen.html
    while True:
        text = await comm.receive_from(timeout=5)
        screen.apply(text)
        found = VERSION.search(text)
        if found and int(found.group(1)) >= version:
            return screen.html


def commands(frame: str) -> list[dict[str, Any]]:
    """The commands the frame's buttons would send."""
    return [json.loads(html.unescape(v)) for v in BUTTON_VALS.findall(frame)]


def tiles_in(frame: str) -> set[Tile]:
    return {Tile(int(a), int(b)) for a, b in TILE_TEXT.findall(frame)}


@sync_to_async
def hidden_from(table_id: int, seat: int | None) -> set[Tile]:
    """Tiles the seat must not see right now: other hands and the boneyard."""
    r = load_match(Table.objects.get(pk=table_id)).round
    if r.over:
        return set()
    return {t for s, h in enumerate(r.hands) if s != seat for t in h} | set(r.boneyard)


@sync_to_async
def current_version(table_id: int) -> int:
    return Table.objects.get(pk=table_id).version


@sync_to_async
def new_friends_table(rules: Any) -> tuple[Table, User, User, User]:
    anna = User.objects.create_user("anna", password="pw-anna-123")
    bruno = User.objects.create_user("bruno", password="pw-bruno-123")
    carla = User.objects.create_user("carla", password="pw-carla-123")
    table = services.table_create(host=anna, mode=Table.Mode.FRIENDS, rules=rules)
    return table, anna, bruno, carla


async def started_duello() -> tuple[Table, User, User, User]:
    """anna and bruno at a duello just started (version 2); carla free to watch."""
    table, anna, bruno, carla = await new_friends_table(PRESETS["duello"])
    await sync_to_async(services.table_join)(table_id=table.pk, user=bruno, version=0)
    await sync_to_async(services.table_start)(table_id=table.pk, by=anna, version=1)
    return table, anna, bruno, carla


@sync_to_async
def play_the_first_legal_move(table: Table, players: tuple[User, User], version: int) -> bool:
    """The seat to play plays its first legal move; False when the hand is over."""
    match = load_match(Table.objects.get(pk=table.pk))
    if match.round.over:
        return False
    mover = players[match.round.turn]
    move = str(match.round.legal_moves()[0])
    services.move_submit(table_id=table.pk, user=mover, move=move, version=version)
    return True


async def test_two_players_play_a_whole_game_through_the_websocket_and_nothing_leaks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(constants, "WS_COMMANDS_PER_SECOND", 1000.0)  # faster than any person
    rules = replace(PRESETS["duello"], target=50)
    table, anna, bruno, carla = await new_friends_table(rules)
    path = f"/ws/table/{table.code}/"
    players = {0: await connect(path, anna), 1: await connect(path, bruno)}
    watcher = await connect(path, carla)
    frames = {seat: await frame_at_least(c, 0) for seat, c in players.items()}
    await frame_at_least(watcher, 0)

    # bruno takes the free seat through the share link, anna starts: all by websocket
    await players[1].send_json_to({"action": "join", "version": 0})
    await frame_at_least(players[0], 1)  # anna sees bruno sit, then starts
    await players[0].send_json_to({"action": "start", "version": 1})
    for comm in (*players.values(), watcher):
        await frame_at_least(comm, 2)  # started
    rng = random.Random(7)
    sent = 0
    while True:
        version = await current_version(table.pk)
        for seat, comm in players.items():
            frames[seat] = await frame_at_least(comm, version)
            assert not tiles_in(frames[seat]) & await hidden_from(table.pk, seat)
        watched = await frame_at_least(watcher, version)
        assert not tiles_in(watched) & await hidden_from(table.pk, None)
        if "match-result" in frames[0]:
            break
        options = {
            seat: [c for c in commands(f) if c["action"] in ("move", "next")]
            for seat, f in frames.items()
        }
        seat = next(s for s, cmds in options.items() if cmds)
        assert not options[1 - seat] or options[seat][0]["action"] == "next"
        await players[seat].send_json_to(rng.choice(options[seat]))
        sent += 1
        assert sent < 2000
        while await current_version(table.pk) == version:  # one command in flight at a time
            await asyncio.sleep(0.005)
    for comm in (*players.values(), watcher):
        await comm.disconnect()

    finished = await sync_to_async(Table.objects.get)(pk=table.pk)
    assert finished.status == Table.Status.FINISHED
    match = await sync_to_async(load_match)(finished)
    assert max(match.scores) >= 50 and finished.winner_seats == match.winners
    assert await sync_to_async(Move.objects.filter(hand__table=finished).count)() > 0


async def test_a_watchers_frames_start_no_task_to_wait_for_the_next_message() -> None:
    """Channels' consumers started a task per message to wait for the next one (a third
    of what the collector walked under load); the site's take theirs in turn."""
    table, anna, bruno, carla = await started_duello()
    watcher = await connect(f"/ws/table/{table.code}/", carla)
    await frame_at_least(watcher, 2)
    with tasks_started() as started:
        for _ in range(4):
            version = await current_version(table.pk)
            assert await play_the_first_legal_move(table, (anna, bruno), version)
            await frame_at_least(watcher, version + 1)  # the watcher saw the move
    # (channels_redis's receive starts a task of its own inside: the layer's, not ours)
    assert not [name for name in started if name.endswith("ChannelLayer.receive")]
    await watcher.disconnect()


async def test_a_refused_command_gets_a_message_and_changes_nothing() -> None:
    table, anna, _bruno, _carla = await started_duello()
    comm = await connect(f"/ws/table/{table.code}/", anna)
    await frame_at_least(comm, 0)
    version = await current_version(table.pk)
    await comm.send_to(text_data="not json")
    assert "could not be read" in await comm.receive_from(timeout=5)
    await comm.send_json_to({"action": "teleport", "version": version})
    assert "Unknown command" in await comm.receive_from(timeout=5)
    await comm.send_json_to({"action": "move", "move": "9|9L", "version": version})
    reply = await comm.receive_from(timeout=5)
    assert "not your turn" in reply or "not a move" in reply
    assert await current_version(table.pk) == version
    await comm.disconnect()


async def test_a_visitor_without_a_session_can_watch_but_not_act() -> None:
    table, *_people = await new_friends_table(PRESETS["duello"])
    comm = await connect(f"/ws/table/{table.code}/", None)
    frame = await frame_at_least(comm, 0)
    assert "Waiting for players" in frame
    await comm.send_json_to({"action": "join", "version": 0})
    assert "Reload the page" in await comm.receive_from(timeout=5)
    await comm.disconnect()


async def test_an_unknown_table_closes_the_socket() -> None:
    communicator = WebsocketCommunicator(
        application, "/ws/table/nope/", headers=[(b"origin", b"http://localhost")]
    )  # no such table: refused before any frame
    connected, _ = await communicator.connect()
    assert not connected


async def test_the_invitee_is_told_in_real_time_on_any_open_page() -> None:
    table, anna, bruno, _carla = await new_friends_table(PRESETS["duello"])
    notify = await connect("/ws/notify/", bruno)
    table_socket = await connect(f"/ws/table/{table.code}/", anna)
    await frame_at_least(table_socket, 0)
    await table_socket.send_json_to({"action": "invite", "username": "Bruno", "version": 0})
    toast = await notify.receive_from(timeout=5)
    assert "anna invites you to a table." in toast and 'id="invite-badge"' in toast
    assert "Invitation sent to bruno" in await table_socket.receive_from(timeout=5)
    await notify.disconnect()
    await table_socket.disconnect()


async def test_frames_speak_the_players_chosen_language() -> None:
    table, anna, _bruno, _carla = await new_friends_table(PRESETS["duello"])
    cookie = await sync_to_async(session_cookie)(anna)
    headers = [
        (b"origin", b"http://localhost"),
        (b"cookie", cookie + b"; django_language=it"),
    ]
    comm = WebsocketCommunicator(application, f"/ws/table/{table.code}/", headers=headers)
    assert (await comm.connect())[0]
    frame = await frame_at_least(comm, 0)
    assert "In attesa dei giocatori" in frame
    await comm.disconnect()


async def test_players_of_two_languages_at_one_table_each_read_their_own() -> None:
    table, anna, bruno, _carla = await started_duello()
    italian = WebsocketCommunicator(
        application,
        f"/ws/table/{table.code}/",
        headers=[
            (b"origin", b"http://localhost"),
            (b"cookie", await sync_to_async(session_cookie)(anna) + b"; django_language=it"),
        ],
    )
    assert (await italian.connect())[0]
    english = await connect(f"/ws/table/{table.code}/", bruno)
    for version in (2, 3, 4):  # a frame built with each language active in turn
        italian_screen = await frame_at_least(italian, version)
        english_screen = await frame_at_least(english, version)
        if version > 2:  # the line's open ends, said in the board's words
            assert "estremità" in italian_screen.lower() and " ends: " not in italian_screen
            assert " ends: " in english_screen and "estremità" not in english_screen.lower()
        assert await play_the_first_legal_move(table, (anna, bruno), version)
    await italian.disconnect()
    await english.disconnect()


async def test_a_frame_carries_only_the_regions_that_changed() -> None:
    table, anna, bruno, carla = await started_duello()
    watcher = await connect(f"/ws/table/{table.code}/", carla)
    first = await watcher.receive_from(timeout=5)
    assert 'id="hand"' in first and 'id="lobby"' in first  # on connect: the whole table
    assert await play_the_first_legal_move(table, (anna, bruno), 2)
    frame = await watcher.receive_from(timeout=5)
    assert 'data-version="3"' in frame and 'id="board"' in frame  # what changed
    assert 'id="hand"' not in frame and 'id="lobby"' not in frame  # what did not
    await watcher.disconnect()


@sync_to_async
def log_on_a_new_page(table_id: int, user: User) -> str:
    """The log region a page opened now would show ``user`` (in English)."""
    with translation.override("en"):
        tv = table_view(table=table_id, user=user)
        return fragments.render("games/_log.html", {"tv": tv})


async def test_a_move_sends_its_new_log_line_on_top_of_the_log_shown() -> None:
    table, anna, bruno, carla = await started_duello()
    watcher = await connect(f"/ws/table/{table.code}/", carla)
    await frame_at_least(watcher, 2)
    added = whole = 0
    for version in range(2, 60):  # until a few lines came alone (a deal may draw a lot)
        if added >= 3 or not await play_the_first_legal_move(table, (anna, bruno), version):
            break
        frame = await watcher.receive_from(timeout=5)
        screen: Screen = watcher.screen  # type: ignore[attr-defined]
        screen.apply(frame)
        if 'id="log"' in frame:
            whole += 1  # the first move (the log said "no moves yet"), or a draw counted in
        else:
            assert frame.count('hx-swap-oob="afterbegin:#log-events"') == 1
            new_lines = frame.split('"afterbegin:#log-events">')[1].split("</ol>")[0]
            assert new_lines.count("</li>") == 1  # the move's line alone, not the hand's
            added += 1
        assert screen.regions["log"] == await log_on_a_new_page(table.pk, carla)
    assert whole >= 1 and added >= 3
    await watcher.disconnect()


async def test_an_error_note_is_cleared_by_the_next_move_shown() -> None:
    table, anna, bruno, _carla = await started_duello()
    path = f"/ws/table/{table.code}/"
    screens = {anna: await connect(path, anna), bruno: await connect(path, bruno)}
    for communicator in screens.values():
        await frame_at_least(communicator, 2)
    match = await sync_to_async(load_match)(table)
    waiting = (anna, bruno)[1 - match.round.turn]
    await screens[waiting].send_json_to({"action": "move", "move": "draw", "version": 2})
    screen: Screen = screens[waiting].screen  # type: ignore[attr-defined]
    while '<p class="flash' not in screen.regions["flash"]:  # after any frame already on its way
        screen.apply(await screens[waiting].receive_from(timeout=5))
    assert "not your turn" in screen.regions["flash"]
    await play_the_first_legal_move(table, (anna, bruno), 2)
    await frame_at_least(screens[waiting], 3)
    assert '<p class="flash' not in screen.regions["flash"]  # the next view cleared it
    for communicator in screens.values():
        await communicator.disconnect()


# Deals anyone can verify, through the websocket: the players' sockets add their seeds
# when a commitment is shown, as the page's script does; every frame shows the hand's
# commitment from its deal on and its seed only once it is over, and no frame — a
# player's or a spectator's — ever carries a seed still secret (the hand's being played,
# or the next hand's).
NEXT_COMMITMENT = re.compile(r'data-next-commitment="([0-9a-f]{64})"')


@sync_to_async
def secrets_now(table_id: int) -> tuple[set[str], str, str, bool, int]:
    """The seeds no frame may show now; the current hand's commitment and seed; whether
    it is over; how many moves it has."""
    table = Table.objects.get(pk=table_id)
    hidden = {table.deal_seed}  # the next hand's
    hand = Hand.objects.filter(table=table).order_by("-number").first()
    if hand is None:
        return hidden, "", "", False, 0
    if not hand.over:
        hidden.add(hand.seed)
    shown = commitment(table.code, hand.number + 1, hand.seed)
    return hidden, shown, hand.seed, hand.over, hand.moves.count()


@sync_to_async
def hands_of(table_id: int) -> list[Hand]:
    return list(Hand.objects.filter(table_id=table_id).order_by("number"))


async def test_commitments_before_the_first_move_seeds_only_after_the_end_and_players_seeds_used(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(constants, "WS_COMMANDS_PER_SECOND", 1000.0)
    table, anna, bruno, carla = await new_friends_table(replace(PRESETS["duello"], target=50))
    path = f"/ws/table/{table.code}/"
    players = {0: await connect(path, anna), 1: await connect(path, bruno)}
    watcher = await connect(path, carla)
    await players[1].send_json_to({"action": "join", "version": 0})
    await frame_at_least(players[0], 1)
    seeded: dict[int, set[str]] = {0: set(), 1: set()}
    sent_seeds: dict[int, list[str]] = {0: [], 1: []}
    rng = random.Random(3)

    async def add_seeds(seat: int, frame: str) -> None:
        """What table.js does: a seed of this browser's for a commitment it sees."""
        for shown in NEXT_COMMITMENT.findall(frame):
            if shown not in seeded[seat]:
                seeded[seat].add(shown)
                seed = f"{rng.getrandbits(128):032x}"
                sent_seeds[seat].append(seed)
                await players[seat].send_json_to(
                    {"action": "seed", "commitment": shown, "seed": seed}
                )

    for seat in (0, 1):
        await add_seeds(seat, await frame_at_least(players[seat], 1))
    await players[0].send_json_to({"action": "start", "version": 1})
    for comm in (*players.values(), watcher):
        await frame_at_least(comm, 2)  # started
    commitments_seen_before_a_move = 0
    seeds_seen_after_the_end = 0
    sent = 0
    while True:
        version = await current_version(table.pk)
        hidden, shown, seed, over, moves = await secrets_now(table.pk)
        frames = {seat: await frame_at_least(c, version) for seat, c in players.items()}
        watched = await frame_at_least(watcher, version)
        assert NEXT_COMMITMENT.search(watched) is None  # nobody seated: no seed to add
        for frame in (*frames.values(), watched):
            assert not any(secret in frame for secret in hidden)
            if shown and not moves:
                assert f'data-commitment="{shown}"' in frame
                commitments_seen_before_a_move += 1
            if over:
                assert f'data-seed="{seed}"' in frame
                seeds_seen_after_the_end += 1
        if "match-result" in frames[0]:
            break
        for seat, frame in frames.items():
            await add_seeds(seat, frame)
        options = {
            seat: [c for c in commands(f) if c["action"] in ("move", "next")]
            for seat, f in frames.items()
        }
        seat = next(s for s, cmds in options.items() if cmds)
        await players[seat].send_json_to(rng.choice(options[seat]))
        sent += 1
        assert sent < 2000
        while await current_version(table.pk) == version:
            await asyncio.sleep(0.005)
    for comm in (*players.values(), watcher):
        await comm.disconnect()

    hands = await hands_of(table.pk)
    assert commitments_seen_before_a_move >= 3 * len(hands)  # both players and the watcher
    assert seeds_seen_after_the_end >= 3 * len(hands)
    for hand in hands:  # each hand mixed in the seed each player sent for it
        assert [seat for seat, _seed in hand.client_seeds] == [0, 1]
        for seat, seed in hand.client_seeds:
            assert seed in sent_seeds[seat]
