"""games/states.py: a table's state is read once and shared by
every viewer, continued move by move; a frame carries only the regions that changed."""

from __future__ import annotations

import random
import re
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from deadlines.models import Deadline
from deadlines.services import run_due
from games import services, states, store
from games.models import Table
from games.records import load_match
from games.selectors import table_view
from games.services import deals as service_deals
from games.view.regions import REGIONS
from tests.fixtures import PAIRS, play_a_legal_move, seat_user, seeded_deals, version_of

pytestmark = pytest.mark.django_db
LIVE = Path(__file__).resolve().parents[2] / "templates" / "regions" / "games" / "_live.html"


def test_a_new_move_is_read_on_top_of_the_last_state_and_matches_a_full_replay(
    friends_table: Table,
) -> None:
    anna = seat_user(friends_table, 0)
    for _ in range(8):
        if load_match(Table.objects.get(pk=friends_table.pk)).round.over:
            break
        before = states.table_state(friends_table.pk)
        play_a_legal_move(friends_table)
        after = states.table_state(friends_table.pk)
        assert after.version == before.version + 1
        replayed = load_match(Table.objects.get(pk=friends_table.pk))
        assert after.rounds[-1].position() == replayed.round.position()
        assert before.rounds[-1].position() != after.rounds[-1].position()  # not shared
    assert table_view(table=friends_table.pk, user=anna).player is not None


def test_the_regions_a_frame_may_carry_are_the_pages_regions() -> None:
    included = re.findall(r'regions\["(games/_\w+\.html)"\]', LIVE.read_text())
    assert tuple(included) == tuple(REGIONS.values())


def test_a_played_move_uses_the_remembered_state_only_at_the_locked_version(
    friends_table: Table,
) -> None:
    """The referee plays on the state this process holds when it is the table's
    version under the lock, and replays the stored game otherwise."""
    anna = seat_user(friends_table, 0)
    table_view(table=friends_table.pk, user=anna)  # remembered at this version
    version = version_of(friends_table)
    with transaction.atomic():
        writing = store.lock(friends_table.pk, version)
        assert writing.before is not None  # held: the row was not read
        assert writing.match().round.moves == load_match(writing.table).round.moves
    Table.objects.filter(pk=friends_table.pk).update(version=version + 1)  # another process
    with transaction.atomic():
        writing = store.lock(friends_table.pk, version)
        assert writing.before is None and writing.table.version == version + 1
        fresh = writing.match()
        assert fresh.round.moves == load_match(writing.table).round.moves
    assert states.table_state(friends_table.pk).version == version + 1


def _stored(state: states.TableState) -> tuple[object, ...]:
    """Everything a state holds, as values (a model instance compares by its key alone)."""

    def row(obj: Any) -> tuple[object, ...]:
        return tuple(getattr(obj, f.attname) for f in obj._meta.concrete_fields)

    return (
        row(state.table),
        [(row(s), s.user.display_name if s.user_id else None) for s in state.seats],
        [row(h) for h in state.hands],
        [(r.initial_position, r.moves) for r in state.rounds],
        state.actors,
        state.invitations,
        state.deadlines,
    )


@pytest.mark.django_db(transaction=True)  # on_commit: the writer's state is kept after its commit
def test_the_state_a_writer_keeps_after_a_move_is_the_stored_one(
    make_user: Any, django_assert_num_queries: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """People's moves, bots' moves, the turn clock playing for someone, "next hand"
    pressed and new hands dealt: after each, what this process remembers equals a
    fresh read of the database."""
    rng = random.Random(3)
    random.seed(3)  # the bots' delays
    # the deals too, so that the game lasts as long at every run (a short one once
    # left too few of the people's moves to check)
    monkeypatch.setattr(service_deals, "deal", seeded_deals(random.Random(3)))
    anna, bruno = make_user("anna"), make_user("bruno")
    table = services.table_create(host=anna, mode=Table.Mode.FRIENDS, rules=PAIRS, turn_seconds=30)
    services.table_join(table_id=table.pk, version=version_of(table), user=bruno)
    services.table_fill_with_bots(
        table_id=table.pk, by=anna, level="easy", version=version_of(table)
    )
    services.table_start(table_id=table.pk, version=version_of(table), by=anna)
    written = pressed = 0
    for step in range(160):
        table.refresh_from_db()
        if table.status != Table.Status.PLAYING:
            break
        due = Deadline.objects.filter(table=table).order_by("due_at").first()
        match = load_match(table)
        seat = table.seats.get(number=match.round.turn)
        person = seat.user if not match.round.over and not seat.away else None
        reading = [s.user for s in table.seats.all() if s.user and not s.ready and not s.away]
        # The first to read the result presses "next hand"; the last one too after odd
        # hands, and after even ones the countdown deals (the worker).
        if match.round.over and reading and (len(reading) > 1 or len(match.rounds) % 2):
            table_view(table=table.pk, user=reading[0])  # the state at this version is held
            with CaptureQueriesContext(connection) as queries:
                services.hand_next(table_id=table.pk, user=reading[0], version=table.version)
            after_commit = [q["sql"] for q in queries.captured_queries]
            assert after_commit[after_commit.index("COMMIT") + 1 :] == []  # nothing read back
            pressed += 1
        elif due is not None and (person is None or step % 7 == 0):
            run_due(now=due.due_at + timedelta(seconds=1))  # a bot, the clock, the next hand
        else:
            assert person is not None
            table_view(table=table.pk, user=person)  # the state at this version is held
            with CaptureQueriesContext(connection) as queries:
                services.move_submit(
                    table_id=table.pk,
                    user=person,
                    move=str(rng.choice(match.round.legal_moves())),
                    version=table.version,
                )
            after_commit = [q["sql"] for q in queries.captured_queries]
            after_commit = after_commit[after_commit.index("COMMIT") + 1 :]
            if Table.objects.get(pk=table.pk).status == Table.Status.PLAYING:
                assert after_commit == []  # nothing read back (a match's end is read)
                written += 1
        version = version_of(table)
        kept = states.table_state(table.pk, at_least=version)
        fresh = states._read(Table.objects.select_related("rematch").get(pk=table.pk), None)
        assert kept.version == version
        assert _stored(kept) == _stored(fresh), f"step {step}"
    # a match to 100 lasts two hands at least; a blocked hand can be short (18 seen)
    assert written >= 10 and pressed >= 2
