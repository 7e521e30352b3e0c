"""A move's writes, built once per shape (``overrides.statements``): the rows they
leave are the rows the ORM leaves, on SQLite and on PostgreSQL (``make test-scaleout``)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.db.models import Count
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.models import Hand, Move, Seat, Table
from overrides import statements

pytestmark = pytest.mark.django_db


def test_an_update_changes_the_named_columns_of_the_matching_row_alone(
    friends_table: Table,
) -> None:
    other = Table.objects.create(
        host=friends_table.host, mode=friends_table.mode, preset="domino", players=2, hand_size=7
    )
    version, finished = friends_table.version, timezone.now() - timedelta(minutes=3)
    matched = statements.update(
        Table,
        {"pk": friends_table.pk, "version": version},
        version=version + 1,
        status=Table.Status.FINISHED,
        finished_at=finished,
    )
    assert matched == 1
    friends_table.refresh_from_db()
    assert friends_table.version == version + 1
    assert friends_table.status == Table.Status.FINISHED
    assert friends_table.finished_at == finished  # an aware time, stored as the ORM stores it
    assert friends_table.winners == "" and friends_table.started_at is not None  # untouched
    assert Table.objects.get(pk=other.pk).version == other.version


def test_an_update_at_a_version_the_row_has_left_matches_nothing_and_changes_nothing(
    friends_table: Table,
) -> None:
    version = friends_table.version
    stale = {"pk": friends_table.pk, "version": version - 1}
    assert statements.update(Table, stale, version=0) == 0
    friends_table.refresh_from_db()
    assert friends_table.version == version


def test_an_update_finds_a_row_by_its_foreign_key_column(friends_table: Table) -> None:
    assert statements.update(Seat, {"table_id": friends_table.pk, "number": 1}, ready=True) == 1
    ready = {s.number: s.ready for s in Seat.objects.filter(table=friends_table)}
    assert ready == {0: False, 1: True}


def test_an_update_refuses_a_null_to_match(friends_table: Table) -> None:
    with pytest.raises(ValueError, match="NULL"):
        statements.update(Seat, {"table_id": friends_table.pk, "user_id": None}, ready=True)
    assert not Seat.objects.filter(ready=True).exists()


def test_an_insert_stores_the_row_the_orm_would_with_its_defaults_and_its_key(
    friends_table: Table,
) -> None:
    hand = Hand.objects.get(table=friends_table)
    before = timezone.now()
    move = Move(hand=hand, ply=40, seat=1, text="6|4L")
    statements.insert(move)
    assert move.pk is not None and not move._state.adding
    stored = Move.objects.get(pk=move.pk)
    assert (stored.hand_id, stored.ply, stored.seat, stored.text) == (hand.pk, 40, 1, "6|4L")
    assert stored.actor == Move.Actor.PERSON  # the field's default
    assert before <= stored.created_at <= timezone.now()  # auto_now_add
    assert stored.created_at == move.created_at
    twin = Move.objects.create(hand=hand, ply=41, seat=1, text="6|4L")
    assert twin.pk == move.pk + 1  # the same sequence as the ORM's inserts


def test_each_shape_is_one_statement_with_its_values_as_parameters(friends_table: Table) -> None:
    with CaptureQueriesContext(connection) as queries:
        statements.update(Table, {"pk": friends_table.pk}, version=friends_table.version)
    (sql,) = (q["sql"] for q in queries.captured_queries)
    assert sql.startswith('UPDATE "games_table" SET "version" = ')
    assert sql.endswith(f'WHERE "id" = {friends_table.pk}')


_seats_of = statements.Prepared(
    lambda table_id, number: Seat.objects.filter(table_id=table_id, number__gte=number).order_by(
        "number"
    )
)


def test_a_prepared_read_runs_its_sql_again_with_each_calls_arguments(
    friends_table: Table,
) -> None:
    other = Table.objects.create(
        host=friends_table.host, mode=friends_table.mode, preset="domino", players=2, hand_size=7
    )
    Seat.objects.create(table=other, number=0, user=friends_table.host, away=True)
    assert [(s.number, s.user_id) for s in _seats_of(friends_table.pk, 0)] == [
        (s.number, s.user_id) for s in friends_table.seats.order_by("number")
    ]
    assert [s.number for s in _seats_of(friends_table.pk, 1)] == [1]
    (seat,) = _seats_of(other.pk, 0)
    assert seat.table_id == other.pk and seat.away is True  # the fields' types, as the ORM's
    assert _seats_of(other.pk, 1) == []


def test_a_prepared_read_by_text_finds_the_row_and_nothing_else(friends_table: Table) -> None:
    by_code = statements.Prepared(lambda code: Table.objects.filter(code=code))
    (table,) = by_code(friends_table.code)
    assert table.pk == friends_table.pk and table.started_at == friends_table.started_at
    assert by_code(friends_table.code + "x") == []


def test_a_prepared_read_refuses_an_argument_a_lookup_would_change(friends_table: Table) -> None:
    by_part = statements.Prepared(lambda part: Table.objects.filter(code__contains=part))
    with pytest.raises(TypeError, match="as it is"):
        by_part(friends_table.code[:3])  # "%abc%" in the SQL: not the argument
    with pytest.raises(TypeError, match="ints and strs"):
        _seats_of(friends_table.pk, 1.5)


def test_a_prepared_read_sets_its_annotations_on_each_row(friends_table: Table) -> None:
    seated = statements.Prepared(
        lambda table_id: Table.objects.filter(pk=table_id).annotate(people=Count("seats"))
    )
    (table,) = seated(friends_table.pk)
    assert table.code == friends_table.code
    assert table.people == friends_table.seats.count() == 2  # type: ignore[attr-defined]
    assert table.host == friends_table.host  # a related row, read when asked for


def test_a_prepared_read_refuses_to_make_related_rows(friends_table: Table) -> None:
    with_host = statements.Prepared(
        lambda table_id: Table.objects.filter(pk=table_id).select_related("host")
    )
    with pytest.raises(TypeError, match="select_related"):
        with_host(friends_table.pk)
