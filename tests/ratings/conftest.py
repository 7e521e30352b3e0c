"""Django fixtures for the ratings tests."""

import pytest
from django.db import connection

from tests.fixtures import *  # noqa: F403
from tests.stakes import rich  # noqa: F401


@pytest.fixture(autouse=True)
def postgres_only(request: pytest.FixtureRequest) -> None:
    """Row locks do nothing on SQLite: races (``postgres``) run on PostgreSQL only."""
    if request.node.get_closest_marker("postgres") and connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (DATABASE_URL=postgres://…)")
