"""accounts/middleware.py (issue 28, item 12): a browser set to English got Italian.  A
first visit follows the browser's ``Accept-Language`` among the site's languages (it,
en), Italian otherwise; the IT/EN switch wins over it and is remembered."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connections
from django.test import Client

from accounts.middleware import browser_language
from accounts.models import User
from domino_site.asgi import application
from tests.games.test_consumers import session_cookie
from tests.games.test_consumers_notifications import invite, next_frame


def nav(client: Client) -> str:
    response = client.get("/rules/")
    assert response.status_code == 200
    page = response.content.decode()
    if "Play online" in page and "Gioca online" not in page:
        return "en"
    if "Gioca online" in page and "Play online" not in page:
        return "it"
    raise AssertionError("the page speaks neither language alone")


@pytest.mark.django_db
@pytest.mark.parametrize(
    "browser,page_language",
    [
        ("en-GB,en;q=0.9", "en"),
        ("en-US", "en"),
        ("it-IT,it;q=0.9,en;q=0.8", "it"),
        ("fr-FR,fr;q=0.9", "it"),  # not a language of the site: Italian
        ("fr,en;q=0.5", "en"),  # the first one the site speaks
        ("de;q=0.9,it;q=0.3,en;q=0.7", "en"),  # by preference, not by position
        ("", "it"),
    ],
)
def test_a_first_visit_speaks_the_browsers_language(browser: str, page_language: str) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE=browser) if browser else Client()
    assert nav(client) == page_language
    response = client.get("/rules/")
    assert response["Content-Language"] == page_language
    assert "Accept-Language" in response["Vary"]  # a cache must not share it across browsers


@pytest.mark.django_db
def test_the_switch_wins_over_the_browser_and_is_remembered() -> None:
    english_browser = Client(HTTP_ACCEPT_LANGUAGE="en-GB,en")
    assert nav(english_browser) == "en"
    english_browser.post("/i18n/setlang/", {"language": "it", "next": "/rules/"})
    assert nav(english_browser) == "it"
    assert nav(english_browser) == "it"  # the next page too
    italian_browser = Client(HTTP_ACCEPT_LANGUAGE="it-IT")
    italian_browser.post("/i18n/setlang/", {"language": "en", "next": "/rules/"})
    assert nav(italian_browser) == "en"


def test_malformed_headers_fall_back_to_italian() -> None:
    assert browser_language("en;q=abc, *;q=0.1") is None
    assert browser_language("en;q=0") is None  # "not English"
    assert browser_language(",,;") is None
    assert browser_language("EN-gb") == "en"


@pytest.mark.django_db(transaction=True)
async def test_the_live_toast_speaks_the_browsers_language_too() -> None:
    bruno = await sync_to_async(User.objects.create_user)("bruno", password="pw-bruno-123")
    cookie = await sync_to_async(session_cookie)(bruno)  # no language chosen
    socket = WebsocketCommunicator(
        application,
        "/ws/notify/?page=home",
        headers=[
            (b"origin", b"http://localhost"),
            (b"cookie", cookie),
            (b"accept-language", b"en-GB,en;q=0.9"),
        ],
    )
    assert (await socket.connect())[0]
    await invite("anna", "bruno", "duello")
    assert "anna invites you to a table." in await next_frame(socket)
    await socket.disconnect()
    await sync_to_async(connections.close_all)()
