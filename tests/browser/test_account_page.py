"""A player's account in a real browser: the password reset by e-mail from end to end
(the site writes its mail to files, as ``EMAIL_URL=file:…`` makes it), and deleting an
account on a phone.  Every browser test fails on a Content-Security-Policy violation
(conftest); the first test here shows that it would."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from .conftest import DESKTOP, PHONE, LiveSite
from .pages import PASSWORD, laid_out, log_in, make_players, new_page, sign_up

pytestmark = pytest.mark.browser
NEW_PASSWORD = "scala-quaranta-7"


def test_a_violation_of_the_policy_is_recorded(browser: Any, live_site: LiveSite) -> None:
    """What the fixture catches: an image from elsewhere, which the policy refuses."""
    page = browser.new_context(viewport=DESKTOP).new_page()
    page.goto(f"{live_site.url}/rules/")
    page.evaluate(
        "() => document.body.append(Object.assign(new Image(), {src: 'https://example.org/x.png'}))"
    )
    page.wait_for_timeout(300)
    assert any("img-src" in v and "example.org" in v for v in browser.violations)
    browser.violations.clear()  # seen: this test is not one that caused it
    page.context.close()


def test_a_forgotten_password_is_reset_through_the_link_mailed(
    browser: Any, live_site: LiveSite, artifacts: Path
) -> None:
    errors: list[str] = []
    page = new_page(browser, PHONE, errors, locale="en-GB")
    sign_up(page, live_site.url, "reset_rita", email="rita@example.org")
    confirm = re.search(r"http://\S+/accounts/email/\S+/", live_site.mails()[-1])
    assert confirm is not None
    page.goto(confirm.group(0))
    page.click("main form button")
    page.wait_for_url(f"{live_site.url}/accounts/account/")
    assert "rita@example.org" in page.locator("main").inner_text()
    page.screenshot(path=artifacts / "account-phone.png", full_page=True)
    page.context.close()

    visitor = new_page(browser, PHONE, errors, locale="en-GB")
    visitor.goto(f"{live_site.url}/accounts/login/")
    visitor.click("#forgot")
    visitor.fill("input[name=email]", "RITA@example.org")
    visitor.click("main form button")
    visitor.wait_for_url(f"{live_site.url}/accounts/password/reset/sent/")
    visitor.screenshot(path=artifacts / "password-reset-sent-phone.png", full_page=True)
    reset = re.search(r"http://\S+/accounts/password/reset/\S+/\S+/", live_site.mails()[-1])
    assert reset is not None
    visitor.goto(reset.group(0))
    visitor.fill("input[name=new_password1]", NEW_PASSWORD)
    visitor.fill("input[name=new_password2]", NEW_PASSWORD)
    visitor.click("main form button")
    visitor.wait_for_url(f"{live_site.url}/accounts/password/reset/done/")
    visitor.goto(reset.group(0))  # a second time: used
    assert visitor.locator("#reset-invalid").is_visible()
    visitor.goto(f"{live_site.url}/accounts/login/")
    visitor.fill("input[name=username]", "reset_rita")
    visitor.fill("input[name=password]", NEW_PASSWORD)
    visitor.click("main form button")
    visitor.wait_for_url(f"{live_site.url}/")
    visitor.context.close()
    assert errors == []


@pytest.mark.parametrize(("name", "viewport"), [("phone", PHONE), ("desktop", DESKTOP)])
def test_a_player_deletes_their_account(
    browser: Any, live_site: LiveSite, artifacts: Path, name: str, viewport: dict[str, int]
) -> None:
    errors: list[str] = []
    player = f"leaving_{name}"
    make_players(live_site, player)
    page = new_page(browser, viewport, errors)
    log_in(page, live_site.url, player)
    page.goto(f"{live_site.url}/accounts/me/")
    page.click("#account-link")
    page.click("#delete-link")
    page.wait_for_url(f"{live_site.url}/accounts/account/delete/")
    laid_out(page)
    page.screenshot(path=artifacts / f"account-delete-{name}.png", full_page=True)
    page.fill("#delete-form input[name=password]", "not it")
    page.click("#delete-form button")
    assert page.locator("#delete-form .errorlist").inner_text() == "Non è la tua password."
    page.fill("#delete-form input[name=password]", PASSWORD)
    page.click("#delete-form button")
    page.wait_for_url(f"{live_site.url}/")
    assert "Il tuo account è stato cancellato" in page.locator(".messages").inner_text()
    assert page.locator("nav a[href='/accounts/login/']").count() == 1  # a visitor now
    page.screenshot(path=artifacts / f"account-deleted-{name}.png", full_page=True)
    page.goto(f"{live_site.url}/accounts/login/")
    page.fill("input[name=username]", player)
    page.fill("input[name=password]", PASSWORD)
    page.click("main form button")
    assert page.locator(".errorlist").count() == 1  # nobody by that name any more
    page.context.close()
    assert errors == []
