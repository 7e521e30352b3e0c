"""The offline game starts from a memory snapshot of CPython with its modules
imported (``static/offline/python.js``), through Pyodide 314.0.8's private snapshot
API: this fails when a new Pyodide changes it (the worker would then start CPython
the slow way every time, silently)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
PYTHON_JS = HERE.parents[1] / "static" / "offline" / "python.js"


def test_a_second_start_restores_the_first_ones_snapshot_and_plays(
    pyodide_dir: Path, engine_zip: Path
) -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: Pyodide runs in the browser test only")
    done = subprocess.run(
        [node, str(HERE / "snapshot.mjs"), str(pyodide_dir), str(engine_zip), str(PYTHON_JS)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["first"] is False  # nothing kept yet: started and imported, then kept
    assert result["second"] is True and result["warmed_again"] is False
    page = result["page"]
    assert 'id="hand"' in page and "Contro il computer" in page  # the table, in Italian
    assert result["other"] is False  # another deploy's start does not take this one
    assert result["kept"] == 1  # one snapshot kept: the newest
