"""Coins from the house: the starting grant, the daily bonus, operators' corrections."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import pytest

from accounts.models import User
from economy import numbers
from economy.errors import InsufficientCoins
from economy.models import Account, Reason, Transfer
from economy.selectors import balance_of
from economy.services import adjust, daily_bonus, grant_signup, wallet_of
from games.view.errors import GameError

pytestmark = pytest.mark.django_db


def test_signing_up_grants_the_starting_coins_once(make_user: Callable[..., User]) -> None:
    carla = make_user("carla")
    assert balance_of(user=carla) == numbers.SIGNUP_GRANT == 1000
    carla.first_name = "Carla"
    carla.save()
    grant_signup(user=carla)
    assert balance_of(user=carla) == numbers.SIGNUP_GRANT
    assert Transfer.objects.get(key=f"signup:{carla.pk}").reason == Reason.SIGNUP


def test_guests_get_no_coins_until_they_claim_their_account(
    make_user: Callable[..., User],
) -> None:
    guest = make_user("guest-abc", guest=True)
    assert grant_signup(user=guest) is None
    assert not Account.objects.filter(user=guest).exists()
    guest.is_guest = False
    guest.username = "dario"
    guest.save(update_fields=["is_guest", "username"])
    assert balance_of(user=guest) == numbers.SIGNUP_GRANT


def test_a_login_stamp_does_not_touch_the_ledger(anna: User) -> None:
    before = Transfer.objects.count()
    anna.save(update_fields=["last_login"])
    assert Transfer.objects.count() == before


def test_daily_bonus_once_per_calendar_day_in_italy(anna: User) -> None:
    start = balance_of(user=anna)
    evening = datetime(2026, 3, 1, 22, 30, tzinfo=UTC)  # 23:30 in Rome, 1 March
    daily_bonus(user=anna, now=evening)
    with pytest.raises(GameError, match="already collected"):
        daily_bonus(user=anna, now=datetime(2026, 3, 1, 22, 59, tzinfo=UTC))
    after_midnight = datetime(2026, 3, 1, 23, 1, tzinfo=UTC)  # 00:01 in Rome, 2 March
    daily_bonus(user=anna, now=after_midnight)
    assert balance_of(user=anna) == start + 2 * numbers.DAILY_BONUS
    keys = set(Transfer.objects.filter(reason=Reason.DAILY).values_list("key", flat=True))
    assert keys == {f"daily:{anna.pk}:2026-03-01", f"daily:{anna.pk}:2026-03-02"}


def test_daily_bonus_is_100_coins() -> None:
    assert numbers.DAILY_BONUS == 100


def test_guests_cannot_collect_the_daily_bonus(make_user: Callable[..., User]) -> None:
    guest = make_user("guest-x", guest=True)
    with pytest.raises(GameError, match="Save your account"):
        daily_bonus(user=guest)
    assert not Transfer.objects.filter(reason=Reason.DAILY).exists()


@pytest.fixture
def staff(make_user: Callable[..., User]) -> User:
    user = make_user("operator")
    user.is_staff = True
    user.save()
    return user


def test_an_adjustment_records_who_why_and_how_much(anna: User, staff: User) -> None:
    start = balance_of(user=anna)
    transfer = adjust(
        account=wallet_of(user=anna), amount=-250, reason=" duplicate reward ", by=staff, key="t1"
    )
    assert (transfer.created_by, transfer.memo, transfer.reason) == (
        staff,
        "duplicate reward",
        Reason.ADJUSTMENT,
    )
    assert sorted(transfer.entries.values_list("amount", flat=True)) == [-250, 250]
    assert balance_of(user=anna) == start - 250
    adjust(account=wallet_of(user=anna), amount=-250, reason="again", by=staff, key="t1")
    assert balance_of(user=anna) == start - 250  # the same form twice adjusts once


def test_adjustments_need_staff_a_reason_and_coins(anna: User, bruno: User, staff: User) -> None:
    w = wallet_of(user=anna)
    with pytest.raises(PermissionError):
        adjust(account=w, amount=5, reason="gift", by=bruno)
    with pytest.raises(ValueError, match="needs a reason"):
        adjust(account=w, amount=5, reason="  ", by=staff)
    with pytest.raises(ValueError, match="zero"):
        adjust(account=w, amount=0, reason="nothing", by=staff)
    with pytest.raises(InsufficientCoins):
        adjust(account=w, amount=-(w.balance + 1), reason="too much", by=staff)
    assert not Transfer.objects.filter(reason=Reason.ADJUSTMENT).exists()
