"""Django fixtures for the site tests."""

import pytest

from deadlines import worker
from tests.fixtures import *  # noqa: F403


@pytest.fixture(autouse=True)
def worker_beats_afresh(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test's first worker pass writes its heartbeat (the database is new)."""
    monkeypatch.setattr(worker, "_beaten_at", None)
