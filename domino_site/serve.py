"""The site's server: ``python -m domino_site.serve`` takes daphne's own arguments.

It starts daphne on uvloop, and tunes this process's runtime for a server holding
many sockets (the settings below), once the site is loaded: importing the ASGI
application alone changes nothing process-wide (tests import it).

daphne makes its event loop (and installs Twisted's asyncio reactor on it) as its
module is imported, from the event loop policy in force: setting uvloop's first
makes that loop uvloop's, a faster implementation of the same asyncio loop (Twisted's
asyncio reactor accepts it since Twisted 21.7).  Under load it carried 4% more moves
a second than the standard loop (docs/performance.md).  ``make run``, ``make
serve-scaled``, the browser tests and the load benchmark start daphne this way.

It stops gracefully (:class:`GracefulServer`): on SIGTERM (or Ctrl-C) it stops
listening, takes no more commands, finishes those in flight, then closes each
websocket with 1012, "the server is restarting": the page reconnects (to another
process behind the proxy, or to this one started again) and says so.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import importlib
import logging
import os
import re
import sys
import time
from collections.abc import Sequence
from typing import Any

import uvloop
from twisted.internet import defer

from domino_site import log
from games import thinking
from realtime.constants import SERVICE_RESTART

#: A collection longer than this is logged (seconds): it holds up every socket.
SLOW_COLLECTION = float(os.environ.get("DOMINO_SLOW_COLLECTION_MS", "100")) / 1000
_collection_started = 0.0

#: daphne's application argument, ``module:attribute`` (not an endpoint like ``tcp:8000``).
APPLICATION = re.compile(r"([A-Za-z_][\w.]*):[A-Za-z_][\w.]*")


def use_uvloop() -> None:
    """Event loops made from now on are uvloop's (before daphne is imported)."""
    asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())


def tune_runtime() -> None:
    """The collector and the GIL set for a server process (once the site is loaded).

    - Everything loaded so far lives as long as the process: ``gc.freeze`` keeps it
      out of the collector's scans (a full collection walked it all, 180-230 ms
      under load).
    - Full collections are what stall: with 1,600 sockets a process tracks about
      450,000 objects, and one took 400-500 ms twice a minute at 200 moves/s.  One
      is considered after 1,000 middle-generation collections rather than 10: p99
      147 and 126 ms against 236 and 326 ms, for about 50 MB more.  (A young
      threshold of 20,000 made each young collection take 100 ms under load.)
    - A middle-generation collection after 5 young ones rather than 10 (and a full
      one considered after 2,000 of them, as often as before): each scans half as
      much.  At human pace the collections that held the server 20 ms or more went
      from about 51 a minute to 8, p99 47.5 to 41 ms, the CPU unchanged; at 200
      moves/s from 192 to 46, p99 538 to 296 ms.
    - A thread waiting on the database gets the GIL back only when the holder yields
      it, every 5 ms by default: a page making five queries waited up to 25 ms
      behind the renders.  It is yielded every millisecond.
    - A long collection is logged (``DOMINO_SLOW_COLLECTION_MS``; the load benchmark
      counts them).  Figures: docs/performance.md.
    """
    gc.freeze()
    gc.set_threshold(700, 5, 2000)
    sys.setswitchinterval(0.001)
    gc.callbacks.append(time_collections)


def time_collections(phase: str, info: dict[str, Any]) -> None:
    """The collector's callback: a collection longer than ``SLOW_COLLECTION`` is logged."""
    global _collection_started
    if phase == "start":
        _collection_started = time.perf_counter()
    elif (took := time.perf_counter() - _collection_started) > SLOW_COLLECTION:
        logging.getLogger("games").warning(
            "slow garbage collection: generation %s, %.0f ms, %s objects freed",
            info["generation"],
            took * 1000,
            info["collected"],
        )


#: How long a stopping server waits for what is in flight (seconds), at most.
DRAIN_SECONDS = float(os.environ.get("DOMINO_DRAIN_SECONDS", "10"))


