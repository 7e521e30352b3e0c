"""The first game with no connection after one online visit starts from a snapshot:
the visit's page, once usable, had the offline game's worker make it in the
background (static/js/install.js, static/offline/worker.js "prepare"), so opening
/offline/ with the network off restores CPython instead of starting it and
importing the game (seconds).  How long it takes is a benchmark's figure
(``bench/offline.py --first-open``), not a test's."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import DESKTOP, LiveSite, wait_for
from .test_offline_game import READY, watch

pytestmark = pytest.mark.browser

PREPARED = "localStorage.getItem('domino.offline.prepared') !== null"
#: The worker's start, step by step (its marks, sent with "ready").
MARKS = "Object.keys(performance.getEntriesByName('offline-ready')[0].detail.marks)"


def test_the_first_offline_open_after_one_visit_restores_the_snapshot(
    browser: Any, live_site: LiveSite
) -> None:
    errors: list[str] = []
    base = live_site.url
    context = browser.new_context(viewport=DESKTOP, device_scale_factor=1, service_workers="allow")
    page = watch(context.new_page(), errors)
    page.goto(f"{base}/")  # the one visit: the home page, never the offline one
    wait_for(page, PREPARED, timeout=240_000)
    reached: list[str] = []
    context.on("response", lambda r: None if r.from_service_worker else reached.append(r.url))
    context.set_offline(True)
    page.goto(f"{base}/offline/")
    wait_for(page, READY, timeout=120_000)
    marks = page.evaluate(MARKS)
    assert "restored" in marks and "engine-imported" not in marks, marks
    page.click("#offline-start")
    page.wait_for_selector("#offline-table #hand .my-tile", timeout=60_000)
    assert reached == []
    context.close()
    assert errors == []
