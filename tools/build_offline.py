"""Pack what the offline game runs in the browser (``make setup``).

One zip with a content hash in its name, ``vendor/static/engine/engine-<hash>.zip``: the
engine and the modules it shares with the site (the rules, the bots, the table's
view and drawing, the players' names), the browser's glue (``games/offline/``), the
site's live templates, the Italian catalog, and Jinja2 with MarkupSafe (pure
Python: its C speed-ups are left out).  ``vendor/static/engine/bundle.json`` names it for
the site.  Built from the source tree, byte for byte the same from the same
sources, and not written again when it would not change.

    python tools/build_offline.py
"""

from __future__ import annotations

import hashlib
import io
import json
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path

import jinja2
import markupsafe

ROOT = Path(__file__).resolve().parent.parent
TARGET = ROOT / "vendor" / "static" / "engine"
BUNDLE = TARGET / "bundle.json"
sys.path.insert(0, str(ROOT / "tools"))
from fetch_pyodide import VERSION as PYODIDE  # noqa: E402

#: The site's modules the browser imports, beyond the packages below (all Django-free,
#: bar the translations ``games.offline.stand_in`` answers).
MODULES = (
    "accounts/__init__.py",
    "accounts/names.py",
    "games/__init__.py",
    "games/bot_names.py",
    "games/constants.py",
    "games/drawing.py",
    "games/errors.py",
    "games/presets.py",
    "games/viewparts.py",
    "overrides/__init__.py",
    "overrides/jinja2.py",
)
PACKAGES = ("games/engine", "games/offline")
CATALOG = "locale/it/LC_MESSAGES/django.mo"
TEMPLATES = "templates/live"


def sources() -> Iterator[tuple[str, Path]]:
    """(name in the zip, file) for everything packed, in a fixed order."""
    for name in MODULES:
        yield name, ROOT / name
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            yield str(path.relative_to(ROOT)), path
    for path in sorted((ROOT / TEMPLATES).rglob("*.html")):
        yield str(path.relative_to(ROOT)), path
    catalog = ROOT / CATALOG
    if not catalog.exists():
        raise SystemExit(f"{CATALOG} is missing: compile the messages first (make messages)")
    yield CATALOG, catalog
    for library in (jinja2, markupsafe):
        folder = Path(library.__file__).parent
        for path in sorted(folder.glob("*.py")):
            yield f"{folder.name}/{path.name}", path


def packed() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for name, path in sources():
            entry = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = 0o644 << 16
            archive.writestr(entry, path.read_bytes())
    return buffer.getvalue()


def build() -> Path:
    data = packed()
    name = f"engine-{hashlib.sha256(data).hexdigest()[:12]}.zip"
    zip_path = TARGET / name
    bundle = {"engine": f"engine/{name}", "pyodide": f"pyodide/{PYODIDE}/"}
    if zip_path.exists() and BUNDLE.exists() and json.loads(BUNDLE.read_text()) == bundle:
        return zip_path
    TARGET.mkdir(parents=True, exist_ok=True)
    for old in TARGET.glob("engine-*.zip"):
        if old != zip_path:
            old.unlink(missing_ok=True)
    zip_path.write_bytes(data)
    BUNDLE.write_text(json.dumps(bundle, indent=1) + "\n")
    return zip_path


if __name__ == "__main__":
    print(build().relative_to(ROOT))
