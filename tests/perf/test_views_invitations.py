"""The home page's invitations (games/views.py): one query for the badge and the panel."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts.models import User

pytestmark = pytest.mark.django_db


def test_the_home_page_asks_for_invitations_once_for_the_badge_and_the_panel(
    bruno: User,
) -> None:
    page = Client()
    page.force_login(bruno)
    page.get("/")  # the session is in the cache from here on
    with CaptureQueriesContext(connection) as queries:
        empty = page.get("/").content.decode()
    asked = [q for q in queries.captured_queries if "games_invitation" in q["sql"]]
    assert len(asked) == 1  # counted once, for the badge and the panel alike
    assert 'class="badge empty"' in empty
