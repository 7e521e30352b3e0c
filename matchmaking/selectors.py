"""Reads: what the lobby and a waiting screen show."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import datetime

from django.utils import timezone

from accounts.models import User
from deadlines.models import Deadline
from games.models import Table
from matchmaking.kinds import POOL_FILL

from .models import Pool, Ticket
from .pairing import room_of
from .services import can_play_online, fill_timeout, queue_of, rating_window


@dataclass(frozen=True)
class PoolCount:
    pool: Pool
    waiting: int


def pool_counts() -> list[PoolCount]:
    """The pools with people waiting now, the busiest first (the lobby polls it).
    The waiting tickets' pools, counted here: half the cost of the ORM's compiling
    a filtered count over every pool, and the pools are read only if anyone waits."""
    waiting = Counter(
        Ticket.objects.filter(status=Ticket.Status.WAITING).values_list("pool_id", flat=True)
    )
    if not waiting:
        return []
    pools = Pool.objects.in_bulk(list(waiting))
    counts = [PoolCount(pool=pools[pk], waiting=n) for pk, n in waiting.items()]
    return sorted(counts, key=lambda c: (-c.waiting, c.pool.key))


@dataclass(frozen=True)
class QueueState:
    """A player's place: waiting (with the forming room), seated (at ``table``), or neither."""

    ticket: Ticket | None
    waiting: int = 0  # people waiting for these settings
    room: tuple[str, ...] = ()  # the names in the player's forming room, in order
    fill_at: datetime | None = None  # when simulated players complete it
    fill_parked: bool = False  # the fill failed too often: no simulated players for now
    table: Table | None = None  # where the player was just seated

    @property
    def free_seats(self) -> range:
        """One item per seat of the forming room nobody has taken yet."""
        if self.ticket is None or self.table is not None:
            return range(0)
        return range(max(0, self.ticket.pool.players - len(self.room)))

    @property
    def remaining_ms(self) -> int:
        if self.fill_at is None:
            return 0
        return max(0, int((self.fill_at - timezone.now()).total_seconds() * 1000))

    @property
    def remaining_seconds(self) -> int:
        return -(-self.remaining_ms // 1000)


def queue_state(*, user: User | None) -> QueueState:
    """Where this player stands in matchmaking (visitors and guests stand nowhere)."""
    if user is None or not can_play_online(user):
        return QueueState(ticket=None)
    # its pool or table is read only when the player waits or was just seated
    ticket = Ticket.objects.filter(user_id=user.pk).order_by("-pk").first()
    if ticket is None or ticket.status == Ticket.Status.LEFT:
        return QueueState(ticket=None)
    if ticket.status == Ticket.Status.SEATED:
        playing = ticket.table is not None and ticket.table.status == Table.Status.PLAYING
        return QueueState(ticket=ticket, table=ticket.table) if playing else QueueState(ticket=None)
    pool = ticket.pool
    waiting = list(
        Ticket.objects.filter(pool=pool, status=Ticket.Status.WAITING)
        .select_related("user")
        .order_by("joined_at", "id")
    )
    by_id = {t.pk: t for t in waiting}
    now = timezone.now()
    mine = room_of(
        queue_of(pool, waiting), pool.players, ticket.pk, now=now, window=rating_window()
    )
    room = [by_id[w.id] for w in mine]
    deadline = Deadline.objects.filter(kind=POOL_FILL, key=pool.key).first()
    parked = deadline is not None and deadline.parked_at is not None
    fill_at = room[0].joined_at + fill_timeout() if room else None
    if deadline is not None and fill_at is not None:
        fill_at = max(fill_at, deadline.due_at)  # the fill seats the oldest first
    return QueueState(
        ticket=ticket,
        waiting=len(waiting),
        room=tuple(t.user.display_name for t in room),
        fill_at=None if parked else fill_at,
        fill_parked=parked,
    )
