"""The base of every websocket consumer of the site: its viewer and language, its
place under the session's cap, one heartbeat, and a close-down that gives back what
the connection took, however it ended.

The viewer is whoever the session says (the authenticated scope), never what the
client claims.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import traceback
from collections.abc import Awaitable, Callable
from typing import Any

from autobahn.exception import Disconnected
from django.template.loader import render_to_string
from django.utils import translation

from accounts.middleware import chosen_language
from monitoring import context, metrics
from overrides.consumer_loop import InTurnConsumer
from realtime import constants, limits, slots
from realtime.cache import in_cache
from realtime.errors import ClosedOnError

log = logging.getLogger("games")
access = logging.getLogger("domino.access")
#: The close code for a session over its cap, and for a client flooding commands.
TOO_MANY_CONNECTIONS = 4429


#: A step that gives back something a connection took (a slot, a group, a presence).
Undo = Callable[[], Awaitable[object]]


def _named(error: BaseException) -> str:
    """An exception's type, with its module: ``redis.exceptions.TimeoutError``."""
    kind = type(error)
    return f"{kind.__module__}.{kind.__qualname__}"


def _refresh(claims: tuple[slots.Claim, ...]) -> None:
    for claim in claims:
        claim.refresh()


class ViewerConsumer(InTurnConsumer):
    """Knows its viewer and language from the scope; a session opens only so many.

    However it ends — the browser closing, a handler's bug, the channel layer
    failing (Redis away or timing out) — what the connection took is given back
    once (``on_close``), each step on its own.  An error is logged once, then ends
    the application with ``ClosedOnError``: daphne closes the socket with 1011 and
    the browser reconnects.  One heartbeat task per socket refreshes the slots it
    holds (``hold``) and does the subclass's ``beat``."""

    #: The socket's kind in the metrics ("table", "notify", "queue").
    socket_kind = "other"
    counters: metrics.SocketCounters
    held: list[slots.Claim]  # refreshed by the heartbeat
    undo: list[tuple[str, Undo]]  # what to give back when the connection ends, in order
    heartbeat: asyncio.Task[None] | None = None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        """As the loop's own (``overrides.consumer_loop``), and closed down whatever
        ended it."""
        self.held, self.undo = [], []
        try:
            await super().__call__(scope, receive, send)
        except Exception as error:  # the layer's receive, or a handler: the socket cannot go on
            self._log_ended(error)
            raise ClosedOnError from None  # once closed down (finally)
        finally:
            await self._close_down()

    async def connect(self) -> None:
        self.counters = metrics.socket_counters(self.socket_kind)
        self.user = self.scope.get("user")
        # this socket's log lines, for its whole life (its task's context)
        self.request_id = context.new_request_id(self._header(b"x-request-id"))
        context.bind(self.request_id, self.person.pk if self.person is not None else None)
        # AuthMiddlewareStack's CookieMiddleware has parsed the cookies already.
        self.language = chosen_language(self.scope.get("cookies", {}), self._accept_language())

    def _accept_language(self) -> str:
        """The browser's ``Accept-Language`` header, as sent with the socket's upgrade."""
        return self._header(b"accept-language") or ""

    def _header(self, wanted: bytes) -> str | None:
        for name, value in self.scope.get("headers", ()):
            if name.lower() == wanted:
                return bytes(value).decode("latin-1")
        return None

    async def accept(self, subprotocol: str | None = None, headers: Any = None) -> None:
        """Accept the socket, counted open until it closes."""
        await super().accept(subprotocol, headers)
        self.counters.open.inc()
        self.on_close("counting the socket closed", self._count_closed)
        if context.json_lines():  # daphne's text access log is off: say it here
            access.info("websocket open", extra={"fields": {"path": self.scope.get("path")}})

    async def _count_closed(self) -> None:
        self.counters.open.dec()
        if context.json_lines():
            access.info("websocket closed", extra={"fields": {"path": self.scope.get("path")}})

    async def disconnect(self, code: int) -> None:
        if code == constants.SERVICE_RESTART:  # the server stops; the socket is still open
            await self.before_restart()
        await self._close_down()

    async def before_restart(self) -> None:
        """What to send before the server closes this socket to restart (its commands
        in flight are done): a table's page, its view with their answers."""

    def on_close(self, what: str, step: Undo) -> None:
        """Run ``step`` when the connection ends, however it ends (the last added first);
        ``what`` names it in the log should it fail."""
        self.undo.append((what, step))

    async def _close_down(self) -> None:
        """Stop the heartbeat, then give back what the connection took: once, each step
        on its own, so that one failing (Redis away) does not keep the others from
        running."""
        if self.heartbeat is not None:
            self.heartbeat.cancel()  # first: a beat must not renew what is given back
            self.heartbeat = None
        while self.undo:
            what, step = self.undo.pop()
            try:
                await step()
            except Exception as error:
                log.warning("closing a websocket: %s failed (%s)", what, _named(error))

    def _log_ended(self, error: Exception) -> None:
        """What ended the socket and where, but not the exception's text: it could hold
        a tile or a name (a layer error's type says enough: redis' TimeoutError)."""
        user = getattr(self, "user", None)  # None when it failed before connecting
        log.error(
            "websocket %s (user %s) ended by %s: closing it\n%s",
            type(self).__name__,
            user.pk if user is not None and user.is_authenticated else None,
            _named(error),
            "".join(traceback.format_tb(error.__traceback__)),
        )

    async def join(self, group: str) -> None:
        """Listen to ``group`` until the connection ends."""
        discard = functools.partial(self.channel_layer.group_discard, group, self.channel_name)
        self.on_close(f"leaving group {group}", discard)
        await self.channel_layer.group_add(group, self.channel_name)

    async def claim_slot(self) -> bool:
        """Count this connection against its session's cap; False: refused (closed)."""
        within = limits.connection_slots(self.scope)
        if within is None:
            return True
        claim = await in_cache(within.claim)
        if claim is None:
            await self.close(code=TOO_MANY_CONNECTIONS)
            return False
        self.hold(claim)
        self.on_close("giving back the socket's slot", functools.partial(in_cache, claim.release))
        return True

    def hold(self, claim: slots.Claim) -> None:
        """Keep ``claim`` refreshed while the socket is open (its release is the caller's)."""
        self.held.append(claim)
        self.keep_beating()

    def keep_beating(self) -> None:
        """Start the socket's heartbeat, if it has none yet."""
        if self.heartbeat is None:
            self.heartbeat = asyncio.create_task(self._heartbeat())

    async def _heartbeat(self) -> None:
        """The held slots refreshed, then ``beat``, every few seconds; what fails (the
        cache away a moment) is done again at the next beat."""
        while True:
            await asyncio.sleep(constants.WS_HEARTBEAT_SECONDS)
            try:
                await in_cache(_refresh, tuple(self.held))
            except Exception as error:
                log.warning("a websocket heartbeat's slots were not refreshed (%s)", _named(error))
            try:
                await self.beat()
            except Exception as error:
                log.warning("%s heartbeat failed (%s)", type(self).__name__, _named(error))

    async def beat(self) -> None:
        """More for the heartbeat to do (a table's: its player's presence)."""

    async def send(  # type: ignore[override]  # as the Channels stubs declare it
        self, text_data: str | None = None, bytes_data: bytes | None = None, close: bool = False
    ) -> None:
        """Drops a frame for a browser that has begun closing the socket.  daphne
        raises in that moment (autobahn's ``Disconnected``), which ended the
        consumer without its ``disconnect``: the player stayed "online" to the
        others, their heartbeat beating on.  The disconnect follows."""
        try:
            await super().send(text_data=text_data, bytes_data=bytes_data, close=close)
        except Disconnected:
            log.debug("a frame for a closing socket was dropped")
            return
        counters = self.counters
        counters.frames.inc()
        counters.characters.inc(len(text_data or bytes_data or ""))

    @property
    def person(self) -> Any:  # the scope's User, or None for a visitor
        return self.user if self.user is not None and self.user.is_authenticated else None

    def speaking(self) -> contextlib.AbstractContextManager[Any]:
        """This viewer's language active (``translation.override``); nothing to do when it
        is already, as it mostly is: a frame is built in the socket's own task (or on a
        thread with a copy of its context), where the default language stays active."""
        if translation.get_language() == self.language:
            return contextlib.nullcontext()
        return translation.override(self.language)

    def render(self, template: str, context: dict[str, Any]) -> str:
        with self.speaking():
            return render_to_string(template, context)
