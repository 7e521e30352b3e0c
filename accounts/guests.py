"""Guests are made lazily: a visitor becomes a user row only when they do
something that needs one (play, create a table, sit down).  Reading pages
never writes: a crawler leaves nothing behind."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, Concatenate, ParamSpec

from django.contrib.auth import login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse

from . import backends
from .models import User
from .services import guest_create

P = ParamSpec("P")


def viewer(request: HttpRequest) -> User | None:
    """The logged-in player (a guest or registered), or None for a visitor."""
    user: Any = request.user
    return user if user.is_authenticated else None


def signed_in(request: HttpRequest) -> User:
    """The player of a view behind ``login_required``: never a visitor."""
    user = viewer(request)
    if user is None:  # login_required sent the visitor to log in already
        raise PermissionDenied
    return user


def player_or_guest(request: HttpRequest) -> User:
    """The player making this request; a visitor becomes a new guest, logged in."""
    user = viewer(request)
    if user is None:
        user = guest_create()
        login(request, user, backend=backends.PATH)
    return user


def guest_required(
    view: Callable[Concatenate[HttpRequest, P], HttpResponse],
) -> Callable[Concatenate[HttpRequest, P], HttpResponse]:
    """For views that act as a player: a visitor is made a guest first.
    Put it after ``require_POST`` so that only a real action makes a row."""

    @functools.wraps(view)
    def wrapper(request: HttpRequest, /, *args: P.args, **kwargs: P.kwargs) -> HttpResponse:
        player_or_guest(request)
        return view(request, *args, **kwargs)

    return wrapper
