"""Stake tables' lifecycle: open, fill, cancel, start.  People only; each pays the
stake as they sit, through the escrow the coins' app registered (``games.hooks.escrow``).

A player sits at the open table for the settings and stake they chose (a new
one opens when none is open); the stake moves into the table's escrow in the
transaction that seats them.  A player stakes at one table at a time: from
sitting down until the stake comes back or the pot is paid, another sit lands on
that table and says so (``AlreadySeated``).  The escrow's database keeps that
rule (``StakedElsewhere``), so it holds however many sits race on however many
processes.  Leaving before the start refunds it at once.  A
table that has not filled by its deadline (``STAKE_FILL``, a row the worker
applies exactly once, even after a restart) is cancelled and every stake
refunded.  When the match ends the escrow's app pays the pot (it listens to
``games.signals.match_finished``).  Once play has started, leaving forfeits
nothing by itself: the seat goes away and a bot plays it; the pot goes to
whoever wins.

**Locks**, in the global lock order (``games.services.common``): a sit takes the
player's own row (one sit at a time per player, so a double click or four tabs
seat them once), the row of the stake setting (people sitting at the same
settings at the same instant share a table), the table, its seats, then the
escrow locks the wallets and the pot (it locks the table again first, a no-op
inside the same transaction).  A leave and a cancellation take the table, its
seats, then the wallets.
"""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from accounts.services import lock_player
from deadlines.models import Deadline
from deadlines.services import handles, set_deadline, still_due
from games.constants import ONLINE_TURN_SECONDS
from games.engine import Rules
from games.hooks.escrow import StakedElsewhere, escrow
from games.hooks.fairplay import kept_apart
from games.kinds import STAKE_FILL
from games.models import Seat, StakeSetting, StakeSit, Table
from games.store import Writing, changing, check_version, locked_table
from games.view.errors import GameError

from .tables import start


def _same_settings(rules: Rules, stake: int) -> dict[str, Any]:
    return {"mode": Table.Mode.ONLINE, "stake": stake, **Table.rules_fields(rules)}


def _open_table(user: User, rules: Rules, stake: int) -> int:
    """The oldest open table for these settings with a free seat (locked), or a new one."""
    apart = kept_apart(user)  # accounts of the player's browsers sit at other tables
    candidates = (
        Table.objects.filter(status=Table.Status.WAITING, **_same_settings(rules, stake))
        .filter(seats__user__isnull=True)
        .exclude(seats__user__in=apart)
        .order_by("created_at")
        .values_list("pk", flat=True)
        .distinct()
    )
    for table_id in candidates[:5]:
        table = locked_table(table_id)
        if (
            table.status == Table.Status.WAITING
            and table.seats.filter(user=None).exists()
            and not table.seats.filter(user__in=apart).exists()  # again, under the lock
        ):
            return table.pk
    table = Table.objects.create(
        host=user, turn_seconds=ONLINE_TURN_SECONDS, **_same_settings(rules, stake)
    )
    Seat.objects.bulk_create(Seat(table=table, number=n) for n in range(rules.players))
    set_deadline(
        STAKE_FILL,
        timezone.now() + timedelta(seconds=settings.STAKE_FILL_SECONDS),
        table=table,
        version=table.version,
    )
    return table.pk


class AlreadySeated(GameError):
    """The player's stake is in play at another table: one stake table at a time."""

    def __init__(self, table: Table) -> None:
        if table.status == Table.Status.WAITING:
            message = _(
                "You are already sitting at a stake table: here it is. Stand up there first."
            )
        else:
            message = _(
                "Your stake is in play at this table: one stake table at a time, "
                "until its match ends."
            )
        super().__init__(message)
        self.table = table


def stake_setting_key(rules: Rules, stake: int) -> str:
    """The stake setting's row for these settings and stake: ``domino-4p-7-draw-100:100``
    (the rows written before the lifecycle moved here are named the same way)."""
    return f"{Table.rules_key(rules)}:{stake}"


