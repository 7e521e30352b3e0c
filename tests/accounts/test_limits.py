"""Sign-up, login, claim and password resets are rate-limited per client address and
per name (django-ratelimit): a limited request gets the form back with a translated
message saying how many minutes to wait (and ``Retry-After``), HTTP 429, never a
500, and nothing changes."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable

import pytest
from django.core import mail
from django.http import HttpResponse
from django.test import Client
from django.urls import reverse

from accounts import constants
from accounts.models import User
from accounts.services import guest_create

pytestmark = pytest.mark.django_db
PASSWORD = "tavolo-verde-42"
TOO_MANY = re.compile(r"Too many attempts\. Please wait (\d+) minutes? and try again\.")


def waits(response: HttpResponse, window_minutes: int) -> bool:
    """The refusal says to wait at most the limit's window, in minutes and seconds."""
    said = TOO_MANY.search(response.content.decode())
    seconds = int(response["Retry-After"])
    return (
        said is not None
        and 1 <= int(said.group(1)) <= window_minutes
        and 0 < seconds <= window_minutes * 60
    )


def limit_of(rate: str) -> int:
    return int(rate.split("/")[0])


def from_address(address: str, language: str = "en") -> Client:
    client = Client(REMOTE_ADDR=address, raise_request_exception=False)
    client.cookies["django_language"] = language
    return client


def log_in(client: Client, username: str, password: str = "wrong") -> int:
    response = client.post(reverse("accounts:login"), {"username": username, "password": password})
    return response.status_code


def test_login_attempts_on_one_name_are_limited_from_any_address(
    make_user: Callable[..., User],
) -> None:
    make_user("marco")
    for i in range(limit_of(constants.LOGIN_RATE_PER_USERNAME)):
        assert log_in(from_address(f"10.1.0.{i}"), "marco") == 200  # wrong password
    limited = from_address("10.1.1.1").post(
        reverse("accounts:login"), {"username": "MARCO", "password": "correct horse battery"}
    )
    assert limited.status_code == 429 and waits(limited, 10)
    assert "_auth_user_id" not in limited.wsgi_request.session
    assert log_in(from_address("10.1.1.2"), "bruno") == 200  # other names are not held up


def test_login_attempts_from_one_address_are_limited_for_any_name() -> None:
    client = from_address("10.2.0.1")
    for i in range(limit_of(constants.LOGIN_RATE_PER_IP)):
        assert log_in(client, f"name{i}") == 200
    assert log_in(client, "someone-else") == 429
    assert log_in(from_address("10.2.0.2"), "someone-else") == 200


def test_sign_ups_from_one_address_are_limited_and_the_message_is_translated() -> None:
    client = from_address("10.3.0.1", language="it")
    for i in range(limit_of(constants.SIGNUP_RATE_PER_IP)):
        response = client.post(
            reverse("accounts:signup"),
            {"username": f"player{i}", "password1": PASSWORD, "password2": PASSWORD},
        )
        assert response.status_code == 302
        client.post(reverse("accounts:logout"))
    limited = client.post(
        reverse("accounts:signup"),
        {"username": "one-more", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert limited.status_code == 429
    assert re.search(r"Troppi tentativi\. Aspetta \d+ minut[oi]", limited.content.decode())
    assert not User.objects.filter(username="one-more").exists()


def test_sign_ups_of_one_name_are_limited_from_any_address() -> None:
    for i in range(limit_of(constants.SIGNUP_RATE_PER_USERNAME)):
        # too short a password: refused, but counted
        response = from_address(f"10.4.0.{i}").post(
            reverse("accounts:signup"), {"username": "Giulia", "password1": "x", "password2": "x"}
        )
        assert response.status_code == 200
    limited = from_address("10.4.1.1").post(
        reverse("accounts:signup"),
        {"username": "GIULIA", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert limited.status_code == 429 and not User.objects.exists()


def test_claims_are_limited() -> None:
    client = from_address("10.5.0.1")
    guest = guest_create()
    client.force_login(guest)
    for _ in range(limit_of(constants.CLAIM_RATE_PER_USERNAME)):
        response = client.post(
            reverse("accounts:claim"),
            {"username": "Giulia", "password1": PASSWORD, "password2": "differs"},
        )
        assert response.status_code == 200
    limited = client.post(
        reverse("accounts:claim"),
        {"username": "Giulia", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert limited.status_code == 429 and waits(limited, 10)
    guest.refresh_from_db()
    assert guest.is_guest


def test_limits_count_in_the_configured_cache(settings: pytest.FixtureRequest) -> None:
    """The site's own cache (Redis when REDIS_URL is set): fresh names and addresses
    so that counts left by an earlier run cannot matter."""
    settings.RATELIMIT_USE_CACHE = "default"  # type: ignore[attr-defined]
    name = f"n{uuid.uuid4().hex[:12]}"
    for i in range(limit_of(constants.LOGIN_RATE_PER_USERNAME)):
        assert log_in(from_address(f"10.{uuid.uuid4().int % 250}.9.{i}"), name) == 200
    assert log_in(from_address("10.9.9.9"), name) == 429


def test_password_resets_of_one_address_are_limited_and_send_nothing_more(
    make_user: Callable[..., User],
) -> None:
    anna = make_user("anna")
    anna.email = "anna@example.org"
    anna.save()
    for i in range(limit_of(constants.RESET_RATE_PER_EMAIL)):
        answer = from_address(f"10.6.0.{i}").post(
            reverse("accounts:password_reset"), {"email": "Anna@Example.org"}
        )
        assert answer.status_code == 302
    assert len(mail.outbox) == limit_of(constants.RESET_RATE_PER_EMAIL)
    limited = from_address("10.6.1.1").post(
        reverse("accounts:password_reset"), {"email": "anna@example.org"}
    )
    assert limited.status_code == 429 and waits(limited, 60)
    assert len(mail.outbox) == limit_of(constants.RESET_RATE_PER_EMAIL)
