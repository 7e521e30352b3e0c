"""Passwords (accounts/views.py): changed on the account page, which logs out every
other session of the account and keeps this one; reset by e-mail with Django's own
views and tokens: a link that works once and for PASSWORD_RESET_TIMEOUT, and the
same answer whether or not an account has the address."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from unittest import mock

import pytest
from django.conf import settings
from django.contrib.auth.tokens import default_token_generator
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts.models import User

pytestmark = pytest.mark.django_db
OLD, NEW = "correct horse battery", "tavolo-verde-42"
LINK = re.compile(r"http://testserver(/accounts/password/reset/[^/\s]+/[^/\s]+/)")


def browser(user: User | None = None) -> Client:
    client = Client()
    client.cookies["django_language"] = "en"
    if user is not None:
        assert client.login(username=user.username, password=OLD)
    return client


def signed_in_as(client: Client) -> str | None:
    user = client.get(reverse("home")).wsgi_request.user
    return user.username if user.is_authenticated else None


def test_changing_the_password_logs_out_the_other_sessions_and_keeps_this_one(anna: User) -> None:
    here, laptop = browser(anna), browser(anna)
    assert signed_in_as(laptop) == "anna"  # its session is in the cache too (cached_db)
    answer = here.post(
        reverse("accounts:password_change"),
        {"old_password": OLD, "new_password1": NEW, "new_password2": NEW},
    )
    assert answer.status_code == 302
    assert signed_in_as(here) == "anna"
    assert signed_in_as(laptop) is None
    assert laptop.get(reverse("accounts:account")).status_code == 302  # to log in
    assert browser().login(username="anna", password=NEW)


def test_a_wrong_old_password_or_a_weak_new_one_changes_nothing(anna: User) -> None:
    here = browser(anna)
    wrong = here.post(
        reverse("accounts:password_change"),
        {"old_password": "nope", "new_password1": NEW, "new_password2": NEW},
    )
    assert wrong.status_code == 400 and "incorrectly" in wrong.content.decode()
    weak = here.post(
        reverse("accounts:password_change"),
        {"old_password": OLD, "new_password1": "12345678", "new_password2": "12345678"},
    )
    page = weak.content.decode()
    assert weak.status_code == 400 and "too common" in page and "entirely numeric" in page
    assert browser().login(username="anna", password=OLD)


def test_sign_up_applies_the_password_validators() -> None:
    page = (
        browser()
        .post(
            reverse("accounts:signup"),
            {"username": "carla", "password1": "carla123", "password2": "carla123"},
        )
        .content.decode()
    )
    assert "too similar to the username" in page or "too common" in page
    assert not User.objects.filter(username="carla").exists()


def reset_link(email: str) -> str:
    mail.outbox.clear()
    answer = browser().post(reverse("accounts:password_reset"), {"email": email})
    assert answer.status_code == 302
    assert answer["Location"] == reverse("accounts:password_reset_done")
    [message] = mail.outbox
    found = LINK.search(str(message.body))
    assert found is not None, message.body
    return found.group(1)


def test_a_reset_link_by_mail_works_once(anna: User) -> None:
    anna.email = "anna@example.org"
    anna.save()
    laptop = browser(anna)
    link = reset_link("ANNA@example.org")
    assert "anna" in mail.outbox[0].body and mail.outbox[0].to == ["anna@example.org"]
    visitor = browser()
    form = visitor.get(link, follow=True)  # Django moves the token into the session
    assert "new_password1" in form.content.decode()
    done = visitor.post(form.redirect_chain[-1][0], {"new_password1": NEW, "new_password2": NEW})
    assert done.status_code == 302
    assert browser().login(username="anna", password=NEW)
    assert signed_in_as(laptop) is None  # the sessions of the old password ended
    again = browser().get(link, follow=True).content.decode()
    assert "already been used or has expired" in again


def test_a_reset_link_expires(anna: User) -> None:
    anna.email = "anna@example.org"
    anna.save()
    link = reset_link("anna@example.org")
    late = datetime.now() + timedelta(seconds=settings.PASSWORD_RESET_TIMEOUT + 1)
    with mock.patch.object(default_token_generator, "_now", return_value=late):
        page = browser().get(link, follow=True).content.decode()
    assert "already been used or has expired" in page
    assert not browser().login(username="anna", password=NEW)


def test_an_unknown_address_gets_the_same_answer_and_no_mail(anna: User) -> None:
    anna.email = "anna@example.org"
    anna.save()
    known = browser().post(reverse("accounts:password_reset"), {"email": "anna@example.org"})
    unknown = browser().post(reverse("accounts:password_reset"), {"email": "who@example.org"})
    assert (known.status_code, known["Location"]) == (unknown.status_code, unknown["Location"])
    assert len(mail.outbox) == 1
    done = browser().get(unknown["Location"]).content.decode()
    assert "If an account has this address" in done


def test_an_unconfirmed_or_deleted_account_gets_no_mail(anna: User) -> None:
    anna.email = "anna@example.org"
    anna.is_active = False
    anna.save()
    browser().post(reverse("accounts:password_reset"), {"email": "anna@example.org"})
    assert mail.outbox == []


def test_the_login_page_links_to_the_reset(anna: User) -> None:
    page = browser().get(reverse("accounts:login")).content.decode()
    assert reverse("accounts:password_reset") in page
