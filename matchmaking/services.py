"""Writes: joining and leaving a queue, the wave that seats a pool, the fill with simulated players.

Lock order (the global one, ``games.services.common``): a join or a leave takes
the player's own row first (one player's joins run one after another, whatever
pool they name), then a pool's row, then its tickets.  A table is only ever
created here, never locked, so nothing waits on a table while holding a pool.
Every wave runs under its pool's lock, so two processes never seat one ticket
twice nor fill one room twice; the fill deadline is also checked with
``still_due`` under that lock.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.levels import level_for
from accounts.models import User
from accounts.services import lock_player
from deadlines.models import Deadline
from deadlines.services import handles, on_parked, set_deadline, still_due
from games.engine import PRESET_OPTIONS, Rules
from games.models import Table
from games.services import online_table_create
from games.services.online import Filler
from games.view.errors import GameError
from matchmaking.kinds import POOL_FILL, POOL_WAVE, QUEUE_LEAVE
from ratings.policy import format_of
from ratings.selectors import browsers_of, skills_of

from . import announce, pairing, presence
from .models import Pool, Ticket, pool_key
from .names import filler_names


def fill_timeout() -> timedelta:
    """How long a forming room waits for people before simulated players complete it."""
    return timedelta(seconds=settings.MATCHMAKING_FILL_SECONDS)


def rating_window() -> pairing.Window | None:
    """How far apart in rating a pool seats people (None: first come, first seated);
    open to anyone once they have waited as long as the fill."""
    if not settings.MATCHMAKING_SKILL_PAIRING:
        return None
    return pairing.Window(open_after=fill_timeout())


def queue_of(pool: Pool, tickets: list[Ticket]) -> list[pairing.Waiting]:
    """The pool's waiting tickets as the pairing sees them: with each player's rating
    in the pool's format and the browsers they signed in from."""
    users = [t.user_id for t in tickets]
    skills = skills_of(user_ids=users, format=format_of(pool.players, pool.teams))
    browsers = browsers_of(user_ids=users)
    return [
        pairing.Waiting(
            id=t.pk,
            player=t.user_id,
            joined_at=t.joined_at,
            level=t.level,
            rating=skills[t.user_id].shown,
            browsers=browsers.get(t.user_id, frozenset()),
        )
        for t in tickets
    ]


def can_play_online(user: User | None) -> bool:
    """Online play is with a username: not for visitors or guests."""
    return user is not None and user.is_authenticated and not user.is_guest


def online_table_in_play(*, user: User) -> Table | None:
    """The online game this player is seated at and still going, if any."""
    return (
        Table.objects.filter(mode=Table.Mode.ONLINE, status=Table.Status.PLAYING, seats__user=user)
        .order_by("-pk")
        .first()
    )


def pool_for(*, rules: Rules) -> Pool:
    """The pool for exactly these settings (made on first use)."""
    if rules.preset not in PRESET_OPTIONS:
        raise GameError(_("These settings are not played online."))
    pool, _created = Pool.objects.get_or_create(
        key=pool_key(rules),
        defaults=Table.rules_fields(rules),  # a pool stores its rules as a table does
    )
    return pool


@transaction.atomic
def queue_join(*, user: User, rules: Rules) -> Ticket:
    """Wait in the queue for these settings; a ticket in another queue is left.

    The pool's wave runs at once: the ticket comes back seated (with its table)
    when enough people were waiting."""
    if not can_play_online(user):
        raise GameError(_("Online play needs a username: save your account first."))
    lock_player(user)  # first: even the pool's first use (an insert) comes after it
    pool_id = pool_for(rules=rules).pk
    if online_table_in_play(user=user) is not None:
        raise GameError(_("You are playing an online game: finish it first."))
    pool = Pool.objects.select_for_update().get(pk=pool_id)
    now = timezone.now()
    current = (
        Ticket.objects.select_for_update(of=("self",))
        .filter(user=user, status=Ticket.Status.WAITING)
        .first()
    )
    if current is not None and current.pool_id == pool.pk:
        return current  # pressed twice: the place in the queue is kept
    if online_table_in_play(user=user) is not None:  # seated by a wave while we waited
        raise GameError(_("You are playing an online game: finish it first."))
    changed_pools = {pool.pk}
    if current is not None:
        current.status, current.ended_at = Ticket.Status.LEFT, now
        current.save(update_fields=["status", "ended_at"])
        changed_pools.add(current.pool_id)
        # That pool's fill deadline corrects itself when it fires (see pool_fill).
    ticket = Ticket.objects.create(
        user=user, pool=pool, joined_at=now, level=level_for(user.xp).number
    )
    announce.queue_changed(pool_ids=changed_pools, user_ids=[user.pk])
    pool_wave(pool=pool, now=now)
    ticket.refresh_from_db()
    return ticket


@transaction.atomic
def queue_leave(*, user: User, ticket_id: int | None = None) -> Ticket | None:
    """Leave the queue at once; None when the player was not waiting (with
    ``ticket_id``: not waiting with that ticket, say after joining another queue)."""
    lock_player(user)
    open_ticket = Ticket.objects.filter(user=user, status=Ticket.Status.WAITING).first()
    if open_ticket is None or ticket_id not in (None, open_ticket.pk):
        return None
    pool = Pool.objects.select_for_update().get(pk=open_ticket.pool_id)
    ticket = (
        Ticket.objects.select_for_update(of=("self",))
        .filter(pk=open_ticket.pk, status=Ticket.Status.WAITING)
        .first()
    )
    if ticket is None:  # seated (or gone) while we took the lock
        return None
    ticket.status, ticket.ended_at = Ticket.Status.LEFT, timezone.now()
    ticket.save(update_fields=["status", "ended_at"])
    announce.queue_changed(pool_ids=[pool.pk], user_ids=[user.pk])
    pool_wave(pool=pool, now=ticket.ended_at)  # only to move the fill deadline
    return ticket


