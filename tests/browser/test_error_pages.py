"""The error pages and the language switch, in a real browser (issue 28, items 2 and 12):
in a real browser against the site as ``make run`` serves it: a browser set to English
gets English until the IT/EN switch says otherwise; a stale link and an expired form
get the site's own pages."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .conftest import DESKTOP, PHONE, LiveSite, wait_for

pytestmark = pytest.mark.browser


def english_page(browser: Any, viewport: dict[str, int]) -> Any:
    return browser.new_context(viewport=viewport, device_scale_factor=1, locale="en-GB").new_page()


def test_an_english_browser_gets_english_until_the_switch_says_italian(
    browser: Any, live_site: LiveSite, artifacts: Path
) -> None:
    page = english_page(browser, DESKTOP)
    page.goto(live_site.url)
    assert page.locator("html").get_attribute("lang") == "en"
    assert page.locator("nav .online-link").inner_text() == "Play online"
    page.screenshot(path=artifacts / "language-english-browser.png")
    page.click("form.lang button[value=it]")
    wait_for(page, "document.documentElement.lang === 'it'")
    assert page.locator("nav .online-link").inner_text() == "Gioca online"
    page.goto(f"{live_site.url}/rules/")  # remembered on the next page
    assert page.locator("html").get_attribute("lang") == "it"
    page.screenshot(path=artifacts / "language-switched-to-italian.png")
    page.context.close()


def test_a_stale_link_in_an_english_browser_gets_the_sites_page_in_english(
    browser: Any, live_site: LiveSite, artifacts: Path
) -> None:
    page = english_page(browser, PHONE)
    response = page.goto(f"{live_site.url}/t/gone-since-yesterday/")
    assert response.status == 404
    assert page.locator("h1").inner_text() == "This page is not on the table"
    assert "URLconf" not in page.content()
    page.screenshot(path=artifacts / "404-english-phone.png", full_page=True)
    page.context.close()


def test_a_form_sent_after_its_cookie_was_lost_says_what_to_do(
    browser: Any, live_site: LiveSite, artifacts: Path
) -> None:
    page = browser.new_context(viewport=PHONE, device_scale_factor=1).new_page()
    page.goto(f"{live_site.url}/accounts/login/")
    page.context.clear_cookies()  # the browser dropped them, or the page is days old
    page.fill("input[name=username]", "anna")
    page.fill("input[name=password]", "tavolo-verde-42")
    with page.expect_navigation() as sent:
        page.click("main form button")
    assert sent.value.status == 403
    assert page.locator("h1").inner_text() == "Il modulo è scaduto"
    assert "ricarica la pagina" in page.locator("main").inner_text()
    page.screenshot(path=artifacts / "403-csrf-phone.png", full_page=True)
    page.context.close()
