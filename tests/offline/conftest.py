"""The offline game's files, as ``make setup`` builds them (tools/fetch_pyodide.py,
tools/build_offline.py)."""

from __future__ import annotations

import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def tool(name: str) -> ModuleType:
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        return __import__(name)
    finally:
        sys.path.remove(str(ROOT / "tools"))


@pytest.fixture(scope="session")
def engine_zip() -> Path:
    """The engine's zip, built from the sources as they are now."""
    build = tool("build_offline")
    if not (ROOT / build.CATALOG).exists():
        pytest.skip("the messages are not compiled (make setup compiles them)")
    path: Path = build.build()
    return path


@pytest.fixture(scope="session")
def pyodide_dir() -> Path:
    fetch = tool("fetch_pyodide")
    if not fetch.present():
        pytest.skip("Pyodide is not fetched (make setup fetches it)")
    folder: Path = fetch.TARGET
    return folder
