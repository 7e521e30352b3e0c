"""Every visitor is a player from the first page: guests need no registration.
The UI speaks Italian unless the player chose English."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.contrib.auth import login
from django.http import HttpRequest, HttpResponse
from django.utils import translation

from .services import guest_create

_NO_GUEST_PREFIXES = ("/static/", "/admin/", "/healthz", "/favicon.ico", "/i18n/")


class GuestMiddleware:
    """Log a first-time visitor in as a new guest (a real, flagged user row)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not request.user.is_authenticated and not request.path.startswith(_NO_GUEST_PREFIXES):
            user = guest_create()
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return self.get_response(request)


def chosen_language(cookies: dict[str, str]) -> str:
    """The language the player picked (a cookie), else the site's default."""
    code = cookies.get(settings.LANGUAGE_COOKIE_NAME, "")
    return code if code in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE


class ChosenLanguageMiddleware:
    """Activate the player's chosen language; the browser's own is not asked."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        language = chosen_language(request.COOKIES)
        with translation.override(language):
            request.LANGUAGE_CODE = language
            response = self.get_response(request)
        response.headers.setdefault("Content-Language", language)
        return response
