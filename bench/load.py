"""Load: real players on four-player friends' tables against one daphne process.

Starts daphne on the embedded default (a fresh SQLite file in a temporary folder,
in-memory channel layer, the game clock on, debug off) pinned to one core, and
plays from this process, pinned to the other core, as real clients: guests
create friends' tables and sit down over HTTP through the site's own forms,
every seat keeps the table's websocket open, reads its legal moves from its own
fragments (the buttons' ``hx-vals``) and sends them as the browser would; each
table acts once every ``--interval`` seconds (a move, or "next hand" when a hand
is over); finished matches are restarted with the rematch button.  Before the
measured window every table plays a random number of quick moves, so the tables
are spread across their hands (late-hand frames are the largest).

In the window it measures, for each action, the time until each of the OTHER
seats receives a frame with a higher version; the round trip of a bare echo
websocket on the same server at the same rate; page loads (home, the online
lobby, a table page, a bare Django view); the server's CPU and memory.

    .venv/bin/python bench/load.py --tables 100            # one run
    .venv/bin/python bench/load.py --ramp                  # 10, 25, 50 … until p99 > 150 ms
    .venv/bin/python bench/load.py --tables 50 --json bench/results/t50.json
    .venv/bin/python bench/load.py --url http://127.0.0.1:8000 --server-pid 1234
    .venv/bin/python bench/load.py --scaled 4 --tables 50  # 4 daphne + worker, PostgreSQL, Redis

``--scaled N`` starts the site as ``make serve-scaled`` does (domino_site/scaled.py):
N daphne processes and the deadline worker, all on the one server core, sharing the
PostgreSQL database ``domino_bench`` (dropped and created again) and Redis database 11
(flushed).  A table's four seats talk to the processes round-robin (seat i of table t
to process (t + i) mod N, its pages and its websocket), so every move reaches the other
players through Redis; with ``--by-table`` a table's seats share process t mod N, as a
proxy that hashes on the table's address would place them.  CPU and memory are the
sums over the processes.

Traffic goes to 127.0.0.1 only; every run is bounded (``--max-seconds``) and
stops every process it started.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import html
import json
import os
import random
import re
import secrets
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
from collections.abc import Callable, Coroutine, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, WebSocketException
from websockets.typing import Origin

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
RAMP_STEPS = (10, 25, 50, 100, 150, 200, 250, 300, 400, 500)
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
TRACE = os.environ.get("LOADBENCH_TRACE") == "1"  # print every command sent

VERSION_RE = re.compile(r'data-version="(\d+)"')  # every table frame carries its version
SECTION_RE = re.compile(r'<section id="([^"]+)"')
HX_VALS_RE = re.compile(r"hx-vals='([^']*)'")
FLASH_RE = re.compile(r'<p class="flash (\w+)">(.*?)</p>', re.S)
STATUS_CLASS_RE = re.compile(r'<section id="status" class="([^"]*)"')
CSRF_RE = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
SIT_VERSION_RE = re.compile(r'name="version" value="(\d+)"')
TABLE_PATH_RE = re.compile(r"/t/([^/]+)/$")


# ---------------------------------------------------------------- figures


def percentile(values: list[float], q: float) -> float | None:
    """Nearest-rank percentile (q in 0..100) of ``values``; None when there are none."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, min(len(ordered), round(q / 100 * len(ordered) + 0.5)))
    return ordered[rank - 1]


def spread(values: list[float]) -> dict[str, Any]:
    """p50/p90/p99/max in milliseconds, and the count."""
    return {
        "n": len(values),
        **{
            name: None if (v := percentile(values, q)) is None else round(v * 1000, 2)
            for name, q in (("p50", 50), ("p90", 90), ("p99", 99), ("max", 100))
        },
    }


def ms(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value:.1f} ms" if value < 10 else f"{value:.0f} ms"


def proc_cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds of ``pid`` so far (from /proc)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def proc_system_seconds(pid: int) -> float | None:
    """System (kernel) CPU seconds of ``pid`` so far: its syscalls' share of the CPU."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return int(text[text.rindex(")") + 2 :].split()[12]) / CLOCK_TICKS


def proc_runqueue_seconds(pid: int) -> float | None:
    """Seconds the threads of ``pid`` have waited for a CPU while ready to run: on a
    shared machine, the time the server was held up by its neighbours."""
    total = 0
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            with contextlib.suppress(OSError, IndexError, ValueError):
                total += int((task / "schedstat").read_text().split()[1])
    except OSError:
        return None
    return total / 1e9


def proc_memory_mb(pid: int) -> dict[str, float]:
    """Resident memory now and at its peak (VmRSS, VmHWM) in MB."""
    out: dict[str, float] = {}
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            name, _, value = line.partition(":")
            if name in ("VmRSS", "VmHWM"):
                out[name] = round(int(value.split()[0]) / 1024, 1)
    return out


# ---------------------------------------------------------------- the server


class Server:
    """One daphne process on the embedded default, in a temporary folder."""

    def __init__(
        self, *, cpu: str | None, rev: str | None = None, site: Path | None = None
    ) -> None:
        self.cpu = cpu
        self.folder = Path(tempfile.mkdtemp(prefix="domino-load-"))
        self.site = self._export(rev) if rev else (site or ROOT).resolve()
        self.port = _free_ports()
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
        command = [*daphne, "-b", "127.0.0.1", "-p", str(self.port), "domino_site.asgi:application"]
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
        with contextlib.suppress(OSError):
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        return ""

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
    """The server's environment: debug off, a fresh secret key, plain http."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(
        DATABASE_URL=database_url,
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
        DJANGO_HTTPS="0",  # plain http on 127.0.0.1, as the browser tests do
        DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost",
        GAME_CLOCK_ENABLED="1",
        DOMINO_BENCH_ROUTES="1",  # /ws/echo/ and /bench/bare (domino_site/echo.py)
        DJANGO_STATIC_ROOT=str(folder / "static"),
        PYTHONPATH=str(site),
        PYTHONUNBUFFERED="1",
        DOMINO_SLOW_COLLECTION_MS=str(COLLECTION_LOGGED_MS),  # the collections to count
    )
    return env


#: A server logs each garbage collection that held its process this long or longer
#: (domino_site/serve.py): every socket of the process waits through one.
COLLECTION_LOGGED_MS = 20
COLLECTION_LINE = re.compile(rb"slow garbage collection: generation (\d), (\d+) ms")


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
        self.port = _free_ports(processes)
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
    def _output_to_log(self) -> Any:
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
        if str(ROOT) not in sys.path:
            sys.path.insert(0, str(ROOT))
        from domino_site import scaled

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
                    env, processes=self.processes, port=self.port, host="127.0.0.1"
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
        with contextlib.suppress(OSError):
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        return ""

    def stop(self) -> None:
        if self.children:
            from domino_site import scaled

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


