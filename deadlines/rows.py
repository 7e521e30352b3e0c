"""A table's deadlines, the statements every move and every forced move sends, as plain
SQL through Django's cursor (its documented way to run SQL directly), as
``games.rows`` does for the move itself: the ORM compiles a statement anew at each
call, some ten times what the database does with it.  Values go through their
field's ``get_db_prep_value``, as the ORM sends them.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections

from deadlines.models import Deadline

_TABLE = Deadline._meta.db_table
_DUE_AT = Deadline._meta.get_field("due_at")


def _when(value: datetime | None) -> Any:
    return _DUE_AT.get_db_prep_value(value, connections[DEFAULT_DB_ALIAS], prepared=False)


def reset_for_table(kind: str, table_id: int, due_at: datetime, version: int | None) -> bool:
    """Move the table's deadline of ``kind`` to ``due_at``, afresh (no lease, no failure,
    not parked); False when the table has none of that kind."""
    with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
        cursor.execute(_RESET, [_when(due_at), version, kind, table_id])
        return bool(cursor.rowcount)


_RESET = (
    f'UPDATE "{_TABLE}" SET "due_at" = %s, "version" = %s, "claimed_until" = NULL, '
    f'"attempts" = 0, "parked_at" = NULL WHERE "kind" = %s AND "table_id" = %s'
)


def insert_for_table(kind: str, table_id: int, due_at: datetime, version: int | None) -> None:
    """Add the table's deadline of ``kind`` (it has none: ``reset_for_table`` said so)."""
    with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
        cursor.execute(_INSERT, [kind, table_id, "", _when(due_at), version, 0])


_INSERT = (
    f'INSERT INTO "{_TABLE}" ("kind", "table_id", "key", "due_at", "version", "attempts") '
    "VALUES (%s, %s, %s, %s, %s, %s)"
)


def delete_for_table(table_id: int, kinds: Sequence[str], *, but: str | None = None) -> None:
    """Delete the table's deadlines of ``kinds``, except one of kind ``but``."""
    kinds = [k for k in kinds if k != but]
    if not kinds:
        return
    marks = ", ".join(["%s"] * len(kinds))
    with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
        cursor.execute(
            f'DELETE FROM "{_TABLE}" WHERE "table_id" = %s AND "kind" IN ({marks})',
            [table_id, *kinds],
        )


def lock_if_unchanged(pk: int, kind: str, due_at: datetime) -> bool:
    """Lock the row (where the database locks rows) if it is still the deadline of
    ``kind`` due at ``due_at``; False when it was applied, deleted or moved since."""
    connection = connections[DEFAULT_DB_ALIAS]
    sql = _STILL + (" FOR UPDATE" if connection.features.has_select_for_update else "")
    with connection.cursor() as cursor:
        cursor.execute(sql, [pk, kind, _when(due_at)])
        return cursor.fetchone() is not None


_STILL = f'SELECT 1 FROM "{_TABLE}" WHERE "id" = %s AND "kind" = %s AND "due_at" = %s'


def any_due(now: datetime) -> bool:
    """Whether a deadline is due at ``now`` that nobody holds (not parked): what the
    worker asks at every tick before claiming, most ticks finding none."""
    with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
        when = _when(now)
        cursor.execute(_ANY_DUE, [when, when])
        return cursor.fetchone() is not None


_ANY_DUE = (
    f'SELECT 1 FROM "{_TABLE}" WHERE "due_at" <= %s AND "parked_at" IS NULL '
    'AND ("claimed_until" IS NULL OR "claimed_until" < %s) LIMIT 1'
)
