"""Websockets: a table page's live connection, and each player's notifications.

The viewer is whoever the session says (the authenticated scope), never what
the client claims.  Every frame is rendered for that viewer alone.
"""

from __future__ import annotations

import logging
import time
import traceback
from collections.abc import Mapping
from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games import states
from games.live import frames, presence
from games.live.announce import table_group, user_group
from games.live.commands import ACTIONS, action_of, dispatch, read_frame
from games.models import Seat, Table
from games.selectors import invitations_for, table_view
from games.view.errors import GameError
from games.view.parts import TableView
from monitoring import metrics
from realtime import announce as realtime_announce
from realtime import constants, limits
from realtime.cache import cache_is_local
from realtime.consumers import TOO_MANY_CONNECTIONS, ViewerConsumer

log = logging.getLogger("games")
#: Invitations the home page's panel lists (games.views.home shows as many).
INVITATIONS_SHOWN = 10

#: The commands' metrics, bound once per action ("unknown": one not read or not known).
UNKNOWN = "unknown"
_OUTCOMES = ("accepted", "refused", "failed", "limited")
_COUNTED = {
    (action, outcome): metrics.COMMANDS.labels(action, outcome)
    for action in (*ACTIONS, UNKNOWN)
    for outcome in _OUTCOMES
}
_TIMED = {action: metrics.COMMAND_SECONDS.labels(action) for action in (*ACTIONS, UNKNOWN)}
_frame_built = metrics.FRAME_BUILD_SECONDS.observe


def query(scope: Mapping[str, Any], name: str) -> str:
    """The socket address's query parameter ``name`` ("" when absent, or repeated)."""
    values = parse_qs(scope.get("query_string", b"").decode("latin-1")).get(name, [])
    return values[0] if len(values) == 1 else ""