def leave_grace() -> timedelta:
    """How long a player's closed waiting screens have to come back (a reload)."""
    return timedelta(seconds=presence.LEAVE_GRACE_SECONDS)


def _leave_key(user_id: int, ticket_id: int) -> str:
    return f"{user_id}:{ticket_id}"


@transaction.atomic
def screens_closed(*, user: User, ticket_id: int, now: datetime | None = None) -> None:
    """The player's last waiting screen closed: unless one is open again once the
    grace is over, they leave the queue (a ``QUEUE_LEAVE`` deadline, which a screen
    closing again moves on)."""
    lock_player(user)
    due = (now or timezone.now()) + leave_grace()
    set_deadline(QUEUE_LEAVE, due, key=_leave_key(user.pk, ticket_id))


@handles(QUEUE_LEAVE)
def leave_unless_back(claimed: Deadline, now: datetime) -> bool:
    """The grace is over: leave the queue, unless a waiting screen of the player's is
    open again or the ticket waits no more (seated, or another queue joined)."""
    user_id, ticket_id = (int(part) for part in claimed.key.split(":"))
    user = User.objects.filter(pk=user_id).first()
    with transaction.atomic():
        if user is not None:
            lock_player(user)  # the subject: the player's own lock, as for a leave
        deadline = still_due(claimed)
        if deadline is None:
            return False
        deadline.delete()
        if user is None or presence.screens_open(user_id):
            return False
        return queue_leave(user=user, ticket_id=ticket_id) is not None


def pool_wave(*, pool: Pool, now: datetime, fill: bool = False) -> list[Table]:
    """Seat every full room of the pool; with ``fill``, complete the forming room
    with simulated players if it has waited long enough.  Call in a transaction
    holding the pool's lock; the fill deadline is then set for whoever is left."""
    waiting = list(
        Ticket.objects.select_for_update(of=("self",))
        .filter(pool=pool, status=Ticket.Status.WAITING)
        .order_by("joined_at", "id")
    )
    by_id = {t.pk: t for t in waiting}
    queue, window = queue_of(pool, waiting), rating_window()
    seats = pool.players
    tables = [
        _start(pool, [by_id[w.id] for w in room], now=now)
        for room in pairing.rooms(queue, seats, now=now, window=window)
    ]
    if fill:
        room = pairing.room_to_fill(queue, seats, now=now, timeout=fill_timeout(), window=window)
        if room is not None:
            level = pairing.filler_level([w.level for w in room.people])
            fillers = [Filler(name, level) for name in filler_names(room.fillers)]
            people = [by_id[w.id] for w in room.people]
            tables.append(_start(pool, people, now=now, fillers=fillers))
    seated = {t.pk for t in waiting if t.status == Ticket.Status.SEATED}
    left = [w for w in queue if w.id not in seated]
    for kind, due in (
        (POOL_FILL, pairing.fill_due_at(left, seats, fill_timeout(), now=now, window=window)),
        (POOL_WAVE, pairing.next_wave_at(left, seats, now=now, window=window)),
    ):
        if due is None:
            Deadline.objects.filter(kind=kind, key=pool.key).delete()
        else:
            set_deadline(kind, due, key=pool.key)
    if tables:
        announce.queue_changed(pool_ids=[pool.pk], user_ids=[by_id[i].user_id for i in seated])
    return tables


def _start(
    pool: Pool, tickets: list[Ticket], *, now: datetime, fillers: list[Filler] | None = None
) -> Table:
    """The table for one room; its tickets are seated at it (same transaction)."""
    people = [t.user for t in tickets]
    table = online_table_create(rules=pool.rules, people=people, fillers=fillers or ())
    for ticket in tickets:
        ticket.status, ticket.table, ticket.ended_at = Ticket.Status.SEATED, table, now
    Ticket.objects.bulk_update(tickets, ["status", "table", "ended_at"])
    return table


@handles(POOL_FILL)
def pool_fill(claimed: Deadline, now: datetime) -> bool:
    """The forming room waited long enough: complete it with simulated players."""
    with transaction.atomic():
        pool = Pool.objects.select_for_update().filter(key=claimed.key).first()
        deadline = still_due(claimed)
        if deadline is None:
            return False
        if pool is None:
            deadline.delete()
            return False
        return bool(pool_wave(pool=pool, now=now, fill=True))


@handles(POOL_WAVE)
def pool_wave_again(claimed: Deadline, now: datetime) -> bool:
    """Ratings windows widened enough for someone waiting: seat the rooms now possible."""
    with transaction.atomic():
        pool = Pool.objects.select_for_update().filter(key=claimed.key).first()
        deadline = still_due(claimed)
        if deadline is None:
            return False
        deadline.delete()
        return pool is not None and bool(pool_wave(pool=pool, now=now))


@on_parked(POOL_FILL)
def pool_fill_parked(claimed: Deadline) -> None:
    """The fill failed too often: the waiting screens stop promising simulated players."""
    pool = Pool.objects.filter(key=claimed.key).first()
    if pool is not None:
        announce.queue_changed(pool_ids=[pool.pk])
