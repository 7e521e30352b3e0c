"""Reads on coins: balances, the last transfers, active boosters, what a table paid,
the numbers."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from django.db.models import Sum
from django.utils import timezone

from economy import numbers
from economy.models import Account, Entry, Purchase, Reason, Transfer, XpAward
from economy.services.grants import bonus_day, daily_key
from economy.services.rewards import base_reward, seating_of
from economy.services.shop import PRODUCTS, Product
from games.hooks.payouts import Payout
from games.models import SeatResult, Table

if TYPE_CHECKING:
    from accounts.models import User

SEATINGS = ("2", "3", "4", "pairs")


def balance_of(*, user: User) -> int:
    """The player's coins (0 before their wallet opens): every page's header shows them."""
    wallets = Account.objects.filter(kind=Account.Kind.WALLET, user_id=user.pk)
    found = list(wallets.values_list("balance", flat=True)[:1])  # half of first()'s cost
    return found[0] if found else 0


def ledger_balance(*, account: Account) -> int:
    """The account's coins summed from its entries (the truth the cache mirrors)."""
    total = Entry.objects.filter(account=account).aggregate(total=Sum("amount"))["total"]
    return int(total or 0)


@dataclass(frozen=True)
class Line:
    """One transfer as the wallet's owner sees it."""

    at: datetime
    reason: str
    amount: int
    memo: str


def last_transfers(*, user: User, limit: int = 10) -> list[Line]:
    entries = (
        Entry.objects.filter(account__kind=Account.Kind.WALLET, account__user=user)
        .select_related("transfer", "transfer__purchase")
        .order_by("-transfer_id")[:limit]
    )
    return [
        Line(e.transfer.created_at, _reason(e.transfer), e.amount, e.transfer.memo) for e in entries
    ]


def _reason(transfer: Transfer) -> str:
    """What a transfer was for, in words: a purchase names what was bought."""
    said = str(transfer.get_reason_display())
    purchase = getattr(transfer, "purchase", None)
    return f"{said}: {purchase.get_item_display()}" if purchase is not None else said


def active_purchases(*, user: User, at: datetime | None = None) -> list[Purchase]:
    """Boosters and passes running now (or starting later, bought in advance)."""
    at = at or timezone.now()
    return list(Purchase.objects.filter(user=user, ends_at__gt=at).order_by("starts_at"))


def daily_collected(*, user: User, now: datetime | None = None) -> bool:
    return Transfer.objects.filter(key=daily_key(user=user, day=bonus_day(now))).exists()


@dataclass(frozen=True)
class RewardRow:
    seating: str
    online_coins: tuple[int, ...]
    online_xp: tuple[int, ...]
    friends_coins: int
    friends_xp: int


def reward_rows() -> list[RewardRow]:
    """The reward table of the rewards page, from ``economy.numbers``."""
    rows = []
    for seating in SEATINGS:
        ranks = range(1, len(numbers.ONLINE_COINS[seating]) + 1)
        online = [base_reward(mode="online", seating=seating, rank=r) for r in ranks]
        friends = base_reward(mode="friends", seating=seating, rank=1)
        rows.append(
            RewardRow(
                seating,
                tuple(c for c, _x in online),
                tuple(x for _c, x in online),
                friends[0],
                friends[1],
            )
        )
    return rows


def products() -> list[Product]:
    return list(PRODUCTS.values())


def table_payouts(table: Table) -> list[tuple[int, Payout]]:
    """What a finished or cancelled table paid each person, from the ledger and the XP
    records written at its end: (user id, payout), the pot or the refunds first, then
    coins, then XP.  A booster's share is the recorded amount above the rank's reward
    (``base_reward``, the same numbers that paid it)."""
    if table.mode not in numbers.REWARDED_MODES and not table.stake:
        return []  # against the computer: nothing paid, nothing to read
    ranks = dict(
        SeatResult.objects.filter(table=table, user__isnull=False).values_list("user_id", "rank")
    )
    found: list[tuple[int, Payout]] = []
    if table.stake:  # the pot's shares and the stakes given back: the escrow's other legs
        back: dict[int, int] = {}
        for user_id, reason, amount in (
            Entry.objects.filter(
                account__kind=Account.Kind.WALLET,
                amount__gt=0,
                transfer__reason__in=(Reason.POT, Reason.REFUND),
                transfer__entries__account__table=table,
            )
            .order_by("transfer_id")
            .values_list("account__user_id", "transfer__reason", "amount")
        ):
            if reason == Reason.POT:
                found.append((user_id, Payout("pot", amount)))
            else:
                back[user_id] = back.get(user_id, 0) + amount
        found += [(user_id, Payout("refund", coins)) for user_id, coins in back.items()]
    if not ranks:
        return found
    seating = seating_of(table)

    def base(user_id: int, part: int) -> int:
        return base_reward(mode=table.mode, seating=seating, rank=ranks.get(user_id, 0))[part]

    rewards = Entry.objects.filter(
        account__kind=Account.Kind.WALLET,
        transfer__key__in=[f"reward:{table.pk}:{user_id}" for user_id in ranks],
    ).values_list("account__user_id", "amount", "transfer__boosted")
    for user_id, amount, boosted in rewards:
        share = max(0, amount - base(user_id, 0)) if boosted else 0
        found.append((user_id, Payout("coins", amount, booster=share)))
    for user_id, amount, boosted in XpAward.objects.filter(table=table).values_list(
        "user_id", "amount", "boosted"
    ):
        share = max(0, amount - base(user_id, 1)) if boosted else 0
        found.append((user_id, Payout("xp", amount, booster=share)))
    return found
