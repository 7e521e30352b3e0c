"""The server under load: one daphne process on the embedded default, its log.

The site is served as ``bench.site`` (the production site plus the yardsticks:
the echo socket and the bare view), started as ``make run`` starts it, through
``domino_site.serve``.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from domino_site.scaled import free_ports

ROOT = Path(__file__).resolve().parents[2]
SETTINGS = "bench.site.settings"
APPLICATION = "bench.site.asgi:application"

#: A server logs each garbage collection that held its process this long or longer
#: (domino_site/serve.py): every socket of the process waits through one.
COLLECTION_LOGGED_MS = 20
COLLECTION_LINE = re.compile(rb"slow garbage collection: generation (\d), (\d+) ms")


class Server:
    """One daphne process on the embedded default, in a temporary folder."""

    def __init__(
        self, *, cpu: str | None, rev: str | None = None, site: Path | None = None
    ) -> None:
        self.cpu = cpu
        self.folder = Path(tempfile.mkdtemp(prefix="domino-load-"))
        self.site = self._export(rev) if rev else (site or ROOT).resolve()
        self.port = free_ports()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = self.folder / "daphne.log"

    def _export(self, rev: str) -> Path:
        """A commit's tree, to measure it beside the checkout (``--rev``)."""
        site = self.folder / "site"
        site.mkdir()
        archive = subprocess.run(
            ["git", "archive", rev], cwd=ROOT, capture_output=True, check=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(site)], input=archive, check=True)
        for compiled in ROOT.glob("locale/*/LC_MESSAGES/django.mo"):  # git-ignored
            shutil.copy(compiled, site / compiled.relative_to(ROOT))
        return site

    def env(self) -> dict[str, str]:
        return server_env(self.folder, self.site, f"sqlite:///{self.folder / 'db.sqlite3'}")

    def start(self) -> None:
        python = sys.executable
        for step in (["migrate"], ["collectstatic"]):  # debug off may want hashed names
            subprocess.run(
                [python, "manage.py", *step, "--noinput", "-v", "0"],
                cwd=self.site,
                env=self.env(),
                check=True,
            )
        daphne = (  # as ``make run`` starts it (an older --rev: daphne itself)
            [python, "-m", "domino_site.serve"]
            if (self.site / "domino_site" / "serve.py").exists()
            else [str(Path(python).with_name("daphne"))]
        )
        command = [*daphne, "-b", "127.0.0.1", "-p", str(self.port), APPLICATION]
        if self.cpu is not None and shutil.which("taskset"):
            command = ["taskset", "-c", str(self.cpu), *command]
        with self.log.open("wb") as log:
            self.proc = subprocess.Popen(
                command, cwd=self.site, env=self.env(), stdout=log, stderr=subprocess.STDOUT
            )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise SystemExit(f"daphne stopped at start:\n{self.log_tail()}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(self.url + "/bench/bare", timeout=2).status_code == 200:
                    return
            time.sleep(0.3)
        raise SystemExit(f"daphne did not answer in 60 s:\n{self.log_tail()}")

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc else None

    def log_tail(self, lines: int = 30) -> str:
        return log_tail(self.log, lines)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        shutil.rmtree(self.folder, ignore_errors=True)


def server_env(folder: Path, site: Path, database_url: str) -> dict[str, str]:
    """The server's environment: the benchmark's site, debug off, a fresh secret key,
    plain http.  ``bench.site`` comes from the checkout when ``site`` has none (an
    older ``--rev``): a package there wins over the plain folder of the same name."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(
        DATABASE_URL=database_url,
        DJANGO_SETTINGS_MODULE=SETTINGS,  # /ws/echo/ and /bench/bare (bench/site/)
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
        DJANGO_HTTPS="0",  # plain http on 127.0.0.1, as the browser tests do
        DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost",
        GAME_CLOCK_ENABLED="1",
        DJANGO_STATIC_ROOT=str(folder / "static"),
        PYTHONPATH=os.pathsep.join(dict.fromkeys(_path(site))),
        PYTHONUNBUFFERED="1",
        DOMINO_SLOW_COLLECTION_MS=str(COLLECTION_LOGGED_MS),  # the collections to count
    )
    return env


def _path(site: Path) -> tuple[str, ...]:
    """The server's ``PYTHONPATH``: the site, then the checkout (``bench.site``); a tree
    other than the checkout served alone (``bench/load/alone``)."""
    if site.resolve() == ROOT.resolve():
        return (str(site),)
    return (str(ROOT / "bench" / "load" / "alone"), str(site), str(ROOT))


def log_tail(log: Path, lines: int = 30) -> str:
    with contextlib.suppress(OSError):
        return "\n".join(log.read_text(errors="replace").splitlines()[-lines:])
    return ""


def log_size(log: Path) -> int:
    return log.stat().st_size if log.exists() else 0


def collections_logged(log: Path, since: int) -> dict[str, Any]:
    """The collections the servers logged after ``since`` (their log's size then)."""
    pauses: list[tuple[int, int]] = []
    with contextlib.suppress(OSError), log.open("rb") as out:
        out.seek(since)
        pauses = [(int(g), int(ms)) for g, ms in COLLECTION_LINE.findall(out.read())]
    return {
        "at_least_ms": COLLECTION_LOGGED_MS,
        "n": len(pauses),
        "full": sum(1 for generation, _ in pauses if generation == 2),
        "max_ms": max((ms for _, ms in pauses), default=None),
        "total_ms": sum(ms for _, ms in pauses),
    }
