"""The shop: boosters bought with coins, each active for a stated time."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from economy import numbers
from economy.errors import TransferConflict
from economy.models import Account, Item, Purchase, Reason

from .grants import claimed_only
from .ledger import house, post_transfer, wallet_of

if TYPE_CHECKING:
    from accounts.models import User


@dataclass(frozen=True)
class Product:
    item: Item
    price: int
    duration: timedelta
    percent: int  # rewards and XP are multiplied by percent / 100 while active

    @property
    def hours(self) -> int:
        return int(self.duration.total_seconds()) // 3600

    @property
    def days(self) -> int:
        return self.duration.days

    @property
    def factor(self) -> float:
        return self.percent / 100


PRODUCTS: dict[str, Product] = {
    Item.GOLD_BOOSTER: Product(
        Item.GOLD_BOOSTER,
        numbers.GOLD_BOOSTER_PRICE,
        numbers.GOLD_BOOSTER_DURATION,
        numbers.GOLD_BOOSTER_PERCENT,
    ),
    Item.VIP_PASS: Product(
        Item.VIP_PASS, numbers.VIP_PASS_PRICE, numbers.VIP_PASS_DURATION, numbers.VIP_PASS_PERCENT
    ),
}


@transaction.atomic
def shop_buy(*, user: User, item: str, token: uuid.UUID, now: datetime | None = None) -> Purchase:
    """Buy ``item`` (order ``token``, transfer ``shop:{token}``): the same order buys once.

    Buying again while the item is active extends it: the new window starts
    where the last one ends.
    """
    claimed_only(user)
    product = PRODUCTS.get(item)
    if product is None:
        raise ValueError(f"no such item {item!r}")
    existing = Purchase.objects.filter(token=token).first()
    if existing is None:
        transfer = post_transfer(
            key=f"shop:{token}",
            reason=Reason.SHOP,
            legs=[
                (wallet_of(user=user), -product.price),
                (house(Account.Source.SHOP), product.price),
            ],
            created_by=user,
            memo=str(product.item.label),
        )
        # The wallet is locked now: this player's windows cannot change under us.
        existing = Purchase.objects.filter(transfer=transfer).first()
    if existing is not None:
        if existing.user_id != user.pk or existing.item != item:
            raise TransferConflict(f"order {token} was for something else")
        return existing
    now = now or timezone.now()
    last_end = Purchase.objects.filter(user=user, item=item, ends_at__gt=now).aggregate(
        end=Max("ends_at")
    )["end"]
    starts_at = max(now, last_end) if last_end else now
    return Purchase.objects.create(
        token=token,
        user=user,
        item=item,
        price=product.price,
        percent=product.percent,
        transfer=transfer,
        starts_at=starts_at,
        ends_at=starts_at + product.duration,
    )


def active_percent(*, user_id: int, at: datetime) -> int:
    """The multiplier on rewards and XP at ``at`` (100: none); the larger item wins."""
    best = Purchase.objects.filter(user_id=user_id, starts_at__lte=at, ends_at__gt=at).aggregate(
        best=Max("percent")
    )["best"]
    return max(100, best or 100)
