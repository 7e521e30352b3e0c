from __future__ import annotations

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from games.selectors import pending_invitation_count


def invitations(request: HttpRequest) -> dict[str, object]:
    """The pending-invitations count shown on every page: counted when the page
    shows it, unless the view counted them already (the home page lists them)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"invite_count": 0}
    return {"invite_count": SimpleLazyObject(lambda: pending_invitation_count(user=user))}
