"""The parts of a page that are the same for everyone in a language (the header's
links, the footer, the home page's fixed panels) are rendered once per process and
language (``{% cache %}``, settings.CACHES["template_fragments"]); what is a
visitor's own is rendered for each page."""

from __future__ import annotations

import pytest
from django.core.cache import caches
from django.test import Client

from accounts.models import User
from games import services
from games.models import Table
from tests.fixtures import DUELLO, version_of

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def cold_fragments() -> None:
    caches["template_fragments"].clear()


def _page(user: User | None, language: str, path: str = "/") -> str:
    client = Client()
    client.cookies["django_language"] = language
    if user is not None:
        client.force_login(user)
    response = client.get(path)
    assert response.status_code == 200
    return response.content.decode()


def test_a_cached_header_still_speaks_each_visitors_language(anna: User, bruno: User) -> None:
    italian = _page(anna, "it")
    english = _page(bruno, "en")
    again = _page(anna, "it")  # from the cache now
    for page in (italian, again):
        assert ">Gioca online</a>" in page and ">Giochi</h2>" in page
        assert ">Play online</a>" not in page
    assert ">Play online</a>" in english and ">Games</h2>" in english
    assert ">Gioca online</a>" not in english


def test_a_cached_page_never_shows_one_players_name_or_invitations_to_another(
    anna: User, bruno: User
) -> None:
    table = services.table_create(host=anna, mode=Table.Mode.FRIENDS, rules=DUELLO)
    services.table_invite(table_id=table.pk, by=anna, username="bruno", version=version_of(table))
    first = _page(bruno, "it")  # fills the cache
    assert 'class="me">bruno<' in first
    assert 'class="badge" aria-label="inviti in attesa">1<' in first
    second = _page(anna, "it")
    assert 'class="me">anna<' in second and "bruno<" not in second
    assert 'class="badge empty"' in second
    assert _page(None, "it").count('class="me"') == 0  # a visitor has no name


def test_a_cached_page_still_carries_a_fresh_csrf_token_in_each_form(anna: User) -> None:
    pages = [_page(anna, "it"), _page(anna, "it")]
    tokens = [page.count('name="csrfmiddlewaretoken"') for page in pages]
    assert tokens[0] == tokens[1] >= 2  # quick play, log out, the language buttons
    # masked anew for each page: the tokens are not the cached page's
    assert (
        pages[0].split('name="csrfmiddlewaretoken" value="')[1][:20]
        != (pages[1].split('name="csrfmiddlewaretoken" value="')[1][:20])
    )


def test_the_online_lobbys_rules_follow_the_fill_timeout(anna: User, settings: object) -> None:
    settings.MATCHMAKING_FILL_SECONDS = 30  # type: ignore[attr-defined]
    assert "30 seconds" in _page(anna, "en", "/online/")
    settings.MATCHMAKING_FILL_SECONDS = 45  # type: ignore[attr-defined]
    page = _page(anna, "en", "/online/")
    assert "45 seconds" in page and "30 seconds" not in page
