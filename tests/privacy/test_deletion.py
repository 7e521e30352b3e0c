"""Deleting an account (privacy.deletion): the row stays, anonymous, so the other
players' games, replays and league tables stay as they were played; the coins go to
the house by one balanced transfer; a waiting stake seat is refunded first; a running
table with other people refuses.  Every test runs on PostgreSQL too
(``make test-scaleout``), the races only there."""

from __future__ import annotations

import uuid
from collections.abc import Callable

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from accounts.services import account_signup, username_check
from economy.audit import audit_ledger
from economy.models import Account, Reason, StakeInPlay, Transfer
from economy.services import house
from games import services
from games.models import Seat, SeatResult, Table
from games.services.stakes import stake_table_sit
from league.models import Entry as LeagueEntry
from league.selectors import standings, tier_of
from league.weeks import week_of
from matchmaking.models import Ticket
from matchmaking.services import queue_join
from privacy.deletion import AccountInUse, account_delete, deleted_label
from tests.economy.conftest import balance
from tests.fixtures import DUELLO, race, version_of
from tests.stakes import DUEL, play_to_the_end, pot, rich  # noqa: F401  (rich: a fixture)

pytestmark = pytest.mark.django_db


def forfeited() -> int:
    return -sum(house(Account.Source.FORFEITED).entries.values_list("amount", flat=True))


def test_the_account_becomes_anonymous_and_its_coins_go_to_the_house_balanced(
    rich: Callable[[str], User],  # noqa: F811
) -> None:
    anna = rich("anna", 1234)
    anna.email = "anna@example.org"
    anna.first_name = "Anna"
    anna.save()
    gone = account_delete(user=anna)
    gone.refresh_from_db()
    assert gone.username == deleted_label(gone) == f"deleted-{gone.pk}"
    assert gone.display_name == gone.username
    assert (gone.email, gone.first_name, gone.last_name) == ("", "", "")
    assert not gone.has_usable_password() and not gone.is_active
    assert gone.deleted_at is not None
    assert balance(gone) == 0 and forfeited() == -1234  # the house's account took them
    transfer = Transfer.objects.get(key=f"forfeit:{gone.pk}")
    assert transfer.reason == Reason.FORFEIT
    assert sorted(transfer.entries.values_list("amount", flat=True)) == [-1234, 1234]
    assert audit_ledger().ok, audit_ledger().problems


def test_the_anonymous_label_and_the_prefix_cannot_be_taken_and_the_old_name_is_free(
    anna: User,
) -> None:
    gone = account_delete(user=anna)
    for name in (gone.username, "Deleted-99", "ＤＥＬＥＴＥＤ-7"):
        with pytest.raises(ValidationError, match="reserved"):
            username_check(name)
    assert account_signup(username="anna", password="tavolo-verde-42").pk != gone.pk


def test_the_other_players_replays_and_league_rows_stay_and_show_the_label(
    rich: Callable[[str], User],  # noqa: F811
) -> None:
    anna, bruno = rich("anna"), rich("bruno")
    table = stake_table_sit(user=anna, rules=DUEL, stake=100)
    stake_table_sit(user=bruno, rules=DUEL, stake=100)
    play_to_the_end(table)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    league_before = list(LeagueEntry.objects.order_by("pk").values_list("user", "points", "rank"))
    results_before = list(SeatResult.objects.filter(table=table).values_list("user", "rank"))
    assert len(league_before) == 2  # a stake table is online: both earned league points

    gone = account_delete(user=anna)

    assert list(LeagueEntry.objects.order_by("pk").values_list("user", "points", "rank")) == (
        league_before
    )
    assert list(SeatResult.objects.filter(table=table).values_list("user", "rank")) == (
        results_before
    )
    names = [row.name for row in standings(week=week_of(timezone.now()), tier=tier_of(user=bruno))]
    assert gone.username in names and "anna" not in names
    replay = Client().get(reverse("replay", args=[table.code]), HTTP_COOKIE="django_language=en")
    assert replay.status_code == 200
    page = replay.content.decode()
    assert gone.username in page and "bruno" in page and ">anna<" not in page
    assert audit_ledger().ok, audit_ledger().problems


