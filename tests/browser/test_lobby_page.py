"""Real browsers play online: two people choosing the same settings sit together at
once; a third, alone, is seated with simulated players once the (shortened) fill
timeout has passed, and the table marks them."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError

from .conftest import DESKTOP, PHONE, ROOT, LiveSite

pytestmark = pytest.mark.browser
PASSWORD = "tavolo-verde-42"


def new_page(browser: Any, viewport: dict[str, int], errors: list[str]) -> Any:
    context = browser.new_context(viewport=viewport, device_scale_factor=1)
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return page


def make_players(live_site: LiveSite, *names: str) -> None:
    """Claimed accounts, made directly (the sign-up form has its own tests and rate limit)."""
    script = (
        "from accounts.models import User\n"
        f"for name in {list(names)!r}:\n"
        f"    User.objects.create_user(name, password={PASSWORD!r})\n"
    )
    subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", script],
        cwd=ROOT,
        env=live_site.env,
        check=True,
        capture_output=True,
    )


def log_in(page: Any, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("main form button")
    page.wait_for_url(f"{base}/")


def choose(page: Any, field: str, value: str) -> None:
    """Pick a setting; the form is redrawn with what the new choice allows."""
    page.select_option(f"#pool-form select[name={field}]", value)
    page.wait_for_function(
        "([f, v]) => document.querySelector(`#pool-form select[name=${f}]`).value === v"
        " && !document.querySelector('#pool-form.htmx-request')",
        arg=[field, value],
    )
    page.wait_for_timeout(150)  # the redrawn form has settled


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
    quinto.wait_for_timeout(1200)
    assert int(countdown.inner_text()) < first  # it counts down from the server's deadline
    quinto.screenshot(path=artifacts / "online-waiting-phone.png", full_page=True)
    at_the_table(quinto, base, timeout=15.0)
    waited = time.monotonic() - joined
    quinto.wait_for_selector("#board .line")
    print(f"alone: simulated players came after {waited:.2f} s (fill timeout 6 s)")
    assert 5.0 <= waited < 12.0
    assert quinto.locator("#seats .tag.filler").count() == 3
    quinto.screenshot(path=artifacts / "online-fillers-phone.png", full_page=True)
    quinto.set_viewport_size(DESKTOP)
    quinto.wait_for_timeout(300)
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
