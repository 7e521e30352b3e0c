from __future__ import annotations

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from games.selectors import invitations_for


def invitations(request: HttpRequest) -> dict[str, object]:
    """The pending-invitations count shown on every page: counted when the page
    shows it, unless the view counted them already (the home page lists them)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"invite_count": 0}
    return {"invite_count": SimpleLazyObject(lambda: invitations_for(user=user).count())}
