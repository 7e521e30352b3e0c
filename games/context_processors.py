from __future__ import annotations

from django.http import HttpRequest

from games.selectors import invitations_for


def invitations(request: HttpRequest) -> dict[str, object]:
    """The pending-invitations count shown on every page."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"invite_count": 0}
    return {"invite_count": invitations_for(user=user).count()}
