"""Pages: one click to play, the new-table form, the table page, invitations."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from accounts.services import guest_create
from games import services
from games.models import Invitation, Table
from tests.fixtures import DUELLO, version_of

pytestmark = pytest.mark.django_db


def test_home_gets_a_newcomer_playing_in_one_click(english: Client) -> None:
    home = english.get("/")
    assert 'id="quick-play"' in home.content.decode()
    response = english.post(reverse("quick_play"), {"level": "easy"})
    table = Table.objects.get()
    assert response.url == reverse("table", args=[table.code])
    assert table.mode == "computer" and table.status == "playing"
    assert table.seats.get(number=1).bot_level == "easy"
    page = english.get(response.url).content.decode()
    assert 'ws-connect="/ws/table/' in page and 'class="line"' in page


def test_home_lists_my_invitations_and_games_in_progress(
    english: Client, anna: User, bruno: User
) -> None:
    table = services.table_create(host=anna, mode=Table.Mode.FRIENDS, rules=DUELLO)
    services.table_invite(table_id=table.pk, version=version_of(table), by=anna, username="bruno")
    english.force_login(bruno)
    page = english.get("/").content.decode()
    assert "anna invites you" in page
    english.force_login(anna)
    assert reverse("table", args=[table.code]) in english.get("/").content.decode()


def test_the_form_offers_only_what_each_preset_allows(english: Client) -> None:
    form = english.get(reverse("table_new"), {"preset": "blocco"}, HTTP_HX_REQUEST="true")
    content = form.content.decode()
    assert form.templates[0].name == "games/_table_form.html"
    assert "4 players in pairs" in content and "a single hand" in content
    assert "draw from the boneyard" not in content
    duello = english.get(reverse("table_new"), {"preset": "duello"}, HTTP_HX_REQUEST="true")
    assert "300 points" in duello.content.decode() and "3 players" not in duello.content.decode()


def test_creating_a_friends_table_then_the_share_link_offers_a_seat(
    english: Client, client: Client
) -> None:
    response = english.post(
        reverse("table_new"),
        {
            "mode": "friends",
            "preset": "domino",
            "seating": "4p",
            "hand_size": "5",
            "draw": "yes",
            "target": "150",
            "bot_level": "hard",
        },
    )
    table = Table.objects.get()
    assert (table.players, table.hand_size, table.target, table.teams) == (4, 5, 150, True)
    assert table.rules.partnerships and table.status == "waiting"
    link = response.url
    host_page = english.get(link).content.decode()
    assert "Share this link" in host_page and "Start the game" in host_page
    stranger = Client()
    stranger.cookies["django_language"] = "en"
    assert 'id="take-seat"' in stranger.get(link).content.decode()


def test_settings_a_preset_does_not_offer_are_refused(english: Client) -> None:
    response = english.post(
        reverse("table_new"),
        {
            "mode": "computer",
            "preset": "duello",
            "seating": "2",
            "hand_size": "7",
            "draw": "yes",
            "target": "single",
            "bot_level": "easy",
        },
    )
    assert response.status_code == 200 and not Table.objects.exists()
    assert "Select a valid choice" in response.content.decode()


def test_an_unknown_table_is_a_404(english: Client) -> None:
    assert english.get(reverse("table", args=["nope"])).status_code == 404


def test_accepting_an_invitation_seats_the_invitee(
    english: Client, anna: User, bruno: User
) -> None:
    table = services.table_create(host=anna, mode=Table.Mode.FRIENDS, rules=DUELLO)
    invitation = services.table_invite(
        table_id=table.pk, version=version_of(table), by=anna, username="bruno"
    )
    english.force_login(bruno)
    response = english.post(reverse("invitation_accept", args=[invitation.pk]))
    assert response.url == reverse("table", args=[table.code])
    assert table.seats.get(number=1).user == bruno
    invitation.refresh_from_db()
    assert invitation.status == Invitation.Status.ACCEPTED


def test_someone_elses_invitation_cannot_be_accepted(
    english: Client, anna: User, bruno: User
) -> None:
    table = services.table_create(host=anna, mode=Table.Mode.FRIENDS, rules=DUELLO)
    invitation = services.table_invite(
        table_id=table.pk, version=version_of(table), by=anna, username="bruno"
    )
    english.force_login(guest_create())  # a guest
    assert english.post(reverse("invitation_accept", args=[invitation.pk])).status_code == 404


def test_the_language_switch_turns_the_site_english_and_back(client: Client) -> None:
    italian = client.get("/").content.decode()
    assert '<html lang="it">' in italian
    client.post(reverse("set_language"), {"language": "en", "next": "/"})
    assert '<html lang="en">' in client.get("/").content.decode()
    client.post(reverse("set_language"), {"language": "it", "next": "/"})
    assert '<html lang="it">' in client.get("/").content.decode()


def test_play_again_starts_a_new_game_against_the_computer(english: Client) -> None:
    english.post(reverse("quick_play"), {"level": "easy"})
    table = Table.objects.get()
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
    response = english.post(reverse("table_rematch", args=[table.code]), HTTP_HX_REQUEST="true")
    rematch = Table.objects.exclude(pk=table.pk).get()
    assert response.headers["HX-Redirect"] == reverse("table", args=[rematch.code])
    assert rematch.status == Table.Status.PLAYING and rematch.mode == "computer"
    assert rematch.seats.get(number=1).bot_level == "easy"