class TableConsumer(ViewerConsumer):
    """``/ws/table/<code>/``: commands in, this viewer's fragments out."""

    socket_kind = "table"
    table_id: int  # set once the table is found; a connection without one is closed
    present_as: int | None = None  # the user counted present at the table by this socket
    shown_online: dict[int, bool]  # the others' presence as this screen last showed it
    screen: frames.Screen = frames.Screen()  # what this socket was last sent

    async def connect(self) -> None:
        await super().connect()
        code = self.scope["url_route"]["kwargs"]["code"]
        table_id = await self._table_id(code)
        if table_id is None:
            await self.close(code=4404)
            return
        self.table_id = table_id
        self.share_url = self._share_url(code)
        if not await self.claim_slot():
            return
        self.sent_version = -1
        self.screen = frames.Screen.drawn_by_page(query(self.scope, "shown"))
        self.bucket = limits.command_bucket()
        self.refused_in_a_row = 0
        self.shown_online = {}
        await self._arrive()  # before joining the group: the others are told, not this one
        await self.join(table_group(self.table_id))
        await self.accept()
        await self.send_view()

    async def _arrive(self) -> None:
        """Count this player present (the heartbeat keeps them so); tell the table if new."""
        person = self.person
        if person is None:
            return
        arrived = await presence.arrive(table_id=self.table_id, user_id=person.pk)
        self.present_as = person.pk
        self.on_close("leaving the table's presence", self._leave)
        self.keep_beating()
        if arrived:
            await self._presence_changed(person.pk)

    async def beat(self) -> None:
        """Keep the player present; show the seats again if someone came or went unseen."""
        if self.present_as is None:
            return
        if await presence.beat(table_id=self.table_id, user_id=self.present_as):
            await self._presence_changed(self.present_as)
        elif await self._presence_differs():
            # a player whose server process died expired without a goodbye
            await self.table_presence({})

    async def _presence_differs(self) -> bool:
        """Whether the seats this screen shows online are not who is present now."""
        if not self.shown_online:
            return False
        present = await presence.present_now(table_id=self.table_id, user_ids=self.shown_online)
        return {uid for uid, online in self.shown_online.items() if online} != present

    def _remember_presence(self, tv: TableView) -> None:
        self.shown_online = {
            s.user_id: s.is_online for s in tv.seats if s.user_id is not None and not s.is_you
        }

    async def _leave(self) -> None:
        if self.present_as is None:
            return
        user_id, self.present_as = self.present_as, None
        if await presence.leave(table_id=self.table_id, user_id=user_id):
            await self._presence_changed(user_id)

    async def _presence_changed(self, user_id: int) -> None:
        """Tell the table's screens, if the player sits there (a spectator shows nowhere)."""
        if await self._seated(user_id):
            await self.channel_layer.group_send(
                table_group(self.table_id), {"type": "table.presence"}
            )

    @database_sync_to_async
    def _seated(self, user_id: int) -> bool:
        return Seat.objects.filter(table_id=self.table_id, user_id=user_id).exists()

    async def before_restart(self) -> None:
        """The table as it is now: a command just taken is answered through the group,
        whose message would come after the socket is closed."""
        await self.send_view()

    async def table_presence(self, event: dict[str, Any]) -> None:
        """Someone came or went: the seats again (the whole view if the table moved)."""
        seats, version = await database_sync_to_async(self._render_seats)()
        if version > self.sent_version:
            await self.send_view()
        elif seats:
            await self.send(text_data=seats)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if not await self._within_rate():
            _COUNTED[UNKNOWN, "limited"].inc()
            return
        started = time.perf_counter()
        data = read_frame(text_data, bytes_data)
        action = UNKNOWN if data is None else action_of(data) or UNKNOWN
        outcome = await self._answer(data)
        _COUNTED[action, outcome].inc()
        _TIMED[action].observe(time.perf_counter() - started)

    async def _answer(self, data: dict[str, Any] | None) -> str:
        """Run the command and answer it; returns its outcome, for the metrics."""
        if data is None:
            await self.send_flash(self._t(_("That message could not be read.")))
            return "refused"
        person = self.person
        if person is None:
            await self.send_flash(self._t(_("Reload the page to get a player identity.")))
            return "refused"
        told = (
            realtime_announce.Told()
        )  # the command's group messages, sent from here once committed
        try:
            note = await database_sync_to_async(self._dispatch)(data, person, told)
        except GameError as error:
            if error.stale:  # the screen was out of date: show the latest, then say so
                await self.send_view(force=True)
            await self.send_flash(error.message, kind="info" if error.stale else "error")
            return "refused"
        except Exception as error:  # a bug: say so, keep the socket, log it once
            self._log_failure(action_of(data), error)
            await self.send_flash(self._t(_("Something went wrong: try again in a moment.")))
            return "failed"
        finally:
            await realtime_announce.send_told(self.channel_layer, told)
        if note:
            await self.send_flash(note, kind="info", done=action_of(data))
        return "accepted"

    async def _within_rate(self) -> bool:
        """Take a token; when there is none, say "slow down" once, and close on a flood."""
        if self.bucket.take():
            self.refused_in_a_row = 0
            return True
        self.refused_in_a_row += 1
        if self.refused_in_a_row == constants.WS_FLOOD_CLOSE_AFTER:
            await self.close(code=TOO_MANY_CONNECTIONS)
        elif self.refused_in_a_row == 1:
            await self.send_flash(self._t(_("Slow down: too many commands at once.")))
        return False

    def _log_failure(self, action: str | None, error: Exception) -> None:
        """Where it failed, but not the exception's text: it could hold a tile or a name."""
        where = "".join(traceback.format_tb(error.__traceback__))
        log.error(
            "websocket command %s failed on table %s (user %s): %s\n%s",
            action or "?",
            self.table_id,
            getattr(self.person, "pk", None),
            type(error).__qualname__,
            where,
        )

    def _dispatch(
        self, data: dict[str, Any], person: User, told: realtime_announce.Told
    ) -> str | None:
        with self.speaking(), realtime_announce.collecting(told):
            return dispatch(table_id=self.table_id, user=person, data=data)

    def _t(self, message: object) -> str:
        """A lazy message in this viewer's language."""
        with self.speaking():
            return str(message)

    async def table_version(self, event: dict[str, Any]) -> None:
        if event["version"] > self.sent_version:
            await self.send_view(at_least=event["version"])

    async def send_view(self, force: bool = False, at_least: int | None = None) -> None:
        if at_least is not None and states.known(self.table_id, at_least) and cache_is_local():
            # Nothing to read (the state is in memory, presence in this process): render
            # here rather than queue on the database thread behind every other viewer.
            html, version = self._render_view(force, at_least)
        else:
            html, version = await database_sync_to_async(self._render_view)(force, at_least)
        if force or version > self.sent_version:
            self.sent_version = version
            if html:
                await self.send(text_data=html)

    def _render_view(self, everything: bool, at_least: int | None) -> tuple[str, int]:
        """This viewer's frame (``games.live.frames``): the regions of its view that differ
        from what the socket was last sent (``everything``: as if it had been sent
        nothing).  The table's state at a version is read once per process and shared
        (``at_least``: the version the group message announced)."""
        started = time.perf_counter()
        if everything:
            self.screen = frames.Screen()
        with self.speaking():
            tv = table_view(
                table=self.table_id, user=self.person, with_presence=True, at_least=at_least
            )
            self._remember_presence(tv)
            # user: a visitor's lobby offers the plain sit form, a player's the socket join
            context = {"share_url": self.share_url, "user": self.person}
            html, self.screen = frames.view_frame(
                tv, self.screen, language=self.language, context=context
            )
        _frame_built(time.perf_counter() - started)
        return html, tv.version

    def _render_seats(self) -> tuple[str, int]:
        with self.speaking():
            tv = table_view(table=self.table_id, user=self.person, with_presence=True)
            html, self.screen = frames.seats_frame(tv, self.screen, language=self.language)
        self._remember_presence(tv)
        return html, tv.version

    def _share_url(self, code: str) -> str:
        headers = dict(self.scope.get("headers", []))
        host = headers.get(b"host", b"").decode("latin-1") or "localhost"
        scheme = "https" if self.scope.get("scheme") == "wss" else "http"
        return f"{scheme}://{host}{reverse('table', args=[code])}"

    async def send_flash(self, message: str, kind: str = "error", done: str | None = None) -> None:
        """A note over the page; ``done``: the command it answers, which succeeded."""
        with self.speaking():
            html, self.screen = frames.flash_frame(
                self.screen, message=message, kind=kind, done=done
            )
        await self.send(text_data=html)

    @database_sync_to_async
    def _table_id(self, code: str) -> int | None:
        return Table.objects.filter(code=code).values_list("pk", flat=True).first()


class NotificationConsumer(ViewerConsumer):
    """``/ws/notify/``: tells a player of new invitations on whatever page is open.

    ``?page=home``: the home page, whose invitations panel is replaced too."""

    socket_kind = "notify"

    async def connect(self) -> None:
        await super().connect()
        self.on_home = query(self.scope, "page") == "home"
        if self.person is None:
            await self.close(code=4401)
            return
        if not await self.claim_slot():
            return
        await self.join(user_group(self.person.pk))
        await self.accept()

    async def user_invited(self, event: dict[str, Any]) -> None:
        html = await database_sync_to_async(self._render_invitations)()
        await self.send(text_data=html)

    def _render_invitations(self) -> str:
        invitations = list(invitations_for(user=self.person)[:INVITATIONS_SHOWN])
        context = {"invitations": invitations, "on_home": self.on_home}
        return self.render("games/_invitations_live.html", context)
