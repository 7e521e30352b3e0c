"""An npm package's tarball, downloaded and checked against the integrity the npm
registry publishes for it (``npm view <name>@<version> dist.integrity``): what the
set-up fetches (Pyodide, axe-core) comes only this way, never from a CDN."""

from __future__ import annotations

import base64
import hashlib
import io
import tarfile
import urllib.request


def checked(data: bytes, integrity: str, what: str) -> bytes:
    """``data`` if its digest is the ``integrity`` given (``sha512-<base64>``), else stop."""
    algorithm, _, expected = integrity.partition("-")
    digest = base64.b64encode(hashlib.new(algorithm, data).digest()).decode()
    if digest != expected:
        raise SystemExit(f"{what}: the download's {algorithm} does not match: refused")
    return data


def download(name: str, version: str, integrity: str) -> bytes:
    """The package's tarball from the npm registry, checked."""
    url = f"https://registry.npmjs.org/{name}/-/{name.split('/')[-1]}-{version}.tgz"
    with urllib.request.urlopen(url, timeout=120) as response:
        return checked(response.read(), integrity, f"{name} {version}")


def member(data: bytes, path: str) -> bytes:
    """One file of the tarball (``package/<path>``)."""
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        found = tar.extractfile(f"package/{path}")
        if found is None:
            raise SystemExit(f"the package has no {path}")
        return found.read()
