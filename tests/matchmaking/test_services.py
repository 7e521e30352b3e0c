"""Queues: joining, leaving, one ticket per player, the wave and the fill with simulated players."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from datetime import timedelta
from typing import Any

import pytest
from django.db import IntegrityError, transaction
from django.test import Client
from django.utils import timezone

from accounts.models import User
from deadlines.models import Deadline
from deadlines.services import run_due
from games.engine import PRESETS
from games.engine.rules import TARGETS
from games.models import Seat, Table
from games.view.errors import GameError
from matchmaking.kinds import POOL_FILL, QUEUE_LEAVE
from matchmaking.models import Pool, Ticket, pool_key
from matchmaking.services import (
    leave_grace,
    online_table_in_play,
    pool_fill,
    queue_join,
    queue_leave,
    screens_closed,
)
from tests.fixtures import race
from tests.matchmaking.names import base_names

pytestmark = pytest.mark.django_db

DUO = replace(PRESETS["domino"], players=2, hand_size=7, target=100)
PAIRS = replace(PRESETS["domino"], players=4, teams=True, hand_size=7, target=100)
DUELLO_100 = replace(PRESETS["duello"], target=100)
LATER = timedelta(seconds=21)  # past the 20-second fill timeout of these tests
BASE_NAMES = {name.lower() for name in base_names()}  # capitals aside


@pytest.fixture
def people(make_user: Callable[..., User]) -> list[User]:
    return [make_user(name) for name in ("anna", "bruno", "carla", "dino", "elsa")]


def fill_deadline(rules: object = PAIRS) -> Deadline | None:
    return Deadline.objects.filter(kind=POOL_FILL, key=pool_key(rules)).first()  # type: ignore[arg-type]


def test_two_players_choosing_the_same_settings_are_seated_together_at_once(
    people: list[User],
) -> None:
    anna, bruno = people[:2]
    first = queue_join(user=anna, rules=DUO)
    assert first.status == Ticket.Status.WAITING and first.table is None
    second = queue_join(user=bruno, rules=DUO)
    assert second.status == Ticket.Status.SEATED
    table = second.table
    assert table is not None
    first.refresh_from_db()
    assert first.table == table and first.status == Ticket.Status.SEATED
    assert table.mode == Table.Mode.ONLINE and table.status == Table.Status.PLAYING
    assert table.fillers == 0 and table.turn_seconds
    assert table.rules == DUO  # exactly the settings both chose
    assert [s.user for s in table.seats.order_by("number")] == [anna, bruno]  # as they came
    assert fill_deadline(DUO) is None  # nobody left waiting


def test_in_pairs_the_first_and_third_to_come_are_partners(people: list[User]) -> None:
    for user in people[:4]:
        ticket = queue_join(user=user, rules=PAIRS)
    assert ticket.table is not None
    seats = {s.number: s.user for s in ticket.table.seats.all()}
    assert (seats[0], seats[2]) == (people[0], people[2])  # seats 0 and 2 are one side


def test_different_settings_never_meet(people: list[User]) -> None:
    queue_join(user=people[0], rules=DUO)
    other = queue_join(user=people[1], rules=replace(DUO, target=50))
    assert other.status == Ticket.Status.WAITING
    assert Table.objects.count() == 0


def test_random_joins_and_leaves_never_mix_settings_nor_seat_anyone_twice(
    make_user: Callable[..., User],
) -> None:
    rng = random.Random(9)
    choices = [DUO, replace(DUO, target=50), PAIRS, replace(PAIRS, hand_size=5)]
    users = [make_user(f"p{i}") for i in range(14)]
    for _ in range(60):
        user = rng.choice(users)
        if rng.random() < 0.2:
            queue_leave(user=user)
        elif online_table_in_play(user=user) is None:
            queue_join(user=user, rules=rng.choice(choices))
    assert Table.objects.exists()
    for table in Table.objects.all():
        tickets = list(Ticket.objects.filter(table=table))
        assert len({t.pool_id for t in tickets}) == 1
        assert table.rules == tickets[0].pool.rules
        assert [s.user_id for s in table.seats.order_by("number")] == [
            t.user_id for t in sorted(tickets, key=lambda t: (t.joined_at, t.pk))
        ]
    seats_per_person = Counter(Seat.objects.values_list("user", flat=True))
    assert set(seats_per_person.values()) == {1}
    waiting = Ticket.objects.filter(status=Ticket.Status.WAITING)
    assert all(waiting.filter(pool=p).count() < p.players for p in Pool.objects.all())


def test_leaving_the_queue_is_instant_and_the_next_player_waits_alone(people: list[User]) -> None:
    anna, bruno = people[:2]
    queue_join(user=anna, rules=DUO)
    left = queue_leave(user=anna)
    assert left is not None and left.status == Ticket.Status.LEFT
    assert fill_deadline(DUO) is None
    assert queue_join(user=bruno, rules=DUO).status == Ticket.Status.WAITING
    assert queue_leave(user=anna) is None  # not waiting: nothing to leave


def test_one_open_ticket_per_player_is_a_database_constraint(people: list[User]) -> None:
    anna = people[0]
    queue_join(user=anna, rules=DUO)
    pool = Pool.objects.get()
    with pytest.raises(IntegrityError), transaction.atomic():
        Ticket.objects.create(user=anna, pool=pool, joined_at=timezone.now())


def test_joining_a_second_queue_leaves_the_first(people: list[User]) -> None:
    anna, bruno = people[:2]
    first = queue_join(user=anna, rules=DUO)
    second = queue_join(user=anna, rules=PAIRS)
    first.refresh_from_db()
    assert first.status == Ticket.Status.LEFT and second.status == Ticket.Status.WAITING
    # bruno, choosing the first settings, is not seated with someone who left them
    assert queue_join(user=bruno, rules=DUO).status == Ticket.Status.WAITING


def test_pressing_play_twice_keeps_the_place_in_the_queue(people: list[User]) -> None:
    first = queue_join(user=people[0], rules=PAIRS)
    again = queue_join(user=people[0], rules=PAIRS)
    assert again.pk == first.pk and Ticket.objects.count() == 1


def test_a_guest_cannot_join_the_online_queue(make_user: Callable[..., User]) -> None:
    guest = make_user("guest-1", guest=True)
    with pytest.raises(GameError, match="username"):
        queue_join(user=guest, rules=DUO)
    assert Ticket.objects.count() == 0


def test_a_player_at_an_online_game_in_play_cannot_queue_again(people: list[User]) -> None:
    queue_join(user=people[0], rules=DUO)
    queue_join(user=people[1], rules=DUO)
    with pytest.raises(GameError, match="finish it first"):
        queue_join(user=people[0], rules=PAIRS)


def test_after_the_fill_timeout_simulated_players_complete_the_room(people: list[User]) -> None:
    anna, bruno = people[:2]
    ticket = queue_join(user=anna, rules=PAIRS)
    queue_join(user=bruno, rules=PAIRS)
    deadline = fill_deadline()
    assert deadline is not None and deadline.due_at == ticket.joined_at + timedelta(seconds=20)
    run_due(now=ticket.joined_at + timedelta(seconds=19))
    assert Table.objects.count() == 0  # not yet
    run_due(now=ticket.joined_at + timedelta(seconds=20))
    table = Table.objects.get()
    assert table.fillers == 2 and table.mode == Table.Mode.ONLINE
    seats = list(table.seats.order_by("number"))
    assert [s.user for s in seats[:2]] == [anna, bruno]
    fillers = seats[2:]
    assert all(s.is_filler and s.is_bot and s.bot_name.lower() in BASE_NAMES for s in fillers)
    assert len({s.bot_name for s in fillers}) == 2
    assert {s.bot_level for s in fillers} == {"easy"}  # new players, level 1
    assert set(Ticket.objects.values_list("status", flat=True)) == {Ticket.Status.SEATED}
    assert fill_deadline() is None
    run_due(now=ticket.joined_at + LATER)  # nothing left to fill: no second table
    assert Table.objects.filter(fillers__gt=0).count() == 1


def test_simulated_players_play_at_the_level_of_the_people(people: list[User]) -> None:
    anna = people[0]
    anna.xp = 2100  # level 7
    anna.save()
    ticket = queue_join(user=anna, rules=DUO)
    run_due(now=ticket.joined_at + LATER)
    filler = Table.objects.get().seats.get(is_filler=True)
    assert filler.bot_level == "hard"


def test_the_fill_waits_for_the_oldest_still_waiting(people: list[User]) -> None:
    anna, bruno = people[:2]
    first = queue_join(user=anna, rules=PAIRS)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(timezone, "now", lambda: first.joined_at + timedelta(seconds=5))
        second = queue_join(user=bruno, rules=PAIRS)
        queue_leave(user=anna)
    deadline = fill_deadline()
    assert deadline is not None and deadline.due_at == second.joined_at + timedelta(seconds=20)
    run_due(now=first.joined_at + LATER)  # anna's old deadline: bruno has not waited enough
    assert Table.objects.count() == 0


def test_a_fill_deadline_left_behind_by_a_switch_of_queue_does_nothing(people: list[User]) -> None:
    ticket = queue_join(user=people[0], rules=PAIRS)
    queue_join(user=people[0], rules=DUO)  # the pairs pool is empty now
    run_due(now=ticket.joined_at + LATER)
    assert not Table.objects.filter(players=4).exists()
    assert fill_deadline() is None  # and the stale row is gone


def test_the_table_page_marks_simulated_players(people: list[User], client: Client) -> None:
    ticket = queue_join(user=people[0], rules=DUO)
    run_due(now=ticket.joined_at + LATER)
    table = Table.objects.get()
    filler = table.seats.get(is_filler=True)
    client.force_login(people[0])
    client.cookies["django_language"] = "en"
    page = client.get(f"/t/{table.code}/").content.decode()
    assert filler.bot_name in page and "simulated player" in page


def test_closed_waiting_screens_leave_only_the_ticket_they_showed(people: list[User]) -> None:
    """The grace's end leaves the queue the player was waiting in when the screens
    closed, not the one they chose since (in another tab), nor a seat taken meanwhile."""
    anna, bruno = people[:2]
    first = queue_join(user=anna, rules=PAIRS)
    screens_closed(user=anna, ticket_id=first.pk)
    second = queue_join(user=anna, rules=DUO)  # another queue, from another tab
    assert run_due(now=timezone.now() + leave_grace() + timedelta(seconds=1)) == 0
    second.refresh_from_db()
    assert second.status == Ticket.Status.WAITING
    screens_closed(user=anna, ticket_id=second.pk)
    seated = queue_join(user=bruno, rules=DUO)  # anna is seated within the grace
    assert seated.status == Ticket.Status.SEATED
    run_due(now=timezone.now() + leave_grace() + timedelta(seconds=1))
    second.refresh_from_db()
    assert second.status == Ticket.Status.SEATED
    assert not Deadline.objects.filter(kind=QUEUE_LEAVE).exists()


def at_once(jobs: list[Callable[[], Any]]) -> list[Any]:
    """The jobs run on threads released together; none may fail."""
    results = race(len(jobs), lambda i: jobs[i]())
    assert not [r for r in results if isinstance(r, Exception)], results
    return results


def each_person_seated_once() -> None:
    per_user = Counter(Seat.objects.filter(user__isnull=False).values_list("user", flat=True))
    assert per_user and set(per_user.values()) == {1}
    seated = Ticket.objects.filter(status=Ticket.Status.SEATED)
    assert all(t.table and t.table.seats.filter(user=t.user).exists() for t in seated)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_many_players_joining_one_pool_at_once_are_each_seated_once(
    make_user: Callable[..., User],
) -> None:
    users = [make_user(f"p{i}") for i in range(12)]

    def joins(mine: list[User]) -> Callable[[], list[Ticket]]:
        return lambda: [queue_join(user=u, rules=DUELLO_100) for u in mine]

    at_once([joins(users[i::4]) for i in range(4)])
    assert Table.objects.count() == 6
    assert Ticket.objects.filter(status=Ticket.Status.SEATED).count() == 12
    each_person_seated_once()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_workers_applying_one_fill_deadline_fill_the_room_once(
    make_user: Callable[..., User],
) -> None:
    first = queue_join(user=make_user("anna"), rules=PAIRS)
    queue_join(user=make_user("bruno"), rules=PAIRS)
    now = first.joined_at + timedelta(seconds=21)
    claimed = Deadline.objects.get(kind=POOL_FILL)  # both hold the same row

    done = at_once([lambda: pool_fill(claimed, now), lambda: pool_fill(claimed, now)])
    assert sorted(done) == [False, True]
    table = Table.objects.get()
    assert table.fillers == 2 and table.seats.filter(is_filler=True).count() == 2
    each_person_seated_once()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_workers_sweeping_many_due_fills_start_one_table_per_room(
    make_user: Callable[..., User],
) -> None:
    tickets = [
        queue_join(user=make_user(f"p{i}"), rules=replace(PAIRS, target=target))
        for i, target in enumerate((50, 100, 150))
    ] + [
        queue_join(user=make_user(f"q{i}"), rules=replace(DUELLO_100, target=target))
        for i, target in enumerate(TARGETS)
    ]
    now = max(t.joined_at for t in tickets) + timedelta(seconds=21)

    def sweep() -> int:
        done = 0
        while claim_due_left(now):
            done += run_due(now=now, limit=2)
        return done

    done = at_once([sweep, sweep])
    assert sum(done) >= len(tickets)  # every room filled (bots' first moves count too)
    assert Table.objects.count() == len(tickets)
    assert Ticket.objects.filter(status=Ticket.Status.SEATED).count() == len(tickets)
    each_person_seated_once()


def claim_due_left(now: Any) -> bool:
    """Pool fills still pending (the bots' own deadlines may keep coming)."""
    return Deadline.objects.filter(kind=POOL_FILL, due_at__lte=now).exists()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_one_player_joining_two_pools_at_once_waits_in_one_of_them(
    make_user: Callable[..., User],
) -> None:
    anna = make_user("anna")
    for round_ in range(5):  # each time both pools are new to the player
        rules = [replace(PAIRS, target=50 + 50 * (round_ % 3)), replace(DUELLO_100, target=150)]
        results = race(2, lambda i, rules=rules: queue_join(user=anna, rules=rules[i]))
        assert not [r for r in results if isinstance(r, Exception)], results
        assert Ticket.objects.filter(user=anna, status=Ticket.Status.WAITING).count() == 1
        queue_leave(user=anna)
