"""The pure pairing function: who sits together, and when fillers complete a room."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matchmaking.pairing import (
    Fill,
    Waiting,
    Window,
    fill_due_at,
    filler_level,
    forming,
    next_wave_at,
    room_of,
    room_to_fill,
    rooms,
)

T0 = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
TIMEOUT = timedelta(seconds=20)


def waiting(n: int, *, pool: str = "p") -> list[Waiting]:
    return [
        Waiting(id=i, player=100 + i, joined_at=T0 + timedelta(seconds=i), pool=pool)
        for i in range(n)
    ]


def ids(groups: list[tuple[Waiting, ...]]) -> list[list[int]]:
    return [[w.id for w in g] for g in groups]


def test_two_waiting_for_a_two_seat_room_sit_together_at_once() -> None:
    assert ids(rooms(waiting(2), 2)) == [[0, 1]]


def test_only_full_rooms_start_and_the_latest_keep_waiting() -> None:
    queue = waiting(7)
    assert ids(rooms(queue, 3)) == [[0, 1, 2], [3, 4, 5]]
    assert [w.id for w in forming(queue, 3)] == [6]


def test_first_come_first_seated_whatever_order_the_tickets_are_given_in() -> None:
    queue = waiting(5)
    assert ids(rooms(list(reversed(queue)), 4)) == [[0, 1, 2, 3]]


def test_a_player_is_seated_once_even_with_two_tickets() -> None:
    queue = [*waiting(3), Waiting(id=9, player=100, joined_at=T0 + timedelta(seconds=9), pool="p")]
    assert ids(rooms(queue, 2)) == [[0, 1]]
    assert [w.id for w in forming(queue, 2)] == [2]


def test_tickets_of_two_pools_are_refused_settings_are_never_mixed() -> None:
    with pytest.raises(ValueError, match="one pool at a time"):
        rooms([*waiting(2, pool="a"), Waiting(id=7, player=7, joined_at=T0, pool="b")], 2)


def test_the_forming_room_is_filled_when_its_oldest_has_waited_the_timeout() -> None:
    queue = waiting(2)  # 0 s and 1 s after T0, for a 4-seat room
    assert fill_due_at(queue, 4, TIMEOUT) == T0 + TIMEOUT
    assert (
        room_to_fill(queue, 4, now=T0 + TIMEOUT - timedelta(milliseconds=1), timeout=TIMEOUT)
        is None
    )
    fill = room_to_fill(queue, 4, now=T0 + TIMEOUT, timeout=TIMEOUT)
    assert fill == Fill(people=tuple(queue), fillers=2)


def test_nobody_waiting_means_no_fill_and_no_deadline() -> None:
    assert fill_due_at([], 2, TIMEOUT) is None
    assert room_to_fill([], 2, now=T0 + timedelta(hours=1), timeout=TIMEOUT) is None


def test_filler_level_follows_the_peoples_average_level() -> None:
    assert filler_level([1]) == "easy"
    assert filler_level([2, 2]) == "easy"
    assert filler_level([2, 3]) == "medium"  # 2.5 rounds up
    assert filler_level([5]) == "medium"
    assert filler_level([6]) == "hard"
    assert filler_level([1, 9]) == "medium"


# Properties over any queue of one pool.
tickets = st.lists(
    st.tuples(st.integers(0, 12), st.integers(0, 600), st.integers(1, 12)), max_size=30
).map(
    lambda rows: [
        Waiting(id=i, player=p, joined_at=T0 + timedelta(seconds=s), level=lv, pool="p")
        for i, (p, s, lv) in enumerate(rows)
    ]
)
seat_counts = st.integers(2, 4)


@given(tickets, seat_counts)
def test_property_nobody_is_seated_twice_and_rooms_are_full(
    queue: list[Waiting], seats: int
) -> None:
    started = rooms(queue, seats)
    players = [w.player for room in started for w in room] + [
        w.player for w in forming(queue, seats)
    ]
    assert len(players) == len(set(players)) == len({w.player for w in queue})
    assert all(len(room) == seats for room in started)
    assert len(forming(queue, seats)) < seats


@given(tickets, seat_counts)
def test_property_oldest_first(queue: list[Waiting], seats: int) -> None:
    seated = [w for room in rooms(queue, seats) for w in room]
    key = [(w.joined_at, w.id) for w in seated + list(forming(queue, seats))]
    assert key == sorted(key)  # rooms in arrival order, each room's seats in arrival order
    if seated and forming(queue, seats):
        assert max(w.joined_at for w in seated) <= min(w.joined_at for w in forming(queue, seats))


@given(tickets, seat_counts, st.integers(0, 1200))
def test_property_filler_count_is_seats_minus_people_never_a_room_of_fillers(
    queue: list[Waiting], seats: int, later: int
) -> None:
    now = T0 + timedelta(seconds=later)
    fill = room_to_fill(queue, seats, now=now, timeout=TIMEOUT)
    if fill is None:
        due = fill_due_at(queue, seats, TIMEOUT)
        assert due is None or now < due
        return
    assert fill.people == forming(queue, seats)
    assert 1 <= len(fill.people) < seats
    assert fill.fillers == seats - len(fill.people) >= 1
    assert now - fill.people[0].joined_at >= TIMEOUT


@given(
    st.lists(st.tuples(st.sampled_from("abc"), st.integers(0, 9), st.integers(0, 99)), max_size=30)
)
def test_property_settings_are_equal_at_every_table(rows: list[tuple[str, int, int]]) -> None:
    """The wave calls the pairing once per pool: every room it returns is of one pool."""
    queue = [
        Waiting(id=i, player=p, joined_at=T0 + timedelta(seconds=s), pool=pool)
        for i, (pool, p, s) in enumerate(rows)
    ]
    for pool in "abc":
        for room in rooms([w for w in queue if w.pool == pool], 2):
            assert {w.pool for w in room} == {pool}


# Pairing by skill: a rating window that widens with waiting, and browsers kept apart.
WINDOW = Window(base=50, per_second=15, open_after=TIMEOUT)


def rated(*ratings: int, browsers: tuple[frozenset[str], ...] = ()) -> list[Waiting]:
    """People who came a second apart from T0, with these ratings."""
    return [
        Waiting(
            id=i,
            player=100 + i,
            joined_at=T0 + timedelta(seconds=i),
            rating=r,
            browsers=browsers[i] if i < len(browsers) else frozenset(),
        )
        for i, r in enumerate(ratings)
    ]


def test_the_window_widens_with_waiting_and_opens_at_the_fill() -> None:
    a, b = rated(1500, 1800)  # 300 apart: 50 + 50 when both are new
    reaches = [WINDOW.reach(a, T0 + timedelta(seconds=s)) for s in (0, 5, 10, 19)]
    assert reaches == [50, 125, 200, 335]
    assert WINDOW.reach(a, T0 + TIMEOUT) == float("inf")
    assert rooms([a, b], 2, now=T0 + timedelta(seconds=1), window=WINDOW) == []
    opens = WINDOW.opens_at(a, b)  # 50 + 15 t  +  50 + 15 (t - 1)  =  300
    assert opens == T0 + timedelta(seconds=7.1666666666)  # to the microsecond
    assert rooms([a, b], 2, now=opens - timedelta(milliseconds=1), window=WINDOW) == []
    assert ids(rooms([a, b], 2, now=opens, window=WINDOW)) == [[0, 1]]
    assert next_wave_at([a, b], 2, now=T0 + timedelta(seconds=1), window=WINDOW) == opens


def test_the_closest_ratings_sit_together_first() -> None:
    queue = rated(1500, 1900, 1540, 1880)
    now = T0 + timedelta(seconds=3)
    assert ids(rooms(queue, 2, now=now, window=WINDOW)) == [[0, 2], [1, 3]]
    assert ids(rooms(queue, 2)) == [[0, 1], [2, 3]]  # first come, first seated


def test_a_far_rating_waits_no_longer_than_the_fill() -> None:
    queue = rated(1200, 2400)  # too far apart for any window but the open one
    assert next_wave_at(queue, 2, now=T0 + timedelta(seconds=1), window=WINDOW) == T0 + TIMEOUT
    assert ids(rooms(queue, 2, now=T0 + TIMEOUT, window=WINDOW)) == [[0, 1]]
    alone = rated(1200)
    fill = room_to_fill(alone, 2, now=T0 + TIMEOUT, timeout=TIMEOUT, window=WINDOW)
    assert fill == Fill(people=tuple(alone), fillers=1)


def test_two_accounts_of_one_browser_are_never_paired_however_long_they_wait() -> None:
    shared = frozenset({"b1"})
    queue = rated(1500, 1500, browsers=(shared, shared | {"b2"}))
    for later in (1, 20, 3600):
        now = T0 + timedelta(seconds=later)
        assert rooms(queue, 2, now=now, window=WINDOW) == []
        assert rooms(queue, 2) == []  # first come, first seated too
    assert next_wave_at(queue, 2, now=T0, window=WINDOW) is None
    fill = room_to_fill(queue, 2, now=T0 + TIMEOUT, timeout=TIMEOUT, window=WINDOW)
    assert fill == Fill(people=(queue[0],), fillers=1)  # the other waits for someone else
    third = Waiting(id=9, player=9, joined_at=T0 + timedelta(seconds=2), rating=1500)
    assert ids(rooms([*queue, third], 3, now=T0, window=WINDOW)) == []
    assert ids(rooms([*queue, third], 2, now=T0 + timedelta(seconds=2), window=WINDOW)) == [[0, 9]]


def test_the_waiting_screen_shows_the_room_forming_for_the_player() -> None:
    queue = rated(1500, 2400, 1520)  # a 3-seat pool: 0 and 2 are close, 1 far
    now = T0 + timedelta(seconds=3)
    assert [w.id for w in room_of(queue, 3, 2, now=now, window=WINDOW)] == [0, 2]
    assert [w.id for w in room_of(queue, 3, 1, now=now, window=WINDOW)] == [1]


@settings(deadline=None)  # timing is not the property: the suite shares a busy machine
@given(
    st.lists(st.tuples(st.integers(0, 40), st.integers(1000, 2200)), min_size=1, max_size=12),
    seat_counts,
    st.integers(0, 60),
)
def test_property_a_room_is_always_within_everyones_window_and_full(
    rows: list[tuple[int, int]], seats: int, later: int
) -> None:
    queue = [
        Waiting(id=i, player=i, joined_at=T0 + timedelta(seconds=s), rating=r)
        for i, (s, r) in enumerate(rows)
    ]
    now = T0 + timedelta(seconds=40 + later)
    started = rooms(queue, seats, now=now, window=WINDOW)
    for room in started:
        assert len(room) == seats
        assert all(WINDOW.allows(a, b, now) for a in room for b in room)
    left = forming(queue, seats, now=now, window=WINDOW)
    if left and now - left[0].joined_at >= TIMEOUT:  # nobody waits past the fill
        fill = room_to_fill(queue, seats, now=now, timeout=TIMEOUT, window=WINDOW)
        assert fill is not None and fill.people[0] == left[0] and fill.fillers >= 1
