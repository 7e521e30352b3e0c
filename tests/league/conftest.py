"""Fixtures for the league tests: finished online matches and their result rows."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime

import pytest
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games.models import SeatResult, Table
from games.signals import match_finished
from league.models import Entry, LeagueWeek, Member
from league.weeks import week_of
from tests.fixtures import *  # noqa: F403

Finished = Callable[..., Table]


@pytest.fixture
def finished(make_user: Callable[..., User]) -> Finished:
    """A match that has just ended: one result row per seat, then ``match_finished``.

    ``seats`` are people (a user) or computer players (None; simulated players
    when ``fillers``); ``away`` seats are people a computer player finished for.
    """

    def make(
        seats: Sequence[User | None],
        ranks: Sequence[int],
        *,
        mode: str = Table.Mode.ONLINE,
        teams: bool | None = None,
        fillers: int = 0,
        at: datetime | None = None,
        away: Sequence[int] = (),
    ) -> Table:
        host = next((u for u in seats if u is not None), None) or make_user("host")
        at = at or timezone.now()
        table = Table.objects.create(
            mode=mode,
            status=Table.Status.FINISHED,
            host=host,
            preset="domino",
            players=len(seats),
            hand_size=5,
            teams=teams,
            fillers=fillers,
            finished_at=at,
        )
        with transaction.atomic():
            SeatResult.objects.bulk_create(
                SeatResult(
                    table=table,
                    seat=n,
                    user=user,
                    side=n % 2 if teams else n,
                    rank=rank,
                    points=100 if rank == 1 else 50,
                    is_bot=user is None or n in away,
                    is_filler=user is None and fillers > 0,
                )
                for n, (user, rank) in enumerate(zip(seats, ranks, strict=True))
            )
            match_finished.send(sender=Table, table=table)
        return table

    return make


def points_of(user: User) -> list[int]:
    return list(Entry.objects.filter(user=user).order_by("pk").values_list("points", flat=True))


@pytest.fixture
def add_points(anna: User) -> Callable[..., Entry]:
    """League points for a player in the week of ``at``, as one entry (standings tests)."""

    def add(user: User, points: int, at: datetime) -> Entry:
        week = week_of(at)
        row, _ = LeagueWeek.objects.get_or_create(
            key=week.key, defaults={"starts_at": week.starts_at, "ends_at": week.ends_at}
        )
        table = Table.objects.create(
            mode=Table.Mode.ONLINE,
            status=Table.Status.FINISHED,
            host=anna,
            preset="duello",
            players=2,
            hand_size=7,
            finished_at=at,
        )
        result = SeatResult.objects.create(
            table=table, seat=0, user=user, side=0, rank=1, points=100, is_bot=False
        )
        Member.objects.get_or_create(user=user)
        return Entry.objects.create(
            week=row, user=user, table=table, result=result, rank=1, points=points, created_at=at
        )

    return add
