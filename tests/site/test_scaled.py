"""Several processes: two daphne processes on two ports, one PostgreSQL, one Redis,
one worker.  Two players connected to different processes play a whole game with
a bot; every move reaches the other player's connection, in order.  Sockets left
idle for half a minute stay open and still hear what changes."""

from __future__ import annotations

import html
import json
import os
import re
import time
import urllib.request
from dataclasses import replace

import pytest
from django.db import connection
from django.test import Client

from accounts.models import User
from domino_site import scaled
from games import services
from games.engine import PRESETS
from games.models import Move, Table
from games.records import load_match
from matchmaking.services import queue_join
from tests.fixtures import postgres_and_redis_only, version_of

pytestmark = [
    postgres_and_redis_only,
    pytest.mark.django_db(transaction=True),
]

VERSION = re.compile(r'data-version="(\d+)"')
BUTTON_VALS = re.compile(r"hx-vals='([^']*)'")


def session_cookie(user: User) -> str:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}; django_language=en"


def first_move(frame: str) -> dict[str, object] | None:
    for raw in BUTTON_VALS.findall(frame):
        vals = json.loads(html.unescape(raw))
        if vals.get("action") == "move":
            return vals  # type: ignore[no-any-return]
    return None


def test_two_players_on_two_processes_play_a_whole_game_with_a_bot(
    make_user: object,
) -> None:
    from websockets.sync.client import connect

    anna, bruno = make_user("anna_x"), make_user("bruno_x")  # type: ignore[operator]
    rules = replace(PRESETS["blocco"], players=3, hand_size=5)
    while True:  # a deal whose opening does not block it (3 in 1,000 do): the bot gets a turn
        table = services.table_create(host=anna, mode=Table.Mode.FRIENDS, rules=rules)
        services.table_join(table_id=table.pk, user=bruno, version=version_of(table))
        services.table_set_bot(
            table_id=table.pk, by=anna, seat_number=2, level="easy", version=version_of(table)
        )
        services.table_start(table_id=table.pk, by=anna, version=version_of(table))
        opened = load_match(table).round
        opened.play(opened.legal_moves()[0])  # the opening is forced
        if not opened.over:
            break
        services.table_end(table_id=table.pk, by=anna, version=version_of(table))

    env = dict(os.environ)
    env["DATABASE_URL"] = f"postgres://postgres@127.0.0.1:5432/{connection.settings_dict['NAME']}"
    env = scaled.scaled_env(env)
    port = scaled.free_ports(2)
    children = scaled.start(env, processes=2, port=port, host="127.0.0.1")
    try:
        for n in range(2):
            for _ in range(150):
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{port + n}/healthz", timeout=1)
                    break
                except OSError:
                    time.sleep(0.1)
        players = {
            name: connect(
                f"ws://127.0.0.1:{port + n}/ws/table/{table.code}/",
                additional_headers={"Origin": "http://127.0.0.1", "Cookie": session_cookie(user)},
            )
            for n, (name, user) in enumerate((("anna", anna), ("bruno", bruno)))
        }
        seen: dict[str, list[int]] = {"anna": [], "bruno": []}
        latest: dict[str, str] = {}
        sent: list[tuple[str, int]] = []
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            for name, ws in players.items():
                try:
                    frame = ws.recv(timeout=0.05)
                except TimeoutError:
                    continue
                assert isinstance(frame, str)
                found = VERSION.search(frame)
                if found is None:
                    continue  # a message, not the table
                seen[name].append(int(found.group(1)))
                latest[name] = frame
            if all("match-result" in latest.get(n, "") for n in players):
                break
            for name, ws in players.items():
                move = first_move(latest.get(name, ""))
                if move and (not sent or sent[-1] != (name, int(move["version"]))):  # type: ignore[call-overload]
                    ws.send(json.dumps(move))
                    sent.append((name, int(move["version"])))  # type: ignore[call-overload]
        else:
            pytest.fail(f"the game did not end: {seen}")
        for ws in players.values():
            ws.close()
    finally:
        scaled.stop(children)

    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    assert Move.objects.filter(hand__table=table, actor="bot").exists()
    for name, versions in seen.items():
        assert versions == sorted(versions), name  # in order
        assert versions[-1] == table.version, name  # up to the end
    for mover, version in sent:  # each player's move reached the other process's player
        other = "bruno" if mover == "anna" else "anna"
        assert any(v > version for v in seen[other]), (mover, version)


