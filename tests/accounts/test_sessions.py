"""Sessions are read on every page and every websocket: from the cache, with the
database keeping them (a cold cache, a restart or another process reads them there)."""

from __future__ import annotations

from typing import Any
from unittest import mock

import pytest
from django.contrib.auth import BACKEND_SESSION_KEY, SESSION_KEY
from django.test import Client

from accounts import backends
from accounts.models import User

pytestmark = pytest.mark.django_db


def test_a_session_begun_under_djangos_own_backend_is_still_the_same_player(
    anna: User,
) -> None:
    """Sessions from before ``accounts.backends`` name Django's ModelBackend: a guest
    keeps their identity for a year, so those sessions still read as that player."""
    client = Client()
    client.force_login(anna, backend="django.contrib.auth.backends.ModelBackend")
    page = client.get("/")
    assert anna.display_name in page.content.decode()
    assert client.session[BACKEND_SESSION_KEY] == "django.contrib.auth.backends.ModelBackend"


def test_a_new_guest_is_logged_in_under_the_players_backend_on_their_next_pages(
    english: Client,
) -> None:
    english.post("/play/", {"level": "easy"})  # a visitor becomes a guest
    assert english.session[BACKEND_SESSION_KEY] == backends.PATH
    guest = User.objects.get(pk=english.session[SESSION_KEY])
    assert guest.display_name in english.get("/").content.decode()


def test_a_deactivated_player_is_signed_out_and_a_wrong_password_is_refused_once(
    make_user: Any, client: Client
) -> None:
    carla = make_user("carla")
    carla.set_password("a long passphrase")
    carla.save()
    assert client.login(username="carla", password="a long passphrase")
    assert "carla" in client.get("/").content.decode()
    User.objects.filter(pk=carla.pk).update(is_active=False)
    assert "carla" not in client.get("/").content.decode()
    # the players' backend refuses it; Django's, kept for old sessions, does not hash it again
    check = User.check_password
    with mock.patch.object(User, "check_password", autospec=True, side_effect=check) as checks:
        assert not Client().login(username=make_user("dora").username, password="not hers")
    assert checks.call_count == 1
