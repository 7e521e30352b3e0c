"""Shared fixtures for the site tests: players, tables, a seated person's move."""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import hashlib
import os
import random
import re
import shutil
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.layers import channel_layers
from django.contrib.messages import get_messages
from django.db import connections
from django.db.migrations.loader import MigrationLoader
from django.http import HttpResponse
from django.test import Client
from django.utils import timezone, translation

from accounts import header
from accounts.models import User
from domino_site import local
from games import services, states
from games.engine import PRESETS, Rules
from games.engine import deals as engine_deals
from games.live import fragments, presence
from games.models import Table

#: Row locks, SKIP LOCKED and the ledger's triggers do nothing on SQLite: such tests run
#: on PostgreSQL only (``make test-scaleout``), as do those marked ``postgres``.
postgres_only = pytest.mark.skipif(
    connections["default"].vendor != "postgresql",
    reason="needs PostgreSQL (DATABASE_URL=postgres://…; make test-scaleout)",
)
#: Several daphne processes sharing one Redis: PostgreSQL and Redis both.
postgres_and_redis_only = pytest.mark.skipif(
    connections["default"].vendor != "postgresql" or not os.environ.get("REDIS_URL"),
    reason="needs PostgreSQL and Redis (make test-scaleout)",
)


@pytest.fixture(autouse=True)
def marked_postgres_on_postgres_only(request: pytest.FixtureRequest) -> None:
    """A test marked ``postgres`` runs on PostgreSQL only (``postgres_only``)."""
    if request.node.get_closest_marker("postgres") and connections["default"].vendor != (
        "postgresql"
    ):
        pytest.skip("needs PostgreSQL (DATABASE_URL=postgres://…; make test-scaleout)")


@pytest.fixture(autouse=True)
def no_background_clock(settings: pytest.FixtureRequest) -> None:
    """Tests drive the game clock themselves (services.run_due)."""
    settings.GAME_CLOCK_ENABLED = False  # type: ignore[attr-defined]


@pytest.fixture(autouse=True)
def quick_coach(settings: pytest.FixtureRequest) -> None:
    """The coach reviews finished hands at a few deals a decision: the tests that end
    hands check what happens, not how well it judges (tests/engine/test_coach.py does)."""
    settings.COACH_ITERATIONS = 40  # type: ignore[attr-defined]
    settings.COACH_SHARE = 1.0  # type: ignore[attr-defined]  # no rest (tests/games/test_coach.py checks it)
    settings.COACH_BUSY = float("inf")  # type: ignore[attr-defined]  # the test process is busy


@pytest.fixture(autouse=True)
def fast_passwords(settings: pytest.FixtureRequest) -> None:
    """Players are made by the dozen: hashing their passwords is not what is under test
    (Django's own hasher takes a good part of a second per password, on purpose)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # type: ignore[attr-defined]


@pytest.fixture(autouse=True)
def fresh_table_states() -> Iterator[None]:
    """Each test starts with no remembered table state (ids are reused after a rollback),
    no reused presence read, and no shared fragment (a test may count how often one is
    rendered), and no player's header figures kept from a test before."""
    states.forget()
    presence.forget()
    fragments.forget()
    header.forget()
    yield
    states.forget()
    presence.forget()


@pytest.fixture(autouse=True)
def fresh_channel_layer() -> Iterator[None]:
    """Each test gets its own channel layer: channels_redis keeps one receive lock
    per layer, bound to the event loop that last used it, and a test whose loop
    ended mid-receive left it locked for the next test's loop."""
    yield
    channel_layers.backends.clear()


@pytest.fixture(autouse=True)
def english_messages() -> Iterator[None]:
    """Messages are asserted in English; Italian (the default) has its own tests."""
    with translation.override("en"):
        yield


@pytest.fixture
def english(client: Client) -> Client:
    """A browser-like test client that chose English."""
    client.cookies["django_language"] = "en"
    return client


@pytest.fixture
def make_user(db: None) -> Callable[..., User]:
    def make(username: str = "anna", *, guest: bool = False) -> User:
        user = User(username=username, is_guest=guest, guest_tag=1234 if guest else None)
        user.set_password("correct horse battery")
        user.save()
        return user

    return make


