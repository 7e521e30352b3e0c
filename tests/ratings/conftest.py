"""Django fixtures for the ratings tests."""

from tests.fixtures import *  # noqa: F403
from tests.stakes import rich  # noqa: F401