def _free_ports(count: int = 1) -> int:
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from domino_site.scaled import free_ports

    return free_ports(count)


# ---------------------------------------------------------------- what is recorded


@dataclass
class Action:
    """A command one seat sent; ``waiting``: the other seats yet to see a newer version."""

    table: int
    kind: str
    version: int
    t0: float
    waiting: set[int]
    latencies: list[float] = field(default_factory=list)
    refused: str = ""  # "stale" or "error" when the server said no
    process: int = 0  # which server process the command went to (--scaled)
    crossed: int = 0  # updates seen by seats on other processes


@dataclass
class Record:
    actions: list[Action] = field(default_factory=list)
    echoes: list[tuple[float, float]] = field(default_factory=list)  # (sent at, round trip)
    frames: list[tuple[float, int]] = field(default_factory=list)  # (received at, bytes)
    pages: list[tuple[float, str, float]] = field(default_factory=list)  # (at, page, seconds)
    errors: list[tuple[float, str, str]] = field(default_factory=list)  # (at, kind, detail)
    lag: list[tuple[float, float]] = field(default_factory=list)  # this process's loop lag
    rematches: list[float] = field(default_factory=list)  # when a finished match restarted

    def error(self, kind: str, detail: str) -> None:
        self.errors.append((time.perf_counter(), kind, detail[:200]))


# ---------------------------------------------------------------- a player


def commands_in(fragment: str) -> list[dict[str, Any]]:
    """The commands the buttons of ``fragment`` would send (their ``hx-vals``)."""
    out = []
    for raw in HX_VALS_RE.findall(fragment):
        with contextlib.suppress(ValueError):
            value = json.loads(html.unescape(raw))
            if isinstance(value, dict):
                out.append(value)
    return out


def region(frame: str, name: str) -> str:
    start = frame.find(f'<section id="{name}"')
    if start < 0:
        return ""
    end = frame.find("</section>", start)
    return frame[start : end if end > 0 else len(frame)]


def tag_with_id(frame: str, element_id: str) -> str:
    """The opening tag of the element with this id ('' if none)."""
    at = frame.find(f'id="{element_id}"')
    if at < 0:
        return ""
    return frame[frame.rfind("<", 0, at) : frame.find(">", at) + 1]


def cores(spec: str) -> set[int]:
    """``"0"``, ``"0,1"`` or ``"0-1"`` (as taskset -c takes them) as a set of cores."""
    found: set[int] = set()
    for part in str(spec).split(","):
        first, _, last = part.partition("-")
        found.update(range(int(first), int(last or first) + 1))
    return found


class Seat:
    """One player: a browser's cookie jar and the table's websocket."""

    def __init__(self, bench: Bench, table: Table, index: int) -> None:
        self.bench, self.table, self.index = bench, table, index
        # --scaled: the four seats of a table on the processes round-robin, or
        # (--by-table) all on one, as a proxy hashing on the table's address puts them.
        spread = 0 if bench.args.by_table else index
        self.process = (table.number + spread) % len(bench.urls)
        self.url = bench.urls[self.process]
        self.http = httpx.AsyncClient(
            base_url=self.url, follow_redirects=True, timeout=bench.args.timeout * 3
        )
        self.ws: ClientConnection | None = None
        self.reader: asyncio.Task[None] | None = None
        self.version = -1
        self.regions: dict[str, str] = {}  # the page's regions as the frames left them
        self.closing = False
        self.broken = False
        self.last_action: Action | None = None

    @property
    def table_url(self) -> str:
        return f"{self.url}/t/{self.table.code}/"

    def cookie_header(self) -> str:
        return "; ".join(f"{c.name}={c.value}" for c in self.http.cookies.jar)

    async def page(self, path: str) -> str:
        response = await self.http.get(path)
        if response.status_code != 200:
            self.bench.record.error("http", f"GET {path}: {response.status_code}")
        return response.text

    async def open_ws(self, code: str) -> None:
        await self.close_ws()
        self.version, self.regions, self.broken, self.closing = -1, {}, False, False
        self.ws = await connect(
            "ws" + self.url.removeprefix("http") + f"/ws/table/{code}/",
            origin=Origin(self.url),
            additional_headers={"Cookie": self.cookie_header()},
            ping_interval=None,  # a browser sends no pings; a late pong is no error here
            max_size=2**22,
            open_timeout=self.bench.args.timeout * 3,
        )
        self.reader = asyncio.create_task(self.read(self.ws))

    async def close_ws(self) -> None:
        if self.ws is not None:
            self.closing = True
            with contextlib.suppress(WebSocketException, OSError):
                await self.ws.close()
            if self.reader is not None:
                with contextlib.suppress(asyncio.CancelledError):
                    await self.reader
            self.ws = self.reader = None

    async def read(self, ws: ClientConnection) -> None:
        try:
            async for message in ws:
                if isinstance(message, str):
                    self.table.on_frame(self, message, time.perf_counter())
        except ConnectionClosed as closed:
            if not (self.closing or self.bench.stopping):
                self.bench.record.error("closed socket", f"table {self.table.number}: {closed}")
        if not (self.closing or self.bench.stopping):
            self.broken = True
            self.table.changed.set()

    async def send(self, command: dict[str, Any], kind: str) -> Action | None:
        if self.ws is None:
            return None
        others = {s.index for s in self.table.seats if s is not self and s.ws is not None}
        action = Action(
            self.table.number,
            kind,
            int(command.get("version", -1)),
            time.perf_counter(),
            others,
            process=self.process,
        )
        # What htmx's ws extension sends: the button's values and its headers.
        frame = {**command, "HEADERS": {"HX-Request": "true", "HX-Current-URL": self.table_url}}
        self.last_action = action
        if TRACE:
            print(f"  trace table {self.table.number} seat {self.index}: {command}", flush=True)
        self.table.pending.append(action)
        self.bench.record.actions.append(action)
        try:
            await self.ws.send(json.dumps(frame))
        except ConnectionClosed:
            self.table.pending.remove(action)
            action.refused = "closed"
            return None
        return action

    # What this seat's own latest frame offers.
    def playing(self) -> bool:
        found = STATUS_CLASS_RE.search(self.regions.get("status", ""))
        return found is not None and "hidden" not in found.group(1).split()

    def moves(self) -> list[dict[str, Any]]:
        hand = self.regions.get("hand", "")
        return [c for c in commands_in(hand) if c.get("action") == "move"]

    def command(self, action: str, within: str | None = None) -> dict[str, Any] | None:
        fragment = self.regions.get(within, "") if within else "".join(self.regions.values())
        for c in commands_in(fragment):
            if c.get("action") == action and "seat" not in c:
                return c
        return None

    def can_start(self) -> dict[str, Any] | None:
        tag = tag_with_id(self.regions.get("lobby", ""), "start-game")
        if not tag or "disabled" in tag:
            return None
        return self.command("start", within="lobby")


