"""The backup drill of docs/backups.md, on PostgreSQL: games played with
coins, the database dumped with ``pg_dump`` while a stake table is playing, restored
with ``pg_restore`` into a new database; there ``manage.py audit_ledger`` finds the
ledger clean, and the table that was playing takes its next move at its version."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from django.db import connection

from accounts.models import User
from economy.selectors import balance_of
from games.models import Table
from games.services.stakes import stake_table_sit
from tests.fixtures import manage_last_line, play_a_legal_move, postgres_only
from tests.stakes import DUEL, play_to_the_end, rich  # noqa: F401  (rich: a fixture)

pytestmark = [
    postgres_only,
    pytest.mark.django_db(transaction=True),  # pg_dump reads what is committed
]

#: The move the restored copy is asked to take: the seated player whose turn it is
#: plays a legal move at the table's version, through the site's own service.
MOVE_ON_RESTORED = """
from games.models import Table
from tests.fixtures import play_a_legal_move
table = Table.objects.get(code={code!r})
before = table.version
play_a_legal_move(table)
table.refresh_from_db()
print(before, table.version)
"""


def database_url(name: str) -> str:
    settings = connection.settings_dict
    host, port, user = settings["HOST"] or "127.0.0.1", settings["PORT"] or 5432, settings["USER"]
    return f"postgres://{user}@{host}:{port}/{name}"


@pytest.fixture
def restored_name() -> Iterator[str]:
    """The name of a new database to restore into, dropped afterwards."""
    name = f"{connection.settings_dict['NAME']}_restored"
    dropdb = ["dropdb", "--if-exists", "--force", "--maintenance-db", database_url("postgres")]
    subprocess.run([*dropdb, name], check=True)
    yield name
    subprocess.run([*dropdb, name], check=True)


def test_a_dump_restored_into_a_new_database_is_clean_and_plays_on(
    rich: Callable[[str], User],  # noqa: F811
    restored_name: str,
    tmp_path: Path,
) -> None:
    anna, bruno, carla, dora = (rich(n) for n in ("anna_b", "bruno_b", "carla_b", "dora_b"))
    finished = stake_table_sit(user=anna, rules=DUEL, stake=100)
    stake_table_sit(user=bruno, rules=DUEL, stake=100)
    play_to_the_end(finished)  # a match paid out
    playing = stake_table_sit(user=carla, rules=DUEL, stake=250)
    stake_table_sit(user=dora, rules=DUEL, stake=250)
    for _ in range(3):
        play_a_legal_move(playing)
    playing.refresh_from_db()
    assert playing.status == Table.Status.PLAYING
    balances = {u.username: balance_of(user=u) for u in (anna, bruno, carla, dora)}

    # the drill, as docs/backups.md gives it
    dump = tmp_path / "domino.dump"
    live_url = database_url(connection.settings_dict["NAME"])
    subprocess.run(["pg_dump", "--format=custom", f"--file={dump}", live_url], check=True)
    subprocess.run(
        ["createdb", "--maintenance-db", database_url("postgres"), restored_name], check=True
    )
    restored_url = database_url(restored_name)
    subprocess.run(["pg_restore", "--no-owner", f"--dbname={restored_url}", str(dump)], check=True)
    env = {**os.environ, "DATABASE_URL": restored_url}
    env.pop("REDIS_URL", None)  # the restored copy on its own: nothing cached
    assert "no migrations to apply" in manage_last_line(env, "migrate", "--noinput").lower()
    audit = subprocess.run(
        [sys.executable, "manage.py", "audit_ledger"],
        cwd=Path(__file__).resolve().parents[2],
        env=env,
        capture_output=True,
        text=True,
    )
    assert audit.returncode == 0, audit.stdout + audit.stderr  # 2 on any problem
    assert audit.stderr == ""  # no problem printed
    after_move = manage_last_line(env, "shell", "-c", MOVE_ON_RESTORED.format(code=playing.code))
    assert after_move == f"{playing.version} {playing.version + 1}"  # resumed at its version

    # the restored copy played on; the original is as it was
    playing.refresh_from_db()
    assert playing.status == Table.Status.PLAYING
    assert {u.username: balance_of(user=u) for u in (anna, bruno, carla, dora)} == balances
