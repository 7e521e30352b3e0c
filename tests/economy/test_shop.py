"""The shop: boosters bought with coins, for a stated time, bought once per order."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

import pytest

from accounts.models import User
from economy import numbers
from economy.audit import audit_ledger
from economy.errors import InsufficientCoins
from economy.models import Item, Purchase, Reason, Transfer
from economy.selectors import balance_of
from economy.services import (
    active_percent,
    shop_buy,
)
from tests.fixtures import race

from .conftest import drain_to, top_up

pytestmark = pytest.mark.django_db

NOON = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)


def test_the_shop_s_prices_durations_and_multipliers() -> None:
    gold = numbers.GOLD_BOOSTER_PRICE, numbers.GOLD_BOOSTER_DURATION, numbers.GOLD_BOOSTER_PERCENT
    vip = numbers.VIP_PASS_PRICE, numbers.VIP_PASS_DURATION, numbers.VIP_PASS_PERCENT
    assert gold == (300, timedelta(hours=24), 150)
    assert vip == (1500, timedelta(days=7), 200)


def test_buying_the_gold_booster_costs_its_price_and_runs_24_hours(anna: User) -> None:
    start = balance_of(user=anna)
    token = uuid.uuid4()
    purchase = shop_buy(user=anna, item=Item.GOLD_BOOSTER, token=token, now=NOON)
    assert balance_of(user=anna) == start - 300
    assert (purchase.starts_at, purchase.ends_at) == (NOON, NOON + timedelta(hours=24))
    assert purchase.transfer.key == f"shop:{token}"
    assert purchase.transfer.reason == Reason.SHOP


def test_the_same_order_buys_once(anna: User) -> None:
    top_up(anna, 1000)
    start = balance_of(user=anna)
    token = uuid.uuid4()
    first = shop_buy(user=anna, item=Item.VIP_PASS, token=token, now=NOON)
    again = shop_buy(user=anna, item=Item.VIP_PASS, token=token, now=NOON)
    assert again.pk == first.pk
    assert balance_of(user=anna) == start - 1500


def test_short_of_coins_buys_nothing(anna: User) -> None:
    for _ in range(balance_of(user=anna) // 300):
        shop_buy(user=anna, item=Item.GOLD_BOOSTER, token=uuid.uuid4(), now=NOON)
    left = balance_of(user=anna)
    with pytest.raises(InsufficientCoins):
        shop_buy(user=anna, item=Item.GOLD_BOOSTER, token=uuid.uuid4(), now=NOON)
    assert balance_of(user=anna) == left
    assert Purchase.objects.count() == Transfer.objects.filter(reason=Reason.SHOP).count()


def test_buying_again_while_active_extends_the_time(anna: User) -> None:
    shop_buy(user=anna, item=Item.GOLD_BOOSTER, token=uuid.uuid4(), now=NOON)
    later = NOON + timedelta(hours=5)
    second = shop_buy(user=anna, item=Item.GOLD_BOOSTER, token=uuid.uuid4(), now=later)
    assert second.starts_at == NOON + timedelta(hours=24)
    assert second.ends_at == NOON + timedelta(hours=48)


def test_a_booster_multiplies_while_active_and_the_larger_one_wins(anna: User) -> None:
    top_up(anna, 1000)
    assert active_percent(user_id=anna.pk, at=NOON) == 100
    shop_buy(user=anna, item=Item.GOLD_BOOSTER, token=uuid.uuid4(), now=NOON)
    assert active_percent(user_id=anna.pk, at=NOON + timedelta(hours=1)) == 150
    shop_buy(user=anna, item=Item.VIP_PASS, token=uuid.uuid4(), now=NOON)
    assert active_percent(user_id=anna.pk, at=NOON + timedelta(hours=1)) == 200
    assert active_percent(user_id=anna.pk, at=NOON + timedelta(days=7)) == 100


def test_guests_cannot_shop(anna: User) -> None:
    anna.is_guest = True
    from games.view.errors import GameError

    with pytest.raises(GameError):
        shop_buy(user=anna, item=Item.GOLD_BOOSTER, token=uuid.uuid4())


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_threads_spending_the_same_last_coins_exactly_one_succeeds(anna: User) -> None:
    drain_to(anna, 300)
    results = race(6, lambda i: shop_buy(user=anna, item=Item.GOLD_BOOSTER, token=uuid.uuid4()))
    bought = [r for r in results if isinstance(r, Purchase)]
    refused = [r for r in results if isinstance(r, InsufficientCoins)]
    assert (len(bought), len(refused)) == (1, 5), results
    assert balance_of(user=anna) == 0
    assert audit_ledger().ok