# ---------------------------------------------------------------- a table


class Table:
    """Four seats playing one friends' table after another (rematches)."""

    def __init__(self, bench: Bench, number: int) -> None:
        self.bench, self.number = bench, number
        self.seats = [Seat(bench, self, i) for i in range(4)]
        self.code = ""
        self.pending: list[Action] = []
        self.changed = asyncio.Event()
        self.max_version = -1
        self.warmup_left = 0
        self.ready = False
        self.ready_for_next: set[int] = set()  # seats that said "next hand" already
        self.gate = asyncio.Event()

    def on_frame(self, seat: Seat, message: str, now: float) -> None:
        record = self.bench.record
        record.frames.append((now, len(message.encode())))
        found = VERSION_RE.search(message)
        if found is None:  # a message alone: a refusal, or a note
            flash = FLASH_RE.search(message)
            if flash:
                self._refused(seat, flash.group(1), html.unescape(flash.group(2)))
            return
        version = int(found.group(1))
        if version >= seat.version:
            seat.version = version
            for name in SECTION_RE.findall(message):  # a frame may bring only some regions
                seat.regions[name] = region(message, name)
        self.max_version = max(self.max_version, version)
        for action in list(self.pending):
            if seat.index in action.waiting and version > action.version:
                action.waiting.discard(seat.index)
                action.latencies.append(now - action.t0)
                if seat.process != action.process:
                    action.crossed += 1
                if not action.waiting:
                    self.pending.remove(action)
        self.changed.set()

    def _refused(self, seat: Seat, kind: str, text: str) -> None:
        action = seat.last_action
        if action is not None and action in self.pending:
            self.pending.remove(action)
            # Stale: the table moved on between the frame and the click (a legitimate race).
            action.refused = "stale" if kind == "info" else "error"
            if action.kind == "next":
                self.ready_for_next.discard(seat.index)  # it may say so again
        if kind != "info":
            self.bench.record.error("refused", f"table {self.number} {seat.index}: {text}")

    async def until(self, test: Any, timeout: float) -> bool:
        deadline = time.perf_counter() + timeout
        while True:
            self.changed.clear()
            if test():
                return True
            left = deadline - time.perf_counter()
            if left <= 0 or self.bench.stopping:
                return False
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), left)

    # -- sitting down

    async def create(self) -> None:
        """The host creates a friends' table; three visitors sit through its link."""
        host = self.seats[0]
        page = await host.page("/new/?mode=friends")
        token = CSRF_RE.search(page)
        form = {
            "csrfmiddlewaretoken": token.group(1) if token else "",
            "mode": "friends",
            "preset": "domino",
            "seating": "4p",
            "hand_size": "7",
            "draw": "yes",
            "target": str(self.bench.args.target),
            "bot_level": "medium",
            "turn_clock": "",
        }
        response = await host.http.post("/new/", data=form, headers={"Referer": host.url + "/new/"})
        found = TABLE_PATH_RE.search(response.url.path)
        if response.status_code != 200 or not found:
            raise RuntimeError(f"new table refused: {response.status_code} {response.url}")
        self.code = found.group(1)
        await host.open_ws(self.code)
        for guest in self.seats[1:]:
            await self._sit(guest)
            await guest.open_ws(self.code)
        await self.lobby()

    async def _sit(self, guest: Seat) -> None:
        for _ in range(5):
            page = await guest.page(f"/t/{self.code}/")
            token, version = CSRF_RE.search(page), SIT_VERSION_RE.search(page)
            if not (token and version):
                raise RuntimeError(f"table {self.code}: no seat offered to a visitor")
            response = await guest.http.post(
                f"/t/{self.code}/sit/",
                data={"csrfmiddlewaretoken": token.group(1), "version": version.group(1)},
                headers={"Referer": guest.table_url},
            )
            if '"action": "leave"' in html.unescape(response.text):  # seated: may leave
                return
        raise RuntimeError(f"table {self.code}: a visitor could not sit")

    async def lobby(self) -> None:
        """Until the game is on: take free seats over the socket, the host starts."""

        def everyone_plays() -> bool:
            return all(s.playing() for s in self.seats)

        deadline = time.perf_counter() + self.bench.args.timeout * 3
        while not self.bench.stopping and time.perf_counter() < deadline:
            if await self.until(everyone_plays, 0.05):
                self.ready = True
                return
            if self.pending:
                await self.until(lambda: not self.pending, 2)
                continue
            for seat in self.seats:
                if not seat.regions or seat.playing() or seat.version < self.max_version:
                    continue
                join = seat.command("join", within="lobby")
                start = seat.can_start()
                if join is not None:
                    await seat.send(join, "join")
                    break
                if start is not None:
                    await seat.send(start, "start")
                    break
            else:
                await self.until(lambda: False, 0.2)
        raise RuntimeError(f"table {self.code}: the game did not start")

    async def rematch(self) -> None:
        """The match is over: each player presses "rematch" (or follows its link)."""
        old = self.code
        for seat in self.seats:
            tag = tag_with_id(seat.regions.get("status", ""), "rematch")
            post = re.search(r'hx-post="([^"]+)"', tag)
            link = re.search(r'href="([^"]+)"', tag)
            if post:
                response = await seat.http.post(
                    post.group(1),
                    headers={
                        "HX-Request": "true",
                        "X-CSRFToken": seat.http.cookies.get("csrftoken") or "",
                        "Referer": seat.table_url,
                    },
                )
                target = response.headers.get("HX-Redirect") or str(response.url.path)
            elif link:
                target = link.group(1)
            else:
                await self.until(lambda: False, 0.5)
                return  # nothing offered yet: the next tick looks again
            found = TABLE_PATH_RE.search(urllib.parse.urlsplit(target).path)
            if not found:
                raise RuntimeError(f"table {old}: rematch went to {target!r}")
            self.code = found.group(1)
            await seat.page(f"/t/{self.code}/")
        for seat in self.seats:
            await seat.open_ws(self.code)
        self.pending.clear()
        self.max_version = -1
        await self.lobby()
        self.bench.record.rematches.append(time.perf_counter())

    # -- playing

    def next_action(self) -> tuple[Seat, dict[str, Any], str] | None:
        for seat in self.seats:
            if seat.version < self.max_version:
                continue  # this screen is behind: its buttons could be stale
            moves = seat.moves()
            if moves:
                self.ready_for_next.clear()  # a hand is on: "next hand" is for its end
                return seat, random.choice(moves), "move"
        for seat in self.seats:
            if seat.version == self.max_version and seat.index not in self.ready_for_next:
                ready = seat.command("next", within="status")
                if ready is not None:
                    self.ready_for_next.add(seat.index)
                    return seat, ready, "next"
        return None

    def match_over(self) -> bool:
        return all(s.version == self.max_version for s in self.seats) and bool(
            tag_with_id(self.seats[0].regions.get("status", ""), "rematch")
        )

    async def act(self) -> bool:
        """One action for this table if one is due; False when there was nothing to do."""
        for seat in self.seats:
            if seat.broken:  # the browser reconnects, and gets the whole view again
                await seat.open_ws(self.code)
        if self.pending and time.perf_counter() - self.pending[0].t0 < self.bench.args.timeout:
            return False  # a player waits to see the last move land (a lost one: not for ever)
        choice = self.next_action()
        if choice is not None:
            seat, command, kind = choice
            await seat.send(command, kind)
            return True
        if self.match_over():
            if self.pending:
                await self.until(lambda: not self.pending, self.bench.args.timeout)
            await self.rematch()
            return True
        return False

    async def play(self) -> None:
        args = self.bench.args
        await self.gate.wait()  # every new table seated: warm up together
        # Quick moves first, so that the tables are spread across their hands.
        while self.warmup_left > 0 and self.bench.warming and not self.bench.stopping:
            await self.until(lambda: not self.pending, args.timeout)
            if await self.act():
                self.warmup_left -= 1
            else:
                await self.until(lambda: False, 0.1)
        due = time.perf_counter() + random.uniform(0, args.interval)
        while not self.bench.stopping:
            delay = due - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            if self.bench.stopping:
                return
            # Act as soon as the screens allow (a player waits for the last move to show).
            acted = False
            give_up = time.perf_counter() + args.interval
            while not acted and not self.bench.stopping and time.perf_counter() < give_up:
                acted = await self.act()
                if not acted:
                    await self.until(lambda: False, 0.05)
            due += args.interval
            due = max(due, time.perf_counter())  # no bursts to catch up

    async def run(self, semaphore: asyncio.Semaphore) -> None:
        try:
            async with semaphore:
                await self.create()
            await self.play()
        except Exception as error:  # a bench that stops on one table measures nothing
            if not self.bench.stopping:
                self.bench.record.error("table", f"table {self.number}: {error!r}")
                self.bench.failed_tables += 1
                print(f"  table {self.number} gave up: {error!r}", file=sys.stderr, flush=True)

    async def close(self) -> None:
        for seat in self.seats:
            await seat.close_ws()
            await seat.http.aclose()


