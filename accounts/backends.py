"""The backend new logins are recorded under: Django's ``ModelBackend``, by a name
of our own.

Sessions name the backend that logged them in, and a guest keeps their identity
for a year, so both names stay in ``AUTHENTICATION_BACKENDS``: this one, and
Django's for sessions begun before it.  Only this one checks passwords: a wrong one
is refused here rather than hashed again by the next backend.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest

from .models import User

PATH = "accounts.backends.PlayerBackend"


class PlayerBackend(ModelBackend):
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
