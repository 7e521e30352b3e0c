"""The static files' storage: WhiteNoise's hashed, compressed copies, each file's
content compressed once per machine.

Collecting compresses every file with Brotli and gzip at their best settings, the
original and its hashed copy alike.  Pyodide's WebAssembly (10 MB, for the offline
game) takes seconds each time; a test run collects into a fresh folder per process.
So the compressed bytes are kept by the content's hash in ``vendor/compressed/``
(git-ignored) and reused: the same content always compresses to the same bytes.
``make setup`` compresses Pyodide's files there as it fetches them
(tools/fetch_pyodide.py): no collection waits for them.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path
from typing import Any

from whitenoise.compress import Compressor  # type: ignore[import-untyped]
from whitenoise.storage import CompressedManifestStaticFilesStorage  # type: ignore[import-untyped]

KEPT = Path(__file__).resolve().parent.parent / "vendor" / "compressed"
#: How each kind of compressed copy is made: WhiteNoise's own settings.
COMPRESS = {"br": Compressor.compress_brotli, "gz": Compressor.compress_gzip}


def kept_compressed(data: bytes, kind: str) -> bytes:
    """``data`` compressed as WhiteNoise compresses (``kind``: "br" or "gz"), made once."""
    path = KEPT / f"{hashlib.sha256(data).hexdigest()}.{kind}"
    try:
        return path.read_bytes()
    except OSError:
        pass
    compressed: bytes = COMPRESS[kind](data)
    KEPT.mkdir(parents=True, exist_ok=True)
    # written whole, then renamed: a parallel collection never reads half a file
    handle, temporary = tempfile.mkstemp(dir=KEPT)
    with os.fdopen(handle, "wb") as out:
        out.write(compressed)
    os.chmod(temporary, 0o644)
    os.replace(temporary, path)
    return compressed


class KeptCompressor(Compressor):  # type: ignore[misc]
    """WhiteNoise's compressor, reading a content's compressed bytes from the kept ones."""

    def compress_brotli(self, data: bytes) -> bytes:
        return kept_compressed(data, "br")

    def compress_gzip(self, data: bytes) -> bytes:
        return kept_compressed(data, "gz")


class KeptCompressionStorage(CompressedManifestStaticFilesStorage):  # type: ignore[misc]
    def create_compressor(self, **kwargs: Any) -> Compressor:
        return KeptCompressor(**kwargs)