# ---------------------------------------------------------------- the run


class Bench:
    def __init__(
        self,
        args: argparse.Namespace,
        url: str,
        server_pid: int | None,
        servers: ScaledServers | None = None,
        log: Path | None = None,
    ) -> None:
        self.args = args
        self.url = url.rstrip("/")
        self.ws_url = "ws" + self.url.removeprefix("http")
        self.server_pid = server_pid
        self.scaled = servers
        self.log = log  # the servers' own output (their collections)
        # Every server process (--scaled: the daphne ones and the worker), by name.
        self.urls = servers.urls if servers else [self.url]
        if servers:
            self.server_pids = servers.pids
        else:
            self.server_pids = {"daphne": server_pid} if server_pid else {}
        self.record = Record()
        self.tables: list[Table] = []
        self.tasks: list[asyncio.Task[None]] = []
        self.stopping = False
        self.warming = True
        self.failed_tables = 0
        self.echo_target = 0
        self.setup_gate = asyncio.Semaphore(args.setup_concurrency)

    async def grow(self, count: int) -> None:
        """Sit ``count`` tables in all, then warm the new ones up with quick moves, then
        settle at human pace.  Sitting and warming are separate phases, each bounded."""
        args = self.args
        new = [Table(self, n) for n in range(len(self.tables), count)]
        gate = asyncio.Event()  # the new tables wait for each other before warming up
        for table in new:
            table.warmup_left = random.randint(0, args.warmup_moves)
            table.gate = gate
        self.tables += new
        self.warming = True
        self.tasks += [asyncio.create_task(t.run(self.setup_gate)) for t in new]
        self.echo_target = count if args.echo_sockets is None else args.echo_sockets
        started_at = time.perf_counter()

        def seated() -> int:
            return sum(t.ready for t in new)

        def to_warm() -> int:
            return sum(max(0, t.warmup_left) for t in new if t.ready)

        def all_seated() -> bool:
            return seated() + self.failed_tables >= len(new)

        def all_warm() -> bool:
            return to_warm() == 0

        phases: list[tuple[str, Callable[[], bool], float]] = [
            ("sitting", all_seated, args.setup_timeout),
            ("warming up", all_warm, args.warmup),
        ]
        for phase, done, limit in phases:
            deadline = time.perf_counter() + limit
            report_at = time.perf_counter() + 10
            while not done() and time.perf_counter() < deadline and not self.stopping:
                await asyncio.sleep(0.25)
                if time.perf_counter() >= report_at:
                    report_at += 10
                    self.say(
                        f"  … {phase}: {seated()} of {len(new)} new tables seated, "
                        f"{to_warm()} warm-up moves to go"
                    )
            gate.set()
        self.warming = False
        self.say(
            f"  {sum(t.ready for t in self.tables)} tables playing "
            f"({time.perf_counter() - started_at:.0f} s to sit and warm up)"
        )
        await asyncio.sleep(args.settle)

    async def echo(self, number: int) -> None:
        """A bare echo socket on the same server, at the tables' rate (reconnects)."""
        url = self.urls[number % len(self.urls)]  # --scaled: the processes round-robin
        while not self.stopping:
            try:
                async with connect(
                    "ws" + url.removeprefix("http") + "/ws/echo/",
                    origin=Origin(url),
                    ping_interval=None,
                ) as ws:
                    await self._echo_on(ws, number)
            except (WebSocketException, OSError) as error:
                if not self.stopping:
                    self.record.error("echo", repr(error))
                    await asyncio.sleep(1)

    async def _echo_on(self, ws: ClientConnection, number: int) -> None:
        due = time.perf_counter() + random.uniform(0, self.args.interval)
        while not self.stopping:
            if number >= self.echo_target:
                await asyncio.sleep(0.5)
                due = time.perf_counter() + random.uniform(0, self.args.interval)
                continue
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
            sent = time.perf_counter()
            payload = f"echo {number} {sent}"
            await ws.send(payload)
            try:  # a slow answer is a measurement too; one to an earlier ping is skipped
                while await asyncio.wait_for(ws.recv(), 60) != payload:
                    pass
            except TimeoutError:
                self.record.error("echo", "no echo in 60 s")
            else:
                self.record.echoes.append((sent, time.perf_counter() - sent))
            due = max(due + self.args.interval, time.perf_counter())

    async def pages(self) -> None:
        """Page loads under the load: home, the online lobby, a table page, bare views."""
        visitors = [httpx.AsyncClient(base_url=u, timeout=self.args.timeout * 3) for u in self.urls]
        turn = 0
        try:
            while not self.stopping:
                visitor = visitors[turn % len(visitors)]  # --scaled: the processes in turn
                turn += 1
                playing = [t for t in self.tables if t.ready]
                if not playing:
                    await asyncio.sleep(0.5)
                    continue
                table = random.choice(playing)
                player = table.seats[random.randrange(4)].http  # a seated player's browser
                for name, client, path in (
                    ("bare", visitor, "/bench/bare"),
                    ("healthz", visitor, "/healthz"),
                    ("home", player, "/"),
                    ("lobby", player, "/online/"),
                    ("table", player, f"/t/{table.code}/"),
                ):
                    if self.stopping:
                        return
                    sent = time.perf_counter()
                    try:
                        response = await client.get(path)
                    except httpx.HTTPError as error:
                        self.record.error("http", f"GET {name}: {error!r}")
                        continue
                    if response.status_code == 404 and name == "lobby":
                        continue  # no online lobby on this version of the site
                    if response.status_code != 200:
                        self.record.error("http", f"GET {name}: {response.status_code}")
                        continue
                    self.record.pages.append((sent, name, time.perf_counter() - sent))
                    await asyncio.sleep(self.args.page_pause)
        finally:
            for visitor in visitors:
                await visitor.aclose()

    async def watch_connections(self, out: list[int | None]) -> None:
        """--scaled: the PostgreSQL connections every 2 s (None: psql was refused)."""
        assert self.scaled is not None
        while True:
            out.append(await self.scaled.connections())
            await asyncio.sleep(2)

    async def watch_lag(self) -> None:
        """How late this process's own loop runs (if it is, the figures are the client's)."""
        while not self.stopping:
            before = time.perf_counter()
            await asyncio.sleep(0.05)
            self.record.lag.append((before, time.perf_counter() - before - 0.05))

    def say(self, text: str) -> None:
        if not self.args.quiet:
            print(text, flush=True)

    async def profile(self, seconds: float) -> None:
        """py-spy on the server through the window: a flame graph for the first half,
        raw stacks (for bench/profile_top.py) for the second."""
        prefix = self.args.profile
        prefix.parent.mkdir(parents=True, exist_ok=True)
        py_spy = str(Path(sys.executable).with_name("py-spy"))
        half = max(1, int(seconds / 2))
        for suffix, extra in ((".svg", []), (".txt", ["--format", "raw"])):
            # --nonblocking: sampling without pausing the server (pausing it 100 times a
            # second saturated a process that keeps up unprofiled)
            command = [
                py_spy,
                "record",
                "--nonblocking",
                "--pid",
                str(self.server_pid),
                "-d",
                str(half),
                *(["--gil"] if self.args.profile_gil else []),
            ]
            out = prefix.with_name(prefix.name + suffix)
            spy = await asyncio.create_subprocess_exec(
                *command,
                *extra,
                "-o",
                str(out),
                stdout=asyncio.subprocess.DEVNULL,
                stderr=asyncio.subprocess.PIPE,
            )
            _, err = await spy.communicate()
            if spy.returncode:
                self.say(f"  py-spy failed: {err.decode(errors='replace')[-300:]}")
            else:
                self.say(f"  profile: {out}")

    async def window(self, seconds: float) -> dict[str, Any]:
        """Measure for ``seconds``; then wait for the late updates and sum up."""
        pids = self.server_pids
        each0 = {name: proc_cpu_seconds(pid) for name, pid in pids.items()}
        cpu0 = _total(each0.values())
        wait0 = _total(proc_runqueue_seconds(pid) for pid in pids.values())
        kernel0 = _total(proc_system_seconds(pid) for pid in pids.values())
        me0 = proc_cpu_seconds(os.getpid())
        logged0 = log_size(self.log) if self.log else 0
        start = time.perf_counter()
        connections: list[int | None] = []
        if self.scaled:
            watch = asyncio.create_task(self.watch_connections(connections))
        if self.args.profile and self.server_pid:
            await self.profile(seconds)
        else:
            await asyncio.sleep(seconds)
        end = time.perf_counter()
        if self.scaled:
            watch.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await watch
        each1 = {name: proc_cpu_seconds(pid) for name, pid in pids.items()}
        cpu1 = _total(each1.values())
        wait1 = _total(proc_runqueue_seconds(pid) for pid in pids.values())
        kernel1 = _total(proc_system_seconds(pid) for pid in pids.values())
        me1 = proc_cpu_seconds(os.getpid())
        load = os.getloadavg()[0]
        each_memory = {name: proc_memory_mb(pid) for name, pid in pids.items()}
        memory = {
            key: round(sum(m[key] for m in each_memory.values()), 1)
            for key in ("VmRSS", "VmHWM")
            if each_memory and all(key in m for m in each_memory.values())
        }
        # Updates still on their way get the timeout, or twice the slowest so far (a
        # saturated server is slow, not lossy), up to a minute; later ones count as lost.
        slowest = max(
            (x for a in self.record.actions if a.t0 >= start for x in a.latencies), default=0.0
        )
        grace = time.perf_counter() + min(60.0, max(self.args.timeout, 2 * slowest))
        while time.perf_counter() < grace:
            if not any(a.waiting and not a.refused for t in self.tables for a in t.pending):
                break
            await asyncio.sleep(0.1)
        result = self.summary(start, end, cpu0, cpu1, me0, me1, memory)
        if self.log:  # logged by the end of the grace, a collection late in the window too
            result["collections"] = collections_logged(self.log, logged0)
        if wait0 is not None and wait1 is not None:
            result["server_waiting_for_cpu_pct"] = round(100 * (wait1 - wait0) / (end - start), 1)
        if kernel0 is not None and kernel1 is not None:
            result["server_kernel_cpu_pct"] = round(100 * (kernel1 - kernel0) / (end - start), 1)
        result["machine_load"] = round(load, 1)
        if self.scaled:
            span = end - start
            result["server_processes"] = self.scaled.processes
            split: dict[str, dict[str, Any]] = {}
            for number, name in enumerate(pids):
                cpu_a, cpu_b = each0[name], each1[name]
                seats = sum(s.process == number for t in self.tables if t.ready for s in t.seats)
                split[name] = {
                    "cpu_pct": None
                    if cpu_a is None or cpu_b is None
                    else round(100 * (cpu_b - cpu_a) / span, 1),
                    "rss_mb": each_memory[name].get("VmRSS"),
                    "seats": seats if number < self.scaled.processes else None,
                }
            result["server_split"] = split
            paced = [
                a for a in self.record.actions if start <= a.t0 < end and a.kind in ("move", "next")
            ]
            result["crossed_updates"] = sum(a.crossed for a in paced if not a.refused)
            known = [n for n in connections if n is not None]
            result["pg_connections_peak"] = max(known, default=None)
            result["pg_connections_unknown"] = len(connections) - len(known)
        return result

    def summary(
        self,
        start: float,
        end: float,
        cpu0: float | None,
        cpu1: float | None,
        me0: float | None,
        me1: float | None,
        memory: dict[str, float],
    ) -> dict[str, Any]:
        record, args = self.record, self.args
        span = end - start
        inside = [a for a in record.actions if start <= a.t0 < end]
        paced = [a for a in inside if a.kind in ("move", "next")]
        latencies = [x for a in paced if not a.refused for x in a.latencies]
        late = sum(1 for a in paced for x in a.latencies if x > args.timeout)
        lost = sum(len(a.waiting) for a in inside if not a.refused)
        errors = [e for e in record.errors if start <= e[0] < end + args.timeout]
        kinds: dict[str, int] = {}
        for _, kind, _ in errors:
            kinds[kind] = kinds.get(kind, 0) + 1
        frames = [size for at, size in record.frames if start <= at < end]
        echoes = [rtt for at, rtt in record.echoes if start <= at < end]
        pages: dict[str, list[float]] = {}
        for at, name, seconds in record.pages:
            if start <= at < end:
                pages.setdefault(name, []).append(seconds)
        page_medians = {k: round(statistics.median(v) * 1000, 2) for k, v in pages.items()}
        lag = [x for at, x in record.lag if start <= at < end]
        playing = sum(t.ready for t in self.tables)
        result: dict[str, Any] = {
            "tables": len(self.tables),
            "tables_playing": playing,
            "players": 4 * playing,
            "window_s": round(span, 1),
            "moves_per_s": round(len(paced) / span, 2),
            "target_per_s": round(playing / args.interval, 2),
            "actions": {
                k: sum(1 for a in inside if a.kind == k) for k in ("move", "next", "join", "start")
            },
            "rematches": sum(1 for at in record.rematches if start <= at < end),
            "latency_ms": spread(latencies),
            "echo_ms": spread(echoes),
            "echo_sockets": self.echo_target,
            "errors": sum(kinds.values()) + late,
            "error_kinds": {**kinds, "timeouts": late},
            "error_samples": [detail for _, _, detail in errors[:5]],
            "stale": sum(1 for a in inside if a.refused == "stale"),
            "lost_updates": lost,
            "frame_bytes": {
                "n": len(frames),
                "p50": percentile([float(f) for f in frames], 50),
                "max": max(frames, default=None),
                "per_s": round(sum(frames) / span),
            },
            "server_cpu_pct": None
            if cpu0 is None or cpu1 is None
            else round(100 * (cpu1 - cpu0) / span, 1),
            "server_rss_mb": memory.get("VmRSS"),
            "server_peak_rss_mb": memory.get("VmHWM"),
            "client_cpu_pct": None
            if me0 is None or me1 is None
            else round(100 * (me1 - me0) / span, 1),
            "client_loop_lag_ms": spread(lag),
            "pages_median_ms": page_medians,
        }
        p50, echo50 = result["latency_ms"]["p50"], result["echo_ms"]["p50"]
        p99, echo99 = result["latency_ms"]["p99"], result["echo_ms"]["p99"]
        result["ratio_p50"] = round(p50 / echo50, 1) if p50 and echo50 else None
        result["ratio_p99"] = round(p99 / echo99, 1) if p99 and echo99 else None
        return result

    async def stop(self) -> None:
        self.stopping = True
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        await asyncio.gather(*(t.close() for t in self.tables), return_exceptions=True)


