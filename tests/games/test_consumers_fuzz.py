"""Fuzzing the table's websocket: arbitrary frames and near-valid commands, for every
action and every field with every JSON type.  Whatever arrives, no exception escapes
(nor is swallowed as "something went wrong"), the table does not change, and the
socket still answers a valid command afterwards."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domino_site.asgi import application
from games.live.commands import ACTIONS
from games.models import Move, Table
from games.records import load_match
from tests.fixtures import play_a_legal_move, seat_user
from tests.games.test_consumers import close_connections_after, session_cookie

__all__ = ["close_connections_after"]  # the autouse fixture, shared with test_consumers
pytestmark = pytest.mark.django_db(transaction=True)

FUZZ = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

# Every JSON type, with the edges: huge and negative numbers, NaN, unicode, nesting.
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=-(10**40), max_value=10**40)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=40)
)
JSON = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
# Values that look right for some field, so the commands get past the first checks.
PLAUSIBLE = st.sampled_from(
    ["draw", "pass", "6|6L", "6|5R", "0|0L", "easy", "hard", "", "anna", "bruno", "Bruno", "  "]
) | st.integers(min_value=-2, max_value=8)
FIELD = PLAUSIBLE | JSON
FIELDS = ("version", "move", "seat", "level", "a", "b", "username")
ACTION = st.sampled_from(sorted(ACTIONS)) | st.sampled_from(["", "MOVE", "teleport"]) | SCALARS


@st.composite
def near_valid_commands(draw: st.DrawFn) -> dict[str, Any]:
    command: dict[str, Any] = {"action": draw(ACTION)}
    for name in draw(st.lists(st.sampled_from(FIELDS), unique=True)):
        command[name] = draw(FIELD)
    return command


@st.composite
def unskippable_versions(draw: st.DrawFn, current: int) -> object:
    """Anything a move might carry as its version except the right one."""
    near = st.sampled_from([None, str(current), float(current), f"{current}x", [current], True])
    wrong = st.integers().filter(lambda v: v != current) | near | JSON
    return draw(wrong.filter(lambda v: not (type(v) is int and v == current)))


class Watch:
    """A started duel seen by one seated person; what must not change, and the socket."""

    def __init__(self, table: Table, seat: int) -> None:
        self.table = table
        self.cookie = session_cookie(seat_user(table, seat)) + b"; django_language=en"
        self.version = table.version
        self.moves = Move.objects.filter(hand__table=table).count()
        self.sent = 0

    @sync_to_async
    def unchanged(self) -> bool:
        table = Table.objects.get(pk=self.table.pk)
        moves = Move.objects.filter(hand__table=table).count()
        return table.version == self.version and moves == self.moves

    async def send(self, comm: WebsocketCommunicator, frame: str) -> None:
        """Send ``frame``, then a valid command, and read up to the valid command's answer."""
        await comm.send_to(text_data=frame)
        await comm.send_json_to({"action": "next", "version": self.version})
        self.sent += 1
        while True:
            reply = await comm.receive_from(timeout=10)
            assert "Something went wrong" not in reply
            if "still being played" in reply:
                return

    async def check(self, frame: str) -> None:
        headers = [(b"origin", b"http://localhost"), (b"cookie", self.cookie)]
        comm = WebsocketCommunicator(application, f"/ws/table/{self.table.code}/", headers=headers)
        assert (await comm.connect())[0]
        await comm.receive_from(timeout=10)  # the view
        try:
            await self.send(comm, frame)
        finally:
            await comm.disconnect()
        assert await self.unchanged()


@pytest.fixture
def bystander(friends_table: Table) -> Watch:
    """bruno, who does not host, once it is not his turn: nothing he sends can change the
    table (valid commands of his are refused by the services, or change nothing)."""
    if load_match(friends_table).round.turn == 1:
        play_a_legal_move(friends_table)  # he opens: the turn passes to anna
        friends_table.refresh_from_db()
    return Watch(friends_table, 1)


@pytest.fixture
def mover(friends_table: Table) -> Watch:
    """Whoever is to move: only the version stands between them and a stored move."""
    return Watch(friends_table, load_match(friends_table).round.turn)


def _no_errors_logged(caplog: pytest.LogCaptureFixture) -> None:
    assert not [
        r for r in caplog.records if r.name.startswith("games") and r.levelno >= logging.ERROR
    ]


@FUZZ
@given(value=JSON)
async def test_fuzz_arbitrary_json_values_change_nothing(
    bystander: Watch, caplog: pytest.LogCaptureFixture, value: Any
) -> None:
    await bystander.check(json.dumps(value))
    _no_errors_logged(caplog)


@FUZZ
@given(text=st.text(min_size=1, max_size=3000))
async def test_fuzz_arbitrary_text_frames_change_nothing(
    bystander: Watch, caplog: pytest.LogCaptureFixture, text: str
) -> None:
    await bystander.check(text)
    _no_errors_logged(caplog)


@FUZZ
@given(command=near_valid_commands())
async def test_fuzz_near_valid_commands_for_every_action_change_nothing(
    bystander: Watch, caplog: pytest.LogCaptureFixture, command: dict[str, Any]
) -> None:
    await bystander.check(json.dumps(command))
    _no_errors_logged(caplog)


@FUZZ
@given(data=st.data())
async def test_fuzz_the_player_to_move_cannot_skip_the_version(
    mover: Watch, caplog: pytest.LogCaptureFixture, data: st.DataObject
) -> None:
    moves = [
        str(m) for m in await sync_to_async(lambda: load_match(mover.table).round.legal_moves())()
    ]
    command = {
        "action": "move",
        "move": data.draw(st.sampled_from([*moves, "draw", "pass"]) | FIELD),
    }
    if data.draw(st.booleans()):
        command["version"] = data.draw(unskippable_versions(mover.version))
    await mover.check(json.dumps(command))
    _no_errors_logged(caplog)
