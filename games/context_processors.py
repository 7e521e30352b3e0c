from __future__ import annotations

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from games.selectors import invitation_badge


def invitations(request: HttpRequest) -> dict[str, object]:
    """The pending-invitations count shown on every page, read when the page shows it."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"invite_count": 0}
    return {"invite_count": SimpleLazyObject(lambda: invitation_badge(user=user))}
