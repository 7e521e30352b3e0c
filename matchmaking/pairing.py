"""Who sits together: a pure function over one pool's waiting tickets (no Django).

Like lila's pool: the wave asks :func:`rooms` for the rooms that can start now,
and, when the oldest person left waiting has waited long enough,
:func:`room_to_fill` says which people are seated with how many simulated
players.  Without a rating :class:`Window` it is first come, first seated; with
one, each room is built around the oldest person still waiting from the people
closest to them in rating, among those the window allows: a window that widens
the longer people wait, open to anyone once they have waited as long as the
fill (so nobody waits longer than first come, first seated would have them).
Two accounts of one browser never share a room.  In a four-player game in pairs
the seat order is the order people came, so the first and third are partners.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
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
    rating: int = 1500  # in the pool's format, as players read it
    browsers: frozenset[str] = field(default_factory=frozenset)  # where the player signed in


@dataclass(frozen=True)
class Window:
    """How far apart in rating two waiting people may sit together: ``base`` points
    each, and ``per_second`` more for every second each has waited; once someone has
    waited ``open_after``, anyone may sit with them (lichess's pools widen alike)."""

    base: float = 50.0
    per_second: float = 15.0
    open_after: timedelta = timedelta(seconds=20)

    def reach(self, w: Waiting, now: datetime) -> float:
        """How far from their own rating ``w`` reaches at ``now``."""
        waited = max(0.0, (now - w.joined_at).total_seconds())
        if waited >= self.open_after.total_seconds():
            return math.inf
        return self.base + self.per_second * waited

    def allows(self, a: Waiting, b: Waiting, now: datetime) -> bool:
        return abs(a.rating - b.rating) <= self.reach(a, now) + self.reach(b, now)

    def opens_at(self, a: Waiting, b: Waiting) -> datetime:
        """The first instant the window allows ``a`` and ``b`` together (both waiting)."""
        later = max(a.joined_at, b.joined_at)
        gap = abs(a.rating - b.rating) - 2 * self.base
        midpoint = a.joined_at + (b.joined_at - a.joined_at) / 2
        meet = midpoint + timedelta(seconds=gap / (2 * self.per_second))
        opened = min(a.joined_at, b.joined_at) + self.open_after
        return max(later, min(meet, opened))


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


def _together(a: Waiting, b: Waiting, now: datetime | None, window: Window | None) -> bool:
    if a.browsers & b.browsers:
        return False
    return window is None or now is None or window.allows(a, b, now)


def _room_around(
    anchor: Waiting,
    others: Iterable[Waiting],
    seats: int,
    now: datetime | None,
    window: Window | None,
) -> tuple[Waiting, ...]:
    """The largest room of at most ``seats`` around ``anchor``: with a window, the
    closest ratings first; without, the first to come.  In arrival order."""
    fits = [o for o in others if _together(anchor, o, now, window)]
    if window is not None:
        fits.sort(key=lambda o: abs(o.rating - anchor.rating))  # stable: ties by arrival
    room = [anchor]
    for candidate in fits:
        if len(room) == seats:
            break
        if all(_together(candidate, m, now, window) for m in room):
            room.append(candidate)
    return tuple(sorted(room, key=lambda w: (w.joined_at, w.id)))


def _split(
    waiting: Sequence[Waiting], seats: int, now: datetime | None, window: Window | None
) -> tuple[list[tuple[Waiting, ...]], list[Waiting]]:
    """The rooms that can start now, and who is left waiting (both oldest first)."""
    if seats < 2:
        raise ValueError(f"a room has 2 seats or more, not {seats}")
    order = queue_order(waiting)
    seated: set[int] = set()
    started = []
    for anchor in order:
        if anchor.id in seated:
            continue
        others = (w for w in order if w.id not in seated and w.id != anchor.id)
        room = _room_around(anchor, others, seats, now, window)
        if len(room) == seats:
            started.append(room)
            seated.update(w.id for w in room)
    return started, [w for w in order if w.id not in seated]


def rooms(
    waiting: Sequence[Waiting],
    seats: int,
    *,
    now: datetime | None = None,
    window: Window | None = None,
) -> list[tuple[Waiting, ...]]:
    """The full rooms to start now, oldest players first; the rest keep waiting."""
    return _split(waiting, seats, now, window)[0]


def forming(
    waiting: Sequence[Waiting],
    seats: int,
    *,
    now: datetime | None = None,
    window: Window | None = None,
) -> tuple[Waiting, ...]:
    """Who is left waiting once the rooms that can start are started, oldest first."""
    return tuple(_split(waiting, seats, now, window)[1])


def fill_due_at(
    waiting: Sequence[Waiting],
    seats: int,
    timeout: timedelta,
    *,
    now: datetime | None = None,
    window: Window | None = None,
) -> datetime | None:
    """When the oldest person left waiting is to be seated with fillers (None: nobody
    is left waiting)."""
    left = forming(waiting, seats, now=now, window=window)
    return left[0].joined_at + timeout if left else None


def room_to_fill(
    waiting: Sequence[Waiting],
    seats: int,
    *,
    now: datetime,
    timeout: timedelta,
    window: Window | None = None,
) -> Fill | None:
    """The room around the oldest person left waiting, if they have waited ``timeout``:
    never only fillers."""
    left = forming(waiting, seats, now=now, window=window)
    if not left or now < left[0].joined_at + timeout:
        return None
    room = _room_around(left[0], left[1:], seats, now, window)
    return Fill(people=room, fillers=seats - len(room))


def room_of(
    waiting: Sequence[Waiting],
    seats: int,
    ticket: int,
    *,
    now: datetime,
    window: Window | None = None,
) -> tuple[Waiting, ...]:
    """The room forming for ``ticket`` (the waiting screen's): the oldest waiting
    person's if it would take them, else the one around them."""
    left = forming(waiting, seats, now=now, window=window)
    mine = next((w for w in left if w.id == ticket), None)
    if mine is None:
        return ()
    oldest = _room_around(left[0], left[1:], seats, now, window)
    if mine in oldest:
        return oldest
    return _room_around(mine, (w for w in left if w is not mine), seats, now, window)


def next_wave_at(
    waiting: Sequence[Waiting],
    seats: int,
    *,
    now: datetime,
    window: Window | None,
) -> datetime | None:
    """When the window next lets two of the people left waiting sit together, while
    enough of them wait to fill a room (None: no need to look again before the fill)."""
    left = forming(waiting, seats, now=now, window=window)
    if window is None or len(left) < seats:
        return None
    times = [
        window.opens_at(a, b)
        for i, a in enumerate(left)
        for b in left[i + 1 :]
        if not a.browsers & b.browsers and not window.allows(a, b, now)
    ]
    later = [t for t in times if t > now]
    return min(later) if later else None


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
