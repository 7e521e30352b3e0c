"""The load benchmark's yardsticks: a bare websocket echo and a bare Django view.

They measure what the server costs with no game in it, in the same process and
the same run as the load, so the game's overhead reads as a ratio.
"""

from __future__ import annotations

from channels.generic.websocket import AsyncWebsocketConsumer
from django.http import HttpRequest, HttpResponse


class EchoConsumer(AsyncWebsocketConsumer):
    """Sends every frame straight back: no session, no database, no template."""

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        await self.send(text_data=text_data, bytes_data=bytes_data)


def bare(request: HttpRequest) -> HttpResponse:
    """The cheapest page Django can serve: the middleware and nothing else."""
    return HttpResponse("ok", content_type="text/plain")
