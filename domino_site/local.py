"""The site on this machine: ``python -m domino_site.local [--dev] -b HOST -p PORT``.

``make run`` serves the site as players get it: debug off, the site's own error
pages, hashed and compressed static files through WhiteNoise, plain HTTP (the
machine's own address needs no certificate).  ``make dev`` (``--dev``) turns
debug on for developers: Django's technical error pages, static files from the
sources.

Nothing needs configuring: without ``DJANGO_SECRET_KEY`` a key is made once and
kept in ``.secret_key`` at the top of the checkout (git-ignored; another file with
``DJANGO_SECRET_KEY_FILE``), so sessions outlive a restart.  The database is
migrated and, debug off, the static files collected; then daphne serves the site
(``domino_site.serve``, which replaces this process).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import secrets
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

import django
from django.conf import settings
from django.contrib.staticfiles import finders
from django.core.management import call_command
from django.db import connections

ROOT = Path(__file__).resolve().parent.parent
ASGI_APP = "domino_site.asgi:application"
KEY_FILE = ROOT / ".secret_key"


def local_environment(base: Mapping[str, str], *, dev: bool) -> dict[str, str]:
    """The environment the site is served with: ``base`` (the caller's), debug set
    for the mode, plain HTTP unless said otherwise, and a secret key."""
    env = dict(base)
    env["DJANGO_DEBUG"] = "1" if dev else "0"
    env.setdefault("DJANGO_HTTPS", "0")
    if not env.get("DJANGO_SECRET_KEY"):
        env["DJANGO_SECRET_KEY"] = kept_secret_key(
            Path(env.get("DJANGO_SECRET_KEY_FILE") or KEY_FILE)
        )
    return env


def kept_secret_key(path: Path) -> str:
    """The key kept in ``path``, made there (readable by its owner only) the first time."""
    if path.exists() and (key := path.read_text().strip()):
        return key
    key = secrets.token_urlsafe(50)
    path.touch(mode=0o600)
    path.write_text(key + "\n")
    return key


def prepare(env: Mapping[str, str], *, dev: bool) -> None:
    """Migrate the database; debug off, collect the static files WhiteNoise serves
    (unless their sources are as they were at the last collection: it takes seconds)."""
    os.environ.update(env)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "domino_site.settings")
    django.setup()
    call_command("migrate", interactive=False)
    if not dev:
        collect_static_files()
    connections.close_all()


def collect_static_files() -> None:
    root = Path(settings.STATIC_ROOT)
    stamp, sources = root / ".sources", static_sources()
    if (root / "staticfiles.json").exists() and stamp.exists() and stamp.read_text() == sources:
        return
    call_command("collectstatic", interactive=False, verbosity=0)
    stamp.write_text(sources)


def static_sources() -> str:
    """A fingerprint of every static file the finders would collect (name, size, time)."""
    found = hashlib.sha256()
    for finder in finders.get_finders():
        for name, storage in sorted(finder.list([]), key=lambda found: found[0]):
            info = os.stat(storage.path(name))
            found.update(f"{name} {info.st_size} {info.st_mtime_ns}\n".encode())
    return found.hexdigest()


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dev", action="store_true", help="debug on, for developers")
    parser.add_argument("-b", "--bind", default="127.0.0.1")
    parser.add_argument("-p", "--port", type=int, default=8000)
    args = parser.parse_args(argv)
    env = local_environment(os.environ, dev=args.dev)
    prepare(env, dev=args.dev)
    mode = "debug on, for developers" if args.dev else "as players get it"
    print(f"Domino is on http://{args.bind}:{args.port}/ ({mode})", flush=True)
    serve = ["-m", "domino_site.serve", "-b", args.bind, "-p", str(args.port), ASGI_APP]
    os.chdir(ROOT)
    os.execve(sys.executable, [sys.executable, *serve], env)


if __name__ == "__main__":
    main()
