"""The whole suite's collection."""

import games.engine
from games.engine import native

# Compiled (make setup), these modules are extension modules whose doctests pytest
# cannot read: tests/engine/test_native.py runs the engine's tests on the sources.
collect_ignore = list(native.MODULES) if games.engine.COMPILED else []
