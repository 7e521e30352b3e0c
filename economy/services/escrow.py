"""Stake tables' pots: stakes go into the table's escrow, and come out exactly once.

The tables' lifecycle (``games.services.stakes``: who sits, leaves, when a table
is cancelled) pays through ``CoinEscrow``, registered with ``games.hooks.escrow`` when
the app starts; the pot is paid when the match ends (``economy.signals``).
Each helper locks the table first (the global lock order: table, seats,
tickets, wallets), so everything a pot does happens one at a time per table.
A seat's n-th sitting is keyed ``stake:{table}:{seat}:{n}``; its refund
``refund:{table}:{seat}:{n}``; the pot ``pot:{table}``.

A stake in a pot not yet settled is also a ``StakeInPlay`` row, one per player at
most (its primary key): the database's own word that a player stakes at one
table at a time, however their sits race.  The row goes with the refund or the
pot's payment, in the same transaction.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from django.db import IntegrityError, transaction

from economy import numbers
from economy.models import Account, Reason, StakeInPlay, Transfer
from games.hooks.escrow import StakedElsewhere
from games.models import Table

from .grants import claimed_only
from .ledger import escrow_of, post_transfer, wallet_of

if TYPE_CHECKING:
    from accounts.models import User


def _locked(table: Table) -> Table:
    return Table.objects.select_for_update().get(pk=table.pk)


def _stakes(table: Table, seat: int) -> list[Transfer]:
    prefix = f"stake:{table.pk}:{seat}:"
    found = Transfer.objects.filter(key__startswith=prefix, reason=Reason.STAKE)
    return sorted(found, key=lambda t: int(t.key.rsplit(":", 1)[1]))


def _refund_key(stake: Transfer) -> str:
    return "refund:" + stake.key.removeprefix("stake:")


def _open_stake(table: Table, seat: int) -> Transfer | None:
    """The seat's latest stake, if it is still in the pot."""
    stakes = _stakes(table, seat)
    if not stakes or Transfer.objects.filter(key=_refund_key(stakes[-1])).exists():
        return None
    return stakes[-1]


def _staker(stake: Transfer) -> Account:
    return stake.entries.select_related("account").get(amount__lt=0).account


@transaction.atomic
def stake_sit(*, table: Table, seat: int, user: User, amount: int) -> Transfer:
    """Move the stake from the player's wallet into the table's pot.

    Sitting again where one already sits (a retried request) pays nothing more.
    """
    claimed_only(user)
    if amount not in numbers.STAKES:
        raise ValueError(f"stakes are {numbers.STAKES}, not {amount}")
    table = _locked(table)
    wallet = wallet_of(user=user)
    open_stake = _open_stake(table, seat)
    if open_stake is not None:
        if _staker(open_stake).pk != wallet.pk:
            raise ValueError(f"seat {seat} of table {table.pk} already holds a stake")
        return open_stake
    _hold(user=user, table=table, seat=seat)
    sitting = len(_stakes(table, seat))
    return post_transfer(
        key=f"stake:{table.pk}:{seat}:{sitting}",
        reason=Reason.STAKE,
        legs=[(wallet, -amount), (escrow_of(table=table), amount)],
        memo=f"seat {seat}",
    )


def _hold(*, user: User, table: Table, seat: int) -> None:
    """Record the player's stake in play at ``table``; ``StakedElsewhere`` if one is
    already in play (the unique key refuses it, even when another process's sit
    committed it a moment ago)."""
    try:
        with transaction.atomic():
            StakeInPlay.objects.create(user=user, table=table, seat=seat)
    except IntegrityError:
        held = StakeInPlay.objects.filter(user=user).values_list("table_id", flat=True).first()
        if held is None:  # the seat's, not the player's: the table's lock makes it impossible
            raise
        raise StakedElsewhere(held) from None


def _settle(table: Table, seat: int | None = None) -> None:
    """The stakes of ``table`` (or of its ``seat``) are no longer in play."""
    held = StakeInPlay.objects.filter(table=table)
    (held if seat is None else held.filter(seat=seat)).delete()


def stake_in_play(*, user: User) -> int | None:
    """The table where ``user``'s stake is in play, if any."""
    return StakeInPlay.objects.filter(user=user).values_list("table_id", flat=True).first()


@transaction.atomic
def stake_refund(*, table: Table, seat: int) -> Transfer | None:
    """Give the seat's stake back (it left before the start); None if it holds none."""
    table = _locked(table)
    _settle(table, seat)
    open_stake = _open_stake(table, seat)
    if open_stake is None:
        return None
    amount = open_stake.entries.get(amount__gt=0).amount
    return post_transfer(
        key=_refund_key(open_stake),
        reason=Reason.REFUND,
        legs=[(escrow_of(table=table), -amount), (_staker(open_stake), amount)],
        memo=f"seat {seat}",
    )


@transaction.atomic
def stakes_refund_all(*, table: Table) -> list[Transfer]:
    """Every stake still in the pot goes back (a cancelled table, a tied hand)."""
    table = _locked(table)
    refunds = []
    for seat in range(table.players):
        refund = stake_refund(table=table, seat=seat)
        if refund is not None:
            refunds.append(refund)
    return refunds


def pot_shares(pot: int, seats: Sequence[int]) -> dict[int, int]:
    """The pot split evenly; odd coins go one each to the lowest seat numbers.

    >>> pot_shares(201, [3, 1])
    {1: 101, 3: 100}
    """
    ordered = sorted(seats)
    base, odd = divmod(pot, len(ordered))
    return {seat: base + (1 if i < odd else 0) for i, seat in enumerate(ordered)}


@transaction.atomic
def pot_pay(*, table: Table, winners: Sequence[tuple[int, User]]) -> Transfer | None:
    """The whole pot to the winning side (seat, user), once (``pot:{table}``).

    No booster ever multiplies a pot, and the house takes no commission.
    """
    table = _locked(table)
    _settle(table)
    key = f"pot:{table.pk}"
    existing = Transfer.objects.filter(key=key).first()
    if existing is not None:
        return existing
    if not winners:
        raise ValueError("a pot needs winners")
    escrow = Account.objects.select_for_update().get(pk=escrow_of(table=table).pk)
    if escrow.balance == 0:
        return None
    shares = pot_shares(escrow.balance, [seat for seat, _user in winners])
    users = dict(winners)
    legs: list[tuple[Account, int]] = [(escrow, -escrow.balance)]
    for seat, share in shares.items():
        if share:
            legs.append((wallet_of(user=users[seat]), share))
    return post_transfer(key=key, reason=Reason.POT, legs=legs, memo=f"table {table.pk}")


class CoinEscrow:
    """The stake tables' escrow in coins (``games.hooks.escrow.Escrow``): what the tables'
    lifecycle calls, in its transaction, once it holds the table's lock."""

    def stakes(self) -> Sequence[int]:
        return numbers.STAKES

    def may_stake(self, user: User) -> None:
        claimed_only(user)  # a guest has no coins: told how to get an account

    def in_play(self, user: User) -> int | None:
        return stake_in_play(user=user)

    def stake(self, *, table: Table, seat: int, user: User, amount: int) -> None:
        stake_sit(table=table, seat=seat, user=user, amount=amount)

    def refund(self, *, table: Table, seat: int) -> None:
        stake_refund(table=table, seat=seat)

    def refund_all(self, *, table: Table) -> None:
        stakes_refund_all(table=table)
