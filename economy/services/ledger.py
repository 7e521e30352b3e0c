"""The one posting function, and the accounts it posts to.

Nothing else writes entries or moves a cached balance.  Lock order: callers
lock the table, seats and tickets first; ``post_transfer`` locks wallets and
escrows last, in primary-key order, so two transfers never wait on each other
in a cycle.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import TYPE_CHECKING

from django.db import IntegrityError, transaction
from django.db.models import F

from accounts import header
from economy.errors import InsufficientCoins, TransferConflict
from economy.models import Account, Entry, Reason, Transfer
from monitoring import metrics

if TYPE_CHECKING:
    from accounts.models import User
    from games.models import Table

Leg = tuple[Account, int]


def wallet_of(*, user: User) -> Account:
    """The player's wallet, opened on first use (one per player)."""
    account, _created = Account.objects.get_or_create(kind=Account.Kind.WALLET, user=user)
    return account


def escrow_of(*, table: Table) -> Account:
    """The stake table's pot (one per table)."""
    account, _created = Account.objects.get_or_create(kind=Account.Kind.ESCROW, table=table)
    return account


def house(source: Account.Source) -> Account:
    """The system account coins of this kind are issued from (or returned to)."""
    account, _created = Account.objects.get_or_create(kind=Account.Kind.SYSTEM, source=source)
    return account


def _checked_legs(legs: list[Leg], *, reason: str, boosted: bool) -> list[tuple[int, int]]:
    """The legs as sorted (account id, amount), or ValueError saying what is wrong."""
    if reason not in Reason.values:
        raise ValueError(f"unknown reason {reason!r}")
    if boosted and reason != Reason.REWARD:
        raise ValueError(f"a booster multiplies rewards from the house only, not {reason!r}")
    pairs: list[tuple[int, int]] = []
    for account, amount in legs:
        if account.pk is None:
            raise ValueError("a leg's account is not saved")
        if not isinstance(amount, int) or isinstance(amount, bool):
            raise ValueError(f"coins are whole numbers, not {amount!r}")
        if amount == 0:
            raise ValueError(f"a leg of zero coins (account {account.pk})")
        pairs.append((account.pk, amount))
    if len(pairs) < 2:
        raise ValueError("a transfer needs at least two legs")
    if len({pk for pk, _amount in pairs}) != len(pairs):
        raise ValueError("an account appears twice in one transfer")
    if sum(amount for _pk, amount in pairs) != 0:
        raise ValueError(f"the legs do not balance: they sum to {sum(a for _p, a in pairs)}")
    if boosted and not any(_is_reward_house(account) and amount < 0 for account, amount in legs):
        raise ValueError("a boosted reward is paid by the house's rewards account")
    return sorted(pairs)


def _is_reward_house(account: Account) -> bool:
    return account.kind == Account.Kind.SYSTEM and account.source == Account.Source.REWARDS


def _same_or_conflict(existing: Transfer, pairs: list[tuple[int, int]], reason: str) -> Transfer:
    """A repeated key returns the first transfer, if it moved the same coins."""
    stored = sorted(existing.entries.values_list("account_id", "amount"))
    if existing.reason != reason or stored != pairs:
        raise TransferConflict(f"key {existing.key!r} was already used for other coins")
    return existing


@transaction.atomic
def post_transfer(
    *,
    key: str,
    reason: str,
    legs: Iterable[Leg],
    created_by: User | None = None,
    memo: str = "",
    boosted: bool = False,
) -> Transfer:
    """Move coins: the legs (account, amount) must balance; a wallet never goes below zero.

    Idempotent: a key already posted returns that transfer and pays nothing
    again (the same key with other legs raises ``TransferConflict``).  A wallet
    short of coins raises ``InsufficientCoins`` and nothing changes.
    """
    legs = list(legs)
    pairs = _checked_legs(legs, reason=reason, boosted=boosted)
    if not key:
        raise ValueError("a transfer needs an idempotency key")
    existing = Transfer.objects.filter(key=key).first()
    if existing is not None:
        return _same_or_conflict(existing, pairs, reason)

    amounts = dict(pairs)
    locked = {
        a.pk: a
        for a in Account.objects.select_for_update()
        .filter(pk__in=amounts)
        .exclude(kind=Account.Kind.SYSTEM)
        .order_by("pk")
    }
    existing = Transfer.objects.filter(key=key).first()  # a twin may have committed meanwhile
    if existing is not None:
        return _same_or_conflict(existing, pairs, reason)
    for pk, account in locked.items():
        if account.balance + amounts[pk] < 0:
            if account.kind == Account.Kind.WALLET:
                raise InsufficientCoins(needed=-amounts[pk], balance=account.balance)
            raise ValueError(f"{account} holds {account.balance}, not {-amounts[pk]}")

    try:
        with transaction.atomic():  # a savepoint: a racing twin may have posted the key
            transfer = Transfer.objects.create(
                key=key, reason=reason, memo=memo, boosted=boosted, created_by=created_by
            )
    except IntegrityError:
        return _same_or_conflict(Transfer.objects.get(key=key), pairs, reason)

    Entry.objects.bulk_create(
        Entry(transfer=transfer, account_id=pk, amount=amount) for pk, amount in pairs
    )
    for pk, account in locked.items():
        account.balance += amounts[pk]
        # An increment, not the value read: correct even if a lock were ever missed.
        Account.objects.filter(pk=pk).update(balance=F("balance") + amounts[pk])
    for account, _amount in legs:  # the caller's objects show the new balances
        if account.pk in locked:
            account.balance = locked[account.pk].balance
    header.changed(a.user_id for a in locked.values() if a.kind == Account.Kind.WALLET)
    credited = sum(amount for _pk, amount in pairs if amount > 0)
    transaction.on_commit(functools.partial(_count, reason, credited))
    return transfer


def _count(reason: str, credited: int) -> None:
    metrics.TRANSFERS.labels(reason).inc()
    metrics.COINS_POSTED.labels(reason).inc(credited)
