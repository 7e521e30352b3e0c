"""Fetch the pinned Pyodide core into ``vendor/static/pyodide/<version>/`` (``make setup``).

The browser's offline game runs the engine under Pyodide, served by the site with
its other static files (no CDN).  The npm tarball is downloaded once, its sha512
checked against the integrity the npm registry publishes, and only the files the
page loads are unpacked.  Nothing happens when they are already there.

    python tools/fetch_pyodide.py [--check]
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

import npm_tarball

VERSION = "314.0.8"
#: `npm view pyodide@314.0.8 dist.integrity`
INTEGRITY = (
    "sha512-"
    "74Wq1kXOC+CCEzAfxuRAO701nAcCMLjf8NrwvWpu8S41dVMXwXmLQ05dYB+F4e46AdnGo0oq7YHSVUpHsoarLQ=="
)
#: The core the page loads: the loader, CPython in WebAssembly, its standard library.
FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
ROOT = Path(__file__).resolve().parent.parent
TARGET = ROOT / "vendor" / "static" / "pyodide" / VERSION
DONE = TARGET / ".complete"  # written last: a half-unpacked folder is fetched again


def checked(data: bytes) -> bytes:
    return npm_tarball.checked(data, INTEGRITY, f"pyodide {VERSION}")


def present() -> bool:
    return DONE.exists() and all((TARGET / name).is_file() for name in FILES)


def without_source_map(name: str, content: bytes) -> bytes:
    """The loader without its last line's pointer to a source map, which the package has
    but the site does not serve (collecting the static files would look for it)."""
    if not name.endswith((".js", ".mjs")):
        return content
    lines = content.rstrip(b"\n").split(b"\n")
    if lines[-1].startswith(b"//# sourceMappingURL="):
        lines.pop()
    return b"\n".join(lines) + b"\n"


def fetch() -> None:
    print(f"fetching pyodide {VERSION} (about 6 MB)", flush=True)
    data = npm_tarball.download("pyodide", VERSION, INTEGRITY)
    shutil.rmtree(TARGET, ignore_errors=True)
    TARGET.mkdir(parents=True)
    for name in FILES:
        (TARGET / name).write_bytes(without_source_map(name, npm_tarball.member(data, name)))
    DONE.write_text(INTEGRITY + "\n")


def precompress() -> None:
    """Brotli and gzip copies of the files, as collecting the static files makes them
    (``domino_site.staticfiles``): made here once, at set-up, not at every collection."""
    sys.path.insert(0, str(ROOT))
    from domino_site.staticfiles import kept_compressed

    for name in FILES:
        if name.endswith(".zip"):
            continue  # compressed already: WhiteNoise leaves it as it is
        data = (TARGET / name).read_bytes()
        for kind in ("br", "gz"):
            kept_compressed(data, kind)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only say whether it is there")
    args = parser.parse_args(argv)
    if not present():
        if args.check:
            print(f"pyodide {VERSION} is not in {TARGET.relative_to(ROOT)}: run make setup")
            return 1
        fetch()
    precompress()
    return 0


if __name__ == "__main__":
    sys.exit(main())
