"""ASGI entry point for daphne: pages (and static files, by WhiteNoise), websockets, the worker."""

import gc
import os
import sys

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "domino_site.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from domino_site import echo  # noqa: E402
from games.clock import GameClockMiddleware  # noqa: E402
from games.routing import websocket_urlpatterns  # noqa: E402
from matchmaking.routing import websocket_urlpatterns as queue_urlpatterns  # noqa: E402

bench = echo.websocket_urlpatterns  # empty unless bench/load.py runs the server
application = GameClockMiddleware(
    ProtocolTypeRouter(
        {
            "http": django_asgi_app,  # static files: WhiteNoise's middleware
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
# collector's scans (a full collection walked it all, 180-230 ms under load), and
# collect the young generation less often (a frame makes many short-lived objects).
gc.freeze()
gc.set_threshold(20_000, 20, 20)
# A daphne process runs its event loop, its database thread and a thread per page
# request; a thread that waits on the database gets the GIL back only when the
# holder yields it, every 5 ms by default.  A page making five queries waited up
# to 25 ms behind the renders: yield it every millisecond.
sys.setswitchinterval(0.001)
