"""The daphne process's runtime settings (domino_site/asgi.py)."""

from __future__ import annotations

import gc
import logging

import pytest

from domino_site import asgi


def test_a_long_garbage_collection_is_reported_to_the_operator(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(asgi, "SLOW_COLLECTION", 0.0)  # every collection counts as long
    with caplog.at_level(logging.WARNING, logger="games"):
        gc.collect()
    assert any("slow garbage collection: generation 2" in r.message for r in caplog.records)
