"""The daphne process's runtime settings (domino_site/serve.py)."""

from __future__ import annotations

import gc
import logging
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from domino_site import local, scaled, serve


@pytest.fixture
def collections_timed() -> Iterator[None]:
    """The server's collector callback, for one test."""
    gc.callbacks.append(serve.time_collections)
    yield
    gc.callbacks.remove(serve.time_collections)


@pytest.mark.usefixtures("collections_timed")
def test_a_long_garbage_collection_is_reported_to_the_operator(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(serve, "SLOW_COLLECTION", 0.0)  # every collection counts as long
    with caplog.at_level(logging.WARNING, logger="games"):
        gc.collect()
    assert any("slow garbage collection: generation 2" in r.message for r in caplog.records)


RUNTIME = "import gc, sys; print(gc.get_threshold(), sys.getswitchinterval(), len(gc.callbacks))"


def test_importing_the_asgi_application_changes_no_process_wide_setting() -> None:
    """Tests (and tools) import it: only the server's start tunes the process."""
    probe = f"{RUNTIME}; import domino_site.asgi; {RUNTIME}"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    before, after = out.stdout.splitlines()
    assert before == after


def test_the_server_tunes_the_collector_and_the_switch_interval_at_start() -> None:
    """A full collection walked the whole of Django and the site under load."""
    probe = (
        "from daphne.cli import CommandLineInterface; from domino_site import serve; "
        f"CommandLineInterface.entrypoint = lambda: exec({RUNTIME!r}); serve.main()"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    threshold, switch, callbacks = out.stdout.strip().rsplit(" ", 2)
    assert (threshold, switch) == ("(700, 5, 2000)", "0.001")
    assert int(callbacks) >= 1  # the slow collections' log


def test_the_server_loads_the_application_it_is_told_to_serve_before_freezing() -> None:
    """The load benchmark serves its own application (bench/site/), the site's inside."""
    bench = ["-b", "127.0.0.1", "-p", "8001", "bench.site.asgi:application"]
    assert serve.application_module(bench) == "bench.site.asgi"
    endpoint_last = ["domino_site.asgi:application", "-e", "tcp:8000"]  # not a module
    assert serve.application_module(endpoint_last) == "domino_site.asgi"
    assert serve.application_module([]) == "domino_site.asgi"


def test_ports_for_a_started_server_are_outside_the_range_of_outgoing_connections() -> None:
    """CI failed once: a free port from the outgoing range became the local end of a
    connection to PostgreSQL before daphne bound it ("address already in use")."""
    outgoing = Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()
    first = scaled.free_ports(3)
    assert first + 3 <= int(outgoing[0])
    with socket.socket() as a, socket.socket() as b, socket.socket() as c:
        for s, port in zip((a, b, c), range(first, first + 3), strict=True):
            s.bind(("127.0.0.1", port))  # all three free to listen on


def test_daphne_started_as_the_site_starts_it_runs_its_loop_on_uvloop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """make run, make dev, make serve-scaled and the browser tests start ``domino_site.serve``."""
    probe = (
        "from domino_site import serve; serve.use_uvloop(); "
        "from daphne import server; print(type(server.twisted_loop).__module__)"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip().startswith("uvloop")
    served: list[list[str]] = []  # make run and make dev: domino_site.local, then serve
    monkeypatch.setenv("DJANGO_SECRET_KEY", "k" * 50)  # no key file made in the checkout
    monkeypatch.setattr(local, "prepare", lambda env, dev: None)
    monkeypatch.setattr(local.os, "chdir", lambda path: None)
    monkeypatch.setattr(local.os, "execve", lambda path, args, env: served.append(args))
    local.main(["-b", "127.0.0.1", "-p", "9000"])
    assert [args[1:3] for args in served] == [["-m", "domino_site.serve"]]
    started: list[list[str]] = []
    monkeypatch.setattr(scaled.subprocess, "Popen", lambda args, **kw: started.append(args))
    scaled.start({}, processes=2, port=9000, host="127.0.0.1", workers=0)
    assert [args[1:3] for args in started] == [["-m", "domino_site.serve"]] * 2
