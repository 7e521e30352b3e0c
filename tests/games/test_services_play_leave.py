"""A seated friend leaves a running game with friends: the computer plays the seat
under their name, the others are told (a log line, the seat's label), the player
goes home and can no longer act for the seat, and is not paid for it."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from datetime import timedelta

import pytest
from django.test import Client

from accounts.models import User
from deadlines.services import run_due
from economy.models import XpAward
from games import services
from games.engine import PRESETS, Rules
from games.models import Move, Seat, SeatResult, Table
from games.records import load_match
from games.selectors import table_view
from games.view.errors import GameError
from tests.fixtures import DUELLO, play_a_legal_move, seat_user, version_of

pytestmark = pytest.mark.django_db


def friends_game(people: list[User], rules: Rules = DUELLO, bots: int = 0) -> Table:
    host, *others = people
    table = services.table_create(host=host, mode=Table.Mode.FRIENDS, rules=rules)
    for user in others:
        services.table_join(table_id=table.pk, user=user, version=version_of(table))
    if bots:
        services.table_fill_with_bots(
            table_id=table.pk, by=host, level="easy", version=version_of(table)
        )
    services.table_start(table_id=table.pk, by=host, version=version_of(table))
    table.refresh_from_db()
    return table


def test_a_friend_leaves_and_the_computer_plays_the_seat_under_their_name(
    anna: User, bruno: User
) -> None:
    table = friends_game([anna, bruno])
    services.game_leave(table_id=table.pk, user=bruno)
    seat = Seat.objects.get(table=table, number=1)
    assert seat.user is None and seat.is_bot and seat.has_left and seat.bot_name == "bruno"
    seen = table_view(table=table.pk, user=anna)
    label = next(s for s in seen.seats if s.number == 1)
    assert label.name == "bruno" and label.has_left and label.is_bot
    assert seen.log[0].kind == "left" and seen.log[0].name == "bruno"
    html = Client()
    html.force_login(anna)
    html.cookies["django_language"] = "en"
    page = html.get(f"/t/{table.code}/").content.decode()
    assert "left the table: the computer plays this seat from now on" in page
    assert "left: the computer plays" in page
    # bruno watches now: no hand, no seat, no say
    watched = table_view(table=table.pk, user=bruno)
    assert watched.you is None and watched.hand == ()
    version = version_of(table)
    with pytest.raises(GameError, match="You are watching this table, not playing"):
        services.move_submit(table_id=table.pk, user=bruno, move="pass", version=version)
    with pytest.raises(GameError, match="You are watching this table, not playing"):
        services.game_leave(table_id=table.pk, user=bruno)
    assert version_of(table) == version
    # the computer plays seat 1's turns
    for _ in range(8):
        match = load_match(Table.objects.get(pk=table.pk))
        if match.round.over:
            break
        if match.round.turn == 1:
            run_due(now=table.deadlines.get().due_at + timedelta(seconds=1))
        else:
            play_a_legal_move(table)
    assert Move.objects.filter(hand__table=table, seat=1, actor=Move.Actor.BOT).exists()


def test_leaving_is_refused_with_a_message_and_changes_nothing(
    anna: User, bruno: User, make_user: Callable[..., User]
) -> None:
    carla = make_user("carla")
    table = friends_game([anna, bruno])
    version = version_of(table)
    with pytest.raises(GameError, match="You are watching this table, not playing"):
        services.game_leave(table_id=table.pk, user=carla)
    online = services.online_table_create(rules=DUELLO, people=[anna, carla])
    with pytest.raises(GameError, match="Only a game with friends can be left this way"):
        services.game_leave(table_id=online.pk, user=carla)
    waiting = services.table_create(host=carla, mode=Table.Mode.FRIENDS, rules=DUELLO)
    with pytest.raises(GameError, match="The game is not in progress"):
        services.game_leave(table_id=waiting.pk, user=carla)
    over = friends_game([carla, make_user("dario")], rules=PRESETS["blocco"])
    rng = random.Random(2)
    while not load_match(Table.objects.get(pk=over.pk)).over:
        play_a_legal_move(over, rng)
    with pytest.raises(GameError, match="The game is not in progress"):
        services.game_leave(table_id=over.pk, user=carla)
    assert version_of(table) == version
    assert Seat.objects.filter(table=table, left_hand__isnull=False).count() == 0
    assert Seat.objects.get(table=online, number=1).user == carla


def test_the_host_who_leaves_hands_hosting_on_and_the_last_person_ends_the_game(
    anna: User, bruno: User
) -> None:
    three = replace(PRESETS["blocco"], players=3, hand_size=5)
    table = friends_game([anna, bruno], rules=three, bots=1)
    services.game_leave(table_id=table.pk, user=anna)
    table.refresh_from_db()
    assert table.host == bruno and table.status == Table.Status.PLAYING
    assert table_view(table=table.pk, user=bruno).is_host
    services.game_leave(table_id=table.pk, user=bruno)
    table.refresh_from_db()
    assert table.status == Table.Status.ABANDONED and not table.deadlines.exists()


def test_who_left_is_not_paid_whatever_their_seat_scores(anna: User, bruno: User) -> None:
    table = friends_game([anna, bruno], rules=PRESETS["blocco"])
    services.game_leave(table_id=table.pk, user=bruno)
    rng = random.Random(7)
    for _ in range(100):
        current = Table.objects.get(pk=table.pk)
        if current.status != Table.Status.PLAYING:
            break
        match = load_match(current)
        if match.round.turn == 1:
            run_due(now=current.deadlines.get().due_at + timedelta(seconds=1))
        else:
            play_a_legal_move(current, rng)
    result = SeatResult.objects.get(table=table, seat=1)
    assert result.user_id is None and result.is_bot
    assert not XpAward.objects.filter(user=bruno).exists()


def test_the_leave_button_sends_the_player_home_with_a_message(anna: User, bruno: User) -> None:
    table = friends_game([anna, bruno])
    browser = Client()
    browser.force_login(bruno)
    browser.cookies["django_language"] = "en"
    page = browser.get(f"/t/{table.code}/").content.decode()
    assert 'id="leave-game"' in page and "hx-confirm=" in page
    answer = browser.post(f"/t/{table.code}/leave/", HTTP_HX_REQUEST="true")
    assert answer.status_code == 200 and answer["HX-Redirect"] == "/"
    home = browser.get("/").content.decode()
    assert "You left the table: the computer plays your seat." in home
    again = browser.post(f"/t/{table.code}/leave/", HTTP_HX_REQUEST="true")
    assert again["HX-Redirect"] == f"/t/{table.code}/"  # refused: back to the table, told why
    assert (
        "You are watching this table, not playing."
        in browser.get(again["HX-Redirect"]).content.decode()
    )
    assert 'id="leave-game"' not in browser.get(f"/t/{table.code}/").content.decode()
    assert seat_user(table, 0) == anna


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
    services.seat_back(table_id=friends_table.pk, user=bruno)
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
