"""Every page's header shows the player's coins and pending invitations
(accounts/header.py): kept between changes, and never older than a change."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts import header
from accounts.models import User
from economy.numbers import DAILY_BONUS, SIGNUP_GRANT
from economy.services import daily_bonus
from games import services
from games.models import Table
from tests.fixtures import DUELLO, version_of

pytestmark = pytest.mark.django_db


def _browser(user: User) -> Client:
    page = Client()
    page.cookies["django_language"] = "en"
    page.force_login(user)
    return page


def _coins(page: Client) -> int:
    found = re.search(r'id="header-coins"[^>]*>(\d+) coins<', page.get("/").content.decode())
    assert found is not None
    return int(found[1])


def _badge(page: Client) -> str:
    found = re.search(r'<span id="invite-badge"[^>]*>([^<]*)<', page.get("/").content.decode())
    assert found is not None
    return found[1]


def test_the_header_shows_the_coins_after_every_movement(anna: User) -> None:
    page = _browser(anna)
    assert _coins(page) == SIGNUP_GRANT
    assert _coins(page) == SIGNUP_GRANT  # kept, the same
    page.post(reverse("economy:daily"))  # a view that moves coins
    assert _coins(page) == SIGNUP_GRANT + DAILY_BONUS
    daily_bonus(user=anna, now=timezone.now() + timedelta(days=1))  # a service alone
    assert _coins(page) == SIGNUP_GRANT + 2 * DAILY_BONUS


def test_the_badge_counts_the_invitations_still_open(
    anna: User, bruno: User, make_user: Callable[..., User]
) -> None:
    carla = make_user("carla")
    page = _browser(bruno)
    assert _badge(page) == ""

    def invite(table: Table, name: str = "bruno") -> int:
        invitation = services.table_invite(
            table_id=table.pk, version=version_of(table), by=anna, username=name
        )
        return invitation.pk

    declined = services.table_create(host=anna, mode=Table.Mode.FRIENDS, rules=DUELLO)
    pk = invite(declined)
    assert _badge(page) == "1"
    services.invitation_decline(invitation_id=pk, user=bruno)
    assert _badge(page) == ""

    accepted = services.table_create(host=anna, mode=Table.Mode.FRIENDS, rules=DUELLO)
    pk = invite(accepted)
    assert _badge(page) == "1"
    services.invitation_accept(invitation_id=pk, user=bruno)
    assert _badge(page) == ""

    started = services.table_create(host=anna, mode=Table.Mode.FRIENDS, rules=DUELLO)
    invite(started)
    cancelled = services.table_create(host=anna, mode=Table.Mode.FRIENDS, rules=DUELLO)
    invite(cancelled)
    assert _badge(page) == "2"
    services.table_join(table_id=started.pk, version=version_of(started), user=carla)
    services.table_start(table_id=started.pk, version=version_of(started), by=anna)
    assert _badge(page) == "1"  # that table is full and playing: nothing to accept
    services.table_cancel(table_id=cancelled.pk, version=version_of(cancelled), by=anna)
    assert _badge(page) == ""


def test_figures_read_before_a_change_are_read_again_after_it(
    anna: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A page reads the database, the change commits and gives the player a new
    stamp, then the page keeps what it read: the next page must not show it."""
    reads: list[int] = []
    coins = iter([10, 20, 20])

    def read(user: User) -> int:
        reads.append(user.pk)
        value = next(coins)
        if value == 10:  # the change commits while this (old) figure is being read
            header.changed([user.pk])
        return value

    monkeypatch.setattr(header, "_readers", {"coins": read})
    assert header.figure(User.objects.get(pk=anna.pk), "coins") == 10
    assert header.figure(User.objects.get(pk=anna.pk), "coins") == 20  # read again
    assert header.figure(User.objects.get(pk=anna.pk), "coins") == 20  # then kept
    assert len(reads) == 2


def test_figures_read_before_a_change_commits_are_read_again_once_it_has(
    anna: User,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    """Another request reads the figures after the change began but before it
    committed (it sees the old ones): once committed, they are read again."""
    coins = iter([10, 20])
    monkeypatch.setattr(header, "_readers", {"coins": lambda user: next(coins)})
    with django_capture_on_commit_callbacks(execute=True):
        header.changed([anna.pk])
        assert header.figure(User.objects.get(pk=anna.pk), "coins") == 10
    assert header.figure(User.objects.get(pk=anna.pk), "coins") == 20
