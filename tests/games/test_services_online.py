"""Online tables: fillers, the turn clock, away seats, and one result row per seat."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime, timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import User
from deadlines.models import Deadline
from deadlines.services import run_due
from games import services
from games.constants import (
    AWAY_AFTER_TIMEOUTS,
    FORCED_PAUSE_SECONDS,
    HAND_START_GRACE,
    ONLINE_TURN_SECONDS,
)
from games.engine import PRESETS, Round, Rules
from games.kinds import BOT_MOVE, FORCED_MOVE, NEXT_HAND, TURN_CLOCK
from games.live.commands import dispatch
from games.models import Hand, Move, Seat, SeatResult, Table
from games.records import load_match
from games.selectors import table_view
from games.services.online import Filler
from games.view.errors import GameError
from tests.fixtures import DUELLO, PAIRS, play_a_legal_move, play_to_the_end, seat_user, version_of

pytestmark = pytest.mark.django_db


def turn_deadline(table: Table) -> Deadline | None:
    return table.deadlines.filter(kind=TURN_CLOCK).first()


def after(deadline: Deadline | None, seconds: float = 0.01) -> datetime:
    assert deadline is not None
    return deadline.due_at + timedelta(seconds=seconds)


def current_turn(table: Table) -> int:
    return load_match(Table.objects.get(pk=table.pk)).round.turn


@pytest.fixture
def duel(anna: User, bruno: User) -> Table:
    return online_duel(anna, bruno)


def online_duel(anna: User, bruno: User, rules: Rules = DUELLO) -> Table:
    """An online duello between anna (seat 0) and bruno (seat 1), opened, the next
    player having a real choice (a forced move is played after a short pause)."""
    for _ in range(50):
        table = services.online_table_create(rules=rules, people=[anna, bruno])
        play_a_legal_move(table)  # the opening is forced
        if len(load_match(table).round.legal_moves()) > 1:
            table.refresh_from_db()
            return table
        table.delete()  # its forced move's deadline must not be due in the tests
    raise AssertionError("no deal with a choice in 50 tries")


def test_an_online_table_seats_people_in_the_order_they_came_then_the_fillers(
    make_user: Callable[..., User],
) -> None:
    first, second = make_user("primo"), make_user("secondo")
    table = services.online_table_create(
        rules=PAIRS,
        people=[first, second],
        fillers=[Filler("giulia_87", "medium"), Filler("tonino1962", "easy")],
    )
    seats = list(table.seats.order_by("number"))
    assert [s.user for s in seats[:2]] == [first, second]
    assert [(s.bot_name, s.bot_level, s.is_filler) for s in seats[2:]] == [
        ("giulia_87", "medium", True),
        ("tonino1962", "easy", True),
    ]
    assert table.mode == Table.Mode.ONLINE and table.status == Table.Status.PLAYING
    assert table.fillers == 2 and table.turn_seconds == ONLINE_TURN_SECONDS


def test_a_filler_carries_a_visible_simulated_player_mark_on_the_table_page(
    anna: User, client: Client
) -> None:
    table = services.online_table_create(
        rules=DUELLO, people=[anna], fillers=[Filler("marco.rossi", "medium")]
    )
    client.force_login(anna)
    client.cookies["django_language"] = "en"
    page = client.get(f"/t/{table.code}/").content.decode()
    assert "marco.rossi" in page and "simulated player" in page
    seat = next(s for s in table_view(table=table, user=anna).seats if s.number == 1)
    assert seat.is_filler and seat.name == "marco.rossi"


def test_online_tables_refuse_a_seat_twice_or_an_empty_seat(anna: User) -> None:
    with pytest.raises(GameError):
        services.online_table_create(rules=DUELLO, people=[anna, anna])
    with pytest.raises(GameError):
        services.online_table_create(rules=PAIRS, people=[anna])
    assert not Table.objects.exists()


def test_the_turn_clock_comes_from_the_server_and_runs_for_the_player_to_move(
    duel: Table,
) -> None:
    deadline = turn_deadline(duel)
    assert deadline is not None
    left = (deadline.due_at - timezone.now()).total_seconds()
    assert ONLINE_TURN_SECONDS - 2 < left <= ONLINE_TURN_SECONDS
    mover = seat_user(duel, current_turn(duel))
    view = table_view(table=duel, user=mover)
    assert view.turn_ends_at == deadline.due_at


def test_on_timeout_the_server_plays_for_the_player_and_the_log_says_so(duel: Table) -> None:
    seat = current_turn(duel)
    assert run_due(now=after(turn_deadline(duel), -1)) == 0  # not before its time
    assert run_due(now=after(turn_deadline(duel))) == 1
    move = Move.objects.filter(hand__table=duel).last()
    assert move is not None and move.seat == seat and move.actor == Move.Actor.CLOCK
    assert Seat.objects.get(table=duel, number=seat).timeouts == 1
    view = table_view(table=duel, user=seat_user(duel, 1 - seat))
    assert view.log[0].actor == Move.Actor.CLOCK


def _time_out_until_away(table: Table, seat: int) -> None:
    """Let the clock run out on ``seat``'s turns (the other side plays its moves)."""
    rng = random.Random(3)
    for _ in range(60):
        table.refresh_from_db()
        if Seat.objects.get(table=table, number=seat).away or table.status != "playing":
            return
        match = load_match(table)
        if match.round.over:
            countdown = table.deadlines.filter(kind=NEXT_HAND).first()
            if Seat.objects.get(table=table, number=1 - seat).ready and countdown is not None:
                run_due(now=after(countdown))  # the other side is ready: the countdown deals
            else:
                services.hand_next(
                    table_id=table.pk, user=seat_user(table, 1 - seat), version=table.version
                )
        elif match.round.turn == seat:  # the clock, or their only move played for them
            run_due(now=after(table.deadlines.filter(kind__in=(TURN_CLOCK, FORCED_MOVE)).first()))
        else:
            play_a_legal_move(table, rng)
    raise AssertionError("the seat never went away")


