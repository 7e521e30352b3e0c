"""The site on this machine: ``python -m domino_site.local [--dev] -b HOST -p PORT``.

``make run`` serves the site as players get it: debug off, the site's own error
pages, hashed and compressed static files through WhiteNoise, plain HTTP (the
machine's own address needs no certificate).  ``make dev`` (``--dev``) turns
debug on for developers: Django's technical error pages, static files from the
sources.

Nothing needs configuring: without ``DJANGO_SECRET_KEY`` a key is made once and
kept in ``.secret_key`` at the top of the checkout (git-ignored; another file with
``DJANGO_SECRET_KEY_FILE``), so sessions outlive a restart.  The database is
migrated while, debug off, the static files are collected; then daphne serves the
site (``domino_site.serve``).

The first page comes before the slow steps of the set-up: ``--meanwhile 'make -s
built'`` (``make run``) builds the engine's C modules and the offline game's files
while the site is served (from the engine's sources, without the offline game).
When that is done and has built something, the server is restarted once, gracefully
(a page open on it reconnects), to collect and use them.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import secrets
import signal
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

import django
from django.conf import settings
from django.contrib.staticfiles import finders
from django.core.management import call_command

ROOT = Path(__file__).resolve().parent.parent
ASGI_APP = "domino_site.asgi:application"
KEY_FILE = ROOT / ".secret_key"
#: What ``make -s built`` writes last: the engine's manifest, the offline game's bundle.
BUILT = (
    ROOT / "games" / "engine" / "native.sha256",
    ROOT / "vendor" / "static" / "engine" / "bundle.json",
)


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
    """Migrate the database (in a process of its own) while, debug off, the static files
    WhiteNoise serves are collected here (unless their sources are as they were at the
    last collection): each takes seconds."""
    os.environ.update(env)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "domino_site.settings")
    migrate = [sys.executable, "manage.py", "migrate", "--noinput"]
    migrating = subprocess.Popen(migrate, cwd=ROOT, env=os.environ.copy())
    try:
        if not dev:
            django.setup()
            collect_static_files()
    finally:
        if migrating.wait() != 0:
            raise SystemExit("the database could not be migrated")


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


def built_state() -> tuple[int | None, ...]:
    """When each of :data:`BUILT` was last written (None: not yet)."""
    return tuple(path.stat().st_mtime_ns if path.exists() else None for path in BUILT)


def serve_meanwhile(serve: list[str], env: dict[str, str], meanwhile: str, *, dev: bool) -> None:
    """Serve while ``meanwhile`` (a shell command) runs.  When it succeeded and built
    something, collect the static files again (debug off; in a new process: the offline
    game's folder is new to the settings), then restart the server gracefully.  Returns when
    the server stops on its own."""
    before = built_state()
    server = subprocess.Popen([sys.executable, *serve], cwd=ROOT, env=env)
    builder: subprocess.Popen[bytes] | None = subprocess.Popen(meanwhile, shell=True, cwd=ROOT)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # the children stopped (finally)
    try:
        while server.poll() is None:
            time.sleep(0.5)
            if builder is None or builder.poll() is None:
                continue
            if builder.returncode != 0:
                print("the slow steps of the set-up failed: serving without them", flush=True)
            elif built_state() != before:
                if not dev:
                    collect = [sys.executable, "-m", "domino_site.local", "--collect-only"]
                    subprocess.run(collect, cwd=ROOT, env=env, check=True)
                print("the engine and the offline game are built: restarting", flush=True)
                server.send_signal(signal.SIGTERM)  # gracefully: open pages reconnect
                server.wait()
                server = subprocess.Popen([sys.executable, *serve], cwd=ROOT, env=env)
            builder = None
    finally:
        for child in (builder, server):
            if child is not None and child.poll() is None:
                child.terminate()
                child.wait()


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dev", action="store_true", help="debug on, for developers")
    parser.add_argument("-b", "--bind", default="127.0.0.1")
    parser.add_argument("-p", "--port", type=int, default=8000)
    parser.add_argument(
        "--meanwhile",
        metavar="COMMAND",
        help="run while serving; then restart to use what it built",
    )
    parser.add_argument("--collect-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    env = local_environment(os.environ, dev=args.dev)
    if args.collect_only:  # serve_meanwhile's: the static files as they are now
        os.environ.update(env)
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "domino_site.settings")
        django.setup()
        return collect_static_files()
    prepare(env, dev=args.dev)
    mode = "debug on, for developers" if args.dev else "as players get it"
    print(f"Domino is on http://{args.bind}:{args.port}/ ({mode})", flush=True)
    serve = ["-m", "domino_site.serve", "-b", args.bind, "-p", str(args.port), ASGI_APP]
    os.chdir(ROOT)
    if args.meanwhile:
        serve_meanwhile(serve, env, args.meanwhile, dev=args.dev)
    else:
        os.execve(sys.executable, [sys.executable, *serve], env)


if __name__ == "__main__":
    main()
