"""Compile the engine's hot modules to C with mypyc (``make setup`` runs it).

The rules' loop (``round.py``) and the hard bot's search (``bots/``) run some
three times as fast compiled: the same source, the same moves for the same
random numbers, so the rules still exist once.  The extension modules land beside
their sources (git-ignored); ``games/engine/native.py`` loads them only while the
sources are the ones they were compiled from, and the sources otherwise (an edit
since the last ``make setup``; the offline game under Pyodide has no build).

    python tools/build_engine.py          # compile, write the manifest
    python tools/build_engine.py --clean  # remove the compiled modules
"""

from __future__ import annotations

import argparse
import os
import sys
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ["DOMINO_ENGINE_SOURCES"] = "1"  # what is built is not imported here

from games.engine.native import MANIFEST, MODULES, compiled_files, source_digest  # noqa: E402

BUILD = ROOT / ".venv" / "engine-build"


def clean() -> None:
    for path in compiled_files():
        path.unlink()
    MANIFEST.unlink(missing_ok=True)


def build() -> None:
    from mypyc.build import mypycify
    from setuptools import setup

    warnings.filterwarnings("ignore", message="Support for `\\[tool.setuptools\\]`")
    clean()
    os.chdir(ROOT)  # mypyc names the modules by their paths from here
    setup(
        name="domino-engine-native",
        ext_modules=mypycify(
            list(MODULES), group_name="games.engine.native_group", target_dir=str(BUILD)
        ),
        script_args=[
            *("--quiet", "build_ext", "--inplace"),
            *("--build-temp", str(BUILD / "temp"), "--build-lib", str(BUILD / "lib")),
        ],
    )
    MANIFEST.write_text(source_digest() + "\n")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clean", action="store_true", help="remove the compiled modules")
    (clean if parser.parse_args().clean else build)()