def test_two_timeouts_in_a_row_mark_the_seat_away_and_a_bot_plays_it(duel: Table) -> None:
    seat = current_turn(duel)
    _time_out_until_away(duel, seat)
    away = Seat.objects.get(table=duel, number=seat)
    assert away.away and away.timeouts >= AWAY_AFTER_TIMEOUTS
    assert Move.objects.filter(hand__table=duel, seat=seat, actor=Move.Actor.CLOCK).count() >= 2
    others = table_view(table=duel, user=seat_user(duel, 1 - seat))
    assert next(s for s in others.seats if s.number == seat).is_away
    mine = table_view(table=duel, user=seat_user(duel, seat))
    assert mine.you_are_away
    # From now on the seat's turns are bot moves at human pace, not clock timeouts.
    rng = random.Random(5)
    for _ in range(10):
        duel.refresh_from_db()
        match = load_match(duel)
        if duel.status != "playing" or match.round.over:
            break
        if match.round.turn == seat:
            deadline = duel.deadlines.get()
            assert deadline.kind == BOT_MOVE
            run_due(now=after(deadline))
            assert Move.objects.filter(hand__table=duel).last().actor == Move.Actor.AWAY  # type: ignore[union-attr]
        else:
            play_a_legal_move(duel, rng)


def test_im_back_takes_the_seat_back_and_restarts_the_count(duel: Table) -> None:
    seat = current_turn(duel)
    _time_out_until_away(duel, seat)
    player = seat_user(duel, seat)
    services.seat_back(table_id=duel.pk, user=player)
    back = Seat.objects.get(table=duel, number=seat)
    assert not back.away and back.timeouts == 0
    assert not table_view(table=duel, user=player).you_are_away


def test_im_back_clicked_on_a_screen_the_stand_in_has_since_moved_still_takes_the_seat_back(
    duel: Table,
) -> None:
    """The button was drawn before the computer's last move for them: no "the table has
    changed, try again" — taking the seat back decides nothing on the position."""
    seat = current_turn(duel)
    _time_out_until_away(duel, seat)
    drawn_at = version_of(duel)
    run_due(now=after(duel.deadlines.get()))  # the stand-in plays for them meanwhile
    assert version_of(duel) > drawn_at
    player = seat_user(duel, seat)
    dispatch(table_id=duel.pk, user=player, data={"action": "back", "version": drawn_at})
    assert not Seat.objects.get(table=duel, number=seat).away


