"""Issue 8, defect 6: look-alike usernames.  On SQLite the case-insensitive
uniqueness covered ASCII only (``Élodie`` and ``élodie`` both registered) and the
claim skipped Unicode normalisation (full-width ``Ｂｏｂ`` beside ``Bob``).  One
key (NFKC, case-folded) now decides for sign-up, claim, login, profiles and
invitations, and the database enforces it."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.db import IntegrityError
from django.test import Client
from django.urls import reverse

from accounts.models import User
from accounts.selectors import player_by_username
from games import services
from games.models import Table
from tests.fixtures import DUELLO

pytestmark = pytest.mark.django_db
PASSWORD = "tavolo-verde-42"


def sign_up(client: Client, name: str) -> int:
    response = client.post(
        reverse("accounts:signup"), {"username": name, "password1": PASSWORD, "password2": PASSWORD}
    )
    return response.status_code


def test_look_alike_usernames_sign_up_twice(english: Client) -> None:
    assert sign_up(english, "Élodie") == 302
    assert sign_up(Client(), "élodie") == 200
    assert sign_up(Client(), "ÉLODIE") == 200
    assert sign_up(Client(), "Ｅｌｏｄｉｅ") == 302  # no accent: another name
    assert sorted(User.objects.values_list("username", flat=True)) == ["Elodie", "Élodie"]


def test_a_full_width_look_alike_is_claimed_beside_its_name(
    english: Client, guest: User, make_user: Callable[..., User]
) -> None:
    make_user("Bob")
    response = english.post(
        reverse("accounts:claim"),
        {"username": "Ｂｏｂ", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response.status_code == 200 and "That username is taken." in response.content.decode()
    guest.refresh_from_db()
    assert guest.is_guest
    english.post(
        reverse("accounts:claim"),
        {"username": "Ｚｏë", "password1": PASSWORD, "password2": PASSWORD},
    )
    guest.refresh_from_db()
    assert guest.username == "Zoë" and not guest.is_guest  # stored in its plain form


def test_look_alikes_are_refused_by_the_database_itself() -> None:
    User.objects.create(username="Élodie")
    with pytest.raises(IntegrityError):
        User.objects.create(username="éLODIE")


def test_login_profiles_and_invitations_find_a_name_however_it_is_written(
    make_user: Callable[..., User],
) -> None:
    elodie = make_user("Élodie")
    bob = make_user("Bob")
    assert Client().login(username="ÉLODIE", password="correct horse battery")
    assert Client().login(username="Ｂｏｂ", password="correct horse battery")
    profile = Client().get(reverse("accounts:profile", args=["élodie"]))
    assert profile.context["player"] == elodie
    table = services.table_create(host=elodie, mode=Table.Mode.FRIENDS, rules=DUELLO)
    invitation = services.table_invite(
        table_id=table.pk, by=elodie, username="ＢＯＢ", version=table.version
    )
    assert invitation.to_user == bob
    assert player_by_username(username=" bob ") == bob
    assert player_by_username(username="guest-x", registered_only=True) is None
