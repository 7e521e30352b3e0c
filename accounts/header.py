"""What every page's header shows of the signed-in player beside their name (their
coins, their pending invitations), kept in the cache between the changes to them.

The apps that own a figure register how to read it (``AppConfig.ready``) and call
``changed`` whenever they change it for a player.  Reading the figures from the
database costs a page two compiled queries, each a wait for the GIL under load;
from the cache, one read of two keys.

A player's figures are kept with the *stamp* they were read under, and figures
kept under another stamp than the player's are read again.  ``changed`` gives the
player a new stamp at once and another once the change is committed: a page that
read the database just before the commit cannot keep its figures past it, because
it took the stamp first.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable

from django.core.cache import cache
from django.db import transaction

from .models import User

KEPT_FOR = 60 * 60  # seconds: a player gone for an hour is read again

_readers: dict[str, Callable[[User], int]] = {}
_generation = 0  # ``forget`` moves it on: tests reuse ids after a rollback


def register(name: str, read: Callable[[User], int]) -> None:
    """A figure of the header, read from the database by ``read``."""
    _readers[name] = read


def figure(user: User, name: str) -> int:
    """The player's figure, as of this request (read once per user object)."""
    known: dict[str, int] | None = getattr(user, "header_figures", None)
    if known is None:
        known = _figures(user)
        user.header_figures = known  # type: ignore[attr-defined]  # (the session's player is lazy)
    return known[name]


def changed(user_ids: Iterable[int | None]) -> None:
    """These players' figures change with the current transaction: read them again
    from now on (this transaction's reads see the change), and again once it has
    committed (a read by another request in between saw the figures before it)."""
    keys = [_stamp_key(pk) for pk in user_ids if pk is not None]
    if keys:
        _new_stamps(keys)
        transaction.on_commit(lambda: _new_stamps(keys))


def _new_stamps(keys: list[str]) -> None:
    cache.set_many({key: secrets.token_hex(8) for key in keys}, KEPT_FOR)


def forget() -> None:
    """Every player's figures are read again (for tests: ids come back after a rollback)."""
    global _generation
    _generation += 1


def _figures(user: User) -> dict[str, int]:
    stamp_key, figures_key = _stamp_key(user.pk), f"header:{_generation}:{user.pk}"
    found = cache.get_many([stamp_key, figures_key])
    stamp, kept = found.get(stamp_key), found.get(figures_key)
    if stamp is not None and kept is not None and kept[0] == stamp:
        return kept[1]  # type: ignore[no-any-return]
    if stamp is None:
        cache.add(stamp_key, secrets.token_hex(8), KEPT_FOR)
        stamp = cache.get(stamp_key)  # whoever added it first
    figures = {name: read(user) for name, read in _readers.items()}  # after the stamp
    cache.set(figures_key, (stamp, figures), KEPT_FOR)
    return figures


def _stamp_key(user_id: int) -> str:
    return f"header-stamp:{_generation}:{user_id}"
