"""Each module of ``overrides/`` relies on insides of a library that the library does
not promise to keep.  Here is the source of every one of them as the module was
written against it: when a library changes one underneath (an upgrade), the test
says which, and where to look.  Re-read that module against the new version, run the
load benchmark again (docs/performance.md), and record the new fingerprint here."""

from __future__ import annotations

import hashlib
import importlib
import inspect
from functools import reduce

import pytest

#: overrides module -> {the library's object: the fingerprint of its source}
WRITTEN_AGAINST: dict[str, dict[str, str]] = {
    "channel_layer": {  # Channels 4.3.2
        "channels.layers.InMemoryChannelLayer": "aa69668efe7fe2dd",
    },
    "consumer_loop": {  # Channels 4.3.2
        "channels.consumer.AsyncConsumer.__call__": "e52238720872dbc3",
        "channels.consumer.AsyncConsumer.dispatch": "39f34e7d4fb0f655",
    },
}


def _find(name: str) -> object:
    """The object a dotted name ends at: a module's, a class's attribute."""
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            module = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        return reduce(getattr, parts[cut:], module)
    raise ImportError(name)


def fingerprint(name: str) -> str:
    return hashlib.sha256(inspect.getsource(_find(name)).encode()).hexdigest()[:16]


@pytest.mark.parametrize(
    ("module", "name", "written_against"),
    [(m, n, h) for m, names in WRITTEN_AGAINST.items() for n, h in names.items()],
)
def test_what_each_override_relies_on_is_as_it_was_written_against(
    module: str, name: str, written_against: str
) -> None:
    importlib.import_module(f"overrides.{module}")  # and the module itself still loads
    assert fingerprint(name) == written_against, (
        f"{name} changed underneath overrides/{module}.py: re-read that module against "
        "the library's new version, measure it again (docs/performance.md), then record "
        "the new fingerprint in tests/overrides/test_written_against.py"
    )


def test_no_override_imports_the_sites_own_apps() -> None:
    import ast
    from pathlib import Path

    apps = {"accounts", "economy", "games", "league", "matchmaking", "realtime", "domino_site"}
    folder = Path(importlib.import_module("overrides").__file__ or "").parent
    for source in sorted(folder.glob("*.py")):
        for node in ast.walk(ast.parse(source.read_text())):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            assert not {n.split(".")[0] for n in names} & apps, (source.name, names)