def _total(values: Iterable[float | None]) -> float | None:
    """The sum, or None when there is none or one is unknown."""
    listed = list(values)
    known = [v for v in listed if v is not None]
    if not listed or len(known) < len(listed):
        return None
    return sum(known)


# ---------------------------------------------------------------- printing


def report(result: dict[str, Any], args: argparse.Namespace) -> str:
    lat, echo, fb = result["latency_ms"], result["echo_ms"], result["frame_bytes"]
    kinds = ", ".join(f"{k} {v}" for k, v in result["error_kinds"].items() if v) or "none"
    pages = result["pages_median_ms"]
    bare = pages.get("bare")
    page_text = " · ".join(
        f"{name} {ms(value)}"
        + (f" ({value / bare:.1f}x)" if bare and name not in ("bare",) else "")
        for name, value in pages.items()
    )
    lines = [
        f"tables            {result['tables_playing']} playing of {result['tables']} "
        f"({result['players']} players), a move per table every {args.interval:g} s, "
        f"window {result['window_s']:g} s",
        f"moves/s           {result['moves_per_s']:.1f} achieved / "
        f"{result['target_per_s']:.1f} target  (moves {result['actions']['move']}, "
        f"next-hand {result['actions']['next']}, joins {result['actions']['join']}, "
        f"starts {result['actions']['start']}, rematches {result['rematches']})",
        f"move→update       p50 {ms(lat['p50'])}  p90 {ms(lat['p90'])}  p99 {ms(lat['p99'])}  "
        f"max {ms(lat['max'])}  ({lat['n']} viewer updates)",
        f"echo round trip   p50 {ms(echo['p50'])}  p90 {ms(echo['p90'])}  p99 {ms(echo['p99'])}  "
        f"max {ms(echo['max'])}  ({echo['n']} on {result['echo_sockets']} sockets)",
        f"overhead          x{result['ratio_p50']} at p50, x{result['ratio_p99']} at p99 "
        "(move→update / echo)",
        f"errors            {result['errors']} ({kinds}); stale races {result['stale']}",
        f"lost updates      {result['lost_updates']}",
        f"frames            p50 {(fb['p50'] or 0) / 1024:.1f} KB  "
        f"max {(fb['max'] or 0) / 1024:.1f} KB"
        f"  ({fb['n']} frames, {fb['per_s'] / 1e6:.2f} MB/s)",
        f"server            CPU {result['server_cpu_pct']}% of a core "
        f"({result.get('server_kernel_cpu_pct')}% in the kernel), "
        f"RSS {result['server_rss_mb']} MB (peak {result['server_peak_rss_mb']} MB)",
        f"machine           load {result.get('machine_load')}; the server's threads waited "
        f"for a CPU {result.get('server_waiting_for_cpu_pct')}% of the window",
        collections_line(result.get("collections")),
        f"players process   CPU {result['client_cpu_pct']}% of a core, "
        f"loop lag p99 {ms(result['client_loop_lag_ms']['p99'])}",
        f"pages (median)    {page_text or '-'}",
    ]
    if "server_split" in result:
        split = " · ".join(
            f"{name} {v['cpu_pct']}% {v['rss_mb']} MB"
            + (f" ({v['seats']} seats)" if v["seats"] is not None else "")
            for name, v in result["server_split"].items()
        )
        lines.insert(9, f"per process       {split}")
        lines.insert(
            10,
            f"across processes  {result['crossed_updates']} of {lat['n']} viewer updates went "
            f"from one process to another ({result['server_processes']} daphne + worker, Redis); "
            f"PostgreSQL connections peak {result['pg_connections_peak']}"
            + (
                f" ({result['pg_connections_unknown']} samples refused)"
                if result["pg_connections_unknown"]
                else ""
            ),
        )
    for sample in result["error_samples"]:
        lines.append(f"  error: {sample}")
    if (result["client_cpu_pct"] or 0) > 85:
        lines.append("  warning: the players' process was near a full core: figures include it")
    return "\n".join(lines)


