"""Django fixtures for the matchmaking tests."""

import pytest

from tests.fixtures import *  # noqa: F403


@pytest.fixture(autouse=True)
def short_fill(settings: pytest.FixtureRequest) -> None:
    """The fill timeout the tests reason about (the product default is 20 s)."""
    settings.MATCHMAKING_FILL_SECONDS = 20  # type: ignore[attr-defined]
