"""games/view/ runs without Django: the offline game ships it to the browser as it is,
where only the translation calls are answered (games.offline.django_shim)."""

from __future__ import annotations

import pkgutil
import subprocess
import sys
from pathlib import Path

import games.view

ROOT = Path(__file__).resolve().parents[2]


def test_every_module_of_games_view_imports_with_no_django_but_the_shim() -> None:
    modules = [f"games.view.{m.name}" for m in pkgutil.iter_modules(games.view.__path__)]
    assert "games.view.build" in modules and "games.view.regions" in modules
    probe = "\n".join(
        [
            "import sys",
            "from games.offline import django_shim",
            "django_shim.install()",
            *(f"import {name}" for name in modules),
            "real = sorted(m for m in sys.modules if m.startswith('django.')",
            "              and m not in ('django.utils', 'django.utils.translation',",
            "                            'django.utils.functional'))",
            "print(real)",
        ]
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "[]", out.stdout
