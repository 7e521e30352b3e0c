"""Pack what the offline game runs in the browser (``make setup``).

One zip with a content hash in its name, ``vendor/static/engine/engine-<hash>.zip``: the
engine and the modules it shares with the site (the rules, the bots, the table's
view and drawing, the players' names), the browser's glue (``games/offline/``), the
site's live templates, the Italian catalog, and Jinja2 with MarkupSafe (pure
Python: its C speed-ups are left out).  ``vendor/static/engine/bundle.json`` names it for
the site.  Built from the source tree; its name is the sources' hash, and nothing is
done when that zip is already there.

With Node and the fetched Pyodide, the zip also holds the Python compiled to Pyodide's
CPython 3.14 bytecode (``tools/compile_offline.mjs``), and the live templates compiled
to Python by Jinja2: the browser starts the game without compiling them (about a
second).  Without Node, the sources alone, which work the same, more slowly.

    python tools/build_offline.py
"""

from __future__ import annotations

import hashlib
import io
import json
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Iterator
from pathlib import Path

import jinja2
import markupsafe

ROOT = Path(__file__).resolve().parent.parent
TARGET = ROOT / "vendor" / "static" / "engine"
BUNDLE = TARGET / "bundle.json"
sys.path.insert(0, str(ROOT / "tools"))
import fetch_pyodide  # noqa: E402

PYODIDE = fetch_pyodide.VERSION

#: The packages the browser runs: the rules, the view of a table (Django-free, bar the
#: translations ``games.offline.django_shim`` answers) and the browser's glue…
PACKAGES = ("games/engine", "games/view", "games/offline")
#: …and the few modules outside them that those import (Django-free too).
MODULES = (
    "accounts/__init__.py",
    "accounts/names.py",
    "games/__init__.py",
    "games/constants.py",
    "games/forced.py",
)
CATALOG = "locale/it/LC_MESSAGES/django.mo"
TEMPLATES = "templates/regions"


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


def compiled_templates() -> dict[str, bytes]:
    """The live templates as Jinja2 compiles them for the offline table's environment
    (``games.offline.render``, which loads them with a ``ModuleLoader``)."""
    sys.path.insert(0, str(ROOT))
    from jinja2 import Environment, FileSystemLoader

    env = Environment(
        loader=FileSystemLoader(str(ROOT / TEMPLATES)),
        extensions=["jinja2.ext.i18n"],
        autoescape=True,
    )
    env.install_null_translations(newstyle=True)  # type: ignore[attr-defined]  # as the glue's
    # the filters' names only: compiling checks that each one exists
    filters = ("backs", "ms_until", "seconds_until", "whole_seconds", "capfirst")
    env.filters.update(dict.fromkeys(filters, str))
    with tempfile.TemporaryDirectory() as folder:
        env.compile_templates(folder, zip=None, ignore_errors=False)
        return {
            f"{TEMPLATES}_compiled/{path.name}": path.read_bytes()
            for path in sorted(Path(folder).glob("*.py"))
        }


def packed() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        files = [(name, path.read_bytes()) for name, path in sources()]
        for name, content in [*files, *sorted(compiled_templates().items())]:
            entry = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = 0o644 << 16
            archive.writestr(entry, content)
    return buffer.getvalue()


def bytecode(data: bytes) -> bytes:
    """``data`` with its Python compiled for Pyodide, when Node and Pyodide are here."""
    node = shutil.which("node")
    if node is None or not fetch_pyodide.present():
        return data
    with tempfile.TemporaryDirectory() as folder:
        source, target = Path(folder) / "source.zip", Path(folder) / "compiled.zip"
        source.write_bytes(data)
        script = ROOT / "tools" / "compile_offline.mjs"
        done = subprocess.run(
            [node, str(script), str(fetch_pyodide.TARGET), str(source), str(target)],
            capture_output=True,
            text=True,
            timeout=600,
        )
        if done.returncode != 0:
            print(f"compiling for Pyodide failed, the sources alone:\n{done.stderr[-1500:]}")
            return data
        return target.read_bytes()


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
    partial = TARGET / f".{name}.partial"  # a dot: never collected as a static file
    partial.write_bytes(bytecode(data))
    partial.replace(zip_path)
    BUNDLE.write_text(json.dumps(bundle, indent=1) + "\n")
    return zip_path


if __name__ == "__main__":
    print(build().relative_to(ROOT))
