"""Stake tables: people only, each pays the stake as they sit, the whole pot to the winners.

A player sits at the open table for the settings and stake they chose (a new
one opens when none is open); the stake moves from their wallet to the table's
escrow in the transaction that seats them.  Leaving before the start refunds it
at once.  A table that has not filled by its deadline (``STAKE_FILL``, a row
the worker applies exactly once, even after a restart) is cancelled and every
stake refunded.  When the match ends, the pot goes to the winning side in the
transaction that records the result; a drawn single hand returns the stakes.
Once play has started, leaving forfeits nothing by itself: the seat goes away
and a bot plays it; the pot goes to whoever wins.

Lock order: the table, then its seats, then the wallets (the escrow helpers
lock the table again, which is a no-op inside the same transaction).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.dispatch import receiver
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from economy import numbers
from games.constants import ONLINE_TURN_SECONDS
from games.deadlines import handles, set_deadline, still_due
from games.engine import Rules
from games.errors import GameError
from games.models import Deadline, Seat, SeatResult, Table
from games.services.common import check_version, locked_table, table_changed
from games.services.tables import start
from games.signals import match_finished

from .escrow import pot_pay, stake_refund, stake_sit, stakes_refund_all
from .grants import claimed_only


def _same_settings(rules: Rules, stake: int) -> dict[str, Any]:
    return {
        "mode": Table.Mode.ONLINE,
        "stake": stake,
        "preset": rules.preset,
        "players": rules.players,
        "hand_size": rules.hand_size,
        "teams": rules.teams,
        "draw": rules.draw,
        "target": rules.target,
    }


def _open_table(user: User, rules: Rules, stake: int) -> Table:
    """The oldest open table for these settings with a free seat, locked; or a new one."""
    candidates = (
        Table.objects.filter(status=Table.Status.WAITING, **_same_settings(rules, stake))
        .filter(seats__user__isnull=True)
        .order_by("created_at")
        .values_list("pk", flat=True)
        .distinct()
    )
    for table_id in candidates[:5]:
        table = locked_table(table_id)
        if table.status == Table.Status.WAITING and table.seats.filter(user=None).exists():
            return table
    table = Table.objects.create(
        host=user, turn_seconds=ONLINE_TURN_SECONDS, **_same_settings(rules, stake)
    )
    Seat.objects.bulk_create(Seat(table=table, number=n) for n in range(rules.players))
    set_deadline(
        Deadline.Kind.STAKE_FILL,
        timezone.now() + timedelta(seconds=settings.STAKE_FILL_SECONDS),
        table=table,
        version=table.version,
    )
    return locked_table(table.pk)


@transaction.atomic
def stake_table_sit(*, user: User, rules: Rules, stake: int) -> Table:
    """Sit ``user`` at an open stake table for these settings, paying the stake."""
    claimed_only(user)
    if stake not in numbers.STAKES:
        raise GameError(_("Choose one of the stakes offered."))
    already = Table.objects.filter(
        status=Table.Status.WAITING, stake__gt=0, seats__user=user
    ).first()
    if already is not None:
        return already  # one stake table at a time; a retried click pays nothing more
    table = _open_table(user, rules, stake)
    seat = table.seats.filter(user=None).order_by("number").first()
    assert seat is not None
    seat.user, seat.joined_at = user, timezone.now()
    seat.save()
    stake_sit(table=table, seat=seat.number, user=user, amount=stake)  # short: all rolls back
    table_changed(table)
    if not table.seats.filter(user=None).exists():
        table.deadlines.filter(kind=Deadline.Kind.STAKE_FILL).delete()
        start(table)
    return table


@transaction.atomic
def stake_table_leave(*, table_id: int, user: User, version: int) -> None:
    """Stand up before the game starts: the stake comes back at once."""
    table = locked_table(table_id)
    check_version(table, version)
    if not table.stake:
        raise GameError(_("This is not a stake table."))
    if table.status != Table.Status.WAITING:
        raise GameError(_("The game has started: if you go, the computer plays your seat."))
    seat = table.seats.filter(user=user).first()
    if seat is None:
        raise GameError(_("You are not sitting at this table."))
    seat.user, seat.joined_at = None, None
    seat.save()
    stake_refund(table=table, seat=seat.number)
    if not table.seats.exclude(user=None).exists():
        _cancel(table)
    table_changed(table)


def _cancel(table: Table) -> None:
    table.status = Table.Status.CANCELLED
    table.finished_at = timezone.now()
    table.deadlines.all().delete()
    stakes_refund_all(table=table)


@handles(Deadline.Kind.STAKE_FILL)
def stake_table_expire(claimed: Deadline, now: datetime) -> bool:
    """Nobody came in time: the table is cancelled and every stake refunded, once."""
    assert claimed.table_id is not None
    with transaction.atomic():
        table = locked_table(claimed.table_id)
        deadline = still_due(claimed)
        if deadline is None:
            return False
        deadline.delete()
        if table.status != Table.Status.WAITING:
            return False
        _cancel(table)
        table_changed(table)
        return True


@receiver(match_finished, sender=Table, dispatch_uid="economy_stake_pot")
def pay_the_pot(sender: type[Table], table: Table, **kwargs: Any) -> None:
    """In the transaction that ends a stake match: the whole pot to the winners."""
    if not table.stake:
        return
    results = list(SeatResult.objects.filter(table=table).select_related("user"))
    if all(r.rank == 1 for r in results):  # a drawn game: everyone gets their stake back
        stakes_refund_all(table=table)
        return
    winners = [(r.seat, r.user) for r in results if r.rank == 1 and r.user is not None]
    pot_pay(table=table, winners=winners)


def open_stake_tables() -> list[Table]:
    """The stake tables waiting for players, for the lobby (oldest first)."""
    return list(
        Table.objects.filter(status=Table.Status.WAITING, stake__gt=0)
        .prefetch_related("seats__user")
        .order_by("stake", "preset", "players", "created_at")
    )