#: Long enough for channels_redis's blocking wait (5 s) to come back empty six times:
#: with redis-py 8's default 5 s socket timeout, every idle socket died well within it.
IDLE_SECONDS = 30


@pytest.mark.slow
def test_idle_sockets_on_two_processes_stay_open_for_half_a_minute_then_hear_news(
    make_user: object, settings: object
) -> None:
    """A table, a waiting screen and a notifications socket sit idle for 30 s (real time:
    the bug was Redis reads timing out), stay open, and then each hears what changed."""
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    settings.MATCHMAKING_FILL_SECONDS = 600  # type: ignore[attr-defined]  # no fill meanwhile
    anna, bruno, carla, dora, erin = (
        make_user(f"{name}_i")  # type: ignore[operator]
        for name in ("anna", "bruno", "carla", "dora", "erin")
    )
    # idle means idle: nobody's forced move is played for them meanwhile
    User.objects.filter(pk__in=[anna.pk, bruno.pk]).update(plays_forced_moves=False)
    duel = services.table_create(host=anna, mode=Table.Mode.FRIENDS, rules=PRESETS["duello"])
    services.table_join(table_id=duel.pk, user=bruno, version=version_of(duel))
    services.table_start(table_id=duel.pk, by=anna, version=version_of(duel))
    pairs = replace(PRESETS["domino"], players=4, teams=True, hand_size=7, target=100)
    queue_join(user=carla, rules=pairs)

    env = dict(os.environ)
    env["DATABASE_URL"] = f"postgres://postgres@127.0.0.1:5432/{connection.settings_dict['NAME']}"
    env["MATCHMAKING_FILL_SECONDS"] = "600"
    env = scaled.scaled_env(env)
    port = scaled.free_ports(2)
    children = scaled.start(env, processes=2, port=port, host="127.0.0.1")
    try:
        for n in range(2):
            for _ in range(150):
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{port + n}/healthz", timeout=1)
                    break
                except OSError:
                    time.sleep(0.1)

        def open_socket(n: int, path: str, user: User) -> object:
            return connect(
                f"ws://127.0.0.1:{port + n}{path}",
                additional_headers={"Origin": "http://127.0.0.1", "Cookie": session_cookie(user)},
            )

        table = f"/ws/table/{duel.code}/"
        sockets = {
            "anna": open_socket(0, table, anna),
            "bruno": open_socket(1, table, bruno),
            "carla": open_socket(1, "/ws/queue/", carla),
            "dora": open_socket(0, "/ws/notify/", dora),
        }
        moves: dict[str, dict[str, object]] = {}  # the move each player's hand offers

        def read(name: str, until: float) -> str | None:
            """The next frame before ``until`` (None if none came); fails if closed."""
            try:
                frame = sockets[name].recv(timeout=max(0.0, until - time.monotonic()))  # type: ignore[attr-defined]
            except TimeoutError:
                return None
            except ConnectionClosed as closed:
                pytest.fail(f"{name}'s socket closed while idle: {closed}")
            if (move := first_move(str(frame))) is not None:
                moves[name] = move
            return str(frame)

        idle_until = time.monotonic() + IDLE_SECONDS
        while time.monotonic() < idle_until:  # the first frames, then nothing to say
            for name in sockets:
                read(name, min(idle_until, time.monotonic() + 0.5))

        def hears(name: str, news: str) -> bool:
            deadline = time.monotonic() + 10
            while (frame := read(name, deadline)) is not None:
                if news in frame:
                    return True
            return False

        [(mover, move)] = moves.items()  # the player whose turn it is
        sockets[mover].send(json.dumps(move))  # type: ignore[attr-defined]
        other = "bruno" if mover == "anna" else "anna"
        assert hears(other, f'data-version="{int(move["version"]) + 1}"')  # type: ignore[call-overload]
        queue_join(user=erin, rules=pairs)
        assert hears("carla", "<strong>2</strong> players waiting")
        waiting = services.table_create(host=anna, mode=Table.Mode.FRIENDS, rules=pairs)
        services.table_invite(
            table_id=waiting.pk, by=anna, username=dora.username, version=version_of(waiting)
        )
        assert hears("dora", "invites you to a table")
        for ws in sockets.values():
            ws.close()  # type: ignore[attr-defined]
    finally:
        scaled.stop(children)
