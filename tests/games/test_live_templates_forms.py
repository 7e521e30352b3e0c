"""Every form a websocket frame can draw still posts: a frame is rendered without a
request, so it holds no CSRF field, and a plain POST form from it is refused (403).
Each such form must post through htmx (``hx-post``, ``hx-boost``: the page's CSRF
header goes with it) or over the socket (``ws-send``)."""

from __future__ import annotations

import random
from collections.abc import Callable
from html.parser import HTMLParser

import pytest
from django.contrib.auth.models import AnonymousUser
from django.template.loader import render_to_string

from accounts.models import User
from games import services
from games.engine import PRESETS
from games.live import frames
from games.models import Invitation, Seat, Table
from games.records import load_match
from games.selectors import invitations_for, table_view
from tests.fixtures import DUELLO, play_a_legal_move, version_of

pytestmark = pytest.mark.django_db


class Forms(HTMLParser):
    """The forms of a fragment, each as its attributes."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[dict[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "form":
            self.forms.append(dict(attrs))


def refused_forms(html: str) -> list[dict[str, str | None]]:
    """The forms of ``html`` that would be refused once a frame drew them."""
    parser = Forms()
    parser.feed(html)
    assert "csrfmiddlewaretoken" not in html  # drawn as a frame is: no token
    bad = []
    for form in parser.forms:
        through_htmx = "hx-post" in form or form.get("hx-boost") == "true"
        if (form.get("method") or "get").lower() == "post" and not through_htmx:
            bad.append(form)
        elif (form.get("method") or "get").lower() != "post" and "ws-send" not in form:
            bad.append(form)  # a form that is neither: it would load a page with its fields
    return bad


def frame(table: Table, user: User | AnonymousUser) -> str:
    """The whole table page as a frame draws it, for ``user``."""
    tv = table_view(table=table.pk, user=user, with_presence=True)
    context = {"tv": tv, "share_url": "http://testserver/t/x/", "user": user}
    return frames.page_screen(context)[0]


def test_every_form_of_every_screen_a_frame_draws_posts_without_a_token(
    make_user: Callable[..., User],
) -> None:
    anna, bruno, carla = make_user("anna"), make_user("bruno"), make_user("carla")
    screens: list[tuple[str, str]] = []

    def look(what: str, table: Table) -> None:
        for viewer in (anna, bruno, carla, AnonymousUser()):
            screens.append((f"{what}, seen by {viewer}", frame(table, viewer)))

    friends = services.table_create(host=anna, mode=Table.Mode.FRIENDS, rules=DUELLO)
    look("a friends' table, empty", friends)  # invite box, sit forms, host buttons
    services.table_join(table_id=friends.pk, user=bruno, version=version_of(friends))
    look("a friends' table, full", friends)
    services.table_start(table_id=friends.pk, by=anna, version=version_of(friends))
    look("a friends' game", friends)

    single = services.table_create(host=anna, mode=Table.Mode.FRIENDS, rules=PRESETS["blocco"])
    services.table_join(table_id=single.pk, user=bruno, version=version_of(single))
    services.table_start(table_id=single.pk, by=anna, version=version_of(single))
    rng = random.Random(3)
    while not load_match(single).over:
        play_a_legal_move(single, rng)
    look("a friends' game over", single)  # the rematch

    stake = Table.objects.create(
        mode=Table.Mode.ONLINE,
        host=anna,
        preset="blocco",
        players=2,
        hand_size=7,
        draw=False,
        stake=100,
    )
    Seat.objects.create(table=stake, number=0, user=anna)
    Seat.objects.create(table=stake, number=1)
    look("a stake table, waiting", stake)  # leave and take back the stake

    assert any("stake_leave" in html or "/leave/" in html for _what, html in screens)
    assert any('id="invite-username"' in html for _what, html in screens)
    for what, html in screens:
        assert refused_forms(html) == [], what


def test_the_invitations_a_socket_pushes_post_without_a_token(
    make_user: Callable[..., User],
) -> None:
    anna, bruno = make_user("anna"), make_user("bruno")
    table = services.table_create(host=anna, mode=Table.Mode.FRIENDS, rules=DUELLO)
    services.table_invite(table_id=table.pk, by=anna, username="bruno", version=version_of(table))
    assert Invitation.objects.filter(to_user=bruno).exists()
    context = {"invitations": list(invitations_for(user=bruno)), "on_home": True}
    html = render_to_string("games/_invitations_live.html", context)  # no request: the socket's
    assert "Decline" in html or "Rifiuta" in html
    assert refused_forms(html) == []


def test_a_plain_post_form_in_a_frame_is_caught() -> None:
    """The check itself: the stake form as it was (a plain POST) is refused."""
    html = '<form method="post" action="/coins/stakes/x/leave/" class="inline"><button></form>'
    assert len(refused_forms(html)) == 1
    assert refused_forms(html.replace('class="inline"', 'hx-post="/coins/stakes/x/leave/"')) == []
