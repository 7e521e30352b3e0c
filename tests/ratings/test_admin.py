"""An operator resets a rating from the admin: recorded with who and why, and logged."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.admin.models import LogEntry
from django.test import Client
from django.urls import reverse

from accounts.models import User
from ratings.models import Rating, RatingReset
from ratings.policy import DUEL

pytestmark = pytest.mark.django_db


def test_a_reset_from_the_admin_is_recorded_and_logged(
    make_user: Callable[..., User], anna: User
) -> None:
    operator = make_user("operator")
    operator.is_staff = operator.is_superuser = True
    operator.save()
    rating = Rating.objects.create(user=anna, format=DUEL, mu=31, sigma=3, shown=1680)
    client = Client()
    client.force_login(operator)
    url = reverse("admin:ratings_rating_reset", args=[rating.pk])
    assert "1680" in client.get(url).content.decode()
    assert client.post(url, {"reason": ""}).status_code == 200  # a reason is required
    assert not RatingReset.objects.exists()
    client.post(url, {"reason": "two people on one account"})
    rating.refresh_from_db()
    assert (rating.shown, rating.provisional, rating.mu) == (1500, True, 25.0)
    reset = RatingReset.objects.get()
    assert (reset.by, reset.shown_before, reset.reason) == (
        operator,
        1680,
        "two people on one account",
    )
    assert "two people on one account" in LogEntry.objects.get().get_change_message()


def test_a_staff_member_without_the_permission_cannot_reset(
    make_user: Callable[..., User], anna: User
) -> None:
    staff = make_user("staff")
    staff.is_staff = True
    staff.save()
    rating = Rating.objects.create(user=anna, format=DUEL, mu=31, sigma=3, shown=1680)
    client = Client()
    client.force_login(staff)
    client.post(reverse("admin:ratings_rating_reset", args=[rating.pk]), {"reason": "x"})
    rating.refresh_from_db()
    assert rating.shown == 1680 and not RatingReset.objects.exists()
