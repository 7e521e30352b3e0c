"""Writes on the league: points when an online match ends, and the week's closing.

Lock order (after the global one, table → seats → invitations/tickets): the
league week's row, then wallets.  A match ending *shares* its week's row
(``FOR SHARE`` on PostgreSQL), so ending matches never wait on each other; the
closing takes the row alone, so it sees every match of the week and no match
lands in a week after its table was frozen (a late one goes to the next week).
The prizes are paid after the closing commits, each in its own transaction with
the ledger's idempotency key ``league:{week}:{division}:{rank}``: so the
closing holds no wallet while a match ending may be waiting on the week.  A
prize not yet paid (a crash in between) is paid by the worker's periodic job.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone

from accounts.models import User
from deadlines.models import Deadline
from deadlines.services import handles, set_deadline, still_due
from deadlines.worker import every
from economy.models import Account, Reason
from economy.services import house, post_transfer, wallet_of
from games.models import SeatResult, Table
from league.kinds import LEAGUE_WEEK

from . import rules, selectors
from .models import Entry, Finish, LeagueWeek, Member, Tier
from .weeks import Week, week_of

log = logging.getLogger(__name__)


def _week_row(week: Week) -> LeagueWeek:
    row, _created = LeagueWeek.objects.get_or_create(
        key=week.key, defaults={"starts_at": week.starts_at, "ends_at": week.ends_at}
    )
    return row


def _shared_open_week(week: Week) -> LeagueWeek:
    """The first week from ``week`` on that is still open, its row shared until commit."""
    while True:
        row = _week_row(week)
        if connection.vendor == "postgresql":
            row = next(
                iter(
                    LeagueWeek.objects.raw(
                        "SELECT * FROM league_leagueweek WHERE id = %s FOR SHARE", [row.pk]
                    )
                )
            )
        if row.closed_at is None:
            return row
        week = week.next


def match_entries(*, table: Table) -> int:
    """Write the league points of a finished match (call in the transaction that ends it);
    returns how many people it counted.

    Online tables only; people with saved accounts only (not bots, simulated
    players, guests, nor a person whose seat a computer player finished); half
    when the room had simulated players.  Writing twice writes once.
    """
    if table.mode != Table.Mode.ONLINE:
        return 0
    results = list(
        SeatResult.objects.filter(
            table=table,
            user__isnull=False,
            user__is_guest=False,
            is_bot=False,
            is_filler=False,
            league_entry__isnull=True,  # not counted yet
        ).order_by("user_id")
    )
    if not results:
        return 0
    at = table.finished_at or timezone.now()
    week = _shared_open_week(week_of(at))
    seating = rules.seating_of(players=table.players, teams=table.teams)
    simulated = table.fillers > 0
    entries = []
    for r in results:
        assert r.user_id is not None  # people only, by the filter above
        Member.objects.get_or_create(user_id=r.user_id)
        entries.append(
            Entry(
                week=week,
                user_id=r.user_id,
                table=table,
                result=r,
                rank=r.rank,
                points=rules.points_for(seating=seating, rank=r.rank, simulated=simulated),
                halved=simulated,
                created_at=at,
            )
        )
    Entry.objects.bulk_create(entries, ignore_conflicts=True)  # a twin may have counted them
    return len(results)


def close_week(*, week: Week, now: datetime) -> bool:
    """Freeze the week's final tables and move players between divisions, once.

    Call in a transaction; returns False when the week was already closed.
    """
    row = LeagueWeek.objects.select_for_update().get(pk=_week_row(week).pk)
    if row.closed_at is not None:
        return False
    finishes: list[Finish] = []
    moves: dict[int, list[int]] = {1: [], -1: []}
    for tier in Tier.values:
        table = selectors.standings(week=week, tier=tier)
        finishes += [
            Finish(
                week=row,
                tier=tier,
                rank=r.rank,
                user_id=r.user_id,
                points=r.points,
                matches=r.matches,
                move=r.move,
                prize=r.prize,
            )
            for r in table
        ]
        for r in table:
            if r.move:
                moves[r.move].append(r.user_id)
        if tier > rules.LOWEST:  # who played no league match this week goes down one
            played = [r.user_id for r in table]
            moves[-1] += (
                Member.objects.filter(tier=tier)
                .exclude(user_id__in=played)
                .values_list("user_id", flat=True)
            )
    Finish.objects.bulk_create(finishes)
    Member.objects.filter(user_id__in=moves[1]).update(tier=F("tier") + 1, updated_at=now)
    Member.objects.filter(user_id__in=moves[-1]).update(tier=F("tier") - 1, updated_at=now)
    row.closed_at = now
    row.save(update_fields=["closed_at"])
    return True


def pay_prizes(*, week_key: str | None = None) -> int:
    """Pay the prizes of closed weeks not paid yet, one transaction each; returns how many.

    The ledger's key makes a repeat (or a twin worker) pay once.
    """
    owed = Finish.objects.filter(prize__gt=0, prize_transfer__isnull=True)
    if week_key is not None:
        owed = owed.filter(week__key=week_key)
    paid = 0
    for finish in owed.select_related("week", "user").order_by("user_id"):
        with transaction.atomic():
            transfer = post_transfer(
                key=f"league:{finish.week.key}:{finish.tier}:{finish.rank}",
                reason=Reason.LEAGUE,
                legs=[
                    (house(Account.Source.LEAGUE), -finish.prize),
                    (wallet_of(user=finish.user), finish.prize),
                ],
                memo=f"{finish.week.key} {Tier(finish.tier).name.lower()} #{finish.rank}",
            )
            Finish.objects.filter(pk=finish.pk, prize_transfer__isnull=True).update(
                prize_transfer=transfer
            )
        paid += 1
    return paid


def ensure_week_deadline(*, now: datetime) -> Deadline:
    """The league's one pending deadline: the week after the last closed one (or this week)."""
    pending = Deadline.objects.filter(kind=LEAGUE_WEEK).first()
    if pending is not None:
        return pending
    last = selectors.last_closed_week()
    if last is not None:
        week = Week.parse(last.key).next
    else:
        oldest_open = LeagueWeek.objects.filter(closed_at__isnull=True).order_by("starts_at")
        first = oldest_open.values_list("key", flat=True).first()
        week = min(week_of(now), Week.parse(first)) if first else week_of(now)
    deadline, _created = Deadline.objects.get_or_create(
        kind=LEAGUE_WEEK, key=week.key, defaults={"due_at": week.ends_at}
    )
    return deadline


@handles(LEAGUE_WEEK)
def close_week_when_due(claimed: Deadline, now: datetime) -> bool:
    """Sunday 24:00 in Rome (or later, after a restart): close the week, set the next one."""
    week = Week.parse(claimed.key)
    with transaction.atomic():
        _week_row(week)
        LeagueWeek.objects.select_for_update().get(key=week.key)  # the subject's lock first
        deadline = still_due(claimed)
        if deadline is None:
            return False
        closed = close_week(week=week, now=now)
        deadline.delete()
        set_deadline(LEAGUE_WEEK, week.next.ends_at, key=week.next.key)
    if closed:
        log.info("league week %s closed", week.key)
        pay_prizes(week_key=week.key)
    return closed


@every("league", timedelta(minutes=10))
def league_housekeeping(now: datetime) -> None:
    """At the worker's start and every ten minutes: the week has a deadline; prizes are paid."""
    ensure_week_deadline(now=now)
    pay_prizes()


def player_may_enter(*, user: User | None) -> bool:
    """Saved accounts play the league (as they earn coins); guests are asked to save theirs."""
    return user is not None and user.is_authenticated and not user.is_guest