def _lock_setting(key: str) -> None:
    StakeSetting.objects.bulk_create([StakeSetting(key=key)], ignore_conflicts=True)
    StakeSetting.objects.select_for_update().get(key=key)


@transaction.atomic
def stake_table_sit(
    *, user: User, rules: Rules, stake: int, token: uuid.UUID | None = None
) -> Table:
    """Sit ``user`` at an open stake table for these settings, paying the stake.

    ``token`` (the sit form's): the same form sent again, with the same settings,
    returns the table it sat the player at and pays nothing more.  Raises
    ``AlreadySeated`` when the player's stake is in play at another table,
    ``games.hooks.escrow.NoEscrow`` when no app keeps the stakes."""
    coins = escrow()
    coins.may_stake(user)
    if stake not in coins.stakes():
        raise GameError(_("Choose one of the stakes offered."))
    lock_player(user)
    setting = stake_setting_key(rules, stake)
    if token is not None:
        done = StakeSit.objects.filter(token=token, user=user, setting=setting).first()
        if done is not None:
            return Table.objects.get(pk=done.table_id)
    held = coins.in_play(user)
    if held is not None:
        raise AlreadySeated(Table.objects.get(pk=held))
    _lock_setting(setting)
    with changing(_open_table(user, rules, stake)) as writing:
        table = writing.table
        seat = table.seats.filter(user=None).order_by("number").first()
        assert seat is not None
        seat.user, seat.joined_at = user, timezone.now()
        seat.save()
        try:  # short of coins, or staked elsewhere: all rolls back
            coins.stake(table=table, seat=seat.number, user=user, amount=stake)
        except StakedElsewhere as error:
            raise AlreadySeated(Table.objects.get(pk=error.table_id)) from None
        if token is not None:
            StakeSit.objects.create(token=token, user=user, table=table, setting=setting)
        if not table.seats.filter(user=None).exists():
            table.deadlines.filter(kind=STAKE_FILL).delete()
            start(writing)
    return table


@transaction.atomic
def stake_table_leave(*, table_id: int, user: User, version: int) -> None:
    """Stand up before the game starts: the stake comes back at once."""
    with changing(table_id) as writing:
        _stand_up(writing, user, version)


def _stand_up(writing: Writing, user: User, version: int) -> None:
    table = writing.table
    if not table.stake:
        raise GameError(_("This is not a stake table."))
    seat = table.seats.filter(user=user).first()
    if seat is None:
        raise GameError(_("You are not sitting at this table."))
    if table.status in (Table.Status.FINISHED, Table.Status.ABANDONED):
        raise GameError(_("This game is over."))
    if table.status == Table.Status.CANCELLED:
        raise GameError(_("This table was cancelled: every stake went back."))
    if table.status != Table.Status.WAITING:
        raise GameError(_("The game has started: if you go, the computer plays your seat."))
    check_version(table, version)
    seat.user, seat.joined_at = None, None
    seat.save()
    escrow().refund(table=table, seat=seat.number)
    if not table.seats.exclude(user=None).exists():
        _cancel(writing)


def _cancel(writing: Writing) -> None:
    writing.close(Table.Status.CANCELLED, timezone.now())
    escrow().refund_all(table=writing.table)


@handles(STAKE_FILL)
def stake_table_expire(claimed: Deadline, now: datetime) -> bool:
    """Nobody came in time: the table is cancelled and every stake refunded, once."""
    assert claimed.table_id is not None
    with transaction.atomic(), changing(claimed.table_id) as writing:
        deadline = still_due(claimed)
        if deadline is None or writing.table.status != Table.Status.WAITING:
            if deadline is not None:
                deadline.delete()
            writing.unchanged()
            return False
        _cancel(writing)  # the deadline goes with the table's others
        return True


def open_stake_tables() -> list[Table]:
    """The stake tables waiting for players, for the lobby (oldest first)."""
    return list(
        Table.objects.filter(status=Table.Status.WAITING, stake__gt=0)
        .prefetch_related("seats__user")
        .order_by("stake", "preset", "players", "created_at")
    )
