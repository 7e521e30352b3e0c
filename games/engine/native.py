"""The engine's compiled modules (``tools/build_engine.py``), used only while current.

``make setup`` compiles :data:`MODULES` with mypyc into extension modules beside
their sources.  Python imports an extension before a source of the same name, even
a source edited since; so before the package imports them, :func:`use_current`
compares the engine's sources with the digest the build recorded.  When they differ,
it has all of :data:`MODULES` imported from their sources: a compiled module
expects the others' compiled classes, so the two kinds are never mixed.  Never
compiled itself; imports nothing of the engine.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
#: The modules compiled: the rules' loop and the hard bot's search.
MODULES = (
    "games/engine/round.py",
    "games/engine/bots/hard.py",
    "games/engine/bots/tree.py",
    "games/engine/bots/knowledge.py",
    "games/engine/bots/value.py",
)
#: The digest of the sources the compiled modules were built from.
MANIFEST = HERE / "native.sha256"

#: Each compiled module's name and its source.
_SOURCES = {path.removesuffix(".py").replace("/", "."): ROOT / path for path in MODULES}


def compiled_files() -> list[Path]:
    """The extension modules of the last build (none on a checkout never built)."""
    suffixes = importlib.machinery.EXTENSION_SUFFIXES
    return sorted({path for suffix in suffixes for path in HERE.rglob(f"*{suffix}")})


def source_digest() -> str:
    """SHA-256 of every source of the engine: the compiled modules read the others'
    classes and constants, so a change anywhere makes a build out of date."""
    digest = hashlib.sha256()
    for path in sorted(HERE.rglob("*.py")):
        digest.update(path.relative_to(HERE).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


#: Set to 1, the sources run even where a current build is (tests compare the two).
SOURCES_ONLY = "DOMINO_ENGINE_SOURCES"


def use_current() -> bool:
    """Whether the compiled modules will be imported (else their sources will be)."""
    if not compiled_files():
        return False
    if os.environ.get(SOURCES_ONLY) == "1":
        return _use_sources()
    if MANIFEST.exists() and MANIFEST.read_text().strip() == source_digest():
        return True
    warnings.warn(
        "games/engine changed since it was compiled: running its sources, slower "
        "(make setup compiles it again)",
        stacklevel=2,
    )
    return _use_sources()


def _use_sources() -> bool:
    if not any(isinstance(finder, _SourcesFirst) for finder in sys.meta_path):
        sys.meta_path.insert(0, _SourcesFirst())
    return False


class _SourcesFirst(importlib.abc.MetaPathFinder):
    """Finds the compiled modules' sources before their extension modules."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        source = _SOURCES.get(fullname)
        return None if source is None else importlib.util.spec_from_file_location(fullname, source)