def test_an_open_stake_seat_is_refunded_before_the_coins_are_forfeited(
    rich: Callable[[str], User],  # noqa: F811
) -> None:
    anna, bruno = rich("anna", 1000), rich("bruno", 1000)
    table = stake_table_sit(user=anna, rules=DUEL, stake=250)
    other = stake_table_sit(user=bruno, rules=DUEL, stake=500)
    assert balance(anna) == 750 and pot(table) == 250
    gone = account_delete(user=anna)
    table.refresh_from_db()
    assert table.status == Table.Status.CANCELLED and pot(table) == 0
    assert not StakeInPlay.objects.filter(user=gone).exists()
    assert Transfer.objects.filter(key__startswith=f"refund:{table.pk}:").count() == 1
    assert forfeited() == -1000 and balance(gone) == 0  # the refund, then all of it
    assert pot(other) == 500 and balance(bruno) == 500  # nobody else's stake moved
    assert audit_ledger().ok, audit_ledger().problems


def test_refused_at_a_running_table_with_other_people_and_nothing_changes(
    friends_table: Table, anna: User
) -> None:
    before = (anna.username, Transfer.objects.count())
    with pytest.raises(AccountInUse, match="finish the game or leave it") as refused:
        account_delete(user=anna)
    assert refused.value.table == friends_table
    anna.refresh_from_db()
    assert (anna.username, Transfer.objects.count()) == before and anna.is_active


def test_refused_while_the_stake_is_in_play_at_a_running_table(
    rich: Callable[[str], User],  # noqa: F811
) -> None:
    anna, bruno = rich("anna"), rich("bruno")
    table = stake_table_sit(user=anna, rules=DUEL, stake=100)
    stake_table_sit(user=bruno, rules=DUEL, stake=100)
    with pytest.raises(AccountInUse, match="stake is in play") as refused:
        account_delete(user=anna)
    assert refused.value.table == table
    assert balance(anna) == 900 and pot(table) == 200


def test_waiting_tables_are_left_the_queue_too_and_games_against_the_computer_end(
    anna: User, bruno: User
) -> None:
    hosted = services.table_create(host=anna, mode=Table.Mode.FRIENDS, rules=DUELLO)
    joined = services.table_create(host=bruno, mode=Table.Mode.FRIENDS, rules=DUELLO)
    services.table_join(table_id=joined.pk, version=version_of(joined), user=anna)
    practice = services.table_create(host=anna, mode=Table.Mode.COMPUTER, rules=DUELLO)
    queue_join(user=anna, rules=DUELLO)
    gone = account_delete(user=anna)
    statuses = dict(Table.objects.values_list("pk", "status"))
    assert statuses[hosted.pk] == Table.Status.CANCELLED
    assert statuses[joined.pk] == Table.Status.WAITING
    assert not joined.seats.filter(user=gone).exists()
    assert statuses[practice.pk] == Table.Status.ABANDONED
    assert not Ticket.objects.filter(user=gone, status=Ticket.Status.WAITING).exists()
    assert not practice.deadlines.exists()


def test_a_seat_left_in_a_game_with_friends_loses_the_name_too(
    anna: User, bruno: User, make_user: Callable[..., User]
) -> None:
    carla = make_user("carla")
    for leaver, stays in ((anna, bruno), (bruno, carla)):
        table = services.table_create(host=stays, mode=Table.Mode.FRIENDS, rules=DUELLO)
        services.table_join(table_id=table.pk, version=version_of(table), user=leaver)
        services.table_start(table_id=table.pk, version=version_of(table), by=stays)
        services.game_leave(table_id=table.pk, user=leaver)
    assert set(Seat.objects.filter(left_hand__isnull=False).values_list("bot_name", flat=True)) == {
        "anna",
        "bruno",
    }
    gone = account_delete(user=anna)
    assert set(Seat.objects.filter(left_hand__isnull=False).values_list("bot_name", flat=True)) == {
        gone.username,
        "bruno",  # another player's name stays
    }


