"""With debug off a player meets the site's own error pages, in their language, saying
in words what to do: a refused page (403), a form sent from a page too old or without
the site's cookie (the CSRF check), a mistyped link (404), a server error (500)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client, RequestFactory
from django.utils import translation
from django.views.defaults import server_error


@pytest.mark.django_db
def test_a_form_sent_without_the_sites_cookie_says_what_to_do() -> None:
    client = Client(enforce_csrf_checks=True)
    response = client.post("/accounts/login/", {"username": "anna", "password": "x"})
    assert response.status_code == 403
    page = response.content.decode()
    assert "Il modulo è scaduto" in page  # the site's page, in Italian by default
    assert "ricarica la pagina" in page and "cookie" in page
    assert 'class="topbar"' in page  # with the site's header, not Django's bare page
    english = Client(enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE="en")
    page = english.post("/accounts/login/", {"username": "anna"}).content.decode()
    assert "The form has expired" in page and "reload the page" in page


@pytest.mark.django_db
@pytest.mark.urls("tests.site.forbidden_urls")
def test_a_refused_page_is_the_sites_own() -> None:
    response = Client().get("/forbidden/")
    assert response.status_code == 403
    page = response.content.decode()
    assert "Questa pagina non è per te" in page and "Torna alla home" in page


@pytest.fixture
def no_debug(settings: Any) -> None:
    settings.DEBUG = False


@pytest.mark.django_db
@pytest.mark.usefixtures("no_debug")
def test_a_mistyped_table_link_shows_the_sites_404_page_in_both_languages(
    english: Client,
) -> None:
    italian = Client().get("/t/nessuno/")
    assert italian.status_code == 404
    assert "Questa pagina non è sul tavolo" in italian.content.decode()
    assert 'name="viewport"' in italian.content.decode()
    page = english.get("/t/nobody/").content.decode()
    assert "This page is not on the table" in page and 'class="topbar"' in page


def test_the_500_page_is_the_sites_and_needs_nothing_that_could_fail(rf: RequestFactory) -> None:
    for language, text in (("it", "Qualcosa è andato storto"), ("en", "Something went wrong")):
        with translation.override(language):
            response = server_error(rf.get("/"))
        assert response.status_code == 500
        page = response.content.decode()
        assert text in page and "site.css" in page and 'name="viewport"' in page
