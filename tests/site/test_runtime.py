"""The daphne process's runtime settings (domino_site/asgi.py)."""

from __future__ import annotations

import gc
import logging
import socket
from pathlib import Path

import pytest

from domino_site import asgi, scaled


def test_a_long_garbage_collection_is_reported_to_the_operator(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(asgi, "SLOW_COLLECTION", 0.0)  # every collection counts as long
    with caplog.at_level(logging.WARNING, logger="games"):
        gc.collect()
    assert any("slow garbage collection: generation 2" in r.message for r in caplog.records)


def test_ports_for_a_started_server_are_outside_the_range_of_outgoing_connections() -> None:
    """CI failed once: a free port from the outgoing range became the local end of a
    connection to PostgreSQL before daphne bound it ("address already in use")."""
    outgoing = Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()
    first = scaled.free_ports(3)
    assert first + 3 <= int(outgoing[0])
    with socket.socket() as a, socket.socket() as b, socket.socket() as c:
        for s, port in zip((a, b, c), range(first, first + 3), strict=True):
            s.bind(("127.0.0.1", port))  # all three free to listen on
