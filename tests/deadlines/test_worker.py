"""The deadline worker: each due row applied exactly once, even with two workers at
once on PostgreSQL, and nothing lost when the worker is killed and started again."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from django.db import connections
from django.db.models import F
from django.utils import timezone

from accounts.models import User
from deadlines import services as deadlines
from deadlines import worker
from deadlines.models import Deadline
from deadlines.worker import HOUSEKEEPING
from games import services
from games.kinds import BOT_MOVE
from games.models import Move, Table
from games.records import load_match
from tests.fixtures import (
    DUELLO,
    PAIRS,
    a_worker_made_a_pass,
    manage_last_line,
    postgres_only,
    sqlite_value,
    until,
)

ROOT = Path(__file__).resolve().parents[2]


def two_workers(work: Callable[[], None]) -> None:
    """Run ``work`` on two threads at once, each with its own database connection."""
    errors: list[BaseException] = []
    start = threading.Barrier(2)

    def run() -> None:
        try:
            start.wait()
            work()
        except BaseException as error:  # reported below
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not errors, errors


@pytest.fixture
def jobs(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, int]]:
    """Housekeeping jobs, each bumping its own table's version when it runs."""
    mapping: dict[str, int] = {}
    monkeypatch.setattr(worker, "PERIODIC", {})
    yield mapping


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_two_workers_at_once_apply_each_due_deadline_exactly_once(
    make_user: Callable[..., User], jobs: dict[str, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    host = make_user("host")
    now = timezone.now()
    # Leases that never hold: both workers claim every row, so only the apply
    # step (the subject's lock and the row re-read) can keep it to once.
    monkeypatch.setattr(deadlines, "LEASE", timedelta(seconds=-60))
    for i in range(40):
        table = services.table_create(host=host, mode=Table.Mode.FRIENDS, rules=DUELLO)
        key = f"test-job-{i}"

        def job(_now: datetime, table_id: int = table.pk) -> None:
            Table.objects.filter(pk=table_id).update(version=F("version") + 1)

        worker.PERIODIC[key] = (timedelta(hours=1), job)
        deadlines.set_deadline(HOUSEKEEPING, now, key=key)
    before = dict(Table.objects.values_list("pk", "version"))

    def drain() -> None:
        for _ in range(200):
            if not Deadline.objects.filter(due_at__lte=now).exists():
                return
            deadlines.run_due(now=now, limit=7)

    two_workers(drain)
    after = dict(Table.objects.values_list("pk", "version"))
    assert {pk: after[pk] - before[pk] for pk in before} == {pk: 1 for pk in before}
    assert Deadline.objects.filter(kind=HOUSEKEEPING).count() == 40


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_two_workers_holding_the_same_bot_deadlines_move_each_bot_once(
    make_user: Callable[..., User],
) -> None:
    tables = []
    for i in range(12):
        # a person who plays their forced moves themselves: only the bots move here
        person = make_user(f"p{i}")
        User.objects.filter(pk=person.pk).update(plays_forced_moves=False)
        table = services.table_create(
            host=person, mode=Table.Mode.COMPUTER, rules=PAIRS, bot_level="easy"
        )
        tables.append(table)
    now = timezone.now()
    for table in tables:  # whoever is to move, the worker looks now
        deadlines.set_deadline(BOT_MOVE, now, table=table)
    claimed = list(Deadline.objects.filter(table__in=tables))  # both workers hold all of them
    moves_before = {t.pk: Move.objects.filter(hand__table=t).count() for t in tables}
    bots_first = {t.pk for t in tables if load_match(t).round.turn != 0}
    assert bots_first  # three bots of four: bots follow bots, a second apply would show

    def apply_all() -> None:
        for d in claimed:
            deadlines.apply(d, now=now)

    two_workers(apply_all)
    for table in tables:
        moved = Move.objects.filter(hand__table=table).count() - moves_before[table.pk]
        assert moved == (1 if table.pk in bots_first else 0), table


SETUP = """
from django.core.management import call_command
call_command("migrate", "--noinput", verbosity=0)
from datetime import timedelta
from django.utils import timezone
from accounts.models import User
from games import services
from deadlines.services import set_deadline
from games.engine import PRESETS
from games.kinds import BOT_MOVE
from games.records import load_match
# plays its own forced moves: only the bot's move is pending
user = User.objects.create_user("restart", password="x-restart-x", plays_forced_moves=False)
while True:  # a table where a bot opens
    table = services.table_create(host=user, mode="computer", rules=PRESETS["duello"])
    if load_match(table).round.turn != 0:
        break
set_deadline(BOT_MOVE, timezone.now() + timedelta(hours=1), table=table)  # not yet due
"""


def test_a_worker_killed_with_deadlines_pending_applies_them_when_it_is_back(
    tmp_path: Path,
) -> None:
    database = tmp_path / "restart.sqlite3"
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{database}", "GAME_CLOCK_ENABLED": "0"}
    env.pop("REDIS_URL", None)
    manage_last_line(env, "shell", "-c", SETUP)

    def value(sql: str) -> int:
        return sqlite_value(database, sql)

    def bot_moves() -> int:
        return value("SELECT count(*) FROM games_move WHERE actor = 'bot'")

    command = [sys.executable, "manage.py", "run_worker", "--tick", "0.05"]
    first = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL)
    try:
        until(lambda: a_worker_made_a_pass(database), "the first worker never made a pass")
    finally:
        first.kill()  # no goodbye, with the bot's move pending
        first.wait(timeout=10)
    assert bot_moves() == 0
    # The bot's move comes due while no worker runs.
    value(
        f"UPDATE games_deadline SET due_at = datetime('now', '-1 minute') WHERE kind = '{BOT_MOVE}'"
    )
    second = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL)
    try:
        until(lambda: bot_moves() > 0, "the pending bot move never came after the restart")
    finally:
        second.terminate()
        second.wait(timeout=10)
    assert bot_moves() == 1  # once, not twice: its row is gone with the move
    assert value(f"SELECT count(*) FROM games_deadline WHERE kind = '{BOT_MOVE}'") == 0


@pytest.mark.django_db
def test_the_worker_prunes_unused_guests_by_itself(make_user: Callable[..., User]) -> None:
    old = make_user("guest-old", guest=True)
    User.objects.filter(pk=old.pk).update(date_joined=timezone.now() - timedelta(days=60))
    fresh = make_user("guest-new", guest=True)
    worker.ensure_periodic(timezone.now())
    assert deadlines.run_due(now=timezone.now() + timedelta(seconds=1)) >= 1
    assert not User.objects.filter(pk=old.pk).exists()
    assert User.objects.filter(pk=fresh.pk).exists()
    again = Deadline.objects.get(kind=HOUSEKEEPING, key="guests_prune")
    assert again.due_at > timezone.now() + timedelta(minutes=50)  # it comes back by itself
