"""The whole suite's collection."""

from collections.abc import Iterator

import pytest

import games.engine
from games.engine import native

# Compiled (make setup), these modules are extension modules whose doctests pytest
# cannot read: tests/engine/test_native.py runs the engine's tests on the sources.
collect_ignore = list(native.MODULES) if games.engine.COMPILED else []


@pytest.fixture(scope="session", autouse=True)
def migrated_test_database() -> Iterator[None]:
    """Each worker's test database starts from the migrated copy the live sites share
    (tests/fixtures.py: ``test_databases_from_the_migrated_copy``)."""
    from tests.fixtures import test_databases_from_the_migrated_copy

    with test_databases_from_the_migrated_copy():
        yield
