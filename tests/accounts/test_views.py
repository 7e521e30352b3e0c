"""Every accounts page answers a visitor, a guest and a registered player without
a server error, whatever the form holds."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from accounts.services import guest_create

pytestmark = pytest.mark.django_db

JUNK = [
    {},
    {"username": "", "password1": "", "password2": ""},
    {"username": "x" * 500, "password": "p" * 5000, "password1": "a", "password2": "b"},
    {"username": "Ｇｕｅｓｔ-1", "password1": "tavolo-verde-42", "password2": "tavolo-verde-42"},
    {"username": "bad name/../", "password1": "tavolo-verde-42", "password2": "tavolo-verde-42"},
    {"username": "\x00nul", "password": "\x00", "password1": "\x00", "password2": "\x00"},
    {"username": ["a", "b"], "next": "https://elsewhere.example/"},
]
EXPECTED = {
    # (url name, method): what each kind of client may get (never 500)
    ("accounts:signup", "get"): {200},
    ("accounts:signup", "post"): {200, 302},
    ("accounts:login", "get"): {200},
    ("accounts:login", "post"): {200, 302},
    ("accounts:claim", "get"): {200, 302},
    ("accounts:claim", "post"): {200, 302},
    ("accounts:me", "get"): {200, 302},
    ("accounts:logout", "post"): {302},
}


def client_as(kind: str, make_user: Callable[..., User]) -> Client:
    client = Client(raise_request_exception=False)
    client.cookies["django_language"] = "en"
    if kind == "guest":
        client.force_login(guest_create())
    elif kind == "registered":
        client.force_login(make_user(f"reg-{User.objects.count()}"))
    return client


@pytest.mark.parametrize("kind", ["visitor", "guest", "registered"])
def test_accounts_pages_never_answer_500(kind: str, make_user: Callable[..., User]) -> None:
    make_user("anna")
    for (name, method), allowed in EXPECTED.items():
        for data in JUNK if method == "post" else [{}]:
            client = client_as(kind, make_user)
            response = getattr(client, method)(reverse(name), data)
            assert response.status_code in allowed, (kind, name, data, response.status_code)
    client = client_as(kind, make_user)
    for username, status in [("anna", 200), ("ANNA", 200), ("nobody", 404), ("%00", 404)]:
        response = client.get(reverse("accounts:profile", args=[username]))
        assert response.status_code == status, (kind, username)


def test_a_registered_player_on_the_claim_page_goes_to_their_profile(
    make_user: Callable[..., User],
) -> None:
    client = Client()
    client.force_login(make_user("anna"))
    assert client.get(reverse("accounts:claim")).url == reverse("accounts:profile", args=["anna"])
    assert client.get(reverse("accounts:me")).context["player"].username == "anna"
