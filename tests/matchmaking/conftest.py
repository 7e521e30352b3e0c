"""Django fixtures for the matchmaking tests."""

import pytest

from tests.fixtures import *  # noqa: F403


@pytest.fixture(autouse=True)
def short_fill(settings: pytest.FixtureRequest) -> None:
    """The fill timeout the tests reason about (the product default is 20 s)."""
    settings.MATCHMAKING_FILL_SECONDS = 20  # type: ignore[attr-defined]


@pytest.fixture(autouse=True)
def fast_passwords(settings: pytest.FixtureRequest) -> None:
    """Many players per test: hashing their passwords need not be slow."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # type: ignore[attr-defined]
