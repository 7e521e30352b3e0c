"""``--scaled N``: N daphne processes and the deadline worker on PostgreSQL and Redis."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx

from bench.load.server import APPLICATION, ROOT, log_tail, server_env
from domino_site import scaled


class ScaledServers:
    """N daphne processes and the deadline worker on PostgreSQL and Redis, started by
    domino_site.scaled as ``make serve-scaled`` starts them (``--scaled N``)."""

    DATABASE = "domino_bench"
    DATABASE_URL = f"postgres://postgres@127.0.0.1:5432/{DATABASE}"
    REDIS_DB = 11
    REDIS_URL = f"redis://127.0.0.1:6379/{REDIS_DB}"

    def __init__(self, processes: int, *, cpu: str | None) -> None:
        self.processes, self.cpu = processes, cpu
        self.folder = Path(tempfile.mkdtemp(prefix="domino-load-scaled-"))
        self.port = scaled.free_ports(processes)
        self.urls = [f"http://127.0.0.1:{self.port + n}" for n in range(processes)]
        self.url = self.urls[0]
        self.children: list[subprocess.Popen[bytes]] = []
        self.names = [f"daphne:{self.port + n}" for n in range(processes)] + ["worker"]
        self.log = self.folder / "servers.log"

    def _reset_stores(self) -> None:
        """A fresh database and an empty Redis database for each run."""
        psql = ["psql", "-h", "127.0.0.1", "-U", "postgres", "-q", "-v", "ON_ERROR_STOP=1"]
        quiet = {**os.environ, "PGOPTIONS": "-c client_min_messages=warning"}  # no NOTICE
        for sql in (
            f"DROP DATABASE IF EXISTS {self.DATABASE} WITH (FORCE)",
            f"CREATE DATABASE {self.DATABASE}",
        ):
            subprocess.run([*psql, "-c", sql], check=True, timeout=60, env=quiet)
        redis = ["redis-cli", "-h", "127.0.0.1", "-n", str(self.REDIS_DB), "flushdb"]
        out = subprocess.run(redis, check=True, timeout=60, capture_output=True, text=True)
        if out.stdout.strip() != "OK":
            raise SystemExit(f"redis-cli flushdb: {out.stdout.strip()} {out.stderr.strip()}")

    @contextlib.contextmanager
    def _output_to_log(self) -> Iterator[None]:
        """The children started meanwhile write to the log (domino_site.scaled lets them
        inherit this process's standard output and error)."""
        sys.stdout.flush()
        sys.stderr.flush()
        saved = os.dup(1), os.dup(2)
        with self.log.open("ab") as log:
            os.dup2(log.fileno(), 1)
            os.dup2(log.fileno(), 2)
        try:
            yield
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            for fd, copy in zip((1, 2), saved, strict=True):
                os.dup2(copy, fd)
                os.close(copy)

    def start(self) -> None:
        self._reset_stores()
        env = server_env(self.folder, ROOT, self.DATABASE_URL)
        env["REDIS_URL"] = self.REDIS_URL
        env = scaled.scaled_env(env)  # the worker runs the clock, as its own process
        with self._output_to_log():
            scaled.manage(env, "migrate", "--noinput")
            scaled.manage(env, "collectstatic", "--noinput", "-v", "0")
            # Children inherit the affinity: all of them on the server's core, from birth
            # (taskset -c as for the one daphne).
            mine = os.sched_getaffinity(0)
            if self.cpu is not None:
                os.sched_setaffinity(0, cores(self.cpu))
            try:
                self.children = scaled.start(
                    env,
                    processes=self.processes,
                    port=self.port,
                    host="127.0.0.1",
                    application=APPLICATION,
                )
            finally:
                os.sched_setaffinity(0, mine)
        limit = 60 + 30 * self.processes  # they all start on one core
        deadline = time.monotonic() + limit
        waiting = list(self.urls)
        while waiting and time.monotonic() < deadline:
            for child, name in zip(self.children, self.names, strict=True):
                if child.poll() is not None:
                    raise SystemExit(f"{name} stopped at start:\n{self.log_tail()}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(waiting[0] + "/bench/bare", timeout=2).status_code == 200:
                    waiting.pop(0)
                    continue
            time.sleep(0.3)
        if waiting:
            raise SystemExit(f"{waiting[0]} did not answer in {limit} s:\n{self.log_tail()}")

    async def connections(self) -> int | None:
        """The database's PostgreSQL connections now (None if psql could not say)."""
        sql = f"SELECT count(*) FROM pg_stat_activity WHERE datname = '{self.DATABASE}'"
        psql = await asyncio.create_subprocess_exec(
            *("psql", "-h", "127.0.0.1", "-U", "postgres", "-Atc", sql),
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.DEVNULL,
        )
        out, _ = await psql.communicate()
        with contextlib.suppress(ValueError):
            return int(out.decode().strip()) if psql.returncode == 0 else None
        return None

    @property
    def pid(self) -> int | None:
        return self.children[0].pid if self.children else None

    @property
    def pids(self) -> dict[str, int]:
        return {name: child.pid for name, child in zip(self.names, self.children, strict=True)}

    @property
    def proc(self) -> subprocess.Popen[bytes] | None:
        """The first process that stopped (None while all run)."""
        return next((c for c in self.children if c.poll() is not None), None)

    def log_tail(self, lines: int = 30) -> str:
        return log_tail(self.log, lines)

    def stop(self) -> None:
        if self.children:
            scaled.stop(self.children)  # SIGTERM, then SIGKILL after 10 s
            for child in self.children:  # gone before this returns
                with contextlib.suppress(subprocess.TimeoutExpired):
                    child.wait(5)
            killed = [
                name
                for name, child in zip(self.names, self.children, strict=True)
                if child.returncode == -signal.SIGKILL
            ]
            if killed:
                print(f"killed (no stop on SIGTERM in 10 s): {', '.join(killed)}", file=sys.stderr)
        with contextlib.suppress(OSError):
            if "Traceback" in self.log.read_text(errors="replace"):  # keep it, to read
                kept = self.folder.with_suffix(".log")
                shutil.copy(self.log, kept)
                print(f"the server processes logged errors: {kept}", file=sys.stderr)
        shutil.rmtree(self.folder, ignore_errors=True)


def cores(spec: str) -> set[int]:
    """``"0"``, ``"0,1"`` or ``"0-1"`` (as taskset -c takes them) as a set of cores."""
    found: set[int] = set()
    for part in str(spec).split(","):
        first, _, last = part.partition("-")
        found.update(range(int(first), int(last or first) + 1))
    return found
