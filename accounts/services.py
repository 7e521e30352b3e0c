"""Writes on players: guests, sign-up, claiming a guest account."""

from __future__ import annotations

import secrets

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from .models import GUEST_PREFIX, User


def guest_create() -> User:
    """A new guest with a generated name, ready to play."""
    for _attempt in range(5):
        token = secrets.token_hex(6)
        try:
            with transaction.atomic():
                user = User(
                    username=f"{GUEST_PREFIX}{token}",
                    is_guest=True,
                    guest_tag=secrets.randbelow(9000) + 1000,
                )
                user.set_unusable_password()
                user.save()
                return user
        except IntegrityError:
            continue
    raise RuntimeError("could not create a guest")


def username_check(username: str, *, exclude: User | None = None) -> str:
    """A username is free, case-insensitively, and not a guest's generated name."""
    username = username.strip()
    if username.lower().startswith(GUEST_PREFIX):
        raise ValidationError(
            _("Usernames starting with “%(p)s” are reserved.") % {"p": GUEST_PREFIX}
        )
    taken = User.objects.filter(username__iexact=username)
    if exclude is not None:
        taken = taken.exclude(pk=exclude.pk)
    if taken.exists():
        raise ValidationError(_("That username is taken."))
    return username


@transaction.atomic
def guest_claim(*, user: User, username: str, password: str) -> User:
    """A guest becomes a registered player, keeping the same row and history."""
    locked = User.objects.select_for_update().get(pk=user.pk)
    if not locked.is_guest:
        raise ValidationError(_("This account is already registered."))
    locked.username = username_check(username, exclude=locked)
    locked.set_password(password)
    locked.is_guest = False
    locked.guest_tag = None
    locked.save()
    return locked
