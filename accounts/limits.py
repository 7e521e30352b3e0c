"""Rate limits on sign-up, login, claim and password resets (django-ratelimit, counted
in the default cache): per client address and per name (a username, folded like
every name, or an e-mail address), each in fixed windows.  A refused attempt says
how long to wait: until the later of the windows it is over ends."""

from __future__ import annotations

import math
from collections.abc import Callable

from django.http import HttpRequest
from django.utils.translation import ngettext
from django_ratelimit.core import get_usage  # type: ignore[import-untyped]

from .usernames import username_key


def _posted(field: str) -> Callable[[str, HttpRequest], str]:
    def key(group: str, request: HttpRequest) -> str:
        return username_key(request.POST.get(field, ""))

    return key


def attempt_limited(
    request: HttpRequest, *, group: str, per_ip: str, per_username: str, field: str = "username"
) -> int:
    """Count this POST attempt; once either limit is over, the seconds until it lets
    the next one through (at least 1), else 0.  ``field``: the posted name counted."""
    wait = 0
    for kind, key, rate in (("ip", "ip", per_ip), ("username", _posted(field), per_username)):
        usage = get_usage(
            request, group=f"{group}:{kind}", key=key, rate=rate, method="POST", increment=True
        )
        if usage is not None and usage["should_limit"]:  # None: rate limits are off
            wait = max(wait, usage["time_left"], 1)
    return wait


def too_many(seconds: int) -> str:
    """The refusal, in the player's language: how many minutes to wait (rounded up)."""
    minutes = max(1, math.ceil(seconds / 60))
    return ngettext(
        "Too many attempts. Please wait %(minutes)d minute and try again.",
        "Too many attempts. Please wait %(minutes)d minutes and try again.",
        minutes,
    ) % {"minutes": minutes}
