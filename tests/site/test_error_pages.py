"""Issue 28, item 2: with debug off a player meets the site's own error pages, in
their language, saying in words what to do: a refused page (403), and a form sent
from a page too old or without the site's cookie (the CSRF check)."""

from __future__ import annotations

import pytest
from django.test import Client


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
