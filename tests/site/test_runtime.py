"""The daphne process's runtime settings (domino_site/asgi.py)."""

from __future__ import annotations

import asyncio
import gc
import logging
import socket
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from asgiref.sync import sync_to_async

from domino_site import asgi, scaled
from domino_site.page_threads import PageThreads


def test_a_long_garbage_collection_is_reported_to_the_operator(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(asgi, "SLOW_COLLECTION", 0.0)  # every collection counts as long
    with caplog.at_level(logging.WARNING, logger="games"):
        gc.collect()
    assert any("slow garbage collection: generation 2" in r.message for r in caplog.records)


def test_what_the_server_loaded_at_start_is_left_out_of_the_collectors_scans() -> None:
    """A full collection walked the whole of Django and the site under load."""
    assert asgi.application is not None
    assert gc.get_freeze_count() > 10_000


def test_the_load_benchmark_counts_the_collections_the_server_logged_in_its_window(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, tmp_path: Path
) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
    import load  # bench/load.py

    monkeypatch.setattr(asgi, "SLOW_COLLECTION", 0.0)
    log = tmp_path / "daphne.log"
    log.write_text("slow garbage collection: generation 2, 900 ms, 0 objects freed\n")
    before = load.log_size(log)  # the window starts: that one is not counted
    gc.disable()  # the two below alone
    try:
        with caplog.at_level(logging.WARNING, logger="games"):
            gc.collect(1)
            gc.collect()
    finally:
        gc.enable()
    with log.open("a") as out:
        out.writelines(r.getMessage() + "\n" for r in caplog.records)
    counted = load.collections_logged(log, before)
    assert (counted["n"], counted["full"]) == (2, 1)
    assert counted["max_ms"] < 900


def test_ports_for_a_started_server_are_outside_the_range_of_outgoing_connections() -> None:
    """CI failed once: a free port from the outgoing range became the local end of a
    connection to PostgreSQL before daphne bound it ("address already in use")."""
    outgoing = Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()
    first = scaled.free_ports(3)
    assert first + 3 <= int(outgoing[0])
    with socket.socket() as a, socket.socket() as b, socket.socket() as c:
        for s, port in zip((a, b, c), range(first, first + 3), strict=True):
            s.bind(("127.0.0.1", port))  # all three free to listen on


async def test_pages_run_on_kept_threads_and_a_slow_page_holds_up_no_other() -> None:
    """Django's handler started a thread (and, on SQLite, a connection) per page."""
    ran_on: list[int] = []
    release = threading.Event()

    def view(slow: bool) -> None:
        ran_on.append(threading.get_ident())
        if slow:
            release.wait(10)

    async def django(scope: dict[str, Any], receive: Any, send: Any) -> None:
        await sync_to_async(view, thread_sensitive=True)(scope.get("slow", False))  # as Django does

    pages = PageThreads(django, keep=2)
    await pages({"type": "http"}, None, None)
    await pages({"type": "http"}, None, None)
    assert ran_on[0] == ran_on[1]  # the second page on the first one's kept thread
    slow = asyncio.create_task(pages({"type": "http", "slow": True}, None, None))
    while len(ran_on) < 3:
        await asyncio.sleep(0.01)
    await asyncio.wait_for(pages({"type": "http"}, None, None), timeout=5)  # not held up
    assert ran_on[3] != ran_on[2]
    release.set()
    await slow
    assert len(pages.idle) == 2  # both threads kept for the next pages, no more


def test_daphne_started_as_the_site_starts_it_runs_its_loop_on_uvloop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """make run, make serve-scaled and the browser tests start ``domino_site.serve``."""
    probe = (
        "from domino_site import serve; serve.use_uvloop(); "
        "from daphne import server; print(type(server.twisted_loop).__module__)"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip().startswith("uvloop")
    makefile = (Path(__file__).resolve().parents[2] / "Makefile").read_text()
    assert "-m domino_site.serve -b $(HOST) -p $(PORT)" in makefile
    started: list[list[str]] = []
    monkeypatch.setattr(scaled.subprocess, "Popen", lambda args, **kw: started.append(args))
    scaled.start({}, processes=2, port=9000, host="127.0.0.1", workers=0)
    assert [args[1:3] for args in started] == [["-m", "domino_site.serve"]] * 2
