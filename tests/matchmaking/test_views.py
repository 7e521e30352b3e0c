"""Pages: the online lobby, the claim first for guests, the waiting screen, leaving."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from urllib.parse import urlencode

import pytest
from django.test import Client

from accounts.models import User
from games.engine import PRESETS
from games.models import Table
from matchmaking.models import Ticket
from matchmaking.services import queue_join, queue_leave
from tests.fixtures import race, signed_in

pytestmark = pytest.mark.django_db

PAIRS_FORM = {"preset": "domino", "seating": "4p", "hand_size": "7", "draw": "yes", "target": "100"}
DUO_FORM = {**PAIRS_FORM, "seating": "2"}
PAIRS = replace(PRESETS["domino"], players=4, teams=True, hand_size=7, target=100)


def text(html: str) -> str:
    """What a reader sees: tags dropped, spaces collapsed."""
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def logged_in(user: User, language: str = "en") -> Client:
    client = Client()
    client.force_login(user)
    client.cookies["django_language"] = language
    return client


def test_the_lobby_speaks_italian_and_says_simulated_players_come_after_the_timeout(
    client: Client,
) -> None:
    page = client.get("/online/").content.decode()
    assert "Gioca online" in page
    assert "20 secondi" in page and "giocatori simulati" in page
    assert 'id="play-online"' in page


def test_the_lobby_in_english_offers_the_new_table_forms_choices(english: Client) -> None:
    page = english.get("/online/").content.decode()
    assert "Play online" in page
    assert "20 seconds" in page and "simulated players" in page
    for choice in ('value="duello"', 'value="4p"', 'value="150"'):
        assert choice in page
    assert 'name="bot_level"' not in page and 'name="mode"' not in page
    assert 'name="turn_clock"' not in page  # a friends' table setting


def test_the_lobby_forms_labels_follow_each_visitors_language_page_after_page() -> None:
    """The blank form is rendered once per language and reused: never in the wrong one."""
    italian_visitor, english = Client(), Client()
    english.cookies["django_language"] = "en"
    for _ in range(2):
        italian = text(italian_visitor.get("/online/").content.decode())
        assert "Tessere a testa" in italian and "Tiles each" not in italian
        assert "Tiles each" in text(english.get("/online/").content.decode())


def test_the_lobby_counts_who_waits_for_which_settings(
    make_user: Callable[..., User], english: Client
) -> None:
    queue_join(user=make_user("anna"), rules=PAIRS)
    queue_join(user=make_user("bruno"), rules=PAIRS)
    counts = english.get("/online/counts/").content.decode()
    assert "Dominoes · 4 players in pairs · 7 tiles each" in counts
    assert "2 waiting" in counts
    assert 'name="seating" value="4p"' in counts  # "join them" asks for exactly those settings
    assert "2 waiting" in english.get("/online/").content.decode()


def test_a_guest_is_offered_the_claim_first_and_comes_back_to_the_lobby(
    make_user: Callable[..., User],
) -> None:
    client = logged_in(make_user("guest-7", guest=True))
    assert "Choose a username" in client.get("/online/").content.decode()
    response = client.post("/online/join/", PAIRS_FORM)
    assert response.status_code == 302
    # the settings chosen go along: the lobby shows them again once the name is chosen
    back = "/online/?" + urlencode(PAIRS_FORM)
    assert response["Location"] == "/accounts/claim/?" + urlencode({"next": back})
    assert Ticket.objects.count() == 0
    claimed = client.post(
        response["Location"],
        {"username": "gianna", "password1": "tavolo-verde-42", "password2": "tavolo-verde-42"},
    )
    assert claimed["Location"] == back
    pairs_chosen = re.compile(
        r'<input[^>]*name="seating"[^>]*value="4p"[^>]*checked|<option value="4p" selected'
    )
    assert pairs_chosen.search(client.get(back).content.decode()), "four in pairs still chosen"
    assert not pairs_chosen.search(client.get("/online/").content.decode())  # the default


def test_a_visitor_becomes_a_guest_and_is_offered_the_claim(english: Client) -> None:
    response = english.post("/online/join/", DUO_FORM)
    assert response["Location"].startswith("/accounts/claim/")
    assert User.objects.get().is_guest
    assert Ticket.objects.count() == 0


def test_play_joins_the_queue_and_shows_the_waiting_screen(make_user: Callable[..., User]) -> None:
    anna = make_user("anna")
    client = logged_in(anna)
    response = client.post("/online/join/", PAIRS_FORM)
    assert response["Location"] == "/online/queue/"
    page = client.get("/online/queue/").content.decode()
    assert "1 player waiting for these settings" in text(page)
    assert "anna" in page and "Your room: 1 of 4" in page
    assert 'ws-connect="/ws/queue/"' in page
    assert 'data-remaining-ms="' in page and 'class="seconds">20<' in page


def test_the_second_player_goes_straight_to_the_table_and_the_first_follows(
    make_user: Callable[..., User],
) -> None:
    anna, bruno = logged_in(make_user("anna")), logged_in(make_user("bruno"))
    anna.post("/online/join/", DUO_FORM)
    response = bruno.post("/online/join/", DUO_FORM)
    table = Table.objects.get()
    assert response["Location"] == f"/t/{table.code}/"
    assert anna.get("/online/queue/")["Location"] == f"/t/{table.code}/"
    redirect = anna.get("/online/seated/", headers={"HX-Request": "true"})
    assert redirect["HX-Redirect"] == f"/t/{table.code}/"
    lobby = anna.get("/online/").content.decode()
    assert "Your online game is in progress." in lobby and f"/t/{table.code}/" in lobby


def test_leave_the_queue(make_user: Callable[..., User]) -> None:
    anna = make_user("anna")
    client = logged_in(anna)
    client.post("/online/join/", PAIRS_FORM)
    response = client.post("/online/leave/", follow=True)
    assert response.redirect_chain[-1][0] == "/online/"
    assert "You left the queue." in response.content.decode()
    assert Ticket.objects.get().status == Ticket.Status.LEFT
    assert client.get("/online/queue/")["Location"] == "/online/"


def test_settings_no_preset_offers_are_refused_and_change_nothing(
    make_user: Callable[..., User],
) -> None:
    client = logged_in(make_user("anna"))
    response = client.post("/online/join/", {**DUO_FORM, "preset": "duello", "hand_size": "5"})
    assert response.status_code == 400
    assert Ticket.objects.count() == 0


def test_the_home_page_and_the_menu_lead_to_online_play(client: Client) -> None:
    page = client.get("/").content.decode()
    assert 'id="online-card"' in page and page.count('href="/online/"') >= 2


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_one_player_joining_two_pools_from_two_tabs_gets_no_server_error(
    make_user: Callable[..., User],
) -> None:
    anna = make_user("anna")
    client = signed_in(anna)
    forms = [
        {"preset": "domino", "seating": "4p", "hand_size": "7", "draw": "yes", "target": "100"},
        {"preset": "domino", "seating": "2", "hand_size": "7", "draw": "yes", "target": "100"},
    ]
    for _ in range(3):
        responses = race(2, lambda i: client.post("/online/join/", forms[i]))
        assert [r.status_code for r in responses] == [302, 302], responses
        assert Ticket.objects.filter(user=anna, status=Ticket.Status.WAITING).count() == 1
        queue_leave(user=anna)
