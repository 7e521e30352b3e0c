"""economy/stake_views.py: the card room's pages list the open stake tables, sit a
player once however often the form is sent, and say what happened to them."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.test import Client

from accounts.models import User
from deadlines.services import run_due
from economy.audit import audit_ledger as audit
from games.kinds import STAKE_FILL
from games.live import fragments
from games.models import Table
from games.selectors import table_view
from games.services.stakes import stake_table_leave, stake_table_sit
from games.view.errors import GameError
from tests.fixtures import version_of
from tests.stakes import DUEL, PAIRS, play_to_the_end, pot, rich  # noqa: F401  (rich: a fixture)

from .conftest import balance

pytestmark = pytest.mark.django_db


def test_the_stake_lobby_lists_open_tables_and_sits_a_player(
    rich: Callable[[str], User],  # noqa: F811
    client: Client,
) -> None:
    anna, bruno = rich("anna_v"), rich("bruno_v")
    stake_table_sit(user=anna, rules=PAIRS, stake=1000)
    client.force_login(bruno)
    client.cookies["django_language"] = "en"
    page = client.get("/coins/stakes/").content.decode()
    assert "Open tables" in page and "1000" in page
    form = {"preset": "blocco", "seating": "4p", "hand_size": "7", "draw": "no"}
    response = client.post("/coins/stakes/sit/", {**form, "target": "single", "stake": "1000"})
    table = Table.objects.get(stake=1000)
    assert response.status_code == 302 and response["Location"] == f"/t/{table.code}/"
    assert balance(bruno) == 0 and pot(table) == 2000


def test_the_sit_form_sent_twice_sits_once_and_another_form_says_where_you_sit(
    rich: Callable[[str], User],  # noqa: F811
    client: Client,
) -> None:
    anna = rich("anna_t")
    client.force_login(anna)
    client.cookies["django_language"] = "en"
    page = client.get("/coins/stakes/").content.decode()
    token = re.search(r'name="token" value="([0-9a-f-]{36})"', page)
    assert token is not None  # the page's form carries its own token
    form = {"preset": "blocco", "seating": "4p", "hand_size": "7", "draw": "no"}
    form |= {"target": "single", "stake": "250", "token": token.group(1)}
    first = client.post("/coins/stakes/sit/", form, follow=True)
    table = Table.objects.get(stake=250)
    again = client.post("/coins/stakes/sit/", form, follow=True)  # a double click
    assert first.redirect_chain[-1][0] == again.redirect_chain[-1][0] == f"/t/{table.code}/"
    assert "already sitting" not in again.content.decode()  # the same request, answered again
    assert balance(anna) == 750 and pot(table) == 250
    other = client.post(
        "/coins/stakes/sit/", {**form, "stake": "100", "token": str(uuid.uuid4())}, follow=True
    )
    assert other.redirect_chain[-1][0] == f"/t/{table.code}/"  # where they sit, and why
    assert "You are already sitting at a stake table" in other.content.decode()
    assert balance(anna) == 750 and not Table.objects.filter(stake=100).exists()


def test_a_kept_form_sent_with_other_settings_lands_where_you_sit_and_says_why(
    rich: Callable[[str], User],  # noqa: F811
    client: Client,
) -> None:
    """Seated at a luciano table at 500, the same page's form asks for duello at 100."""
    anna = rich("anna_k")
    client.force_login(anna)
    client.cookies["django_language"] = "en"
    page = client.get("/coins/stakes/").content.decode()
    token = re.search(r'name="token" value="([0-9a-f-]{36})"', page)
    assert token is not None
    form = {"preset": "luciano", "seating": "2", "hand_size": "7", "draw": "yes"}
    form |= {"target": "100", "stake": "500", "token": token.group(1)}
    luciano = client.post("/coins/stakes/sit/", form, follow=True)
    table = Table.objects.get(stake=500)
    duel = client.post(
        "/coins/stakes/sit/", {**form, "preset": "duello", "stake": "100"}, follow=True
    )
    assert luciano.redirect_chain[-1][0] == duel.redirect_chain[-1][0] == f"/t/{table.code}/"
    assert "You are already sitting at a stake table" in duel.content.decode()
    assert balance(anna) == 500 and not Table.objects.filter(stake=100).exists()


