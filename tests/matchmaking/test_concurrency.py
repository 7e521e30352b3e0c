"""Several processes at once on PostgreSQL: nobody is seated twice, no room is filled twice."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection

from accounts.models import User
from deadlines.models import Deadline
from deadlines.services import run_due
from games.engine import PRESETS
from games.engine.rules import TARGETS
from games.models import Seat, Table
from matchmaking.kinds import POOL_FILL
from matchmaking.models import Ticket
from matchmaking.services import pool_fill, queue_join, queue_leave
from tests.fixtures import race, signed_in

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

DUO = replace(PRESETS["duello"], target=100)
PAIRS = replace(PRESETS["domino"], players=4, teams=True, hand_size=7, target=100)


@pytest.fixture(autouse=True)
def needs_postgres() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (DATABASE_URL=postgres://…)")


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


def test_many_players_joining_one_pool_at_once_are_each_seated_once(
    make_user: Callable[..., User],
) -> None:
    users = [make_user(f"p{i}") for i in range(12)]

    def joins(mine: list[User]) -> Callable[[], list[Ticket]]:
        return lambda: [queue_join(user=u, rules=DUO) for u in mine]

    at_once([joins(users[i::4]) for i in range(4)])
    assert Table.objects.count() == 6
    assert Ticket.objects.filter(status=Ticket.Status.SEATED).count() == 12
    each_person_seated_once()


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


def test_two_workers_sweeping_many_due_fills_start_one_table_per_room(
    make_user: Callable[..., User],
) -> None:
    tickets = [
        queue_join(user=make_user(f"p{i}"), rules=replace(PAIRS, target=target))
        for i, target in enumerate((50, 100, 150))
    ] + [
        queue_join(user=make_user(f"q{i}"), rules=replace(DUO, target=target))
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


def test_one_player_joining_two_pools_at_once_waits_in_one_of_them(
    make_user: Callable[..., User],
) -> None:
    anna = make_user("anna")
    for round_ in range(5):  # each time both pools are new to the player
        rules = [replace(PAIRS, target=50 + 50 * (round_ % 3)), replace(DUO, target=150)]
        results = race(2, lambda i, rules=rules: queue_join(user=anna, rules=rules[i]))
        assert not [r for r in results if isinstance(r, Exception)], results
        assert Ticket.objects.filter(user=anna, status=Ticket.Status.WAITING).count() == 1
        queue_leave(user=anna)


def test_one_player_joining_two_pools_from_two_tabs_gets_no_server_error(
    make_user: Callable[..., User],
) -> None:
    anna = make_user("anna")
    client = signed_in(anna)
    forms = [
        {"preset": "domino", "seating": "4p", "hand_size": "7", "draw": "yes", "target": "100"},
        {"preset": "domino", "seating": "2", "hand_size": "7", "draw": "yes", "target": "100"},
    ]
    for _ in range(3):
        responses = race(2, lambda i: client.post("/online/join/", forms[i]))
        assert [r.status_code for r in responses] == [302, 302], responses
        assert Ticket.objects.filter(user=anna, status=Ticket.Status.WAITING).count() == 1
        queue_leave(user=anna)
