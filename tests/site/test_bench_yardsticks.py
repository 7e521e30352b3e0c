"""The load benchmark's yardsticks (domino_site/echo.py): a bare echo socket and a
bare page, which exist only when bench/load.py starts the server."""

from __future__ import annotations

import importlib
from collections.abc import Iterator

import pytest
from channels.testing import WebsocketCommunicator
from django.test import Client

from domino_site import echo


@pytest.fixture
def bench_routes(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("DOMINO_BENCH_ROUTES", "1")
    importlib.reload(echo)
    yield
    monkeypatch.delenv("DOMINO_BENCH_ROUTES")
    importlib.reload(echo)


def test_a_normal_server_has_no_bench_page_and_no_echo_socket(client: Client) -> None:
    assert client.get("/bench/bare").status_code == 404
    assert echo.urlpatterns == [] and echo.websocket_urlpatterns == []


@pytest.mark.usefixtures("bench_routes")
def test_the_benchmark_gets_both_routes() -> None:
    assert [str(p.pattern) for p in echo.urlpatterns] == ["bench/bare"]
    assert [str(p.pattern) for p in echo.websocket_urlpatterns] == ["ws/echo/"]


@pytest.mark.django_db  # Channels checks the database connections before each message
async def test_the_echo_socket_sends_every_frame_back() -> None:
    communicator = WebsocketCommunicator(echo.EchoConsumer.as_asgi(), "/ws/echo/")
    connected, _ = await communicator.connect()
    assert connected
    await communicator.send_to(text_data="echo 1 12.5")
    assert await communicator.receive_from() == "echo 1 12.5"
    await communicator.disconnect()
