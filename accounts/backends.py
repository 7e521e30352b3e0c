"""How a request's player is found: Django's ``ModelBackend``, with the player a
session names read as a prepared read (``overrides.statements``): every page and
every socket reads it, and compiling that query cost more than running it.

Sessions begun before this backend name Django's ``ModelBackend``, which stays in
``AUTHENTICATION_BACKENDS`` to read them (a guest keeps their identity for a year);
new logins name this one.  Only this one checks passwords: a wrong one is refused
here rather than checked again by the next backend.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest

from overrides.statements import Prepared

from .models import User

PATH = "accounts.backends.PlayerBackend"

_users_by_id = Prepared(lambda user_id: User.objects.filter(pk=user_id))


class PlayerBackend(ModelBackend):
    def get_user(self, user_id: Any) -> User | None:
        if type(user_id) is not int:  # Django gives the pk as its field reads it: an int
            return super().get_user(user_id)
        user = _users_by_id.first(user_id)
        return user if user is not None and self.user_can_authenticate(user) else None

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> User | None:
        user = super().authenticate(request, username, password, **kwargs)
        if user is None and username is not None and password is not None:
            raise PermissionDenied  # the backends after this one do not check it again
        return user
