"""ASGI entry point for daphne: pages (and static files, by WhiteNoise), websockets, the worker."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "domino_site.settings")
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from deadlines.clock import GameClockMiddleware  # noqa: E402
from domino_site.page_threads import PageThreads  # noqa: E402
from games.live.routing import websocket_urlpatterns  # noqa: E402
from matchmaking.routing import websocket_urlpatterns as queue_urlpatterns  # noqa: E402
from realtime.sessions import socket_auth_stack  # noqa: E402

application = GameClockMiddleware(
    ProtocolTypeRouter(
        {
            "http": PageThreads(django_asgi_app),  # static files: WhiteNoise's middleware
            "websocket": AllowedHostsOriginValidator(
                socket_auth_stack(
                    # Django's URLPatterns, which Channels routes (its stubs want their own type)
                    URLRouter(websocket_urlpatterns + queue_urlpatterns)  # type: ignore[arg-type]
                )
            ),
        }
    )
)
