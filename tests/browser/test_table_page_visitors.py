"""Real browsers: visitors are not players until they act.  Two visitors open a
table's link; each takes a seat with the plain sit form and only then becomes a
guest — also when the form arrived over the websocket, with no CSRF field."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .conftest import DESKTOP, PHONE, LiveSite
from .pages import new_page, settled

pytestmark = pytest.mark.browser


def test_visitors_take_seats_with_the_plain_form_and_become_guests(
    browser: Any, live_site: LiveSite, artifacts: Path
) -> None:
    errors: list[str] = []
    host = new_page(browser, DESKTOP, errors)
    host.goto(f"{live_site.url}/new/?mode=friends&preset=domino")
    host.check("input[name=mode][value=friends]")
    for field, value in (("preset", "domino"), ("seating", "3")):
        with settled(host, "#table-form"):
            host.select_option(f"select[name={field}]", value)
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
