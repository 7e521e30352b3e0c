"""Real browsers: visitors are not players until they act.  Two visitors open a
table's link; each takes a seat with the plain sit form and only then becomes a
guest — also when the form arrived over the websocket, with no CSRF field."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .conftest import DESKTOP, PHONE, LiveSite

pytestmark = pytest.mark.browser


def new_page(browser: Any, viewport: dict[str, int], errors: list[str]) -> Any:
    page = browser.new_context(viewport=viewport, device_scale_factor=1).new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    return page


def settled(page: Any) -> None:
    """The table form's htmx refresh after a change is done (a page's "networkidle"
    load state was reached long before: waiting for it returns at once, and a click
    could land on the form being replaced)."""
    page.wait_for_function(
        "() => { const f = document.querySelector('#table-form');"
        " return f && !f.classList.contains('htmx-request'); }"
    )


def test_visitors_take_seats_with_the_plain_form_and_become_guests(
    browser: Any, live_site: LiveSite, artifacts: Path
) -> None:
    errors: list[str] = []
    host = new_page(browser, DESKTOP, errors)
    host.goto(f"{live_site.url}/new/?mode=friends&preset=domino")
    host.check("input[name=mode][value=friends]")
    host.select_option("select[name=preset]", "domino")
    settled(host)
    host.select_option("select[name=seating]", "3")
    settled(host)
    host.click("#table-form button[type=submit]")
    host.wait_for_selector("#lobby .invite")  # the visitor became a guest host
    share_url = host.locator("#share-link").input_value()

    early = new_page(browser, PHONE, errors)  # watching before anyone else sits
    early.goto(share_url)
    early.wait_for_selector("#take-seat")
    late = new_page(browser, PHONE, errors)
    late.goto(share_url)
    late.click("#take-seat")
    late.wait_for_selector("#lobby .lobby-seat.you")
    host.wait_for_selector("#lobby .lobby-seat[data-seat='1']:not(.free)")
    # early's lobby was re-rendered by the websocket meanwhile: its form has no
    # CSRF field, and htmx sends the page's token as a header instead.
    early.wait_for_selector("#lobby .lobby-seat[data-seat='1']:not(.free)")
    early.screenshot(path=artifacts / "visitor-watching-phone.png", full_page=True)
    early.click("#take-seat")
    early.wait_for_selector("#lobby .lobby-seat.you")
    host.wait_for_selector("#start-game:not([disabled])")
    early.screenshot(path=artifacts / "visitor-seated-phone.png", full_page=True)
    assert not errors, errors