@pytest.fixture
def anna(make_user: Callable[..., User]) -> User:
    return make_user("anna")


@pytest.fixture
def bruno(make_user: Callable[..., User]) -> User:
    return make_user("bruno")


DUELLO: Rules = PRESETS["duello"]
PAIRS: Rules = replace(PRESETS["domino"], players=4, hand_size=7)


@pytest.fixture
def friends_table(anna: User, bruno: User) -> Table:
    """A 2-player duello between anna (seat 0) and bruno (seat 1), started."""
    table = services.table_create(host=anna, mode=Table.Mode.FRIENDS, rules=DUELLO)
    services.table_join(table_id=table.pk, version=version_of(table), user=bruno)
    services.table_start(table_id=table.pk, version=version_of(table), by=anna)
    table.refresh_from_db()
    return table


def seat_user(table: Table, seat: int) -> User:
    user = table.seats.get(number=seat).user
    assert user is not None
    return user


def seeded_deals(deals: random.Random) -> Callable[..., Any]:
    """A stand-in for ``games.services.deals.deal`` whose deals come from ``deals``
    (the site's come from a fresh secret seed): a run replayed deals the same hands."""

    def deal(table: str, hand: int, seed: str, clients: Any, **size: int) -> Any:
        return engine_deals.deal("t", hand, f"{deals.getrandbits(256):064x}", clients, **size)

    return deal


def play_a_legal_move(table: Table, rng: random.Random | None = None) -> str:
    """The seated person whose turn it is plays a (random) legal move.  The table is read
    as the site reads it (``games.states``): the move's service then finds it held,
    rather than every move replaying the whole match from the database twice more."""
    table.refresh_from_db()
    state = states.table_state(table.pk)
    current = state.rounds[-1]
    move = (rng or random.Random(0)).choice(current.legal_moves())
    services.move_submit(
        table_id=table.pk,
        user=seat_user(table, current.turn),
        move=str(move),
        version=state.version,
    )
    return str(move)


def play_to_the_end(table: Table, seed: int = 1) -> None:
    """Play the table to its end: people's moves at random (seeded), the computer's, the
    clock's for a seat away and the next hands by the worker a minute later each time."""
    from deadlines.services import run_due  # the worker's step, as the tests drive it

    rng = random.Random(seed)
    for _ in range(2000):
        table.refresh_from_db()
        if table.status == Table.Status.FINISHED:
            return
        state = states.table_state(table.pk)
        current = state.rounds[-1]
        seat = next(s for s in state.seats if s.number == current.turn)
        if current.over or seat.is_bot or seat.away:
            run_due(now=timezone.now() + timedelta(minutes=1))
        else:
            play_a_legal_move(table, rng)
    raise AssertionError("the match did not end")


def version_of(table: Table) -> int:
    """The table's version now, as a client that has just been shown the table would send it."""
    return Table.objects.values_list("version", flat=True).get(pk=table.pk)


_REGION_START = re.compile(
    r'<(?:div|section) id="(flash|table-head|lobby|seats|board|deal|status|hand|scores|log'
    r'|options|text)"'
)


_LOG_ADDED = re.compile(r'<ol hx-swap-oob="afterbegin:#log-events">(.*?)</ol>\n?', re.DOTALL)
_LOG_EVENTS = re.compile(r'<ol class="events" id="log-events"[^>]*>')


class Screen:
    """What a browser shows of a table page: each websocket frame replaces the
    regions it carries (by id) and leaves the others as they were; a move's new
    log lines go on top of the log shown."""

    def __init__(self) -> None:
        self.regions: dict[str, str] = {}

    def apply(self, frame: str) -> str:
        added = _LOG_ADDED.findall(frame)
        frame = _LOG_ADDED.sub("", frame)
        starts = [(m.start(), m.group(1)) for m in _REGION_START.finditer(frame)]
        ends = [*starts[1:], (len(frame), "")]
        for (start, region), (end, _next) in zip(starts, ends, strict=True):
            self.regions[region] = frame[start:end]
        for lines in added:
            log = self.regions["log"]
            found = _LOG_EVENTS.search(log)
            assert found, "new log lines for a screen with no log"
            self.regions["log"] = log[: found.end()] + lines + log[found.end() :]
        return self.html

    @property
    def html(self) -> str:
        return "".join(self.regions.values())


