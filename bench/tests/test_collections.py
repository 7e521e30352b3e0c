"""The load benchmark counts the slow collections its server logged in the window."""

from __future__ import annotations

import gc
import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from bench.load.server import collections_logged, log_size
from domino_site import serve


@pytest.fixture
def collections_timed() -> Iterator[None]:
    """The server's collector callback, for one test."""
    gc.callbacks.append(serve.time_collections)
    yield
    gc.callbacks.remove(serve.time_collections)


@pytest.mark.usefixtures("collections_timed")
def test_the_load_benchmark_counts_the_collections_the_server_logged_in_its_window(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, tmp_path: Path
) -> None:
    monkeypatch.setattr(serve, "SLOW_COLLECTION", 0.0)
    log = tmp_path / "daphne.log"
    log.write_text("slow garbage collection: generation 2, 900 ms, 0 objects freed\n")
    before = log_size(log)  # the window starts: that one is not counted
    gc.disable()  # the two below alone
    try:
        with caplog.at_level(logging.WARNING, logger="games"):
            gc.collect(1)
            gc.collect()
    finally:
        gc.enable()
    with log.open("a") as out:
        out.writelines(r.getMessage() + "\n" for r in caplog.records)
    counted = collections_logged(log, before)
    assert (counted["n"], counted["full"]) == (2, 1)
    assert counted["max_ms"] < 900
