"""Every page's header (accounts/header.py): the coins and the invitations badge are
read from the database once, then kept until they change."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from games import services
from games.models import Table
from tests.fixtures import DUELLO, version_of

pytestmark = pytest.mark.django_db


def _reads(page: Client) -> tuple[int, int, str]:
    """Queries of wallets and of invitations while loading the home page, and the page."""
    with CaptureQueriesContext(connection) as queries:
        html = page.get("/").content.decode()
    sql = [q["sql"] for q in queries.captured_queries]
    wallets = sum("economy_account" in q for q in sql)
    return wallets, sum("games_invitation" in q for q in sql), html


def test_the_header_asks_the_database_nothing_until_its_figures_change(
    anna: User, bruno: User
) -> None:
    page = Client()
    page.force_login(bruno)
    assert _reads(page)[:2] == (1, 1)  # the first page reads the coins and the badge
    wallets, invitations, html = _reads(page)
    assert (wallets, invitations) == (0, 0) and 'class="badge empty"' in html
    table = services.table_create(host=anna, mode=Table.Mode.FRIENDS, rules=DUELLO)
    services.table_invite(table_id=table.pk, version=version_of(table), by=anna, username="bruno")
    wallets, invitations, html = _reads(page)
    assert wallets == 1  # both figures are read again, once
    assert invitations == 2  # the badge, and the home page's list of them
    assert '<span id="invite-badge" class="badge"' in html