def test_the_leave_form_says_what_happened_to_this_player_at_this_table(
    rich: Callable[[str], User],  # noqa: F811
    client: Client,
) -> None:
    anna, bruno, carla = rich("anna_f"), rich("bruno_f"), rich("carla_f")
    table = stake_table_sit(user=anna, rules=DUEL, stake=100)
    stake_table_sit(user=bruno, rules=DUEL, stake=100)
    play_to_the_end(table)

    def leave(user: User) -> str:
        client.force_login(user)
        client.cookies["django_language"] = "en"
        leave_url = f"/coins/stakes/{table.code}/leave/"
        response = client.post(leave_url, {"version": version_of(table)}, follow=True)
        return response.content.decode()

    assert "You are not sitting at this table." in leave(carla)  # never sat there
    assert "This game is over." in leave(anna)
    cancelled = stake_table_sit(user=carla, rules=DUEL, stake=100)
    deadline = cancelled.deadlines.get(kind=STAKE_FILL)
    run_due(now=deadline.due_at + timedelta(seconds=1))
    with pytest.raises(GameError, match="cancelled: every stake went back"):
        stake_table_leave(table_id=cancelled.pk, user=carla, version=version_of(cancelled))
    assert balance(carla) == 1000 and audit().ok


# Standing up from a stake table with the form a websocket frame drew: no CSRF field
# is rendered over a socket, so the form posts through htmx with the page's CSRF
# header, and the stake is back at once (it answered 403 and the coins stayed in the
# pot until the table timed out).
def _frame_form(table: Table, user: User) -> tuple[str, str]:
    """The leave form as a frame draws it (no request): its hx-post and its version."""
    tv = table_view(table=table.pk, user=user)
    html = fragments.render("games/_lobby.html", {"tv": tv, "share_url": "", "user": user})
    assert "csrfmiddlewaretoken" not in html  # nothing to post a plain form with
    form = re.search(r'<form method="post"[^>]*hx-post="([^"]+)"[^>]*>(.*?)</form>', html, re.S)
    assert form is not None, "the leave form does not post through htmx"
    version = re.search(r'name="version" value="(\d+)"', form.group(2))
    assert version is not None
    return form.group(1), version.group(1)


def test_the_leave_form_a_frame_drew_gives_the_stake_back_at_once(
    rich: Callable[[str], User],  # noqa: F811
) -> None:
    anna = rich("anna_f")
    table = stake_table_sit(user=anna, rules=PAIRS, stake=250)
    assert balance(anna) == 750 and pot(table) == 250
    browser = Client(enforce_csrf_checks=True)
    browser.cookies["django_language"] = "en"
    browser.force_login(anna)
    page = browser.get(f"/t/{table.code}/").content.decode()
    token = re.search(r'"X-CSRFToken": "([^"]+)"', page)  # the page's header for htmx
    assert token is not None
    action, version = _frame_form(table, anna)

    refused = browser.post(action, {"version": version})  # a plain post, as before
    assert refused.status_code == 403 and balance(anna) == 750

    answer = browser.post(
        action, {"version": version}, HTTP_HX_REQUEST="true", HTTP_X_CSRFTOKEN=token.group(1)
    )
    assert answer.status_code == 200 and answer["HX-Redirect"] == "/coins/stakes/"
    assert balance(anna) == 1000 and pot(table) == 0
    follow = browser.get("/coins/stakes/").content.decode()
    assert "your stake is back in your wallet" in follow


def test_a_stale_leave_through_htmx_goes_back_to_the_table_with_a_message(
    rich: Callable[[str], User],  # noqa: F811
) -> None:
    anna = rich("anna_g")
    table = stake_table_sit(user=anna, rules=PAIRS, stake=250)
    browser = Client()
    browser.cookies["django_language"] = "en"
    browser.force_login(anna)
    answer = browser.post(
        f"/coins/stakes/{table.code}/leave/", {"version": "x"}, HTTP_HX_REQUEST="true"
    )
    assert answer["HX-Redirect"] == f"/t/{table.code}/"
    assert balance(anna) == 750 and pot(table) == 250  # nothing changed
    assert "Reload the page and try again." in browser.get(f"/t/{table.code}/").content.decode()
