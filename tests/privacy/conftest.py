"""Fixtures for the privacy tests: the coins' and the league's helpers."""

from __future__ import annotations

from tests.fixtures import *  # noqa: F403
