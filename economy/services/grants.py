"""Coins from the house: the sign-up grant, the daily bonus, operators' corrections."""

from __future__ import annotations

import uuid
from datetime import date, datetime
from typing import TYPE_CHECKING

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from economy import numbers
from economy.models import Account, Reason, Transfer
from games.view.errors import GameError

from .ledger import house, post_transfer, wallet_of

if TYPE_CHECKING:
    from accounts.models import User


def claimed_only(user: User) -> None:
    """Coins belong to claimed accounts: a guest is told how to get one."""
    if user.is_guest:
        raise GameError(_("Save your account to collect coins: it takes one step."))


def grant_signup(*, user: User) -> Transfer | None:
    """The starting grant, once per player (``signup:{user}``); guests get none."""
    if user.is_guest:
        return None
    key = f"signup:{user.pk}"
    existing = Transfer.objects.filter(key=key).first()
    if existing is not None:
        return existing
    return post_transfer(
        key=key,
        reason=Reason.SIGNUP,
        legs=[
            (house(Account.Source.SIGNUP), -numbers.SIGNUP_GRANT),
            (wallet_of(user=user), numbers.SIGNUP_GRANT),
        ],
    )


def bonus_day(now: datetime | None = None) -> date:
    """The calendar day in Italy, which the daily bonus counts by."""
    return (now or timezone.now()).astimezone(numbers.DAY_ZONE).date()


def daily_key(*, user: User, day: date) -> str:
    return f"daily:{user.pk}:{day.isoformat()}"


@transaction.atomic
def daily_bonus(*, user: User, now: datetime | None = None) -> Transfer:
    """Today's bonus (``daily:{user}:{date}``); a second claim the same day is refused."""
    claimed_only(user)
    key = daily_key(user=user, day=bonus_day(now))
    # The wallet's lock first: of many requests at once, the first pays and says so,
    # the others find its transfer (post_transfer alone would return it to them all).
    Account.objects.select_for_update().get(pk=wallet_of(user=user).pk)
    if Transfer.objects.filter(key=key).exists():
        raise GameError(_("You already collected today's bonus: come back tomorrow."))
    return post_transfer(
        key=key,
        reason=Reason.DAILY,
        legs=[
            (house(Account.Source.DAILY), -numbers.DAILY_BONUS),
            (wallet_of(user=user), numbers.DAILY_BONUS),
        ],
    )


def adjust(
    *, account: Account, amount: int, reason: str, by: User, key: str | None = None
) -> Transfer:
    """An operator's correction: who, why and how much, against the adjustments account.

    ``key`` makes a resubmitted form adjust once (the admin form sends one).
    """
    if not by.is_staff:
        raise PermissionError("only staff adjust balances")
    if account.kind == Account.Kind.SYSTEM:
        raise ValueError("adjust a wallet or a pot, not a house account")
    if not reason.strip():
        raise ValueError("an adjustment needs a reason")
    return post_transfer(
        key=f"adjust:{key or uuid.uuid4()}",
        reason=Reason.ADJUSTMENT,
        legs=[(account, amount), (house(Account.Source.ADJUSTMENTS), -amount)],
        created_by=by,
        memo=reason.strip()[:200],
    )
