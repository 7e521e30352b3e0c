"""Django fixtures for the site tests, and accounts' own: a guest client, fresh rate limits."""

from __future__ import annotations

import time
import uuid

import pytest
from django.test import Client

from accounts.models import User
from accounts.services import guest_create
from tests.fixtures import *  # noqa: F403


@pytest.fixture(autouse=True)
def fresh_rate_limits(settings: pytest.FixtureRequest) -> None:
    """Each test counts attempts from zero (the counters otherwise outlive a test,
    and in Redis a run); a test may point RATELIMIT_USE_CACHE back at "default"."""
    settings.CACHES = {  # type: ignore[attr-defined]
        **settings.CACHES,  # type: ignore[attr-defined]
        "rate-limits": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": uuid.uuid4().hex,
        },
    }
    settings.RATELIMIT_USE_CACHE = "rate-limits"  # type: ignore[attr-defined]


@pytest.fixture(autouse=True)
def one_rate_limit_window(monkeypatch: pytest.MonkeyPatch) -> None:
    """Counting windows end a whole period after the test began: a test that ran
    across the end of one would see its count start again."""
    began = int(time.time())
    monkeypatch.setattr("django_ratelimit.core._get_window", lambda value, period: began + period)


@pytest.fixture
def guest(english: Client) -> User:
    """The English client is a guest who has played (guests exist only once they do)."""
    user = guest_create()
    english.force_login(user)
    return user
