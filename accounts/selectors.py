"""Reads on players."""

from __future__ import annotations

from .models import User
from .usernames import username_key


def player_by_username(*, username: str, registered_only: bool = False) -> User | None:
    """The player with this name, however it is cased or composed; None if nobody
    (a deleted or deactivated account is nobody)."""
    players = User.objects.filter(username_key=username_key(username), is_active=True)
    if registered_only:
        players = players.filter(is_guest=False)
    return players.first()