def test_an_away_player_reading_a_hands_result_is_offered_im_back(
    anna: User, bruno: User, client: Client
) -> None:
    """Between hands the away banner stays: the next hand would be played for them."""
    duel = online_duel(anna, bruno, replace(DUELLO, target=300))  # no match ends in a hand
    seat = current_turn(duel)
    _time_out_until_away(duel, seat)
    rng = random.Random(4)
    for _ in range(60):  # the stand-in and the other side play the hand out
        duel.refresh_from_db()
        if load_match(duel).round.over:
            break
        if load_match(duel).round.turn == seat:
            run_due(now=after(duel.deadlines.get()))
        else:
            play_a_legal_move(duel, rng)
    assert duel.status == "playing" and load_match(duel).round.over
    player = seat_user(duel, seat)
    client.force_login(player)
    page = client.get(f"/t/{duel.code}/").content.decode()
    assert 'class="hand-result"' in page and 'id="im-back"' in page
    other = Client()
    other.force_login(seat_user(duel, 1 - seat))
    other.cookies["django_language"] = "en"
    marks = other.get(f"/t/{duel.code}/").content.decode()
    name = player.display_name
    assert f'<li class="away">{name}: away</li>' in marks  # the next hand does not wait for them
    services.seat_back(table_id=duel.pk, user=player)
    assert not Seat.objects.get(table=duel, number=seat).away
    page = client.get(f"/t/{duel.code}/").content.decode()
    assert 'id="im-back"' not in page and 'id="next-hand"' in page


def test_any_move_by_an_away_player_takes_the_seat_back(duel: Table) -> None:
    seat = current_turn(duel)
    _time_out_until_away(duel, seat)
    rng = random.Random(9)
    for _ in range(20):  # the first of their own turns that comes
        duel.refresh_from_db()
        match = load_match(duel)
        if match.round.over:
            services.hand_next(table_id=duel.pk, user=seat_user(duel, seat), version=duel.version)
            break
        if match.round.turn == seat:
            play_a_legal_move(duel, rng)
            break
        play_a_legal_move(duel, rng)
    back = Seat.objects.get(table=duel, number=seat)
    assert not back.away and back.timeouts == 0


def test_a_forced_move_is_played_for_the_player_after_a_pause(anna: User, bruno: User) -> None:
    # bruno holds nothing matching the 6|6 and the boneyard is empty: he can only pass.
    rules = replace(PRESETS["luciano"], draw=False)
    table = services.online_table_create(rules=rules, people=[anna, bruno])
    r = Round.from_hands(
        rules, [["6|6", "6|5", "1|1"], ["0|0", "2|2", "3|3"]], boneyard=[], dealer=1
    )
    # dealt a while ago: the clock keeps quiet for a moment after a deal (test_services_play)
    dealt = timezone.now() - timedelta(seconds=10)
    Hand.objects.filter(table=table).update(initial_position=r.initial_position, created_at=dealt)
    services.move_submit(table_id=table.pk, user=anna, move="6|6L", version=version_of(table))
    deadline = table.deadlines.filter(kind=FORCED_MOVE).first()
    assert deadline is not None and turn_deadline(table) is None
    left = (deadline.due_at - timezone.now()).total_seconds()
    assert left <= FORCED_PAUSE_SECONDS
    run_due(now=after(deadline))
    last = Move.objects.filter(hand__table=table).last()
    assert last is not None and last.text == "pass" and last.actor == Move.Actor.FORCED
    assert Seat.objects.get(table=table, number=1).timeouts == 0  # not held against him