def collections_line(logged: dict[str, Any] | None) -> str:
    if logged is None:
        return "collections       - (the servers' output is not read: --url)"
    return (
        f"collections       {logged['n']} held the server {logged['at_least_ms']} ms or more "
        f"({logged['full']} full), longest {ms(logged['max_ms'])}, "
        f"{logged['total_ms'] / 1000:.1f} s in all"
    )


RAMP_HEADER = (
    "tables players  moves/s (target)    p50     p90     p99     max   echo p50/p99"
    "  errors lost  CPU%   RSS MB  client CPU%  server waiting%  load"
)


def ramp_line(r: dict[str, Any]) -> str:
    lat, echo = r["latency_ms"], r["echo_ms"]
    return (
        f"{r['tables_playing']:>6} {r['players']:>7}  "
        f"{r['moves_per_s']:>7.1f} ({r['target_per_s']:>5.1f})"
        f" {ms(lat['p50']):>7} {ms(lat['p90']):>7} {ms(lat['p99']):>7} {ms(lat['max']):>7}"
        f"   {ms(echo['p50'])}/{ms(echo['p99'])}"
        f"  {r['errors']:>6} {r['lost_updates']:>4}  {r['server_cpu_pct'] or 0:>5.1f}"
        f"  {r['server_rss_mb'] or 0:>7.1f}  {r['client_cpu_pct'] or 0:>11.1f}"
        f"  {r.get('server_waiting_for_cpu_pct') or 0:>15.1f}  {r.get('machine_load') or 0:>4.1f}"
    )