def graceful_server() -> type:
    """daphne's ``Server``, stopped gracefully (made here: daphne is imported once the
    event loop policy is set)."""
    from daphne.server import Server  # type: ignore[import-untyped]
    from daphne.ws_protocol import WebSocketProtocol  # type: ignore[import-untyped]

    from deadlines.clock import stop_clocks  # the site is loaded: Django is set up

    class GracefulServer(Server):  # type: ignore[misc]
        """Before daphne cancels every connection's application as it stops, this one
        stops listening, then drains: each websocket takes no more frames and is told
        it is disconnected after what it already took (a consumer handles its messages
        in turn, ``overrides.consumer_loop``: the commands in flight end first, then
        ``before_restart`` sends their answers); once its application is done, the
        socket is closed with :data:`SERVICE_RESTART`.  Pages being served are
        finished too.  Whatever still runs after :data:`DRAIN_SECONDS` is cancelled,
        as daphne does."""

        def listen_success(self, port: Any) -> None:
            self.ports = [*getattr(self, "ports", []), port]  # to stop listening
            super().listen_success(port)

        def kill_all_applications(self) -> defer.Deferred[Any]:
            drained = defer.Deferred.fromFuture(asyncio.ensure_future(self.drain()))
            drained.addErrback(
                lambda failure: logging.getLogger("games").error(
                    "stopping: the drain failed (%s)", failure.getErrorMessage()
                )
            )
            drained.addBoth(lambda _: super(GracefulServer, self).kill_all_applications())
            return drained

        async def drain(self) -> None:
            # the deadline clock's pass in flight ends while the event loop still runs
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop_clocks(), DRAIN_SECONDS)
            for port in getattr(self, "ports", []):
                await defer.maybeDeferred(port.stopListening).asFuture(asyncio.get_running_loop())
            for protocol, details in list(self.connections.items()):
                if isinstance(protocol, WebSocketProtocol):
                    self._drain_socket(protocol, details.get("application_instance"))
            loop = asyncio.get_running_loop()
            until = loop.time() + DRAIN_SECONDS
            while loop.time() < until and self._busy():
                await asyncio.sleep(0.05)
            for protocol in list(self.connections):
                if isinstance(protocol, WebSocketProtocol):
                    self._close(protocol)  # those still running: cancelled next, by daphne

        def _drain_socket(self, protocol: Any, application: asyncio.Future[Any] | None) -> None:
            if application is None or protocol.state != protocol.STATE_OPEN:
                return
            protocol.muted = True  # frames from now on are not taken
            protocol.application_queue.put_nowait(
                {"type": "websocket.disconnect", "code": SERVICE_RESTART}
            )
            application.add_done_callback(lambda _: self._close(protocol))

        @staticmethod
        def _close(protocol: Any) -> None:
            if protocol.state == protocol.STATE_OPEN:
                # autobahn's sendClose allows an application only 1000 and 3000-4999;
                # the frame itself takes any code of the RFC (daphne sends 1011 so)
                protocol.sendCloseFrame(code=SERVICE_RESTART)

        def _busy(self) -> bool:
            """An application still running, or a socket whose close is not done."""
            return any(
                _running(details.get("application_instance"))
                or (
                    isinstance(protocol, WebSocketProtocol)
                    and protocol.state != protocol.STATE_CLOSED
                )
                for protocol, details in self.connections.items()
            )

    return GracefulServer


def _running(application: asyncio.Future[Any] | None) -> bool:
    return application is not None and not application.done()


def application_module(argv: Sequence[str]) -> str:
    """The module of the application daphne is told to serve (the site's when none is):
    loaded before the runtime is tuned, so that it is frozen with the rest."""
    for arg in reversed(argv):
        if found := APPLICATION.fullmatch(arg):
            return found.group(1)
    return "domino_site.asgi"


def main() -> None:
    use_uvloop()
    from daphne.cli import CommandLineInterface  # type: ignore[import-untyped]  # loop made here

    importlib.import_module(application_module(sys.argv[1:]))  # the site loaded, then frozen
    tune_runtime()
    thinking.in_child()  # this process holds the sockets: the engine thinks elsewhere
    sys.argv[1:] = log.daphne_arguments(sys.argv[1:])
    CommandLineInterface.server_class = graceful_server()
    CommandLineInterface.entrypoint()


if __name__ == "__main__":
    main()
