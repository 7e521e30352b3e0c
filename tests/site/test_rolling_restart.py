"""A rolling restart under a running game (PostgreSQL + Redis, two daphne processes and
the worker, as deployed): each process in turn is stopped (SIGTERM, as systemd stops
it) and started again while the players move.  A stopping process finishes the
commands it took, answers them, and closes its sockets with 1012 ("service restart");
its players reconnect to the other process, as the proxy sends them, and play on.
Nothing is lost: every move taken was answered to its player (a move sent as its
process stops is taken and answered, or not taken at all), and each screen comes
back at the table's version."""

from __future__ import annotations

import json
import os
import re
import signal
import time
import urllib.request
from typing import Any

import pytest
from django.db import connection

from accounts.models import User
from domino_site import scaled
from games import services
from games.engine import PRESETS
from games.models import Move, Table
from realtime.constants import SERVICE_RESTART
from tests.fixtures import postgres_and_redis_only, version_of
from tests.site.test_scaled import first_move, session_cookie

pytestmark = [
    postgres_and_redis_only,
    pytest.mark.django_db(transaction=True),
]

VERSION = re.compile(r'data-version="(\d+)"')


def wait_until_serving(port: int) -> None:
    for _ in range(300):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1)
            return
        except OSError:
            time.sleep(0.1)
    pytest.fail(f"nothing serves on port {port}")


class Player:
    """A player's table page: its socket, on whichever process the proxy would pick."""

    def __init__(self, code: str, cookie: str, port: int) -> None:
        self.path, self.cookie = f"/ws/table/{code}/", cookie
        self.frame, self.version = "", -1
        self.closed_with: list[int] = []
        self.connect(port)

    def connect(self, port: int) -> None:
        from websockets.sync.client import connect

        self.port = port
        self.ws = connect(
            f"ws://127.0.0.1:{port}{self.path}",
            additional_headers={"Origin": "http://127.0.0.1", "Cookie": self.cookie},
        )

    def read(self, timeout: float) -> bool:
        """The next frame, if one comes; False when the server closed the socket."""
        from websockets.exceptions import ConnectionClosed

        try:
            frame = str(self.ws.recv(timeout=timeout))
        except TimeoutError:
            return True
        except ConnectionClosed as closed:
            self.closed_with.append(closed.rcvd.code if closed.rcvd else 1006)
            return False
        if found := VERSION.search(frame):
            self.frame, self.version = frame, int(found.group(1))
        return True

    def move(self) -> dict[str, Any] | None:
        return first_move(self.frame)


def test_a_rolling_restart_of_two_processes_under_a_running_game_loses_nothing(
    make_user: Any,
) -> None:
    anna, bruno = make_user("anna_r"), make_user("bruno_r")
    # every move is a player's: the worker plays no forced move for them while a process
    # restarts (a pass played meanwhile would be taken and answered to nobody)
    User.objects.filter(pk__in=[anna.pk, bruno.pk]).update(plays_forced_moves=False)
    table = services.table_create(host=anna, mode=Table.Mode.FRIENDS, rules=PRESETS["blocco"])
    services.table_join(table_id=table.pk, user=bruno, version=version_of(table))
    services.table_start(table_id=table.pk, by=anna, version=version_of(table))
    started = version_of(table)

    env = dict(os.environ)
    env["DATABASE_URL"] = f"postgres://postgres@127.0.0.1:5432/{connection.settings_dict['NAME']}"
    env = scaled.scaled_env(env)
    first = scaled.free_ports(2)
    ports = [first, first + 1]
    servers = {
        port: scaled.start(env, processes=1, port=port, host="127.0.0.1", workers=0)[0]
        for port in ports
    }
    worker = scaled.start(env, processes=0, port=first, host="127.0.0.1", workers=1)[0]
    try:
        for port in ports:
            wait_until_serving(port)
        players = [
            Player(table.code, session_cookie(anna), ports[0]),
            Player(table.code, session_cookie(bruno), ports[1]),
        ]
        answered = 0  # moves whose players saw them taken
        restarts = [ports[0], ports[1]]  # one, then the other
        for _ in range(400):
            for player in players:
                player.read(0.05)
            if "match-result" in players[0].frame and "match-result" in players[1].frame:
                break
            mover = next((p for p in players if p.move()), None)
            if mover is None:
                continue
            move = mover.move()
            assert move is not None
            mover.ws.send(json.dumps(move))
            stopping = None
            if restarts and int(move["version"]) >= started + 2 * (3 - len(restarts)):
                stopping = restarts.pop(0)  # mid-game, right behind a move
                servers[stopping].send_signal(signal.SIGTERM)
            while mover.version <= int(move["version"]):  # the answer, or the close
                if not mover.read(5):
                    break
            if mover.version > int(move["version"]):
                answered += 1
            if stopping is not None:
                assert servers[stopping].wait(timeout=30) == 0
                other = ports[1 - ports.index(stopping)]
                for player in players:
                    if player.port == stopping:
                        for _ in range(20):  # the close, after what it had in flight
                            if not player.read(5):
                                break
                        assert player.closed_with[-1] == SERVICE_RESTART
                        player.connect(other)  # as the proxy does
                servers[stopping] = scaled.start(
                    env, processes=1, port=stopping, host="127.0.0.1", workers=0
                )[0]
                wait_until_serving(stopping)
        else:
            pytest.fail("the game did not end")
        assert not restarts, "both processes were restarted mid-game"
        for player in players:
            player.ws.close()
    finally:
        scaled.stop([*servers.values(), worker])

    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    assert all(p.version == table.version for p in players)
    # every move taken was answered, before its process closed the socket, and no other
    assert Move.objects.filter(hand__table=table).count() == answered
    assert all(p.closed_with and set(p.closed_with) == {SERVICE_RESTART} for p in players)
