"""Speed guards: how many queries a page, a view or a write makes, and which.

They fail when a change makes the hot paths ask the database more (docs/performance.md);
they say nothing a player would see, so they carry the ``perf`` marker:
``pytest -m 'not perf'`` leaves them out."""

from __future__ import annotations

import pytest

from tests.fixtures import *  # noqa: F403


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/perf/" in item.nodeid:
            item.add_marker(pytest.mark.perf)
