"""Rate limits on sign-up, login and claim (django-ratelimit, counted in the
default cache): per client address and per username, folded like every name."""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django_ratelimit.core import is_ratelimited  # type: ignore[import-untyped]

from .usernames import username_key

TOO_MANY = _("Too many attempts. Please wait a few minutes and try again.")


def _username(group: str, request: HttpRequest) -> str:
    return username_key(request.POST.get("username", ""))


def attempt_limited(request: HttpRequest, *, group: str, per_ip: str, per_username: str) -> bool:
    """Count this POST attempt; True once either limit is over."""
    by_ip = is_ratelimited(
        request, group=f"{group}:ip", key="ip", rate=per_ip, method="POST", increment=True
    )
    by_name = is_ratelimited(
        request,
        group=f"{group}:username",
        key=_username,
        rate=per_username,
        method="POST",
        increment=True,
    )
    return bool(by_ip or by_name)
