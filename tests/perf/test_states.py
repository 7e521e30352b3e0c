"""games/states.py and games/store.py: a table's state is read once per version and shared
by every viewer; a writer holding the version writes only what changed."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import User
from deadlines.services import run_due, set_deadline
from games import services, states
from games.kinds import BOT_MOVE
from games.models import Move, Table
from games.records import load_match
from games.selectors import table_view
from tests.economy.test_money_shown import decided_stake_match
from tests.fixtures import DUELLO, play_a_legal_move, seat_user, version_of

pytestmark = pytest.mark.django_db


def test_every_viewer_of_a_version_shares_one_read(
    friends_table: Table, django_assert_num_queries: Any
) -> None:
    anna, bruno = seat_user(friends_table, 0), seat_user(friends_table, 1)
    first = table_view(table=friends_table.pk, user=anna)
    with django_assert_num_queries(1):  # the version, and nothing else
        second = table_view(table=friends_table.pk, user=bruno)
    with django_assert_num_queries(0):  # told "version v": no query at all
        table_view(table=friends_table.pk, user=None, at_least=first.version)
    assert first.version == second.version
    assert first.hand != second.hand  # each still sees only their own tiles


def test_the_home_pages_games_need_no_second_read_of_a_table_this_process_holds(
    friends_table: Table, client: Client
) -> None:
    anna = seat_user(friends_table, 0)
    client.force_login(anna)
    assert client.get("/").status_code == 200  # the table's state is now remembered
    with CaptureQueriesContext(connection) as queries:
        page = client.get("/").content.decode()
    assert f"/t/{friends_table.code}/" in page  # the game in progress is listed
    table_reads = [q for q in queries.captured_queries if 'FROM "games_table"' in q["sql"]]
    assert len(table_reads) == 1  # the list of games; each game's state is not read again


def test_the_table_page_needs_no_second_read_of_a_table_this_process_holds(
    friends_table: Table, client: Client
) -> None:
    anna = seat_user(friends_table, 0)
    client.force_login(anna)
    assert client.get(f"/t/{friends_table.code}/").status_code == 200  # now remembered
    with CaptureQueriesContext(connection) as queries:
        page = client.get(f"/t/{friends_table.code}/").content.decode()
    assert f'data-version="{friends_table.version}"' in page
    table_reads = [q for q in queries.captured_queries if 'FROM "games_table"' in q["sql"]]
    assert len(table_reads) == 1  # the page's lookup by code; the state is not read again


@pytest.mark.django_db(transaction=True)  # on_commit: the writer reads after its commit
def test_after_a_move_every_viewer_renders_without_a_query(
    friends_table: Table, django_assert_num_queries: Any
) -> None:
    anna, bruno = seat_user(friends_table, 0), seat_user(friends_table, 1)
    play_a_legal_move(friends_table)
    version = Table.objects.get(pk=friends_table.pk).version
    with django_assert_num_queries(0):  # the writer read the new version once, for all
        views = [
            table_view(table=friends_table.pk, user=u, at_least=version) for u in (anna, bruno)
        ]
    assert {v.version for v in views} == {version}
    assert len(views[0].log) == len(views[1].log) == 1


@pytest.mark.django_db(transaction=True)
def test_a_move_at_a_table_without_a_clock_writes_the_next_version_and_the_move_alone(
    anna: User, bruno: User
) -> None:
    """Held state, no deadline to replace (players who play their forced moves
    themselves): two statements.  The lock reads nothing: an UPDATE matching the row
    only at the version the player saw saves the next one."""
    User.objects.filter(pk__in=[anna.pk, bruno.pk]).update(plays_forced_moves=False)
    friends_table = services.table_create(host=anna, mode=Table.Mode.FRIENDS, rules=DUELLO)
    services.table_join(table_id=friends_table.pk, version=version_of(friends_table), user=bruno)
    services.table_start(table_id=friends_table.pk, version=version_of(friends_table), by=anna)
    match = load_match(friends_table)
    player = seat_user(friends_table, match.round.turn)
    table_view(table=friends_table.pk, user=player)  # the state at this version is held
    with CaptureQueriesContext(connection) as queries:
        services.move_submit(
            table_id=friends_table.pk,
            user=player,
            move=str(match.round.legal_moves()[0]),
            version=version_of(friends_table),
        )
    statements = [q["sql"].split()[0] for q in queries.captured_queries]
    after = load_match(friends_table).round
    # the next player's only move: whether they have it played for them is read fresh
    forced_next = not after.over and len(after.legal_moves()) == 1
    assert statements[statements.index("BEGIN") :] == [
        "BEGIN",
        "UPDATE",
        "INSERT",
        *(["SELECT"] if forced_next else []),
        "COMMIT",
    ]
    (lock,) = (q["sql"] for q in queries.captured_queries if q["sql"].startswith("UPDATE"))
    version = version_of(friends_table)
    assert lock.startswith(f'UPDATE "games_table" SET "version" = {version} WHERE')
    assert f'"version" = {version - 1}' in lock.split("WHERE")[1]
    friends_table.refresh_from_db()
    assert friends_table.status == Table.Status.PLAYING and friends_table.started_at is not None


@pytest.mark.django_db(transaction=True)
def test_a_player_ready_for_the_next_hand_writes_their_seat_and_the_version_alone(
    friends_table: Table,
) -> None:
    """The others will see who is ready: the lock (reading nothing), the seat, the version."""
    rng = random.Random(4)
    while not load_match(Table.objects.get(pk=friends_table.pk)).round.over:
        play_a_legal_move(friends_table, rng)
    if load_match(friends_table).over:
        pytest.skip("the first hand ended the match")
    anna = seat_user(friends_table, 0)
    table_view(table=friends_table.pk, user=anna)  # the state at this version is held
    version = version_of(friends_table)
    with CaptureQueriesContext(connection) as queries:
        services.hand_next(table_id=friends_table.pk, user=anna, version=version)
    sql = [q["sql"] for q in queries.captured_queries]
    sql = sql[[s.split()[0] for s in sql].index("BEGIN") :]
    assert [s.split()[0] for s in sql] == ["BEGIN", "UPDATE", "UPDATE", "UPDATE", "COMMIT"]
    assert sql[1].startswith(f'UPDATE "games_table" SET "version" = {version} WHERE')
    assert sql[2].startswith('UPDATE "games_seat" SET "ready" = ')
    assert sql[3].startswith(f'UPDATE "games_table" SET "version" = {version + 1} WHERE')
    seen = table_view(table=friends_table.pk, user=seat_user(friends_table, 1))
    assert [s.is_ready for s in sorted(seen.seats, key=lambda s: s.number)] == [True, False]
    assert seen.result is not None and seen.version == version + 1


@pytest.mark.django_db(transaction=True)
def test_a_bots_move_locks_its_table_without_reading_it_again(make_user: Any) -> None:
    """The worker's plan read the table at its version; the process holds that version,
    so the move's transaction starts with the lock's UPDATE and reads no table row."""
    host = make_user("host")
    while True:  # a table where a bot opens
        table = services.table_create(
            host=host, mode=Table.Mode.COMPUTER, rules=DUELLO, bot_level="easy"
        )
        if load_match(table).round.turn != 0:
            break
    table_view(table=table.pk, user=host)  # the state at this version is held
    version, now = version_of(table), timezone.now()
    set_deadline(BOT_MOVE, now, table=table)
    with CaptureQueriesContext(connection) as queries:
        assert run_due(now=now + timedelta(seconds=1)) == 1
    sql = [q["sql"] for q in queries.captured_queries]
    lock = next(i for i, s in enumerate(sql) if s.startswith('UPDATE "games_table"'))
    begin = max(i for i, s in enumerate(sql[:lock]) if s.startswith("BEGIN"))
    commit = lock + next(i for i, s in enumerate(sql[lock:]) if s.startswith("COMMIT"))
    assert lock == begin + 1 and f'"version" = {version}' in sql[lock]
    assert not [s for s in sql[begin:commit] if s.startswith("SELECT") and '"games_table"' in s]
    assert version_of(table) == version + 1
    assert Move.objects.filter(hand__table=table, actor=Move.Actor.BOT).count() == 1


def test_the_end_screen_reads_what_was_recorded_once_and_no_query_per_frame(
    make_user: Callable[..., User], django_assert_num_queries: Callable[..., object]
) -> None:
    table, winner, loser = decided_stake_match(make_user)
    states.forget()
    first = table_view(table=table.pk, user=winner)  # the state's one read, reports included
    assert first.payouts[0].kind == "pot" and first.payouts[0].amount == 200
    with django_assert_num_queries(0):  # every later viewer and frame at that version
        again = table_view(table=table.pk, user=loser, at_least=first.version)
    assert [p.kind for p in again.payouts] == ["xp", "league"]