def test_vs_computer_and_friends_have_no_clock_unless_the_host_chose_one(
    anna: User, bruno: User
) -> None:
    for person in (anna, bruno):  # the whole turn even for a forced move
        services.forced_moves_choose(user=person, on=False)
    computer = services.table_create(host=anna, mode=Table.Mode.COMPUTER, rules=DUELLO)
    assert computer.turn_seconds is None and turn_deadline(computer) is None
    timed = services.table_create(host=anna, mode=Table.Mode.FRIENDS, rules=DUELLO, turn_seconds=30)
    services.table_join(table_id=timed.pk, user=bruno, version=version_of(timed))
    services.table_start(table_id=timed.pk, by=anna, version=version_of(timed))
    deadline = turn_deadline(timed)
    assert deadline is not None
    # the opening: the whole turn and a grace, however forced (test_services_play)
    expected = 30 + HAND_START_GRACE
    assert expected - 2 < (deadline.due_at - timezone.now()).total_seconds() <= expected
    with pytest.raises(GameError):
        services.table_create(host=anna, mode=Table.Mode.COMPUTER, rules=DUELLO, turn_seconds=30)
    with pytest.raises(GameError):
        services.table_create(host=anna, mode=Table.Mode.FRIENDS, rules=DUELLO, turn_seconds=7)


def test_the_end_of_a_match_stores_one_result_per_seat_with_ranks(
    make_user: Callable[..., User],
) -> None:
    people = [make_user("uno"), make_user("due")]
    rules = replace(PAIRS, target=50)
    table = services.online_table_create(
        rules=rules, people=people, fillers=[Filler("sara_91", "easy"), Filler("dario", "easy")]
    )
    play_to_the_end(table, seed=11)
    match = load_match(table)
    results = list(SeatResult.objects.filter(table=table).order_by("seat"))
    assert [r.seat for r in results] == [0, 1, 2, 3]
    assert [r.rank for r in results] == list(match.ranks())
    assert sorted({r.rank for r in results}) in ([1, 2], [1])
    assert results[0].rank == results[2].rank and results[1].rank == results[3].rank  # pairs
    assert [r.user for r in results] == [people[0], people[1], None, None]
    assert [r.is_filler for r in results] == [False, False, True, True]
    assert [r.points for r in results] == [match.scores[rules.side_of(s)] for s in range(4)]
    winners = [r.seat for r in results if r.rank == 1]
    assert tuple(winners) == match.winners
    assert not table.deadlines.exists()  # nothing left for the worker


def test_results_are_written_in_the_transaction_that_ends_the_match(
    make_user: Callable[..., User],
) -> None:
    from games import signals

    def payer_fails(**kwargs: object) -> None:
        raise RuntimeError("the payer broke")

    table = services.online_table_create(
        rules=PRESETS["blocco"], people=[make_user("solo")], fillers=[Filler("ugo", "easy")]
    )
    signals.match_finished.connect(payer_fails)
    rng, failed = random.Random(11), False
    try:
        for _ in range(200):  # until the last move fails with its payer
            table.refresh_from_db()
            match = load_match(table)
            moves = Move.objects.filter(hand__table=table).count()
            assert not match.over
            if table.seats.get(number=match.round.turn).is_bot:
                run_due(now=timezone.now() + timedelta(seconds=60))  # the worker logs it
                if Move.objects.filter(hand__table=table).count() == moves:
                    failed = True
                    break
            else:
                try:
                    play_a_legal_move(table, rng)
                except RuntimeError:  # the person's move ended the match, and failed
                    failed = True
                    break
    finally:
        signals.match_finished.disconnect(payer_fails)
    assert failed
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING  # the last move was rolled back with it
    assert not SeatResult.objects.filter(table=table).exists()


def test_the_host_of_a_friends_table_may_turn_the_clock_on_in_the_form(
    anna: User, client: Client
) -> None:
    client.force_login(anna)
    client.cookies["django_language"] = "en"
    form = {"preset": "duello", "seating": "2", "hand_size": "7", "draw": "yes", "target": "100"}
    client.post("/new/", {**form, "mode": "friends", "turn_clock": "30", "bot_level": "medium"})
    client.post("/new/", {**form, "mode": "computer", "turn_clock": "30", "bot_level": "medium"})
    friends, computer = (Table.objects.get(mode=m) for m in ("friends", "computer"))
    assert friends.turn_seconds == 30 and computer.turn_seconds is None
    refused = client.post("/new/", {**form, "mode": "friends", "turn_clock": "7"})
    assert refused.status_code == 200 and b"Select a valid choice" in refused.content
    assert Table.objects.count() == 2
