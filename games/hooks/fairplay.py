"""Who may not sit together at a rated table: the one question stake tables ask.

Games knows nothing of ratings or browsers: the app that does (``ratings``)
registers here, when it starts, a function giving the players ``user`` may not
share a rated table with (accounts signed in from one of ``user``'s browsers).
With none registered, anybody may sit with anybody.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from accounts.models import User

Linked = Callable[["User"], Collection[int]]
_linked: list[Linked] = []


def register(linked: Linked) -> Linked:
    """Register a function naming the user ids ``user`` may not sit with."""
    if linked not in _linked:
        _linked.append(linked)
    return linked


def kept_apart(user: User) -> set[int]:
    """The user ids that may not sit at a rated table with ``user`` (never theirs)."""
    return {pk for linked in _linked for pk in linked(user) if pk != user.pk}
