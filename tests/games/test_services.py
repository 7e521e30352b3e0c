"""Services: tables, seats, invitations, moves, the clock — what a player would notice."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import User
from deadlines import services as deadlines
from deadlines.models import Deadline
from deadlines.services import run_due
from games import services
from games.engine import PRESETS
from games.kinds import BOT_MOVE, NEXT_HAND
from games.models import Hand, Invitation, Move, Table
from games.records import load_match
from games.services import play
from games.view.errors import GameError
from tests.fixtures import DUELLO, PAIRS, play_a_legal_move, seat_user, version_of

pytestmark = pytest.mark.django_db


def later(seconds: float = 60) -> timezone.datetime:
    return timezone.now() + timedelta(seconds=seconds)


def play_deadline(table: Table) -> Deadline | None:
    """What the worker will do next at the table, if anything."""
    return table.deadlines.filter(kind__in=play.PLAY_KINDS).first()


def test_vs_computer_starts_at_once_with_bots_in_the_other_seats(anna: User) -> None:
    table = services.table_create(
        host=anna, mode=Table.Mode.COMPUTER, rules=PAIRS, bot_level="hard"
    )
    seats = list(table.seats.all())
    assert [s.user_id for s in seats] == [anna.pk, None, None, None]
    assert [s.bot_level for s in seats] == ["", "hard", "hard", "hard"]
    assert table.status == Table.Status.PLAYING and table.hands.count() == 1
    match = load_match(table)
    assert len(match.round.hands[0]) == 7


def test_friends_table_waits_then_the_share_link_seats_anyone_then_others_watch(
    anna: User, bruno: User, make_user: Callable[..., User]
) -> None:
    table = services.table_create(host=anna, mode=Table.Mode.FRIENDS, rules=DUELLO)
    assert table.status == Table.Status.WAITING
    guest = make_user("guest-1", guest=True)
    seat = services.table_join(table_id=table.pk, version=version_of(table), user=guest)
    assert seat is not None and seat.number == 1
    again = services.table_join(table_id=table.pk, version=version_of(table), user=guest)
    assert again == seat  # sitting again: the same seat
    # the table is full: bruno watches
    assert services.table_join(table_id=table.pk, version=version_of(table), user=bruno) is None
    table.refresh_from_db()
    assert table.version == 1  # only the real change bumped it


def test_only_the_host_starts_and_only_with_every_seat_taken(anna: User, bruno: User) -> None:
    table = services.table_create(host=anna, mode=Table.Mode.FRIENDS, rules=PAIRS)
    services.table_join(table_id=table.pk, version=version_of(table), user=bruno)
    with pytest.raises(GameError, match="Only the host"):
        services.table_start(table_id=table.pk, version=version_of(table), by=bruno)
    with pytest.raises(GameError, match="Every seat needs"):
        services.table_start(table_id=table.pk, version=version_of(table), by=anna)
    services.table_fill_with_bots(
        table_id=table.pk, version=version_of(table), by=anna, level="easy"
    )
    services.table_start(table_id=table.pk, version=version_of(table), by=anna)
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    assert [s.bot_level for s in table.seats.all()] == ["", "", "easy", "easy"]
    with pytest.raises(GameError, match="already started"):
        services.table_join(
            table_id=table.pk, version=version_of(table), user=User.objects.create(username="late")
        )


def test_the_host_chooses_partners_by_swapping_seats(anna: User, bruno: User) -> None:
    table = services.table_create(host=anna, mode=Table.Mode.FRIENDS, rules=PAIRS)
    # seat 1: bruno is anna's opponent
    services.table_join(table_id=table.pk, version=version_of(table), user=bruno)
    services.table_swap_seats(table_id=table.pk, version=version_of(table), by=anna, a=1, b=2)
    users = [s.user_id for s in table.seats.all()]
    assert users == [anna.pk, None, bruno.pk, None]  # now seats 0+2: partners
    with pytest.raises(GameError, match="Only the host"):
        services.table_swap_seats(table_id=table.pk, version=version_of(table), by=bruno, a=0, b=1)


def test_the_host_adds_and_removes_a_bot_on_a_seat(anna: User) -> None:
    table = services.table_create(host=anna, mode=Table.Mode.FRIENDS, rules=DUELLO)
    services.table_set_bot(
        table_id=table.pk, version=version_of(table), by=anna, seat_number=1, level="hard"
    )
    assert table.seats.get(number=1).bot_level == "hard"
    services.table_set_bot(
        table_id=table.pk, version=version_of(table), by=anna, seat_number=1, level=""
    )
    assert table.seats.get(number=1).is_free
    with pytest.raises(GameError, match="taken"):
        services.table_set_bot(
            table_id=table.pk, version=version_of(table), by=anna, seat_number=0, level="easy"
        )
    with pytest.raises(GameError, match="Unknown computer level"):
        services.table_set_bot(
            table_id=table.pk, version=version_of(table), by=anna, seat_number=1, level="godlike"
        )


def test_invite_by_username_whatever_the_case_and_the_invitee_is_told(
    anna: User, bruno: User, django_capture_on_commit_callbacks: Callable[..., object]
) -> None:
    table = services.table_create(host=anna, mode=Table.Mode.FRIENDS, rules=DUELLO)
    with django_capture_on_commit_callbacks() as callbacks:  # type: ignore[attr-defined]
        invitation = services.table_invite(
            table_id=table.pk, version=version_of(table), by=anna, username="  BRUNO "
        )
    assert invitation.to_user == bruno and invitation.status == Invitation.Status.PENDING
    assert len(callbacks) == 3  # the invitee's pages and header, and the table's viewers
    with pytest.raises(GameError, match="already been invited"):
        services.table_invite(
            table_id=table.pk, version=version_of(table), by=anna, username="bruno"
        )
    with pytest.raises(GameError, match="No player is called “nobody”"):
        services.table_invite(
            table_id=table.pk, version=version_of(table), by=anna, username="nobody"
        )
    services.table_join(table_id=table.pk, version=version_of(table), user=bruno)
    invitation.refresh_from_db()
    assert invitation.status == Invitation.Status.ACCEPTED


def test_guests_cannot_be_invited_by_their_generated_name(
    anna: User, make_user: Callable[..., User]
) -> None:
    guest = make_user("guest-abc", guest=True)
    table = services.table_create(host=anna, mode=Table.Mode.FRIENDS, rules=DUELLO)
    with pytest.raises(GameError, match=r"No player.*send them the table's link"):
        services.table_invite(
            table_id=table.pk, version=version_of(table), by=anna, username=guest.username
        )


def test_a_declined_invitation_is_no_longer_pending(anna: User, bruno: User) -> None:
    table = services.table_create(host=anna, mode=Table.Mode.FRIENDS, rules=DUELLO)
    invitation = services.table_invite(
        table_id=table.pk, version=version_of(table), by=anna, username="bruno"
    )
    services.invitation_decline(invitation_id=invitation.pk, user=bruno)
    invitation.refresh_from_db()
    assert invitation.status == Invitation.Status.DECLINED
    with pytest.raises(GameError, match="not for you"):
        services.invitation_decline(invitation_id=invitation.pk, user=anna)


def test_a_move_is_stored_with_the_version_bumped(friends_table: Table) -> None:
    version = friends_table.version
    move = play_a_legal_move(friends_table)
    friends_table.refresh_from_db()
    assert friends_table.version == version + 1
    stored = Move.objects.get(hand__table=friends_table)
    assert stored.text == move and stored.ply == 0 and stored.actor == Move.Actor.PERSON
    assert [str(m) for m in load_match(friends_table).round.moves] == [move]


def test_an_opening_sent_for_the_right_end_is_stored_on_the_left(friends_table: Table) -> None:
    match = load_match(friends_table)
    (opening,) = match.round.legal_moves()  # the opening tile is forced
    services.move_submit(
        table_id=friends_table.pk,
        user=seat_user(friends_table, match.round.turn),
        move=str(opening).replace("L", "R"),
        version=friends_table.version,
    )
    assert Move.objects.get(hand__table=friends_table).text == str(opening)
    assert str(opening).endswith("L")


def test_a_stale_or_repeated_command_is_refused_and_changes_nothing(friends_table: Table) -> None:
    match = load_match(friends_table)
    turn = match.round.turn
    move = str(match.round.legal_moves()[0])
    services.move_submit(
        table_id=friends_table.pk,
        user=seat_user(friends_table, turn),
        move=move,
        version=friends_table.version,
    )
    with pytest.raises(GameError) as refused:  # the same click again, with the old version
        services.move_submit(
            table_id=friends_table.pk,
            user=seat_user(friends_table, turn),
            move=move,
            version=friends_table.version,
        )
    assert refused.value.stale
    assert Move.objects.filter(hand__table=friends_table).count() == 1


def test_moves_out_of_turn_illegal_or_by_watchers_are_refused_with_a_message(
    friends_table: Table, make_user: Callable[..., User]
) -> None:
    match = load_match(friends_table)
    turn = match.round.turn
    other = seat_user(friends_table, 1 - turn)
    v = friends_table.version
    with pytest.raises(GameError, match="not your turn"):
        services.move_submit(table_id=friends_table.pk, user=other, move="draw", version=v)
    player = seat_user(friends_table, turn)
    with pytest.raises(GameError, match="not a move"):
        services.move_submit(table_id=friends_table.pk, user=player, move="jump", version=v)
    foreign = next(t for t in match.round.hands[1 - turn])
    with pytest.raises(GameError, match="don't hold"):
        services.move_submit(table_id=friends_table.pk, user=player, move=f"{foreign}L", version=v)
    with pytest.raises(GameError, match="watching"):
        services.move_submit(
            table_id=friends_table.pk, user=make_user("carla"), move="pass", version=v
        )
    friends_table.refresh_from_db()
    assert friends_table.version == v and not Move.objects.exists()


def test_bots_move_when_their_deadline_comes_not_before(anna: User) -> None:
    User.objects.filter(pk=anna.pk).update(plays_forced_moves=False)  # the bots alone move
    rules = PAIRS
    table = services.table_create(
        host=anna, mode=Table.Mode.COMPUTER, rules=rules, bot_level="easy"
    )
    table.refresh_from_db()
    match = load_match(table)
    if match.round.turn == 0:  # anna opens: play so the bots are next
        play_a_legal_move(table)
        table.refresh_from_db()
    assert play_deadline(table) is not None
    assert run_due(now=timezone.now() - timedelta(seconds=5)) == 0
    moved = 0
    while load_match(table).round.turn != 0 and not load_match(table).round.over:
        moved += run_due(now=later())
        table.refresh_from_db()
    assert moved >= 1
    assert Move.objects.filter(actor=Move.Actor.BOT).count() == moved
    if not load_match(table).round.over:
        assert play_deadline(table) is None  # waiting on anna, no clock: no deadline


def test_the_next_hand_is_dealt_on_request_or_by_the_clock(friends_table: Table) -> None:
    rng = random.Random(4)
    while not load_match(friends_table).round.over:
        play_a_legal_move(friends_table, rng)
    friends_table.refresh_from_db()
    deadline = play_deadline(friends_table)  # the worker will deal it
    assert deadline is not None and deadline.kind == NEXT_HAND
    hand = Hand.objects.get(table=friends_table, number=0)
    assert hand.reason in ("domino", "blocked")
    if load_match(friends_table).over:
        return
    with pytest.raises(GameError, match="watching"):
        services.hand_next(
            table_id=friends_table.pk,
            user=User.objects.create(username="w"),
            version=friends_table.version,
        )
    run_due(now=later())  # the next hand, and the coach's review of the first
    assert friends_table.hands.count() == 2
    match = load_match(friends_table)
    previous = match.rounds[0].result
    assert previous is not None
    if previous.winners:  # duello: the previous winner opens with any tile
        assert match.round.turn == previous.winners[0] and match.round.opening_tile is None


def test_a_whole_game_ends_with_a_winner_recorded(anna: User) -> None:
    table = services.table_create(
        host=anna, mode=Table.Mode.COMPUTER, rules=PRESETS["blocco"], bot_level="easy"
    )
    rng = random.Random(2)
    for _ in range(200):
        table.refresh_from_db()
        if table.status == Table.Status.FINISHED:
            break
        match = load_match(table)
        if match.round.turn == 0:
            play_a_legal_move(table, rng)
        else:
            run_due(now=later())
    assert table.status == Table.Status.FINISHED and table.finished_at is not None
    match = load_match(table)
    assert table.winner_seats == match.winners
    assert play_deadline(table) is None


def test_reloading_replays_exactly_the_same_game(friends_table: Table) -> None:
    rng = random.Random(8)
    for _ in range(6):
        if load_match(friends_table).round.over:
            break
        play_a_legal_move(friends_table, rng)
    before = load_match(friends_table).round.position()
    fresh = Table.objects.get(pk=friends_table.pk)  # as after a restart
    assert load_match(fresh).round.position() == before


def test_the_host_cancels_a_table_nobody_started(anna: User, bruno: User) -> None:
    table = services.table_create(host=anna, mode=Table.Mode.FRIENDS, rules=DUELLO)
    with pytest.raises(GameError, match="Only the host"):
        services.table_cancel(table_id=table.pk, version=version_of(table), by=bruno)
    services.table_cancel(table_id=table.pk, version=version_of(table), by=anna)
    table.refresh_from_db()
    assert table.status == Table.Status.CANCELLED


def test_a_table_that_fails_on_the_clock_is_retried_later_without_stopping_the_others(
    anna: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    User.objects.filter(pk=anna.pk).update(plays_forced_moves=False)  # the bot's deadline alone
    broken = services.table_create(host=anna, mode=Table.Mode.COMPUTER, rules=DUELLO)
    fine = services.table_create(host=anna, mode=Table.Mode.COMPUTER, rules=DUELLO)
    now = timezone.now()
    for table in (broken, fine):  # whoever's turn it is, the worker looks at both now
        deadlines.set_deadline(BOT_MOVE, now, table=table)
    real = play._plan

    def plan(table_id: int) -> play._Plan:
        if table_id == broken.pk:
            raise RuntimeError("boom")
        return real(table_id)

    monkeypatch.setattr(play, "_plan", plan)
    run_due(now=now)
    assert play_deadline(broken).due_at == now + deadlines.retry_delay(1)  # type: ignore[union-attr]
    # the worker went on to the next table: a bot moved, or it is anna's turn
    assert Deadline.objects.filter(table=fine, due_at=now).count() == 0


def _finish(table: Table) -> None:
    rng = random.Random(1)
    for _ in range(500):
        table.refresh_from_db()
        if table.status == Table.Status.FINISHED:
            return
        match = load_match(table)
        if match.round.over or table.seats.get(number=match.round.turn).is_bot:
            run_due(now=later())
        else:
            play_a_legal_move(table, rng)
    raise AssertionError("the game did not finish")


def test_a_rematch_opens_once_with_the_same_settings_for_everyone_at_the_table(
    anna: User, bruno: User
) -> None:
    table = services.table_create(host=anna, mode=Table.Mode.FRIENDS, rules=PRESETS["blocco"])
    services.table_set_bot(
        table_id=table.pk, version=version_of(table), by=anna, seat_number=1, level="hard"
    )
    services.table_start(table_id=table.pk, version=version_of(table), by=anna)
    with pytest.raises(GameError, match="not over"):
        services.table_rematch(table_id=table.pk, by=anna)
    _finish(table)
    with pytest.raises(GameError, match="Only players"):
        services.table_rematch(table_id=table.pk, by=bruno)
    rematch = services.table_rematch(table_id=table.pk, by=anna)
    assert services.table_rematch(table_id=table.pk, by=anna) == rematch  # only one
    table.refresh_from_db()
    table.rematch.refresh_from_db()  # type: ignore[union-attr]
    assert table.rematch == rematch and rematch.rules == table.rules
    assert table.rematch.status == Table.Status.PLAYING  # type: ignore[union-attr]  # all back
    assert [s.bot_level for s in rematch.seats.all()] == ["", "hard"]


def test_a_friends_rematch_seats_each_player_again_in_their_seat_and_starts_when_all_are_back(
    anna: User, bruno: User, make_user: Callable[..., User]
) -> None:
    carla = make_user("carla")
    table = services.table_create(host=anna, mode=Table.Mode.FRIENDS, rules=PRESETS["blocco"])
    services.table_join(table_id=table.pk, version=version_of(table), user=carla)
    services.table_swap_seats(table_id=table.pk, version=version_of(table), by=anna, a=0, b=1)
    services.table_start(table_id=table.pk, version=version_of(table), by=anna)
    _finish(table)
    rematch = services.table_rematch(table_id=table.pk, by=carla)  # carla asks first
    seats = {s.number: s.user for s in rematch.seats.all()}
    assert seats == {0: carla, 1: None}  # carla in her old seat; anna's kept free
    assert rematch.status == Table.Status.WAITING
    services.table_rematch(table_id=table.pk, by=anna)  # one step for anna too
    rematch.refresh_from_db()
    assert {s.number: s.user for s in rematch.seats.all()} == {0: carla, 1: anna}
    assert rematch.status == Table.Status.PLAYING
