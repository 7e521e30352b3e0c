"""The Redis channel layer's connections (issue 26): an idle consumer's wait for its
next message must not time out — with redis-py 8's default 5 s socket timeout,
channels_redis's 5 s blocking read timed out on every idle socket and killed its
consumer — and a consumer that closes must be able to stop waiting."""

from __future__ import annotations

import asyncio
import os
import runpy
from pathlib import Path
from typing import Any

import pytest
from channels_redis.core import RedisChannelLayer

import domino_site


def redis_layer_config(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """The layer's configuration as a process with ``REDIS_URL`` reads the settings."""
    monkeypatch.setenv("REDIS_URL", os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/15")
    settings = runpy.run_path(str(Path(domino_site.__file__).parent / "settings.py"))
    config = settings["CHANNEL_LAYERS"]["default"]
    assert config["BACKEND"] == "channels_redis.core.RedisChannelLayer"
    return config["CONFIG"]  # type: ignore[no-any-return]


def test_no_layer_connection_times_out_during_the_layers_blocking_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    layer = RedisChannelLayer(**redis_layer_config(monkeypatch))
    for index, _host in enumerate(layer.hosts):
        given = layer.create_pool(index).connection_kwargs  # what redis-py's connections get
        timeout = given["socket_timeout"]
        assert timeout is None or timeout > RedisChannelLayer.brpop_timeout
        assert given["socket_keepalive"] and given["health_check_interval"]


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs Redis")
async def test_a_receive_cancelled_at_any_moment_ends_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A consumer that closes cancels its wait for the layer's next message.  With a
    socket timeout, redis-py sends each command under ``asyncio.wait_for``, which on
    Python 3.11 may swallow a cancellation: 66 of 150 receives cancelled so went on
    waiting in BZPOPMIN for ever."""
    config = redis_layer_config(monkeypatch)
    for turns in [*range(40), *range(40)]:  # cancelled after 0, 1, … turns of the loop
        layer = RedisChannelLayer(**config)  # each with new connections: connecting too
        receiving = asyncio.ensure_future(layer.receive(await layer.new_channel()))
        for _ in range(turns):
            await asyncio.sleep(0)
        receiving.cancel()
        done, _ = await asyncio.wait([receiving], timeout=2)
        await layer.flush()  # closes its connections: a receive still reading fails
        assert done, f"a receive cancelled after {turns} turns of the event loop went on"
