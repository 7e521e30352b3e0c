"""The UI speaks Italian unless the player chose English.  (Guests are made
lazily, by the views that need a player: see accounts.guests.)"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation


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
