"""Django fixtures for the site tests."""

from tests.fixtures import *  # noqa: F403
