"""ASGI entry point for daphne: pages (and static files, by WhiteNoise), websockets, the worker."""

import gc
import logging
import os
import sys
import time
from typing import Any

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "domino_site.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from domino_site import echo  # noqa: E402
from domino_site.page_threads import PageThreads  # noqa: E402
from games.clock import GameClockMiddleware  # noqa: E402
from games.routing import websocket_urlpatterns  # noqa: E402
from matchmaking.routing import websocket_urlpatterns as queue_urlpatterns  # noqa: E402

bench = echo.websocket_urlpatterns  # empty unless bench/load.py runs the server
application = GameClockMiddleware(
    ProtocolTypeRouter(
        {
            "http": PageThreads(django_asgi_app),  # static files: WhiteNoise's middleware
            "websocket": AllowedHostsOriginValidator(
                AuthMiddlewareStack(
                    # Django's URLPatterns, which Channels routes (its stubs want their own type)
                    URLRouter(websocket_urlpatterns + queue_urlpatterns + bench)  # type: ignore[arg-type]
                )
            ),
        }
    )
)

# Everything imported so far lives as long as the process: keep it out of the
# collector's scans (a full collection walked it all, 180-230 ms under load).
# Raising the young generation's threshold (20,000) made each young collection
# take 100 ms under load.  Full collections are what stall: with 1,600 sockets a
# process tracks about 450,000 objects (each socket's Twisted, autobahn and asyncio
# state, each table's state, the kept fragments), and one took 400-500 ms, twice a
# minute at 200 moves/s, holding up every socket.  Consider one after 1,000
# middle-generation collections, not 10 (the default) or 100: under that load none
# came in a 3-minute window, p99 147 and 126 ms against 236 and 326 ms, for about
# 50 MB more (docs/performance.md).
gc.freeze()
gc.set_threshold(700, 10, 1000)
# A daphne process runs its event loop, its database thread and a thread per page
# request; a thread that waits on the database gets the GIL back only when the
# holder yields it, every 5 ms by default.  A page making five queries waited up
# to 25 ms behind the renders: yield it every millisecond.
sys.setswitchinterval(0.001)

# A collection holds up every socket of the process: say when one is long
# (bench/load.py asks for the shorter ones too, to count them in its window).
SLOW_COLLECTION = float(os.environ.get("DOMINO_SLOW_COLLECTION_MS", "100")) / 1000  # seconds
_collection_started = 0.0


def _time_collections(phase: str, info: dict[str, Any]) -> None:
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


gc.callbacks.append(_time_collections)
