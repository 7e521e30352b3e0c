"""Sessions are read from the cache on every page and socket, not from the database."""

from __future__ import annotations

import pytest
from django.contrib.sessions.backends.cached_db import SessionStore
from django.core.cache import caches
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts.models import User

pytestmark = pytest.mark.django_db


def test_a_players_pages_read_their_session_from_the_cache_not_the_database(anna: User) -> None:
    client = Client()
    client.force_login(anna)
    assert client.get("/").status_code == 200
    with CaptureQueriesContext(connection) as queries:
        page = client.get("/")
    assert anna.display_name in page.content.decode()
    assert not [q for q in queries.captured_queries if "django_session" in q["sql"]]


def test_a_session_missing_from_the_cache_is_read_from_the_database(anna: User) -> None:
    client = Client()
    client.force_login(anna)
    key = client.cookies["sessionid"].value
    caches["sessions"].delete(SessionStore(session_key=key).cache_key)  # a cold cache
    with CaptureQueriesContext(connection) as queries:
        page = client.get("/")
    assert anna.display_name in page.content.decode()  # still signed in
    assert [q for q in queries.captured_queries if "django_session" in q["sql"]]
