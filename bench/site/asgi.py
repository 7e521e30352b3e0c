"""The site's own application, with the echo socket in front of it.

Everything but ``/ws/echo/`` goes to ``domino_site.asgi.application`` untouched:
the benchmark measures the production application, not a copy of its wiring.
"""

from __future__ import annotations

import os
from typing import Any

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.site.settings")

from bench.site.yardsticks import echo
from domino_site.asgi import application as site


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] == "websocket" and scope["path"] == "/ws/echo/":
        await echo(scope, receive, send)
    else:
        await site(scope, receive, send)
