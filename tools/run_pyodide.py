"""Run Python under the fetched Pyodide in Node, as the offline page's worker runs it in
a browser: the engine's zip unpacked at ``/offline`` (first on ``sys.path``), then the
code (``tools/run_pyodide.mjs``).  For the tests and the benchmarks.

    python tools/run_pyodide.py 'import sys; print(sys.version)'
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import fetch_pyodide

RUNNER = Path(__file__).with_name("run_pyodide.mjs")


class PyodideError(RuntimeError):
    """The code raised under Pyodide (the message ends with its traceback)."""


def node() -> str | None:
    """Node's path, if it is installed."""
    return shutil.which("node")


def run(code: str, engine_zip: Path, *, timeout: float = 600) -> str:
    """What ``code`` prints under Pyodide; :class:`PyodideError` when it raises."""
    program = node()
    if program is None:
        raise FileNotFoundError("node is not installed")
    if not fetch_pyodide.present():
        raise FileNotFoundError("Pyodide is not fetched (python tools/fetch_pyodide.py)")
    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder) / "script.py"
        script.write_text(code)
        done = subprocess.run(
            [program, str(RUNNER), str(fetch_pyodide.TARGET), str(engine_zip), str(script)],
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    if done.returncode != 0:
        raise PyodideError(done.stderr[-2000:])
    return done.stdout


def run_module(module: str, *args: str, engine_zip: Path, timeout: float = 600) -> str:
    """What ``python -m module *args`` prints under Pyodide."""
    code = (
        "import runpy, sys\n"
        f"sys.argv = [{module!r}, *{list(args)!r}]\n"
        "try:\n"
        f"    runpy.run_module({module!r}, run_name='__main__', alter_sys=True)\n"
        "except SystemExit as done:\n"
        "    if done.code:\n"
        "        raise\n"
    )
    return run(code, engine_zip, timeout=timeout)


if __name__ == "__main__":
    import build_offline

    print(run(sys.argv[1], build_offline.build()), end="")
