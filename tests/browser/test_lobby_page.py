"""Real browsers play online: two people choosing the same settings sit together at
once; a third, alone, is seated with simulated players once the (shortened) fill
timeout has passed, and the table marks them."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError

from .conftest import DESKTOP, PHONE, LiveSite, wait_for
from .pages import choose, laid_out, log_in, make_players, new_page

pytestmark = pytest.mark.browser


def test_two_players_meet_online_and_a_third_is_completed_with_simulated_players(
    browser: Any, live_site: LiveSite, artifacts: Path
) -> None:
    base = live_site.url
    errors: list[str] = []
    make_players(live_site, "ornella_b", "pietro_b", "quinto_b")
    ornella = new_page(browser, DESKTOP, errors)
    pietro = new_page(browser, PHONE, errors)
    log_in(ornella, base, "ornella_b")
    log_in(pietro, base, "pietro_b")

    ornella.click("nav >> text=Gioca online")  # Italian by default
    ornella.wait_for_url(f"{base}/online/")
    assert "giocatori simulati" in ornella.locator("#online-rules").inner_text()
    ornella.screenshot(path=artifacts / "online-lobby-desktop.png", full_page=True)
    pietro.goto(f"{base}/online/")

    choose(ornella, "preset", "duello")
    ornella.click("#play-online")
    ornella.wait_for_url(f"{base}/online/queue/")
    ornella.wait_for_selector("#queue-status .room li.person")
    assert "ornella_b" in ornella.locator("#queue-status .room").inner_text()
    ornella.screenshot(path=artifacts / "online-waiting-desktop.png", full_page=True)

    pietro.reload()  # the lobby counts who waits where
    assert "1 in attesa" in pietro.locator("#pool-counts").inner_text()
    pietro.screenshot(path=artifacts / "online-lobby-phone.png", full_page=True)
    choose(pietro, "preset", "duello")
    started = time.monotonic()
    pietro.click("#play-online")
    pietro.wait_for_url(f"{base}/t/**", timeout=5_000)
    ornella.wait_for_url(pietro.url, timeout=5_000)  # the waiting screen follows
    both_seated = time.monotonic() - started
    for page in (ornella, pietro):
        page.wait_for_selector("#board .line")
        assert page.locator("#seats .tag.filler").count() == 0
    print(f"two players seated together, both at the table after {both_seated:.2f} s")
    # Seated by the join itself (no timer): what remains is two page loads, the
    # first player's after the socket's word; generous, for a busy shared machine.
    assert both_seated < 3.0

    quinto = new_page(browser, PHONE, errors)
    log_in(quinto, base, "quinto_b")
    quinto.goto(f"{base}/online/")
    choose(quinto, "seating", "4p")
    joined = time.monotonic()
    quinto.click("#play-online")
    quinto.wait_for_url(f"{base}/online/queue/")
    countdown = quinto.locator("#queue-status .fill-countdown .seconds")
    first = int(countdown.inner_text())
    assert 1 <= first <= 6
    # it counts down from the server's deadline
    wait_for(
        quinto,
        "n => +document.querySelector('#queue-status .fill-countdown .seconds').textContent < n",
        arg=first,
        timeout=3000,
    )
    quinto.screenshot(path=artifacts / "online-waiting-phone.png", full_page=True)
    at_the_table(quinto, base, timeout=15.0)
    waited = time.monotonic() - joined
    quinto.wait_for_selector("#board .line")
    print(f"alone: simulated players came after {waited:.2f} s (fill timeout 6 s)")
    assert 5.0 <= waited < 12.0
    assert quinto.locator("#seats .tag.filler").count() == 3
    quinto.screenshot(path=artifacts / "online-fillers-phone.png", full_page=True)
    quinto.set_viewport_size(DESKTOP)
    laid_out(quinto)
    quinto.screenshot(path=artifacts / "online-fillers-desktop.png", full_page=True)
    for page in (ornella, pietro, quinto):
        page.context.close()
    assert errors == []


def at_the_table(page: Any, base: str, *, timeout: float) -> None:
    """Wait until the page is on a table.  The waiting screen is sent there both by
    the socket's message and by the seated check, and one may abort the other."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            page.wait_for_url(f"{base}/t/**", timeout=max(1, deadline - time.monotonic()) * 1000)
            return
        except PlaywrightError:
            if "/t/" in page.url:
                return
            if time.monotonic() > deadline:
                raise
