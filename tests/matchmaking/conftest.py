"""Django fixtures for the matchmaking tests."""

import pytest
from django.db import connection

from tests.fixtures import *  # noqa: F403


@pytest.fixture(autouse=True)
def short_fill(settings: pytest.FixtureRequest) -> None:
    """The fill timeout the tests reason about (the product default is 20 s)."""
    settings.MATCHMAKING_FILL_SECONDS = 20  # type: ignore[attr-defined]


@pytest.fixture(autouse=True)
def postgres_only(request: pytest.FixtureRequest) -> None:
    """Row locks do nothing on SQLite: races (``postgres``) run on PostgreSQL only."""
    if request.node.get_closest_marker("postgres") and connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (DATABASE_URL=postgres://…)")
