"""Yardsticks for ``bench/load.py``: a bare websocket echo and a bare Django view.

They measure what the server costs with no game in it, in the same process and
the same run as the load, so the game's overhead reads as a ratio.  They exist
only when the benchmark starts daphne with ``DOMINO_BENCH_ROUTES=1``; a normal
server has neither route.
"""

from __future__ import annotations

import os

from channels.generic.websocket import AsyncWebsocketConsumer
from django.http import HttpRequest, HttpResponse
from django.urls import URLPattern, path

# Read here rather than in settings: only these two routes depend on it.
ENABLED = os.environ.get("DOMINO_BENCH_ROUTES", "") == "1"


class EchoConsumer(AsyncWebsocketConsumer):
    """Sends every frame straight back: no session, no database, no template."""

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        await self.send(text_data=text_data, bytes_data=bytes_data)


def bare(request: HttpRequest) -> HttpResponse:
    """The cheapest page Django can serve: the middleware and nothing else."""
    return HttpResponse("ok", content_type="text/plain")


# Channels routes consumers with Django's path(), which django-stubs types for views only.
websocket_urlpatterns: list[URLPattern] = (
    [path("ws/echo/", EchoConsumer.as_asgi())] if ENABLED else []  # type: ignore[arg-type]
)
urlpatterns: list[URLPattern] = [path("bench/bare", bare)] if ENABLED else []
