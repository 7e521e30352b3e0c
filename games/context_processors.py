from __future__ import annotations

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from accounts import header


def invitations(request: HttpRequest) -> dict[str, object]:
    """The pending-invitations count shown on every page (``accounts.header``), read
    when the page shows it."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"invite_count": 0}
    return {"invite_count": SimpleLazyObject(lambda: header.figure(user, "invitations"))}
