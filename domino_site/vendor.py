"""Install the site's third-party browser code (htmx and its websocket extension).

Pinned versions from the npm registry, each tarball checked against its
published sha512 before anything is unpacked into ``static/vendor/`` (ignored
by git).  Run ``python -m domino_site.vendor``; it does nothing when the
installed versions already match.
"""

from __future__ import annotations

import base64
import hashlib
import json
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

DEST = Path(__file__).resolve().parent.parent / "static" / "vendor"

# (package, version, npm integrity, {file in the tarball: name under static/vendor})
PACKAGES = [
    (
        "htmx.org",
        "2.0.11",
        "sha512-Thx/WtpeOQqSrqBCw/A1cwGJGg4UrVa3+sW0GmrM3p4gJgO89ecH4qtbnyzDDWFvBTqjnIMCgELTNt636dtamA==",
        {"package/dist/htmx.min.js": "htmx.min.js", "package/LICENSE": "htmx.LICENSE"},
    ),
    (
        "htmx-ext-ws",
        "2.0.4",
        "sha512-LnOpFRL/2hInhdKl/9N0OJsb4GYQ5/teUdTHNZYY9ytYdxYEqjfLEe0MWgF3ODjfwGJRb4E95igAbU66te48ZA==",
        {"package/dist/ws.js": "ws.js"},
    ),
]
STAMP = DEST / "versions.json"


def wanted() -> dict[str, str]:
    return {name: version for name, version, _, _ in PACKAGES}


def installed() -> dict[str, str]:
    try:
        return json.loads(STAMP.read_text())  # type: ignore[no-any-return]
    except (OSError, ValueError):
        return {}


def _integrity(data: bytes) -> str:
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()


def install() -> None:
    DEST.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        for name, version, integrity, files in PACKAGES:
            out = subprocess.run(
                ["npm", "pack", f"{name}@{version}", "--pack-destination", tmp, "--silent"],
                check=True,
                capture_output=True,
                text=True,
            )
            tarball = Path(tmp) / out.stdout.strip().splitlines()[-1]
            data = tarball.read_bytes()
            if _integrity(data) != integrity:
                sys.exit(f"{name}@{version}: checksum mismatch, refusing to install it")
            with tarfile.open(tarball) as archive:
                for member, target in files.items():
                    source = archive.extractfile(member)
                    if source is None:
                        sys.exit(f"{name}@{version}: {member} missing from the package")
                    (DEST / target).write_bytes(source.read())
    STAMP.write_text(json.dumps(wanted(), indent=2))


def main() -> None:
    if installed() == wanted() and all(
        (DEST / target).exists() for *_, files in PACKAGES for target in files.values()
    ):
        return
    install()
    print(f"installed {', '.join(f'{n}@{v}' for n, v in wanted().items())} into {DEST}")


if __name__ == "__main__":
    main()
