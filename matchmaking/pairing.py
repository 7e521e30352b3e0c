"""Who sits together: a pure function over one pool's waiting tickets (no Django).

Like lila's pool: the wave asks :func:`rooms` for the rooms that are full now,
and, when the forming room has waited long enough, :func:`room_to_fill` says
which people are seated with how many simulated players.  First come, first
seated; in a four-player game in pairs the seat order is the order people
came, so the first and third are partners.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

#: Filler levels by the people's average level (accounts.levels): up to 2 easy,
#: up to 5 medium, then hard.  The lobby's rules text says the same.
EASY_UP_TO_LEVEL = 2
MEDIUM_UP_TO_LEVEL = 5


@dataclass(frozen=True)
class Waiting:
    """A waiting ticket, as the pairing sees it."""

    id: int
    player: int
    joined_at: datetime
    level: int = 1
    pool: str = ""


@dataclass(frozen=True)
class Fill:
    """A partial room to start now: these people, and ``fillers`` simulated players."""

    people: tuple[Waiting, ...]
    fillers: int


def queue_order(waiting: Sequence[Waiting]) -> list[Waiting]:
    """One pool's queue, oldest first; a player's later tickets are ignored."""
    pools = {w.pool for w in waiting}
    if len(pools) > 1:
        raise ValueError(f"one pool at a time, not {sorted(pools)}")
    seen: set[int] = set()
    order = []
    for w in sorted(waiting, key=lambda w: (w.joined_at, w.id)):
        if w.player not in seen:
            seen.add(w.player)
            order.append(w)
    return order


def rooms(waiting: Sequence[Waiting], seats: int) -> list[tuple[Waiting, ...]]:
    """The full rooms to start now, oldest players first; the rest keep waiting."""
    if seats < 2:
        raise ValueError(f"a room has 2 seats or more, not {seats}")
    order = queue_order(waiting)
    full = len(order) - len(order) % seats
    return [tuple(order[i : i + seats]) for i in range(0, full, seats)]


def forming(waiting: Sequence[Waiting], seats: int) -> tuple[Waiting, ...]:
    """The room still forming: who is left once the full rooms are started."""
    order = queue_order(waiting)
    return tuple(order[len(order) - len(order) % seats :])


def fill_due_at(waiting: Sequence[Waiting], seats: int, timeout: timedelta) -> datetime | None:
    """When the forming room is to be completed with fillers (None: nobody is waiting)."""
    room = forming(waiting, seats)
    return room[0].joined_at + timeout if room else None


def room_to_fill(
    waiting: Sequence[Waiting], seats: int, *, now: datetime, timeout: timedelta
) -> Fill | None:
    """The forming room, if its oldest player has waited ``timeout``: never only fillers."""
    due = fill_due_at(waiting, seats, timeout)
    if due is None or now < due:
        return None
    room = forming(waiting, seats)
    return Fill(people=room, fillers=seats - len(room))


def filler_level(levels: Sequence[int]) -> str:
    """The simulated players' level for people of these levels (their average)."""
    if not levels:
        raise ValueError("fillers are matched to at least one person")
    n = len(levels)
    average = (2 * sum(levels) + n) // (2 * n)  # rounded half up
    if average <= EASY_UP_TO_LEVEL:
        return "easy"
    if average <= MEDIUM_UP_TO_LEVEL:
        return "medium"
    return "hard"
