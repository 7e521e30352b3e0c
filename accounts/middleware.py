"""The UI speaks the language the player chose with the IT/EN switch (a cookie);
on a first visit, the first of the browser's languages the site speaks; else
Italian.  (Guests are made lazily, by the views that need a player: see
accounts.guests.)"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.cache import patch_vary_headers


def chosen_language(cookies: Mapping[str, str], accept_language: str = "") -> str:
    """The language the player picked (a cookie), else the first of the browser's
    (``Accept-Language``) the site speaks, else the site's default."""
    code = cookies.get(settings.LANGUAGE_COOKIE_NAME, "")
    if code in dict(settings.LANGUAGES):
        return code
    return browser_language(accept_language) or settings.LANGUAGE_CODE


def browser_language(accept_language: str) -> str | None:
    """The site's language the browser prefers most, from its ``Accept-Language``
    header ("en-GB,en;q=0.9,it;q=0.5" -> "en"), or None when it names none of them."""
    spoken = dict(settings.LANGUAGES)
    ranked: list[tuple[float, int, str]] = []
    for position, entry in enumerate(accept_language.split(",")):
        tag, _, params = entry.strip().partition(";")
        quality = 1.0
        name, _, value = params.strip().partition("=")
        if name.strip() == "q":
            try:
                quality = float(value)
            except ValueError:
                continue
        primary = tag.strip().split("-")[0].lower()
        if primary in spoken and quality > 0:
            ranked.append((-quality, position, primary))
    return min(ranked)[2] if ranked else None


class ChosenLanguageMiddleware:
    """Activate the player's language (``chosen_language``)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        language = chosen_language(request.COOKIES, request.headers.get("Accept-Language", ""))
        with translation.override(language):
            request.LANGUAGE_CODE = language
            response = self.get_response(request)
        response.headers.setdefault("Content-Language", language)
        patch_vary_headers(response, ("Accept-Language", "Cookie"))
        return response
