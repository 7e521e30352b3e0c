"""Reads on the league: a division's standings, frozen final tables, best finishes.

A division's standings are one query: the week's entries of the division's
members, summed per player (index ``(week, user)``), ordered by points, then
by who got there first.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from django.db.models import Count, F, Max, Q, Sum
from django.utils import timezone

from economy import numbers
from games.hooks.payouts import Payout
from games.models import Table

from . import rules
from .models import Entry, Finish, LeagueWeek, Member, Tier
from .weeks import Week, week_of

if TYPE_CHECKING:
    from accounts.models import User

#: How many places the page shows from the top, and around the viewer.
TOP = 10
AROUND = 2


@dataclass(frozen=True)
class Row:
    rank: int
    user_id: int
    name: str
    points: int
    matches: int
    move: int  # +1 going up, -1 going down, 0 staying (projected, or final)
    prize: int = 0
    halved: int = 0  # of the points, those from rooms with simulated players (counted half)


def tier_of(*, user: User | None) -> int:
    """The player's division (everybody starts in the lowest)."""
    if user is None or user.pk is None:
        return rules.LOWEST
    tier = Member.objects.filter(user_id=user.pk).values_list("tier", flat=True).first()
    return rules.LOWEST if tier is None else tier


def standings(*, week: Week, tier: int) -> list[Row]:
    """The week's table of one division so far, with where each place would move."""
    totals = list(
        Entry.objects.filter(week__key=week.key, user__league__tier=tier)
        .values("user_id", name=F("user__username"))
        .annotate(
            total=Sum("points"),
            matches=Count("id"),
            last=Max("created_at"),
            halved=Sum("points", filter=Q(halved=True), default=0),
        )
        .order_by("-total", "last", "user_id")
    )
    count = len(totals)
    return [
        Row(
            rank=rank,
            user_id=t["user_id"],
            name=t["name"],
            points=t["total"],
            matches=t["matches"],
            move=rules.move_for(tier=tier, rank=rank, count=count, points=t["total"]),
            prize=rules.prize_for(tier=tier, rank=rank, points=t["total"]),
            halved=t["halved"],
        )
        for rank, t in enumerate(totals, start=1)
    ]


def visible_rows(rows: list[Row], *, viewer_id: int | None) -> list[Row | None]:
    """The top places and the viewer's neighbourhood; ``None`` marks a gap."""
    keep = set(range(1, TOP + 1))
    mine = next((r.rank for r in rows if r.user_id == viewer_id), None)
    if mine is not None:
        keep |= set(range(mine - AROUND, mine + AROUND + 1))
    shown: list[Row | None] = []
    for row in rows:
        if row.rank in keep:
            if shown and shown[-1] is not None and shown[-1].rank != row.rank - 1:
                shown.append(None)
            shown.append(row)
    return shown


def table_points(table: Table) -> list[tuple[int, Payout]]:
    """The league points a finished match wrote, per person (for its end screen)."""
    if table.mode != Table.Mode.ONLINE:
        return []  # only online matches count
    return [
        (user_id, Payout("league", points, halved=halved))
        for user_id, points, halved in Entry.objects.filter(table=table, points__gt=0)
        .order_by("user_id")
        .values_list("user_id", "points", "halved")
    ]


def last_closed_week() -> LeagueWeek | None:
    return LeagueWeek.objects.filter(closed_at__isnull=False).order_by("-starts_at").first()


def final_table(*, week: LeagueWeek, tier: int) -> list[Row]:
    """A closed week's frozen table of one division (the halved points summed from the
    week's entries, which stay)."""
    finishes = list(Finish.objects.filter(week=week, tier=tier).select_related("user"))
    halved = dict(
        Entry.objects.filter(week=week, halved=True, user_id__in=[f.user_id for f in finishes])
        .values("user_id")
        .annotate(points=Sum("points"))
        .values_list("user_id", "points")
    )
    return [
        Row(
            f.rank,
            f.user_id,
            f.user.username,
            f.points,
            f.matches,
            f.move,
            f.prize,
            halved.get(f.user_id, 0),
        )
        for f in finishes
    ]


def finish_tier(*, week: LeagueWeek, user: User | None) -> int | None:
    """The division the player ended that week in, if they played."""
    if user is None or user.pk is None:
        return None
    return Finish.objects.filter(week=week, user_id=user.pk).values_list("tier", flat=True).first()


@dataclass(frozen=True)
class BestFinish:
    week: str
    tier: int
    tier_name: str
    rank: int
    points: int


def best_finishes(*, user: User, limit: int = 3) -> list[BestFinish]:
    """The player's best places: highest division first, then best rank, then latest."""
    finishes = (
        Finish.objects.filter(user=user)
        .select_related("week")
        .order_by("-tier", "rank", "-week__starts_at")[:limit]
    )
    return [
        BestFinish(f.week.key, f.tier, str(Tier(f.tier).label), f.rank, f.points) for f in finishes
    ]


@dataclass(frozen=True)
class PointsRow:
    seating: str
    points: tuple[int, ...]
    simulated: tuple[int, ...]


def points_rows() -> list[PointsRow]:
    """The points table of the league page, from ``economy.numbers``."""
    return [
        PointsRow(
            seating,
            tuple(
                rules.points_for(seating=seating, rank=r, simulated=False)
                for r in range(1, len(table) + 1)
            ),
            tuple(
                rules.points_for(seating=seating, rank=r, simulated=True)
                for r in range(1, len(table) + 1)
            ),
        )
        for seating, table in numbers.LEAGUE_POINTS.items()
    ]


@dataclass(frozen=True)
class DivisionRow:
    tier: int
    name: str
    prizes: tuple[int, ...]
    promotes: bool
    relegates: bool


def division_rows() -> list[DivisionRow]:
    return [
        DivisionRow(
            t.value,
            str(t.label),
            numbers.LEAGUE_PRIZES[t.value],
            t.value < rules.HIGHEST,
            t.value > rules.LOWEST,
        )
        for t in reversed(Tier)
    ]


def current_week(now: datetime | None = None) -> Week:
    return week_of(now or timezone.now())