# ---------------------------------------------------------------- main


async def run(
    args: argparse.Namespace,
    url: str,
    server_pid: int | None,
    servers: ScaledServers | None = None,
    log: Path | None = None,
) -> dict[str, Any]:
    bench = Bench(args, url, server_pid, servers, log)
    helpers = [asyncio.create_task(bench.watch_lag()), asyncio.create_task(bench.pages())]
    most_echoes = args.echo_sockets if args.echo_sockets is not None else max(args.steps)
    helpers += [asyncio.create_task(bench.echo(n)) for n in range(most_echoes)]
    bench.tasks += helpers
    steps: list[dict[str, Any]] = []
    try:
        for count in args.steps:
            bench.say(f"{count} tables: sitting down and warming up…")
            await bench.grow(count)
            result = await bench.window(args.window)
            steps.append(result)
            if args.ramp:
                if len(steps) == 1:
                    print(RAMP_HEADER, flush=True)
                print(ramp_line(result), flush=True)
                p99 = result["latency_ms"]["p99"]
                if p99 is None or p99 > args.p99_limit or result["tables_playing"] < count:
                    break
            else:
                print(report(result, args), flush=True)
    finally:
        await bench.stop()
    return {"steps": steps}


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--tables", type=int, default=10, help="four-player tables (default 10)")
    p.add_argument(
        "--ramp",
        nargs="?",
        const=",".join(map(str, RAMP_STEPS)),
        default=None,
        help="climb through these table counts until p99 passes --p99-limit",
    )
    p.add_argument("--p99-limit", type=float, default=150.0, help="ms (default 150)")
    p.add_argument("--interval", type=float, default=4.0, help="seconds between a table's moves")
    p.add_argument(
        "--window", type=float, default=None, help="measured seconds (default 60; 30 per ramp step)"
    )
    p.add_argument(
        "--warmup",
        type=float,
        default=90.0,
        help="at most this long to warm up (default 90 s)",
    )
    p.add_argument(
        "--warmup-moves",
        type=int,
        default=60,
        help="each table first plays a random 0..N quick moves (default 40)",
    )
    p.add_argument(
        "--setup-timeout",
        type=float,
        default=300.0,
        help="at most this long to sit the tables down (default 300 s)",
    )
    p.add_argument("--settle", type=float, default=5.0, help="human pace before measuring (s)")
    p.add_argument(
        "--timeout", type=float, default=10.0, help="an update later than this is an error"
    )
    p.add_argument("--target", type=int, default=100, choices=(50, 100, 150), help="match points")
    p.add_argument("--echo-sockets", type=int, default=None, help="default: one per table")
    p.add_argument("--page-pause", type=float, default=0.2, help="seconds between page loads")
    p.add_argument("--setup-concurrency", type=int, default=8, help="tables sitting at once")
    p.add_argument(
        "--rev", default=None, help="serve this commit (git archive) instead of the checkout"
    )
    p.add_argument(
        "--site",
        type=Path,
        default=None,
        help="serve the project in this folder (e.g. a copy of a working tree)",
    )
    p.add_argument("--url", default=None, help="an existing server (127.0.0.1 only)")
    p.add_argument("--server-pid", type=int, default=None, help="its pid, for CPU and memory")
    p.add_argument(
        "--server-cpu", default="0", help="core(s) for daphne, as taskset -c takes them (default 0)"
    )
    p.add_argument(
        "--scaled",
        type=int,
        default=None,
        metavar="N",
        help="N daphne processes + the worker on PostgreSQL (database domino_bench)\n"
        "and Redis (database 11), as make serve-scaled; all on --server-cpu",
    )
    p.add_argument(
        "--by-table",
        action="store_true",
        help="--scaled: a table's four seats on one process (table t on process t mod N),\n"
        "as nginx's `hash $request_uri` puts them; default: spread round-robin",
    )
    p.add_argument("--client-cpu", type=int, default=1, help="core for the players (default 1)")
    p.add_argument("--max-seconds", type=float, default=1800, help="the whole run's bound")
    p.add_argument(
        "--repeat", type=int, default=1, help="runs, each on a fresh server; prints their medians"
    )
    p.add_argument(
        "--profile",
        type=Path,
        default=None,
        help="py-spy the server through the window: PREFIX.svg, PREFIX.txt (raw)",
    )
    p.add_argument(
        "--profile-gil",
        action="store_true",
        help="with --profile: only the thread holding the GIL, i.e. where the CPU goes "
        "(without it, a thread waiting for the GIL or for the core counts as at work)",
    )
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--json", type=Path, default=None, help="write the figures here")
    p.add_argument("--quiet", action="store_true")
    args = p.parse_args(argv)
    if args.url:
        host = urllib.parse.urlsplit(args.url).hostname
        if host not in ("127.0.0.1", "localhost", "::1"):
            p.error("--url must be on this machine (127.0.0.1)")
    if args.scaled is not None:
        if args.scaled < 1:
            p.error("--scaled wants at least one process")
        for name in ("url", "rev", "site", "profile"):
            if getattr(args, name):
                p.error(f"--scaled starts the checkout's processes: not with --{name}")
    args.steps = [int(n) for n in args.ramp.split(",")] if args.ramp else [args.tables]
    if args.window is None:
        args.window = 30.0 if args.ramp else 60.0
    return args


