"""A browser's own id: a signed, long-lived cookie, so that two accounts signed in
from one browser are known for what they are (they never sit at one rated table).

The middleware gives every request ``request.browser_id`` (a new browser gets a
new id, and the cookie with the response) and, once per session, records the
signed-in account with it (``BrowserSeen``): after the view, so a login counts."""

from __future__ import annotations

import secrets
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

COOKIE = "domino_browser"
SALT = "ratings.browser"
MAX_AGE = 60 * 60 * 24 * 365 * 2  # two years
_SESSION_KEY = "browser_seen"


def new_browser_id() -> str:
    return secrets.token_hex(16)


class BrowserIdMiddleware:
    """Sets ``request.browser_id`` and records which accounts use this browser."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        known = request.get_signed_cookie(COOKIE, default=None, salt=SALT)
        browser = known if known and len(known) == 32 else new_browser_id()
        request.browser_id = browser  # type: ignore[attr-defined]
        response = self.get_response(request)
        if browser != known:
            response.set_signed_cookie(
                COOKIE,
                browser,
                salt=SALT,
                max_age=MAX_AGE,
                secure=settings.SESSION_COOKIE_SECURE,
                httponly=True,
                samesite="Lax",
            )
        user = getattr(request, "user", None)
        session = getattr(request, "session", None)
        if user is not None and user.is_authenticated and session is not None:
            stamp = f"{user.pk}:{browser}"
            if session.get(_SESSION_KEY) != stamp:
                from .services import browser_seen  # the models, once the apps are ready

                browser_seen(user_id=user.pk, browser=browser)
                session[_SESSION_KEY] = stamp
        return response
