"""Fixtures for the privacy tests: the coins' and the league's helpers."""

from __future__ import annotations

import pytest
from django.db import connection

from tests.fixtures import *  # noqa: F403


@pytest.fixture(autouse=True)
def postgres_only(request: pytest.FixtureRequest) -> None:
    """Row locks do nothing on SQLite: such tests run on PostgreSQL only."""
    if request.node.get_closest_marker("postgres") and connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (DATABASE_URL=postgres://…)")
