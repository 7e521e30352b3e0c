"""The figures an operator looks at first (the admin's live page): each cheap to read
at every view of the page, none of them a player's or a table's detail."""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import Count, Max, Q

from deadlines.models import Deadline
from games.models import Move, Table
from monitoring import errors, exposition

#: A deadline due longer ago than this and not applied is late.
LATE = timedelta(seconds=5)
#: The newest moves looked at for "moves a minute": far more than a busy minute makes
#: (12,000 at 200 moves a second), read along the primary key.
RECENT_MOVES = 50_000


@dataclass(frozen=True)
class Figures:
    sockets: dict[str, int]  # open websockets by kind: table, notify, queue
    tables_playing: int
    moves_last_minute: int
    people_moves_last_minute: int  # of which by people (the rest: computer players)
    deadlines_late: int
    deadlines_parked: int
    errors_last_hour: int

    @property
    def online(self) -> int:
        """Open table pages and waiting screens, and other pages of signed-in players:
        a player with two tabs open counts twice."""
        return sum(self.sockets.values())


def figures(now: datetime) -> Figures:
    since = now - timedelta(minutes=1)
    newest = Move.objects.aggregate(newest=Max("pk"))["newest"] or 0
    moves = Move.objects.filter(pk__gt=newest - RECENT_MOVES, created_at__gte=since).aggregate(
        all=Count("pk"), people=Count("pk", filter=Q(actor=Move.Actor.PERSON))
    )
    waiting = Deadline.objects.filter(parked_at__isnull=True)
    return Figures(
        sockets=exposition.gauge_by_label("domino_open_sockets", "socket"),
        tables_playing=Table.objects.filter(status=Table.Status.PLAYING).count(),
        moves_last_minute=moves["all"],
        people_moves_last_minute=moves["people"],
        deadlines_late=waiting.filter(due_at__lt=now - LATE).count(),
        deadlines_parked=Deadline.objects.filter(parked_at__isnull=False).count(),
        errors_last_hour=errors.errors_last_hour(time.time()),
    )
