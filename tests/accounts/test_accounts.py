"""Accounts: guests play at once, sign up, claim, log in whatever the case, profiles."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.db import IntegrityError
from django.test import Client
from django.urls import reverse

from accounts.levels import level_for
from accounts.models import User
from games import services
from games.models import Table
from tests.fixtures import DUELLO, version_of

pytestmark = pytest.mark.django_db


def test_a_first_game_gets_a_guest_identity_that_stays(english: Client) -> None:
    english.post(reverse("quick_play"), {"level": "easy"})
    guest = User.objects.get()
    assert guest.is_guest and not guest.has_usable_password()
    page = english.get("/").content.decode()
    assert f"Guest {guest.guest_tag}" in page
    english.post(reverse("quick_play"), {"level": "easy"})
    assert User.objects.count() == 1 and guest.hosted_tables.count() == 2


def test_static_files_and_health_checks_make_no_guests(client: Client) -> None:
    client.get("/healthz")
    client.get("/static/css/site.css")
    assert not User.objects.exists()


def test_sign_up_log_out_and_log_in_with_any_letter_case(english: Client) -> None:
    english.get("/")
    response = english.post(
        reverse("accounts:signup"),
        {"username": "Marco", "password1": "tavolo-verde-42", "password2": "tavolo-verde-42"},
    )
    assert response.status_code == 302
    assert User.objects.filter(username="Marco", is_guest=False).exists()
    english.post(reverse("accounts:logout"))
    fresh = Client()
    response = fresh.post(
        reverse("accounts:login"), {"username": "MARCO", "password": "tavolo-verde-42"}
    )
    assert response.status_code == 302
    assert fresh.get(reverse("accounts:me")).context["player"].username == "Marco"


def test_usernames_are_unique_whatever_the_case(
    english: Client, make_user: Callable[..., User]
) -> None:
    make_user("Marco")
    response = english.post(
        reverse("accounts:signup"),
        {"username": "marco", "password1": "tavolo-verde-42", "password2": "tavolo-verde-42"},
    )
    assert response.status_code == 200 and "taken" in response.content.decode()
    with pytest.raises(IntegrityError):
        User.objects.create(username="MARCO")


def test_guest_names_are_reserved(english: Client) -> None:
    response = english.post(
        reverse("accounts:signup"),
        {"username": "guest-123", "password1": "tavolo-verde-42", "password2": "tavolo-verde-42"},
    )
    assert "reserved" in response.content.decode()


def test_a_guest_claims_the_account_and_keeps_their_games(english: Client, guest: User) -> None:
    table = services.table_create(host=guest, mode=Table.Mode.FRIENDS, rules=DUELLO)
    response = english.post(
        reverse("accounts:claim"),
        {"username": "Giulia", "password1": "tavolo-verde-42", "password2": "tavolo-verde-42"},
    )
    assert response.status_code == 302
    claimed = User.objects.get()
    assert claimed.pk == guest.pk and claimed.username == "Giulia" and not claimed.is_guest
    assert table.seats.get(number=0).user_id == claimed.pk
    assert english.get("/").context["user"].username == "Giulia"  # still logged in
    english.post(reverse("accounts:logout"))
    assert Client().login(username="giulia", password="tavolo-verde-42")


def test_a_claim_with_mismatched_passwords_is_refused(english: Client, guest: User) -> None:
    response = english.post(
        reverse("accounts:claim"),
        {"username": "Giulia", "password1": "tavolo-verde-42", "password2": "other-pass-99"},
    )
    assert "differ" in response.content.decode()
    assert User.objects.get().is_guest


def test_levels_need_100_more_xp_each() -> None:
    assert [level_for(xp).number for xp in (0, 99, 100, 299, 300, 600)] == [1, 1, 2, 2, 3, 4]
    assert level_for(150).progress_percent == 25


def test_the_profile_shows_games_played_and_won_per_mode_and_preset(
    english: Client, anna: User, bruno: User
) -> None:
    table = services.table_create(host=anna, mode=Table.Mode.FRIENDS, rules=DUELLO)
    services.table_join(table_id=table.pk, version=version_of(table), user=bruno)
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED, winners="1")
    page = english.get(reverse("accounts:profile", args=["BRUNO"]))
    record = page.context["record"]
    assert [(r.mode, r.preset, r.played, r.won) for r in record] == [
        ("with friends", "duello", 1, 1)
    ]
    assert "Level 1" in page.content.decode()


def test_pruning_removes_only_old_guests_who_never_played(
    make_user: Callable[..., User], anna: User
) -> None:
    from datetime import timedelta

    from django.core.management import call_command
    from django.utils import timezone

    long_ago = timezone.now() - timedelta(days=40)
    idle = make_user("guest-idle", guest=True)
    player = make_user("guest-player", guest=True)
    recent = make_user("guest-recent", guest=True)
    User.objects.filter(pk__in=[idle.pk, player.pk, anna.pk]).update(last_login=long_ago)
    User.objects.filter(pk=recent.pk).update(last_login=timezone.now())
    services.table_create(host=player, mode=Table.Mode.FRIENDS, rules=DUELLO)
    call_command("prune_guests", "--days", "30")
    assert set(User.objects.values_list("username", flat=True)) == {
        "guest-player",
        "guest-recent",
        "anna",
    }


def test_the_profile_hides_an_xp_bar_with_no_xp(
    client: Client, make_user: Callable[..., User]
) -> None:
    carla = make_user("carla")
    client.force_login(carla)
    page = client.get(reverse("accounts:me")).content.decode()
    assert "<progress" not in page
    carla.xp = 150
    carla.save()
    assert "<progress" in client.get(reverse("accounts:me")).content.decode()
