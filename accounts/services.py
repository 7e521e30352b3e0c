"""Writes on players: guests, sign-up, claiming a guest account, pruning guests."""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta

from django.core.exceptions import ValidationError
from django.db import IntegrityError, models, transaction
from django.db.models.functions import Coalesce
from django.utils.translation import gettext as _

from monitoring import metrics

from .constants import GUEST_IDLE, PRUNE_BATCH
from .models import DELETED_PREFIX, GUEST_PREFIX, PlayerLock, User
from .usernames import username_clean, username_key


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


def lock_player(user: User) -> None:
    """Hold the player's own lock until the transaction ends (call inside one, before
    any other lock): their joins and sits wait for each other."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("lock_player outside a transaction locks nothing")
    PlayerLock.objects.bulk_create([PlayerLock(user=user)], ignore_conflicts=True)
    PlayerLock.objects.select_for_update().get(user=user)


def _taken() -> ValidationError:
    return ValidationError(_("That username is taken."), code="taken")


def username_check(username: str, *, exclude: User | None = None) -> str:
    """A username is free (compared by ``username_key``) and not a guest's
    generated name; returns it as it will be stored."""
    username = username_clean(username)
    key = username_key(username)
    for reserved in (GUEST_PREFIX, DELETED_PREFIX):
        if key.startswith(reserved):
            raise ValidationError(
                _("Usernames starting with “%(p)s” are reserved.") % {"p": reserved}
            )
    taken = User.objects.filter(username_key=key)
    if exclude is not None:
        taken = taken.exclude(pk=exclude.pk)
    if taken.exists():
        raise _taken()
    return username


def _save_name(user: User) -> None:
    """Save under the unique key; a concurrent taker of the name loses politely."""
    try:
        with transaction.atomic():  # a savepoint: the caller's transaction stays usable
            user.save()
    except IntegrityError:
        raise _taken() from None


@transaction.atomic
def account_signup(*, username: str, password: str) -> User:
    """A new registered player.  Raises ValidationError if the name is taken,
    even when another request takes it a moment before this one commits."""
    user = User(username=username_check(username))
    user.set_password(password)
    _save_name(user)
    transaction.on_commit(metrics.SIGNUPS.labels("account").inc)
    return user


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
    _save_name(locked)
    transaction.on_commit(metrics.SIGNUPS.labels("claim").inc)
    return locked


def _unprotected_guests() -> models.QuerySet[User]:
    """Guests no row refuses to lose: no seat, no hosted table, no result, no wallet…
    (every relation that protects a user, whichever app declares it)."""
    guests = User.objects.filter(is_guest=True)
    for relation in User._meta.related_objects:
        if relation.on_delete in (models.PROTECT, models.RESTRICT):
            guests = guests.filter(**{f"{relation.name}__isnull": True})
    return guests


def guests_prune(*, now: datetime, idle_for: timedelta = GUEST_IDLE) -> int:
    """Delete the guests who never kept anything (no seat, no hosted table) and
    have not been seen for ``idle_for``.  Returns how many were deleted."""
    stale = (
        _unprotected_guests()
        .alias(seen=Coalesce("last_login", "date_joined"))
        .filter(seen__lt=now - idle_for)
    )
    pks = list(stale.values_list("pk", flat=True)[:PRUNE_BATCH])
    if not pks:
        return 0
    try:
        with transaction.atomic():
            _total, per_model = stale.filter(pk__in=pks).delete()
    except (models.ProtectedError, models.RestrictedError, IntegrityError):
        return 0  # one sat down meanwhile: the next run prunes the others
    return per_model.get(User._meta.label, 0)