def test_every_session_of_the_account_ends(anna: User) -> None:
    phone, laptop = Client(), Client()
    phone.force_login(anna)
    laptop.force_login(anna)
    assert laptop.get(reverse("accounts:me")).status_code == 200
    answer = phone.post(reverse("privacy:delete"), {"password": "correct horse battery"})
    assert answer.status_code == 302
    assert "_auth_user_id" not in phone.session
    assert laptop.get(reverse("accounts:me")).status_code == 302  # to log in: a visitor now
    assert not Client().login(username="anna", password="correct horse battery")


def test_the_page_asks_for_the_password_and_a_wrong_one_changes_nothing(
    rich: Callable[[str], User],  # noqa: F811
) -> None:
    anna = rich("anna", 420)
    client = Client()
    client.force_login(anna)
    client.cookies["django_language"] = "en"
    page = client.get(reverse("privacy:delete")).content.decode()
    assert "Your 420 coins are forfeited" in page and 'name="password"' in page
    wrong = client.post(reverse("privacy:delete"), {"password": "nope"})
    assert wrong.status_code == 200 and "That is not your password." in wrong.content.decode()
    anna.refresh_from_db()
    assert anna.is_active and balance(anna) == 420


def test_the_page_says_why_it_waits_at_a_running_table(friends_table: Table, anna: User) -> None:
    client = Client()
    client.force_login(anna)
    client.cookies["django_language"] = "en"
    answer = client.post(reverse("privacy:delete"), {"password": "correct horse battery"})
    assert answer.status_code == 409
    page = answer.content.decode()
    assert "finish the game or leave it" in page and f"/t/{friends_table.code}/" in page
    anna.refresh_from_db()
    assert anna.is_active


def test_a_guest_deletes_their_account_by_ticking_the_box(make_user: Callable[..., User]) -> None:
    guest = make_user("guest-1a2b3c", guest=True)
    guest.set_unusable_password()
    guest.save()
    client = Client()
    client.force_login(guest)
    assert client.post(reverse("privacy:delete"), {}).status_code == 200  # not ticked
    assert client.post(reverse("privacy:delete"), {"confirm": "on"}).status_code == 302
    guest.refresh_from_db()
    assert guest.username == deleted_label(guest) and not guest.is_guest


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_double_click_deletes_once_and_forfeits_once(
    rich: Callable[[str], User],  # noqa: F811
) -> None:
    anna = rich("anna", 700)
    results = race(3, lambda i: account_delete(user=User.objects.get(pk=anna.pk)))
    assert all(isinstance(r, User) for r in results), results
    assert Transfer.objects.filter(reason=Reason.FORFEIT).count() == 1 and forfeited() == -700
    assert audit_ledger().ok, audit_ledger().problems


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_deletion_racing_a_stake_sit_leaves_no_stake_and_a_balanced_ledger(
    rich: Callable[[str], User],  # noqa: F811
) -> None:
    anna = rich("anna", 1000)

    def work(i: int) -> object:
        user = User.objects.get(pk=anna.pk)
        if i == 0:
            return account_delete(user=user)
        return stake_table_sit(user=user, rules=DUEL, stake=500, token=uuid.uuid4())

    results = race(2, work)
    assert isinstance(results[0], User), results
    assert not StakeInPlay.objects.filter(user=anna).exists()
    assert balance(anna) == 0 and forfeited() == -1000
    assert not Seat.objects.filter(user=anna, table__status=Table.Status.WAITING).exists()
    assert audit_ledger().ok, audit_ledger().problems
