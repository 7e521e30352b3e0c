"""Fetch the pinned axe-core into ``vendor/test/axe-core/<version>/`` (``make setup``).

The browser tests run axe (Deque's accessibility checker) on every page.  It comes
from npm at one exact version, its sha512 checked against the integrity the npm
registry publishes, like Pyodide (``tools/fetch_pyodide.py``); never from a CDN.  The
site does not serve it: the tests put it in the page themselves.

    python tools/fetch_axe.py [--check]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import npm_tarball

VERSION = "4.14.1"
#: `npm view axe-core@4.14.1 dist.integrity`
INTEGRITY = (
    "sha512-"
    "FHfa+lmNjQZfJz1q8wKqIDwC6DExcHt/pkjNQb09a3NPjCKg2rhu5qb2S4r76ASyFNNtuFooJpZe37OgudVGtQ=="
)
ROOT = Path(__file__).resolve().parent.parent
TARGET = ROOT / "vendor" / "test" / "axe-core" / VERSION
SCRIPT = TARGET / "axe.min.js"


def checked(data: bytes) -> bytes:
    return npm_tarball.checked(data, INTEGRITY, f"axe-core {VERSION}")


def fetch() -> None:
    print(f"fetching axe-core {VERSION} (about 0.6 MB)", flush=True)
    data = checked(npm_tarball.download("axe-core", VERSION, INTEGRITY))
    TARGET.mkdir(parents=True, exist_ok=True)
    partial = SCRIPT.with_suffix(".part")
    partial.write_bytes(npm_tarball.member(data, "axe.min.js"))
    partial.replace(SCRIPT)  # whole or absent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only say whether it is there")
    args = parser.parse_args(argv)
    if not SCRIPT.is_file():
        if args.check:
            print(f"axe-core {VERSION} is not in {TARGET.relative_to(ROOT)}: run make setup")
            return 1
        fetch()
    return 0


if __name__ == "__main__":
    sys.exit(main())
