"""The static files' storage: WhiteNoise's hashed, compressed copies, each file's
content compressed once per machine.

Collecting compresses every file with Brotli and gzip at their best settings, the
original and its hashed copy alike.  Pyodide's WebAssembly (10 MB, for the offline
game) takes seconds each time; a test run collects into a fresh folder per process.
So the compressed bytes are kept by the content's hash in ``vendor/compressed/``
(git-ignored) and reused: the same content always compresses to the same bytes.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path
from typing import Any

from django.conf import settings
from whitenoise.compress import Compressor  # type: ignore[import-untyped]
from whitenoise.storage import CompressedManifestStaticFilesStorage  # type: ignore[import-untyped]


def _kept_dir() -> Path:
    return Path(settings.BASE_DIR) / "vendor" / "compressed"


class KeptCompressor(Compressor):  # type: ignore[misc]
    """WhiteNoise's compressor, reading a content's compressed bytes from the kept ones."""

    def _kept(self, data: bytes, kind: str, compress: Any) -> bytes:
        folder = _kept_dir()
        path = folder / f"{hashlib.sha256(data).hexdigest()}.{kind}"
        try:
            return path.read_bytes()
        except OSError:
            pass
        compressed: bytes = compress(data)
        folder.mkdir(parents=True, exist_ok=True)
        # written whole, then renamed: a parallel collection never reads half a file
        handle, temporary = tempfile.mkstemp(dir=folder)
        with os.fdopen(handle, "wb") as out:
            out.write(compressed)
        os.replace(temporary, path)
        return compressed

    def compress_brotli(self, data: bytes) -> bytes:
        return self._kept(data, "br", Compressor.compress_brotli)

    def compress_gzip(self, data: bytes) -> bytes:
        return self._kept(data, "gz", Compressor.compress_gzip)


class KeptCompressionStorage(CompressedManifestStaticFilesStorage):  # type: ignore[misc]
    def create_compressor(self, **kwargs: Any) -> Compressor:
        return KeptCompressor(**kwargs)
