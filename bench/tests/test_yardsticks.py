"""The load benchmark's site (bench/site/): the production site plus a bare echo
socket and a bare page, which the production site does not have."""

from __future__ import annotations

import pytest
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.urls import URLPattern, URLResolver, resolve

from bench.site import settings as bench_settings
from bench.site.asgi import application
from domino_site import settings as site_settings
from games.live.routing import websocket_urlpatterns
from matchmaking.routing import websocket_urlpatterns as queue_urlpatterns


def test_the_production_site_has_no_bench_page_and_no_echo_socket(client: Client) -> None:
    assert client.get("/bench/bare").status_code == 404
    assert client.get("/bench/lag").status_code == 404
    sockets: list[URLPattern | URLResolver] = [*websocket_urlpatterns, *queue_urlpatterns]
    assert "ws/echo/" not in [str(p.pattern) for p in sockets]


def test_the_benchmark_serves_the_site_s_settings_with_its_own_urls() -> None:
    names = [name for name in dir(site_settings) if name.isupper() and name[0] != "_"]
    differ = {n for n in names if getattr(bench_settings, n) != getattr(site_settings, n)}
    assert differ == {"ROOT_URLCONF", "ASGI_APPLICATION"}


def test_the_benchmark_adds_the_bare_page_to_the_site_s(
    client: Client, settings: pytest.FixtureRequest
) -> None:
    settings.ROOT_URLCONF = "bench.site.urls"  # type: ignore[attr-defined]
    response = client.get("/bench/bare")
    assert (response.status_code, response.content) == (200, b"ok")
    assert resolve("/").url_name == "home"  # the site's own pages are there


@pytest.mark.django_db  # Channels checks the database connections before each message
async def test_the_echo_socket_sends_every_frame_back() -> None:
    communicator = WebsocketCommunicator(application, "/ws/echo/")
    connected, _ = await communicator.connect()
    assert connected
    await communicator.send_to(text_data="echo 1 12.5")
    assert await communicator.receive_from() == "echo 1 12.5"
    await communicator.disconnect()


async def test_the_loop_lag_page_watches_the_loop_it_runs_on_and_gives_its_samples_once() -> None:
    import asyncio
    import json

    from django.test import AsyncRequestFactory

    from bench.site import yardsticks

    first = json.loads((await yardsticks.loop_lag(AsyncRequestFactory().get("/bench/lag"))).content)
    assert first == {"lag_ms": []}  # it starts watching here
    await asyncio.sleep(0.1)
    busy_until = asyncio.get_running_loop().time() + 0.06
    while asyncio.get_running_loop().time() < busy_until:
        pass  # the loop held for 60 ms: one sleep woke up that late
    await asyncio.sleep(0.05)
    lags = json.loads((await yardsticks.loop_lag(AsyncRequestFactory().get("/bench/lag"))).content)
    assert len(lags["lag_ms"]) >= 3 and max(lags["lag_ms"]) >= 30
    again = json.loads((await yardsticks.loop_lag(AsyncRequestFactory().get("/bench/lag"))).content)
    assert len(again["lag_ms"]) <= 1  # given once
    for task in yardsticks._watching:
        task.cancel()
    yardsticks._watching.clear()


def test_the_servers_child_processes_are_found_with_their_cpu() -> None:
    import os
    import subprocess
    import sys

    from bench.load.figures import proc_children, proc_cpu_seconds

    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(5)"])
    try:
        assert child.pid in proc_children(os.getpid())
        assert proc_cpu_seconds(child.pid) is not None
    finally:
        child.kill()
        child.wait()
