"""After a hand: the result stays on every screen until everyone seated is ready
(or the countdown ends), and each player sees who is ready."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from deadlines.services import run_due
from games import services
from games.kinds import NEXT_HAND
from games.models import Seat, Table
from games.records import load_match
from games.selectors import table_view
from tests.fixtures import play_a_legal_move, seat_user, version_of

pytestmark = pytest.mark.django_db


def _finish_the_hand(table: Table) -> None:
    rng = random.Random(4)
    while not load_match(Table.objects.get(pk=table.pk)).round.over:
        play_a_legal_move(table, rng)


def _hands(table: Table) -> int:
    return table.hands.count()


def test_one_players_next_hand_waits_for_the_others_and_shows_who_is_ready(
    friends_table: Table,
) -> None:
    _finish_the_hand(friends_table)
    if load_match(friends_table).over:
        pytest.skip("the first hand ended the match")
    anna, bruno = seat_user(friends_table, 0), seat_user(friends_table, 1)
    services.hand_next(table_id=friends_table.pk, user=anna, version=version_of(friends_table))
    assert _hands(friends_table) == 1  # bruno is still reading the result
    bruno_sees = table_view(table=friends_table.pk, user=bruno)
    assert bruno_sees.result is not None  # the result is still on his screen
    assert [s.is_ready for s in sorted(bruno_sees.seats, key=lambda s: s.number)] == [True, False]
    assert table_view(table=friends_table.pk, user=anna).you_are_ready
    services.hand_next(table_id=friends_table.pk, user=bruno, version=version_of(friends_table))
    assert _hands(friends_table) == 2
    assert not Seat.objects.filter(table=friends_table, ready=True).exists()


def test_the_countdown_deals_the_next_hand_even_if_someone_is_still_reading(
    friends_table: Table,
) -> None:
    _finish_the_hand(friends_table)
    if load_match(friends_table).over:
        pytest.skip("the first hand ended the match")
    anna = seat_user(friends_table, 0)
    services.hand_next(table_id=friends_table.pk, user=anna, version=version_of(friends_table))
    deadline = friends_table.deadlines.get(kind=NEXT_HAND)
    run_due(now=deadline.due_at + timedelta(seconds=1))
    assert _hands(friends_table) == 2
    assert timezone.now() < deadline.due_at  # it was the deadline's time, not ours
