"""accounts/guests.py (issue 8, defect 2): every request without a cookie created a user
row (30 ``GET /rules/`` made 30 guests; POSTs refused for CSRF made more).  Now a
guest row is made only when a visitor does something that needs one."""

from __future__ import annotations

import html
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.constants import GUEST_IDLE
from accounts.models import User
from accounts.services import guest_create, guests_prune
from games import services
from games.models import Table
from tests.fixtures import DUELLO

pytestmark = pytest.mark.django_db


def visitor() -> Client:
    """A browser with no cookie at all, which chose English."""
    client = Client(raise_request_exception=False)
    client.cookies["django_language"] = "en"
    return client


def test_every_request_without_a_cookie_created_a_user_row() -> None:
    for _ in range(30):
        assert Client().get("/rules/").status_code == 200
    for _ in range(10):
        refused = Client(enforce_csrf_checks=True).post(reverse("quick_play"), {"level": "easy"})
        assert refused.status_code == 403
    assert not User.objects.exists()


def test_a_visitor_reads_every_page_without_becoming_a_row(anna: User, bruno: User) -> None:
    waiting = services.table_create(host=anna, mode=Table.Mode.FRIENDS, rules=DUELLO)
    playing = services.table_create(host=bruno, mode=Table.Mode.COMPUTER, rules=DUELLO)
    pages = [
        "/",
        "/rules/",
        "/rules/duello/",
        reverse("table_new"),
        reverse("table_new") + "?mode=friends&preset=blocco",
        reverse("table", args=[waiting.code]),
        reverse("table", args=[playing.code]),
        reverse("invitations"),
        reverse("accounts:profile", args=["anna"]),
        reverse("accounts:signup"),
        reverse("accounts:login"),
    ]
    client = visitor()
    for page in pages:
        assert client.get(page).status_code == 200, page
    for page in [reverse("accounts:me"), reverse("accounts:claim")]:  # to the login page
        assert client.get(page).status_code == 302, page
    for action in ["invitation_accept", "invitation_decline"]:
        response = client.post(reverse(action, args=[1]))
        assert response.status_code == 302 and "/accounts/login/" in response.url
    assert client.post(reverse("table_rematch", args=[playing.code])).status_code == 302
    assert User.objects.count() == 2  # anna and bruno only


def test_a_visitor_watches_and_is_given_no_seat_or_hand(bruno: User) -> None:
    """A visitor has no user: never taken for a free seat or a computer's seat."""
    table = services.table_create(host=bruno, mode=Table.Mode.COMPUTER, rules=DUELLO)
    tv = visitor().get(reverse("table", args=[table.code])).context["tv"]
    assert tv.you is None and not tv.hand and not tv.is_host


def test_a_spectator_sits_down_with_a_plain_form_and_becomes_a_guest(anna: User) -> None:
    table = services.table_create(host=anna, mode=Table.Mode.FRIENDS, rules=DUELLO)
    client = visitor()
    page = client.get(reverse("table", args=[table.code])).content.decode()
    sit_url = reverse("table_sit", args=[table.code])
    assert f'action="{sit_url}"' in page and 'id="take-seat"' in page
    assert '"action": "join"' not in html.unescape(page)  # the websocket knows no visitor
    table.refresh_from_db()
    response = client.post(sit_url, {"version": table.version})
    assert response.status_code == 302 and response.url == reverse("table", args=[table.code])
    guest = User.objects.get(is_guest=True)
    assert table.seats.get(number=1).user == guest
    seated = client.get(reverse("table", args=[table.code]))
    assert seated.context["tv"].you == 1 and seated.context["user"] == guest


def test_a_player_already_known_sits_over_the_websocket(anna: User, bruno: User) -> None:
    table = services.table_create(host=anna, mode=Table.Mode.FRIENDS, rules=DUELLO)
    client = visitor()
    client.force_login(bruno)
    page = client.get(reverse("table", args=[table.code])).content.decode()
    assert '"action": "join"' in html.unescape(page)


def test_a_visitor_at_a_full_table_stays_a_visitor(anna: User, bruno: User) -> None:
    table = services.table_create(host=anna, mode=Table.Mode.COMPUTER, rules=DUELLO)
    client = visitor()
    response = client.post(reverse("table_sit", args=[table.code]), {"version": table.version})
    assert response.status_code == 302
    assert "you are watching" in client.get(response.url).content.decode()
    assert User.objects.count() == 2


def test_a_sit_request_without_a_version_is_refused_and_makes_no_row(anna: User) -> None:
    table = services.table_create(host=anna, mode=Table.Mode.FRIENDS, rules=DUELLO)
    for data in [{}, {"version": "1x"}, {"version": "0", "seat": "nine"}]:
        response = visitor().post(reverse("table_sit", args=[table.code]), data)
        assert response.status_code == 302
    assert User.objects.count() == 1 and table.seats.filter(user=None).count() == 1


def test_an_invalid_new_table_form_makes_no_guest_and_a_valid_one_does() -> None:
    client = visitor()
    refused = client.post(reverse("table_new"), {"mode": "friends", "preset": "nope"})
    assert refused.status_code == 200 and not User.objects.exists()
    created = client.post(
        reverse("table_new"),
        {
            "mode": "friends",
            "preset": "duello",
            "seating": "2",
            "hand_size": "7",
            "draw": "yes",
            "target": "100",
            "bot_level": "easy",
        },
    )
    assert created.status_code == 302
    assert Table.objects.get().host == User.objects.get(is_guest=True)


def test_unused_guests_are_pruned_and_players_kept(make_user: Callable[..., User]) -> None:
    now = timezone.now()
    long_ago = now - GUEST_IDLE - timedelta(hours=1)
    idle = guest_create()
    host = guest_create()
    seated = guest_create()
    recent = guest_create()
    registered = make_user("anna")
    services.table_create(host=host, mode=Table.Mode.COMPUTER, rules=DUELLO)
    table = services.table_create(host=registered, mode=Table.Mode.FRIENDS, rules=DUELLO)
    services.table_join(table_id=table.pk, user=seated, version=table.version)
    User.objects.exclude(pk=recent.pk).update(last_login=long_ago, date_joined=long_ago)
    User.objects.filter(pk=recent.pk).update(last_login=now)
    assert guests_prune(now=now) == 1
    assert not User.objects.filter(pk=idle.pk).exists()
    assert User.objects.count() == 4
    never_logged_in = guest_create()
    User.objects.filter(pk=never_logged_in.pk).update(date_joined=long_ago)
    call_command("prune_guests", stdout=open("/dev/null", "w"))  # noqa: SIM115
    assert not User.objects.filter(pk=never_logged_in.pk).exists()


@pytest.mark.django_db
def test_a_guest_who_claims_from_the_online_lobby_goes_back_to_it(client: Client) -> None:
    from accounts.models import User

    guest = User(username="guest-next", is_guest=True, guest_tag=4321)
    guest.set_unusable_password()
    guest.save()
    client.force_login(guest)
    page = client.get("/accounts/claim/?next=/online/").content.decode()
    assert 'name="next" value="/online/"' in page
    form = {"username": "Nuovo", "password1": "tavolo-verde-42", "password2": "tavolo-verde-42"}
    done = client.post("/accounts/claim/", {**form, "next": "/online/"})
    assert done.status_code == 302 and done["Location"] == "/online/"
    elsewhere = client.post("/accounts/claim/", {**form, "next": "https://evil.example/"})
    assert elsewhere.status_code == 302  # already claimed: to the profile, never off-site
    assert "evil" not in elsewhere["Location"]
