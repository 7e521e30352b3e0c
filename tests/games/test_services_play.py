"""games/services/play.py: the clock and the hands.

A hand's first move is never played by the clock before the player could have
seen the table: the opening gets the whole turn plus a grace however forced it is
(for a player who plays their forced moves themselves), and no move is played by
the clock within ``HAND_START_GRACE`` of the deal.  After a
hand, the result stays on every screen until everyone seated is ready (or the
countdown ends), and each player sees who is ready.  Time comes from the worker's
injectable clock (``run_due(now=…)``), never from sleeps."""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import datetime, timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from deadlines.models import Deadline
from deadlines.services import run_due
from games import services, states
from games.constants import HAND_START_GRACE, ONLINE_TURN_SECONDS
from games.engine import PRESETS, Round
from games.kinds import BOT_MOVE, FORCED_MOVE, NEXT_HAND, TURN_CLOCK
from games.models import Hand, Move, Seat, Table
from games.records import load_match
from games.selectors import table_view
from games.services.online import Filler
from games.services.play import schedule
from games.view.errors import GameError
from tests.fixtures import DUELLO, play_a_legal_move, seat_user, version_of

pytestmark = pytest.mark.django_db

GRACE = timedelta(seconds=HAND_START_GRACE)


def dealt_at(table: Table) -> datetime:
    return (
        Hand.objects.filter(table=table).order_by("-number").values_list("created_at", flat=True)[0]
    )


def clock_of(table: Table) -> Deadline:
    return table.deadlines.get(kind=TURN_CLOCK)


def moves(table: Table) -> int:
    return Move.objects.filter(hand__table=table).count()


def test_a_forced_opening_waits_the_whole_turn_and_a_grace(anna: User, bruno: User) -> None:
    for person in (anna, bruno):  # they play their forced moves themselves
        services.forced_moves_choose(user=person, on=False)
    table = services.online_table_create(rules=DUELLO, people=[anna, bruno])
    assert len(load_match(table).round.legal_moves()) == 1  # the opening is forced
    dealt, clock = dealt_at(table), clock_of(table)
    assert clock.due_at >= dealt + timedelta(seconds=ONLINE_TURN_SECONDS) + GRACE
    # the page takes its time to show the table: nothing is played for the player
    for seconds in (1, HAND_START_GRACE, ONLINE_TURN_SECONDS):
        run_due(now=dealt + timedelta(seconds=seconds))
        assert moves(table) == 0
    run_due(now=clock.due_at)
    played = Move.objects.get(hand__table=table)
    assert played.actor == Move.Actor.FORCED and played.ply == 0


def test_the_next_hands_opening_waits_as_long(anna: User, bruno: User) -> None:
    rules = replace(DUELLO, target=300)
    table = services.online_table_create(rules=rules, people=[anna, bruno])
    rng = random.Random(4)
    while not load_match(table).round.over:
        play_a_legal_move(table, rng)
    for seat in (0, 1):
        services.hand_next(
            table_id=table.pk, user=seat_user(table, seat), version=version_of(table)
        )
    table.refresh_from_db()
    assert table.hands.count() == 2 and not load_match(table).round.moves
    dealt, clock = dealt_at(table), clock_of(table)
    assert clock.due_at >= dealt + timedelta(seconds=ONLINE_TURN_SECONDS) + GRACE
    before = moves(table)
    run_due(now=dealt + timedelta(seconds=ONLINE_TURN_SECONDS))
    assert moves(table) == before


def test_a_forced_reply_to_a_quick_computer_opening_waits_for_the_grace(anna: User) -> None:
    """The computer opens within a second of the deal; anna can only pass: it is played
    for her, but not within the grace after the deal."""
    rules = replace(PRESETS["luciano"], draw=False)
    table = services.online_table_create(
        rules=rules, people=[anna], fillers=[Filler("rosa_1975", "easy")]
    )
    r = Round.from_hands(
        rules, [["0|0", "2|2", "3|3"], ["6|6", "6|5", "1|1"]], boneyard=[], dealer=0
    )
    Hand.objects.filter(table=table).update(initial_position=r.initial_position)
    states.forget()
    with transaction.atomic():  # the deal as if it had been this one: the computer opens
        schedule(table, load_match(table), list(table.seats.order_by("number")))
    dealt = dealt_at(table)
    bot = table.deadlines.get(kind=BOT_MOVE)
    assert bot.due_at < dealt + timedelta(seconds=2)  # a computer needs no grace
    run_due(now=bot.due_at)
    assert moves(table) == 1
    clock = table.deadlines.get(kind=FORCED_MOVE)
    assert clock.due_at >= dealt + GRACE
    run_due(now=dealt + GRACE - timedelta(milliseconds=100))
    assert moves(table) == 1
    run_due(now=clock.due_at)
    last = Move.objects.filter(hand__table=table).last()
    assert last is not None and last.text == "pass" and last.actor == Move.Actor.FORCED


def test_refused_moves_before_the_clock_change_nothing_and_say_why(
    anna: User, bruno: User, make_user: object
) -> None:
    for person in (anna, bruno):  # the opening is forced: the clock, not a short pause
        services.forced_moves_choose(user=person, on=False)
    table = services.online_table_create(rules=DUELLO, people=[anna, bruno])
    match = load_match(table)
    opener = seat_user(table, match.round.turn)
    other = seat_user(table, 1 - match.round.turn)
    carla = make_user("carla")  # type: ignore[operator]
    clock, version = clock_of(table), version_of(table)
    opening = str(match.round.legal_moves()[0])
    with pytest.raises(GameError, match="It is not your turn"):
        services.move_submit(table_id=table.pk, user=other, move=opening, version=version)
    with pytest.raises(GameError, match="You are watching this table, not playing"):
        services.move_submit(table_id=table.pk, user=carla, move=opening, version=version)
    assert clock_of(table).due_at == clock.due_at and version_of(table) == version
    assert moves(table) == 0
    services.move_submit(table_id=table.pk, user=opener, move=opening, version=version)
    assert moves(table) == 1

    Table.objects.filter(pk=table.pk).update(status=Table.Status.ABANDONED)
    table.deadlines.all().delete()
    states.forget()
    version = version_of(table)
    reply = str(load_match(table).round.legal_moves()[0])
    with pytest.raises(GameError, match="The game is not in progress"):
        services.move_submit(table_id=table.pk, user=other, move=reply, version=version)
    assert moves(table) == 1 and not table.deadlines.exists()


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
