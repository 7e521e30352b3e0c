"""In process: a move's three writes through the ORM and through ``overrides.statements``.

A move locks its table (an UPDATE matching the version the player saw), stores the
move (an INSERT) and saves the table's next version (an UPDATE).  Each write is
timed alone, each in its own transaction, the two ways in turn, with an empty
transaction as the yardstick (BEGIN and COMMIT).  Medians in µs:

    .venv/bin/python bench/statements.py [--rounds 3000]

On the embedded default (SQLite, as bench/actions.py sets it up).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import actions  # noqa: E402  # its set-up: a fresh SQLite file, migrated


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        actions.setup(folder)
        run(args.rounds)


def run(rounds: int) -> None:
    from dataclasses import replace

    from django.db import transaction

    from accounts.models import User
    from games.engine import PRESETS
    from games.models import Hand, Move, Table
    from games.services import table_create, table_join, table_start
    from overrides import statements
    from tests.fixtures import version_of

    players = [User.objects.create(username=f"s{n}") for n in range(2)]
    rules = replace(PRESETS["domino"], players=2, hand_size=7)
    table = table_create(host=players[0], mode=Table.Mode.FRIENDS, rules=rules)
    table_join(table_id=table.pk, user=players[1], version=version_of(table))
    table_start(table_id=table.pk, by=players[0], version=version_of(table))
    table.refresh_from_db()
    hand = Hand.objects.get(table=table)
    plies = iter(range(100, 10**9))
    v = table.version

    def orm_lock() -> None:
        Table.objects.filter(pk=table.pk, version=v, code=table.code).update(version=v)

    def orm_insert() -> None:
        Move.objects.create(hand=hand, ply=next(plies), seat=0, text="6|4L")

    def orm_version() -> None:
        table.save(update_fields=["version"])

    def lock() -> None:
        statements.update(Table, {"pk": table.pk, "version": v, "code": table.code}, version=v)

    def insert() -> None:
        statements.insert(Move(hand=hand, ply=next(plies), seat=0, text="6|4L"))

    def version() -> None:
        statements.update(Table, {"pk": table.pk}, version=v)

    def nothing() -> None:
        pass

    ways: dict[str, Callable[[], None]] = {
        "an empty transaction": nothing,
        "the lock, ORM": orm_lock,
        "the lock, statements": lock,
        "the move, ORM": orm_insert,
        "the move, statements": insert,
        "the version, ORM": orm_version,
        "the version, statements": version,
    }
    times: dict[str, list[float]] = defaultdict(list)
    for _ in range(rounds):
        for name, write in ways.items():
            start = time.perf_counter()
            with transaction.atomic():
                write()
            times[name].append((time.perf_counter() - start) * 1e6)
    print(f"{rounds} rounds, each write in its own transaction (medians)")
    for name, values in times.items():
        print(f"  {name:26s} {statistics.median(values):7.1f} µs")


if __name__ == "__main__":
    main()