ROOT = Path(__file__).resolve().parents[1]
#: The static files as ``make run`` collects them (hashed, compressed: seconds of work),
#: kept between runs and shared by the test workers; collected again only when a source
#: changed (the stamp ``domino_site.local`` keeps).
COLLECTED_STATIC = ROOT / "tests" / "artifacts" / "static"


@contextlib.contextmanager
def static_files_collected() -> Iterator[None]:
    """Inside, the static files are as their sources: when they are not, one worker
    collects them while the others wait (the lock), rather than each on its own."""
    COLLECTED_STATIC.mkdir(parents=True, exist_ok=True)
    stamp = COLLECTED_STATIC / ".sources"
    collected = (COLLECTED_STATIC / "staticfiles.json").exists() and stamp.exists()
    if collected and stamp.read_text() == local.static_sources():
        yield
        return
    with (COLLECTED_STATIC.parent / "static.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


#: An empty database as ``migrate`` leaves it, kept between runs and shared by the test
#: workers: a live site starts on a copy (its own ``migrate`` then has nothing to do)
#: instead of migrating a fresh file, seconds of work for each site.
MIGRATED_DATABASE = ROOT / "tests" / "artifacts" / "migrated.sqlite3"


def migration_sources() -> str:
    """A fingerprint of every migration ``migrate`` would apply (module, size, time)."""
    found = hashlib.sha256()
    for key, migration in sorted(MigrationLoader(None).disk_migrations.items()):
        info = os.stat(sys.modules[migration.__module__].__file__ or "")
        found.update(f"{key} {info.st_size} {info.st_mtime_ns}\n".encode())
    return found.hexdigest()


def copy_migrated_database(target: Path, env: dict[str, str]) -> None:
    """Put at ``target`` an empty database with every migration applied.  The first
    worker to need it migrates it once (with ``env``, another database named) while the
    others wait (the lock); again only when a migration changed."""
    stamp = MIGRATED_DATABASE.with_suffix(".sources")
    MIGRATED_DATABASE.parent.mkdir(parents=True, exist_ok=True)
    with MIGRATED_DATABASE.with_suffix(".lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            sources = migration_sources()
            if not (MIGRATED_DATABASE.exists() and stamp.exists() and stamp.read_text() == sources):
                fresh = MIGRATED_DATABASE.with_suffix(".new")
                fresh.unlink(missing_ok=True)
                manage_last_line(
                    {**env, "DATABASE_URL": f"sqlite:///{fresh}"}, "migrate", "--noinput"
                )
                with contextlib.closing(sqlite3.connect(fresh)) as db:
                    db.execute("PRAGMA journal_mode=DELETE")  # all in the one file, no -wal
                fresh.replace(MIGRATED_DATABASE)
                stamp.write_text(sources)
            shutil.copyfile(MIGRATED_DATABASE, target)
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


@contextlib.contextmanager
def test_databases_from_the_migrated_copy() -> Iterator[None]:
    """Inside, an in-memory SQLite test database starts as a copy of
    ``MIGRATED_DATABASE`` (``copy_migrated_database``: made by ``migrate`` whenever a
    migration changed), and the test runner's own ``migrate`` finds every migration
    applied: each test worker saves applying them all again (seconds each; ``migrate``
    still checks the graph against the database and sends ``post_migrate``).  Any other
    database (a file, PostgreSQL) is created and migrated as usual."""
    from django.conf import settings
    from django.db.backends.sqlite3.creation import DatabaseCreation

    original = DatabaseCreation._create_test_db
    kept: list[sqlite3.Connection] = []  # a shared in-memory database lives while one is open

    def create_from_copy(self: DatabaseCreation, verbosity: int, *args: Any, **kw: Any) -> Any:
        name = original(self, verbosity, *args, **kw)
        if self.is_in_memory_db(name) and str(name).startswith("file:"):
            copy = MIGRATED_DATABASE.with_name(f"test-db-{os.getpid()}.sqlite3")
            env = {**os.environ, "DJANGO_SETTINGS_MODULE": settings.SETTINGS_MODULE}
            copy_migrated_database(copy, env)
            target = sqlite3.connect(name, uri=True)
            with contextlib.closing(sqlite3.connect(copy)) as source:
                source.backup(target)
            copy.unlink()
            kept.append(target)
        return name

    DatabaseCreation._create_test_db = create_from_copy  # type: ignore[method-assign]
    try:
        yield
    finally:
        DatabaseCreation._create_test_db = original  # type: ignore[method-assign]
        for connection in kept:
            connection.close()


def manage_last_line(env: dict[str, str], *args: str) -> str:
    """Run ``manage.py`` in a process of its own (a server, a worker, a shell) and
    return the last line it printed (``shell`` prints notes before the answer)."""
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    if done.returncode:  # the process's own words, not only its exit code
        pytest.fail(f"manage.py {args[0]} exited {done.returncode}:\n{done.stderr[-3000:]}")
    lines = done.stdout.strip().splitlines()
    return lines[-1] if lines else ""


def until(condition: Callable[[], bool], what: str, within: float = 30) -> None:
    """Poll until ``condition`` holds (a process of its own getting there), or fail."""
    deadline = time.monotonic() + within
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(what)
        time.sleep(0.05)


def sqlite_value(database: Path, sql: str) -> int:
    """Read (or write) another process's SQLite database from here, without a process of
    Django's: the first column of the first row, 0 if none."""
    with contextlib.closing(sqlite3.connect(database, timeout=30)) as db, db:
        row = db.execute(sql).fetchone()
        return int(row[0]) if row else 0


def a_worker_made_a_pass(database: Path) -> bool:
    """Every housekeeping job's row moved on: a worker started on ``database`` has made
    a pass (a first start gives each a row due at once)."""
    housekeeping = "SELECT count(*) FROM games_deadline WHERE kind = 'housekeeping'"
    due = sqlite_value(database, f"{housekeeping} AND due_at < datetime('now', '+1 minute')")
    return due == 0 and sqlite_value(database, housekeeping) > 0


@contextlib.contextmanager
def tasks_started() -> Iterator[list[str]]:
    """The coroutines the running event loop makes tasks of inside the block, by their
    qualified names."""
    loop = asyncio.get_running_loop()
    started: list[str] = []

    def counting_factory(loop: asyncio.AbstractEventLoop, coro: Any, **kwargs: Any) -> Any:
        started.append(getattr(coro, "__qualname__", ""))
        return asyncio.Task(coro, loop=loop, **kwargs)

    loop.set_task_factory(counting_factory)
    try:
        yield started
    finally:
        loop.set_task_factory(None)


def race(n: int, work: Callable[[int], Any]) -> list[Any]:
    """Run ``work(i)`` for i < n on threads released at the same instant, each with
    its own database connection: each one's result, or the exception it raised."""
    barrier = threading.Barrier(n)
    results: list[Any] = [None] * n

    def run(i: int) -> None:
        try:
            barrier.wait()
            results[i] = work(i)
        except Exception as error:  # the outcome under test
            results[i] = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return results


def signed_in(user: User) -> Client:
    """A browser of ``user``'s (English), whose answers include a server error's 500."""
    client = Client(raise_request_exception=False)
    client.force_login(user)
    client.cookies["django_language"] = "en"
    return client


def answers(responses: list[Any]) -> list[int]:
    """Each request's status code (an exception raised in the view fails the test)."""
    assert all(isinstance(r, HttpResponse) for r in responses), responses
    return [r.status_code for r in responses]


def said(response: HttpResponse) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


@pytest.fixture
async def close_connections_after() -> AsyncIterator[None]:
    """The consumers' database thread keeps a connection; close it so the test
    database can be dropped (PostgreSQL refuses while a session is open)."""
    yield
    await sync_to_async(connections.close_all)()
