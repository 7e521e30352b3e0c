"""What the set-up fetches and packs for the offline game: Pyodide only as published
(its integrity checked), and a zip of modules that run without Django."""

from __future__ import annotations

import ast
import zipfile
from pathlib import Path

import pytest

from .conftest import tool

#: What ``games.offline.django_shim`` answers in the browser, where Django is not.
STOOD_IN = {"django.utils.translation", "django.utils.functional"}


def test_a_download_that_is_not_the_published_package_is_refused() -> None:
    fetch = tool("fetch_pyodide")
    with pytest.raises(SystemExit, match="does not match"):
        fetch.checked(b"not the pyodide package")


def test_the_loader_loses_its_source_map_pointer_and_nothing_else() -> None:
    fetch = tool("fetch_pyodide")
    code = b"export { a };\n//# sourceMappingURL=pyodide.mjs.map\n"
    assert fetch.without_source_map("pyodide.mjs", code) == b"export { a };\n"
    assert fetch.without_source_map("pyodide.asm.wasm", code) == code


def test_every_packed_module_runs_without_django(engine_zip: Path) -> None:
    with zipfile.ZipFile(engine_zip) as archive:
        names = archive.namelist()
        assert "games/engine/__init__.py" in names and "games/offline/app.py" in names
        assert any(name.endswith(".mo") for name in names)
        found = []
        for name in names:
            if not name.endswith(".py") or name.startswith(("jinja2/", "markupsafe/")):
                continue
            for node in ast.walk(ast.parse(archive.read(name))):
                modules = (
                    [alias.name for alias in node.names]
                    if isinstance(node, ast.Import)
                    else [node.module or ""]
                    if isinstance(node, ast.ImportFrom) and node.level == 0
                    else []
                )
                found += [(name, m) for m in modules if m.split(".")[0] == "django"]
    assert {module for _name, module in found} <= STOOD_IN, found


def test_the_zip_is_named_by_its_sources_and_built_once(engine_zip: Path) -> None:
    again: Path = tool("build_offline").build()
    assert again == engine_zip
    assert again.stat().st_mtime_ns == engine_zip.stat().st_mtime_ns  # not written again
