"""Standing up from a stake table with the form a websocket frame drew: no CSRF field
is rendered over a socket, so the form posts through htmx with the page's CSRF
header, and the stake is back at once (it answered 403 and the coins stayed in the
pot until the table timed out)."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from django.test import Client

from accounts.models import User
from games import fragments
from games.models import Table
from games.selectors import table_view
from games.services.stakes import stake_table_sit
from tests.economy.conftest import balance
from tests.stakes import PAIRS, pot, rich  # noqa: F401  (rich: a fixture)

pytestmark = pytest.mark.django_db


def _frame_form(table: Table, user: User) -> tuple[str, str]:
    """The leave form as a frame draws it (no request): its hx-post and its version."""
    tv = table_view(table=table.pk, user=user)
    html = fragments.render("games/_lobby.html", {"tv": tv, "share_url": "", "user": user})
    assert "csrfmiddlewaretoken" not in html  # nothing to post a plain form with
    form = re.search(r'<form method="post"[^>]*hx-post="([^"]+)"[^>]*>(.*?)</form>', html, re.S)
    assert form is not None, "the leave form does not post through htmx"
    version = re.search(r'name="version" value="(\d+)"', form.group(2))
    assert version is not None
    return form.group(1), version.group(1)


def test_the_leave_form_a_frame_drew_gives_the_stake_back_at_once(
    rich: Callable[[str], User],  # noqa: F811
) -> None:
    anna = rich("anna_f")
    table = stake_table_sit(user=anna, rules=PAIRS, stake=250)
    assert balance(anna) == 750 and pot(table) == 250
    browser = Client(enforce_csrf_checks=True)
    browser.cookies["django_language"] = "en"
    browser.force_login(anna)
    page = browser.get(f"/t/{table.code}/").content.decode()
    token = re.search(r'"X-CSRFToken": "([^"]+)"', page)  # the page's header for htmx
    assert token is not None
    action, version = _frame_form(table, anna)

    refused = browser.post(action, {"version": version})  # a plain post, as before
    assert refused.status_code == 403 and balance(anna) == 750

    answer = browser.post(
        action, {"version": version}, HTTP_HX_REQUEST="true", HTTP_X_CSRFTOKEN=token.group(1)
    )
    assert answer.status_code == 200 and answer["HX-Redirect"] == "/coins/stakes/"
    assert balance(anna) == 1000 and pot(table) == 0
    follow = browser.get("/coins/stakes/").content.decode()
    assert "your stake is back in your wallet" in follow


def test_a_stale_leave_through_htmx_goes_back_to_the_table_with_a_message(
    rich: Callable[[str], User],  # noqa: F811
) -> None:
    anna = rich("anna_g")
    table = stake_table_sit(user=anna, rules=PAIRS, stake=250)
    browser = Client()
    browser.cookies["django_language"] = "en"
    browser.force_login(anna)
    answer = browser.post(
        f"/coins/stakes/{table.code}/leave/", {"version": "x"}, HTTP_HX_REQUEST="true"
    )
    assert answer["HX-Redirect"] == f"/t/{table.code}/"
    assert balance(anna) == 750 and pot(table) == 250  # nothing changed
    assert "Reload the page and try again." in browser.get(f"/t/{table.code}/").content.decode()
