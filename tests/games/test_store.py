"""A move locks its table without reading it when this process holds the version the
player saw: one UPDATE matching the row only at that version (the statements are in
tests/perf/test_states.py).  The version is still checked, the match's end still saved, and
two moves at once still make one move."""

from __future__ import annotations

import pytest

from games import services, states
from games.models import Move, Table
from games.records import load_match
from games.view.errors import GameError
from tests.deadlines.test_worker import two_workers
from tests.fixtures import play_a_legal_move, postgres_only, seat_user, version_of


def _the_move_on_turn(table: Table) -> tuple[int, str]:
    match = load_match(table)
    return match.round.turn, str(match.round.legal_moves()[0])


def test_a_move_at_a_version_held_here_but_left_elsewhere_is_refused_as_stale(
    friends_table: Table,
) -> None:
    states.table_state(friends_table.pk)  # this process holds version v …
    version = friends_table.version
    # … and another process moved the table on (its change reaches here later)
    Table.objects.filter(pk=friends_table.pk).update(version=version + 1)
    turn, move = _the_move_on_turn(friends_table)
    with pytest.raises(GameError) as refused:
        services.move_submit(
            table_id=friends_table.pk,
            user=seat_user(friends_table, turn),
            move=move,
            version=version,
        )
    assert refused.value.stale
    assert not Move.objects.filter(hand__table=friends_table).exists()
    assert Table.objects.get(pk=friends_table.pk).version == version + 1


def test_the_move_that_ends_a_match_saves_its_result_when_the_table_was_not_read(
    friends_table: Table,
) -> None:
    """The held table is a copy: the move that ends the match saves what it changed."""
    Table.objects.filter(pk=friends_table.pk).update(target=50)  # a short match
    states.forget(friends_table.pk)
    for _ in range(500):
        table = Table.objects.get(pk=friends_table.pk)
        if table.status != Table.Status.PLAYING:
            break
        states.table_state(table.pk)  # as the players' screens read it
        match = load_match(table)
        if match.round.over:  # a tied hand scores nothing: both press "next hand"
            for seat in table.seats.filter(ready=False):
                assert seat.user is not None
                services.hand_next(table_id=table.pk, user=seat.user, version=version_of(table))
            continue
        play_a_legal_move(table)
    finished = Table.objects.get(pk=friends_table.pk)
    assert finished.status == Table.Status.FINISHED
    assert finished.winners and finished.finished_at is not None
    assert finished.target == 50


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_the_same_move_sent_twice_at_once_is_played_once(friends_table: Table) -> None:
    states.table_state(friends_table.pk)  # both requests find the version held
    turn, move = _the_move_on_turn(friends_table)
    version = friends_table.version
    player = seat_user(friends_table, turn)
    refused: list[GameError] = []

    def send() -> None:  # on its own connection (two_workers)
        try:
            services.move_submit(table_id=friends_table.pk, user=player, move=move, version=version)
        except GameError as error:
            refused.append(error)

    two_workers(send)
    assert len(refused) == 1 and refused[0].stale
    assert Move.objects.filter(hand__table=friends_table).count() == 1
    assert Table.objects.get(pk=friends_table.pk).version == version + 1


def test_a_refused_move_at_a_held_version_leaves_the_table_at_that_version(
    friends_table: Table,
) -> None:
    """The lock of a move saves the next version at once: a move refused after it (not
    this player's turn, not a legal tile) must leave the table as it was."""
    states.table_state(friends_table.pk)  # held here: the lock is the one UPDATE
    version = friends_table.version
    turn, move = _the_move_on_turn(friends_table)
    other = next(s.number for s in friends_table.seats.all() if s.user_id and s.number != turn)
    with pytest.raises(GameError, match="not your turn"):
        services.move_submit(
            table_id=friends_table.pk,
            user=seat_user(friends_table, other),
            move=move,
            version=version,
        )
    with pytest.raises(GameError):
        services.move_submit(
            table_id=friends_table.pk,
            user=seat_user(friends_table, turn),
            move="9|9L",
            version=version,
        )
    assert Table.objects.get(pk=friends_table.pk).version == version
    assert not Move.objects.filter(hand__table=friends_table).exists()
    services.move_submit(  # and the right move at that version is still played
        table_id=friends_table.pk, user=seat_user(friends_table, turn), move=move, version=version
    )
    assert Table.objects.get(pk=friends_table.pk).version == version + 1


def test_a_writer_plays_on_private_copies_of_the_held_rows_the_held_state_stays_as_read(
    friends_table: Table,
) -> None:
    """The state this process holds is every viewer's: the copies a writer changes are its
    own, fields and cached related rows alike, and equal the held rows until changed."""
    import copy

    from games.store import private_copy

    held = states.table_state(friends_table.pk)
    seat = next(s for s in held.seats if s.user_id is not None)
    mine = private_copy(seat)
    # the fields and state copy.copy would give it (but its pickling's version mark)
    assert mine == seat and mine.__dict__.keys() == copy.copy(seat).__dict__.keys() - {
        "_django_version"
    }
    assert (mine._state.db, mine._state.adding) == (seat._state.db, seat._state.adding)
    assert mine.user is seat.user  # the related row it cached, not read again
    mine.ready, mine.user = not seat.ready, None
    assert seat.user is not None and seat.ready != mine.ready
    assert mine._state.fields_cache is not seat._state.fields_cache
    table = private_copy(held.table)
    table.version += 1
    assert held.table.version == friends_table.version
    table.save(update_fields=["version"])  # a copy saves as the row it was copied from
    assert Table.objects.get(pk=friends_table.pk).version == friends_table.version + 1
