"""The engine is a plain Python package: a CLI, a bot or a browser can run it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "games" / "engine"


def test_no_module_of_the_engine_imports_django() -> None:
    offenders = [
        p.name
        for p in ENGINE.rglob("*.py")
        if any(
            line.strip().startswith(("import django", "from django"))
            for line in p.read_text().splitlines()
        )
    ]
    assert offenders == []


def test_importing_the_engine_loads_no_django() -> None:
    code = (
        "import sys, games.engine, games.engine.bots.hard; "
        "print(any(m == 'django' or m.startswith('django.') for m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=ENGINE.parents[1],
    )
    assert out.stdout.strip() == "False"
