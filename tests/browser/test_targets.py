"""Every control a finger uses is at least 44 × 44 CSS pixels (the language switch, the
bar's links, the Play and Buy buttons, the table's controls, a form's fields); on a phone
the bar is one compact row whose links fold into a menu, the site's name whole; logging
out is on the player's own page, not in the bar beside a table's "Leave the table"."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .conftest import LiveSite
from .pages import SIZES, computer_tables_at, laid_out, log_in, new_page
from .test_table_page_layout import position

pytestmark = pytest.mark.browser

PLAYER = "dita_grandi"
#: what a finger taps: buttons, links drawn as buttons, the bar's links
CONTROLS = (
    "button, .button, .nav > a, select,"
    " input:not([type=hidden], [type=checkbox], [type=radio], [type=range])"
)
SMALL = """s => [...document.querySelectorAll(s)]
    .filter(e => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden')
    .map(e => [e, e.getBoundingClientRect()])
    .filter(([e, r]) => r.width < 43.5 || r.height < 43.5)
    .map(([e, r]) => `${e.outerHTML.slice(0, 90)}: ${r.width | 0}x${r.height | 0}`)"""


def small_controls(page: Any) -> list[str]:
    found: list[str] = page.evaluate(SMALL, CONTROLS)
    return found


@pytest.fixture(scope="module")
def table(live_site: LiveSite) -> str:
    [code] = computer_tables_at(live_site, PLAYER, [(4, position(4, 12, "late"))])
    return code


@pytest.mark.parametrize("size", list(SIZES))
def test_every_control_a_finger_uses_is_44_px_and_the_bar_fits_a_phone(
    browser: Any, live_site: LiveSite, table: str, artifacts: Path, size: str
) -> None:
    viewport = SIZES[size]
    phone = viewport["width"] < 560
    errors: list[str] = []
    page = new_page(browser, viewport, errors)
    log_in(page, live_site.url, PLAYER)
    for path in (
        "/",
        "/online/",
        "/new/?mode=friends",
        "/coins/",
        "/coins/stakes/",
        f"/t/{table}/",
    ):
        page.goto(f"{live_site.url}{path}")
        if path.startswith("/t/"):
            page.wait_for_selector("#board .placed")
        laid_out(page)
        assert small_controls(page) == [], (size, path)
        # the bar: one row, nothing scrolled sideways or cut, the site's name whole
        bar = page.evaluate(
            """() => { const bar = document.querySelector('.topbar');
              const name = document.querySelector('.brand span');
              return {wide: bar.scrollWidth - bar.clientWidth,
                      tall: bar.getBoundingClientRect().height,
                      name: name.getClientRects().length ? name.scrollWidth - name.clientWidth : -1,
                      page: document.documentElement.scrollWidth - innerWidth}; }"""
        )
        assert bar["wide"] <= 0 and bar["page"] <= 0 and bar["name"] == 0, (size, path, bar)
        if phone:
            assert bar["tall"] <= 60, (size, path, bar)  # one compact row
        shot = path.strip("/").split("/")[0] or "home"
        page.screenshot(path=artifacts / f"targets-{size}-{shot}.png")
    if phone:  # the bar's links, in the menu
        assert page.locator("#site-nav a").first.is_hidden()
        page.click(".menu-button")
        page.locator("#site-nav a").first.wait_for()
        laid_out(page)
        page.screenshot(path=artifacts / f"targets-{size}-menu.png")
        assert small_controls(page) == [], size
        assert page.locator("#site-nav .online-link").is_visible()
    # no log-out in the bar, near the table's own buttons: it is on the player's page
    assert page.locator(".topbar form[action$='/logout/']").count() == 0
    page.goto(f"{live_site.url}/accounts/me/")
    out = page.locator("#log-out")
    assert out.inner_text() == "Esci dall'account"
    box = out.bounding_box()
    assert box and box["width"] >= 44 and box["height"] >= 44
    page.context.close()
    assert errors == []