MEDIAN_FIGURES = (
    ("moves_per_s",),
    ("target_per_s",),
    ("latency_ms", "p50"),
    ("latency_ms", "p90"),
    ("latency_ms", "p99"),
    ("latency_ms", "max"),
    ("echo_ms", "p50"),
    ("echo_ms", "p99"),
    ("errors",),
    ("lost_updates",),
    ("server_cpu_pct",),
    ("server_rss_mb",),
    ("client_cpu_pct",),
    ("frame_bytes", "p50"),
    ("frame_bytes", "max"),
    ("server_waiting_for_cpu_pct",),
    ("machine_load",),
)


def median_of(results: list[dict[str, Any]]) -> dict[str, Any]:
    """A result whose figures are the medians of ``results`` (the same table count)."""
    out: dict[str, Any] = json.loads(json.dumps(results[0]))
    for path in MEDIAN_FIGURES:
        values = []
        for r in results:
            value: Any = r
            for key in path:
                value = value.get(key) if isinstance(value, dict) else None
            if isinstance(value, (int, float)):
                values.append(value)
        target = out
        for key in path[:-1]:
            target = target.setdefault(key, {})
        target[path[-1]] = statistics.median(values) if values else None
    pages: dict[str, list[float]] = {}
    for r in results:
        for name, value in r["pages_median_ms"].items():
            pages.setdefault(name, []).append(value)
    out["pages_median_ms"] = {k: statistics.median(v) for k, v in pages.items()}
    return out


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    if args.seed is not None:
        random.seed(args.seed)
    runs = [run_once(args, n) for n in range(args.repeat)]
    if args.repeat > 1 and not args.ramp:
        print(f"\n{args.repeat} runs, and their medians:\n{RAMP_HEADER}")
        for outcome in runs:
            for step in outcome["steps"]:
                print(ramp_line(step))
        done = [o["steps"][0] for o in runs if o["steps"]]
        if done:
            median = median_of(done)
            print(ramp_line(median) + "  ← median")
            pages = median["pages_median_ms"]
            bare = pages.get("bare")
            print(
                "pages (median)  "
                + " · ".join(
                    f"{k} {ms(v)}" + (f" ({v / bare:.1f}x)" if bare and k != "bare" else "")
                    for k, v in pages.items()
                )
            )
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        config = {k: v for k, v in vars(args).items() if k != "json"}
        site = args.rev or (str(args.site) if args.site else _commit())
        payload: dict[str, Any] = {"config": config, "site": site}
        if args.repeat == 1:
            payload.update(runs[0])
        else:
            payload["runs"] = runs
            done = [o["steps"][0] for o in runs if o["steps"] and not args.ramp]
            payload["median"] = median_of(done) if done else None
        args.json.write_text(json.dumps(payload, indent=2, default=str))
        print(f"figures written to {args.json}")
    return 0


def run_once(args: argparse.Namespace, number: int) -> dict[str, Any]:
    """One run on a fresh server (unless ``--url``): its steps' figures."""
    if args.scaled is not None:
        return run_scaled(args, number)
    server = None
    url, pid = args.url, args.server_pid
    if url is None:
        server = Server(cpu=args.server_cpu, rev=args.rev, site=args.site)
        try:
            server.start()
        except BaseException:
            server.stop()
            raise
        url, pid = server.url, server.pid
    with contextlib.suppress(OSError, AttributeError):
        os.sched_setaffinity(0, {args.client_cpu})
    started = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())
    print(
        f"Domino load benchmark · {started} · server {url} (pid {pid}, "
        f"{'cpu ' + str(args.server_cpu) if server else 'given'}) · "
        f"players on cpu {args.client_cpu}",
        flush=True,
    )
    try:
        outcome = _bounded_run(
            args, number, run(args, url, pid, log=server.log if server else None)
        )
    finally:
        if server is not None:
            if server.proc is not None and server.proc.poll() is not None:
                print(f"daphne stopped during the run:\n{server.log_tail()}", file=sys.stderr)
            server.stop()
    return {"started": started, **outcome}


def _bounded_run(
    args: argparse.Namespace, number: int, players: Coroutine[Any, Any, dict[str, Any]]
) -> dict[str, Any]:
    """The players' run, stopped at ``--max-seconds`` (then no steps)."""
    if args.repeat > 1:
        print(f"run {number + 1} of {args.repeat}", flush=True)
    try:
        return asyncio.run(asyncio.wait_for(players, args.max_seconds))
    except TimeoutError:
        print(f"stopped: the run passed --max-seconds {args.max_seconds:g}", file=sys.stderr)
        return {"steps": []}


def run_scaled(args: argparse.Namespace, number: int) -> dict[str, Any]:
    """One run on fresh processes (``--scaled N``): PostgreSQL and Redis emptied first."""

    def terminated(*_: Any) -> None:
        raise SystemExit(143)  # through the finally below: the processes are stopped

    previous = signal.signal(signal.SIGTERM, terminated)
    servers = ScaledServers(args.scaled, cpu=args.server_cpu)
    try:
        servers.start()
        with contextlib.suppress(OSError, AttributeError):
            os.sched_setaffinity(0, {args.client_cpu})
        started = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())
        last = servers.port + args.scaled - 1
        pids = ", ".join(f"{name} {pid}" for name, pid in servers.pids.items())
        print(
            f"Domino load benchmark · {started} · {args.scaled} daphne on 127.0.0.1:"
            f"{servers.port}…{last} + worker, PostgreSQL {servers.DATABASE}, "
            f"Redis {servers.REDIS_URL} (pids {pids}; cpu {args.server_cpu}) · "
            f"players on cpu {args.client_cpu}",
            flush=True,
        )
        outcome = _bounded_run(
            args, number, run(args, servers.url, servers.pid, servers, servers.log)
        )
        if servers.proc is not None:
            print(
                f"a server process stopped during the run:\n{servers.log_tail()}", file=sys.stderr
            )
        return {"started": started, "server_processes": args.scaled, **outcome}
    finally:
        servers.stop()
        signal.signal(signal.SIGTERM, previous)


def _commit() -> str:
    with contextlib.suppress(OSError, subprocess.CalledProcessError):
        out = subprocess.run(
            ["git", "describe", "--always", "--dirty"], cwd=ROOT, capture_output=True, text=True
        )
        return out.stdout.strip()
    return ""


if __name__ == "__main__":
    sys.exit(main())
