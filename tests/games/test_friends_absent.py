"""A friends' table whose player has gone: the host hands the seat to the
computer (the friend may take it back) or ends the game."""

from __future__ import annotations

from datetime import timedelta

import pytest

from accounts.models import User
from deadlines.services import run_due
from games import services
from games.errors import GameError
from games.models import Move, Seat, Table
from games.records import load_match
from games.selectors import table_view
from tests.fixtures import DUELLO, play_a_legal_move, seat_user, version_of

pytestmark = pytest.mark.django_db


def test_the_host_hands_an_absent_friends_seat_to_the_computer_and_the_friend_takes_it_back(
    friends_table: Table,
) -> None:
    anna, bruno = seat_user(friends_table, 0), seat_user(friends_table, 1)
    with pytest.raises(GameError, match="Only the host"):
        services.seat_hand_to_bot(
            table_id=friends_table.pk, by=bruno, seat_number=0, version=version_of(friends_table)
        )
    services.seat_hand_to_bot(
        table_id=friends_table.pk, by=anna, seat_number=1, version=version_of(friends_table)
    )
    assert Seat.objects.get(table=friends_table, number=1).away
    assert next(
        s for s in table_view(table=friends_table.pk, user=anna).seats if s.number == 1
    ).is_away
    # The computer plays bruno's turns now.
    for _ in range(6):
        friends_table.refresh_from_db()
        match = load_match(friends_table)
        if match.round.over:
            break
        if match.round.turn == 1:
            deadline = friends_table.deadlines.get()
            run_due(now=deadline.due_at + timedelta(seconds=1))
        else:
            play_a_legal_move(friends_table)
    assert Move.objects.filter(hand__table=friends_table, seat=1, actor="away").exists()
    services.seat_back(table_id=friends_table.pk, user=bruno, version=version_of(friends_table))
    assert not Seat.objects.get(table=friends_table, number=1).away


def test_the_host_ends_a_friends_game_nobody_wins_it(friends_table: Table) -> None:
    anna, bruno = seat_user(friends_table, 0), seat_user(friends_table, 1)
    with pytest.raises(GameError):
        services.table_end(table_id=friends_table.pk, by=bruno, version=version_of(friends_table))
    services.table_end(table_id=friends_table.pk, by=anna, version=version_of(friends_table))
    friends_table.refresh_from_db()
    assert friends_table.status == Table.Status.ABANDONED
    assert not friends_table.deadlines.exists() and not friends_table.results.exists()
    with pytest.raises(GameError, match="not in progress"):
        play_a_legal_move(friends_table)


def test_a_game_against_the_computer_left_for_hours_is_closed_by_the_worker(
    anna: User,
) -> None:
    from django.utils import timezone

    from deadlines import worker
    from games.constants import ABANDONED_AFTER_HOURS
    from games.selectors import my_games

    left = services.table_create(host=anna, mode=Table.Mode.COMPUTER, rules=DUELLO)
    Table.objects.filter(pk=left.pk).update(
        started_at=timezone.now() - timedelta(hours=ABANDONED_AFTER_HOURS + 1)
    )
    fresh = services.table_create(host=anna, mode=Table.Mode.COMPUTER, rules=DUELLO)
    assert {g.code for g in my_games(user=anna)} == {left.code, fresh.code}
    worker.ensure_periodic(timezone.now())
    run_due(now=timezone.now() + timedelta(seconds=1))
    left.refresh_from_db()
    assert left.status == Table.Status.ABANDONED
    assert {g.code for g in my_games(user=anna)} == {fresh.code}


def test_my_games_show_the_opponents_the_score_and_whose_turn_it_is(
    friends_table: Table,
) -> None:
    from games.selectors import my_games

    anna, bruno = seat_user(friends_table, 0), seat_user(friends_table, 1)
    to_move = seat_user(friends_table, load_match(friends_table).round.turn)
    card = my_games(user=anna)[0]
    assert card.opponents == bruno.display_name and card.score == "0 – 0"
    assert card.your_turn == (to_move == anna)
    assert my_games(user=bruno)[0].your_turn == (to_move == bruno)
