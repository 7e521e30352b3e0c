"""A player's e-mail address (accounts/mail.py): optional, kept only once confirmed
through the signed link sent to it, which works once and for a limited time."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from unittest import mock

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts.constants import EMAIL_CONFIRM_AGE
from accounts.models import User

pytestmark = pytest.mark.django_db
PASSWORD = "tavolo-verde-42"
LINK = re.compile(r"http://testserver(/accounts/email/[^/\s]+/)")


def link_in(message: mail.EmailMessage) -> str:
    found = LINK.search(str(message.body))
    assert found is not None, message.body
    return found.group(1)


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    client.cookies["django_language"] = "en"
    return client


def test_an_address_given_at_sign_up_is_kept_once_its_link_is_opened() -> None:
    client = Client()
    client.cookies["django_language"] = "en"
    answer = client.post(
        reverse("accounts:signup"),
        {
            "username": "carla",
            "email": "Carla@Example.ORG",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert answer.status_code == 302
    carla = User.objects.get(username="carla")
    assert carla.email == ""  # not before it is confirmed
    [message] = mail.outbox
    assert message.to == ["Carla@example.org"] and "confirm" in message.subject.lower()
    link = link_in(message)
    page = Client().get(link, HTTP_COOKIE="django_language=en").content.decode()  # a visit
    # (a mail scanner's) changes nothing
    assert "Carla@example.org" in page and "Confirm the address" in page
    carla.refresh_from_db()
    assert carla.email == ""
    assert Client().post(link).status_code == 302
    carla.refresh_from_db()
    assert carla.email == "Carla@example.org"
    again = Client().post(link, HTTP_COOKIE="django_language=en").content.decode()
    assert "already been used" in again  # once


def test_sign_up_without_an_address_sends_nothing() -> None:
    Client().post(
        reverse("accounts:signup"),
        {"username": "dario", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert User.objects.filter(username="dario", email="").exists() and mail.outbox == []


def test_a_new_address_replaces_the_old_only_once_confirmed_and_can_be_removed(
    anna: User,
) -> None:
    anna.email = "old@example.org"
    anna.save()
    client = signed_in(anna)
    answer = client.post(reverse("accounts:email_change"), {"email": "new@example.org"})
    assert answer.status_code == 302
    anna.refresh_from_db()
    assert anna.email == "old@example.org"
    client.post(link_in(mail.outbox[-1]))
    anna.refresh_from_db()
    assert anna.email == "new@example.org"
    assert "new@example.org" in client.get(reverse("accounts:account")).content.decode()
    client.post(reverse("accounts:email_delete"))
    anna.refresh_from_db()
    assert anna.email == ""


def test_a_link_expires_and_a_forged_one_is_refused(anna: User) -> None:
    signed_in(anna).post(reverse("accounts:email_change"), {"email": "a@example.org"})
    link = link_in(mail.outbox[-1])
    moved = time.time() + EMAIL_CONFIRM_AGE.total_seconds() + 60  # the signer's clock
    with mock.patch("django.core.signing.time.time", return_value=moved):
        page = Client().post(link, HTTP_COOKIE="django_language=en").content.decode()
    assert "This link has expired" in page
    forged = Client().post(link[:-3] + "xx/", HTTP_COOKIE="django_language=en")
    assert "This link is not valid" in forged.content.decode()
    anna.refresh_from_db()
    assert anna.email == ""


def test_a_bad_address_is_refused_with_the_form(anna: User) -> None:
    answer = signed_in(anna).post(reverse("accounts:email_change"), {"email": "not-an-address"})
    assert answer.status_code == 400 and "Enter a valid email address" in answer.content.decode()
    assert mail.outbox == []


def test_guests_save_their_account_before_adding_an_address(
    make_user: Callable[..., User],
) -> None:
    guest = make_user("guest-0a0b", guest=True)
    answer = signed_in(guest).post(reverse("accounts:email_change"), {"email": "g@example.org"})
    assert answer.status_code == 302 and answer["Location"] == reverse("accounts:claim")
    assert mail.outbox == []


def test_a_deleted_account_confirms_nothing(anna: User) -> None:
    signed_in(anna).post(reverse("accounts:email_change"), {"email": "a@example.org"})
    link = link_in(mail.outbox[-1])
    User.objects.filter(pk=anna.pk).update(is_active=False)
    page = Client().post(link, HTTP_COOKIE="django_language=en").content.decode()
    assert "no longer valid" in page
