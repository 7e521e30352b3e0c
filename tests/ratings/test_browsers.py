"""A browser's own id (a signed cookie) and the rule it serves: two accounts signed
in from one browser never sit at one rated table (pools and stake tables)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games.models import Table
from games.services import stake_table_sit
from matchmaking.models import Ticket
from ratings.browsers import COOKIE
from ratings.models import BrowserSeen
from tests.stakes import DUEL

pytestmark = pytest.mark.django_db

BLOCCO_DUEL_FORM = {
    "preset": "blocco",
    "seating": "2",
    "hand_size": "7",
    "draw": "no",
    "target": "single",
}


def signed_in_on(browser: Client, user: User) -> Client:
    """``user`` signs in on ``browser`` (the same cookies as before) and opens a page."""
    browser.force_login(user)
    browser.get(reverse("matchmaking:lobby"))
    return browser


def test_a_browser_gets_a_signed_id_once_and_a_forged_one_is_replaced(client: Client) -> None:
    first = client.get(reverse("home")).cookies[COOKIE]
    assert first["httponly"] and first["max-age"] >= 365 * 24 * 3600
    assert COOKIE not in client.get(reverse("home")).cookies  # kept: not set again
    client.cookies[COOKIE] = "0" * 32  # not signed by the site
    forged = client.get(reverse("home")).cookies[COOKIE]
    assert forged.value != "0" * 32 and forged.value != first.value


def test_an_account_is_recorded_with_the_browser_it_signs_in_from(
    client: Client, make_user: Callable[..., User]
) -> None:
    anna, bruno = make_user("anna"), make_user("bruno")
    signed_in_on(client, anna)
    client.get(reverse("home"))
    signed_in_on(client, bruno)
    browsers = set(BrowserSeen.objects.values_list("user__username", "browser"))
    assert len(browsers) == 2 and len({b for _, b in browsers}) == 1


def test_two_accounts_of_one_browser_are_never_paired_online(
    make_user: Callable[..., User],
) -> None:
    anna, bruno, carla = make_user("anna"), make_user("bruno"), make_user("carla")
    shared = Client()
    signed_in_on(shared, anna).post(reverse("matchmaking:join"), BLOCCO_DUEL_FORM)
    signed_in_on(shared, bruno).post(reverse("matchmaking:join"), BLOCCO_DUEL_FORM)
    assert set(Ticket.objects.values_list("status", flat=True)) == {Ticket.Status.WAITING}
    signed_in_on(Client(), carla).post(reverse("matchmaking:join"), BLOCCO_DUEL_FORM)
    table = Table.objects.get()
    assert set(table.seats.values_list("user__username", flat=True)) == {"anna", "carla"}
    assert Ticket.objects.get(user=bruno).status == Ticket.Status.WAITING


def test_two_accounts_of_one_browser_never_sit_at_one_stake_table(
    rich: Callable[[str], User],
) -> None:
    anna, bruno, carla = rich("anna"), rich("bruno"), rich("carla")
    shared = Client()
    signed_in_on(shared, anna)
    signed_in_on(shared, bruno)
    first = stake_table_sit(user=anna, rules=DUEL, stake=100)
    second = stake_table_sit(user=bruno, rules=DUEL, stake=100)
    assert first != second  # bruno opened a table of his own
    assert stake_table_sit(user=carla, rules=DUEL, stake=100) == first
