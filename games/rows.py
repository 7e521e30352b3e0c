"""A move's two hot writes, the saves of a few fields of a stored row (a table's next
version, a seat ready for the next hand), and the reads of a table's version and of
whether a player has their forced moves played, as plain SQL through Django's cursor
(its documented way to run SQL directly); everything else goes through the ORM.

The ORM compiles a statement's SQL again at every call: for the one-row UPDATE that
takes a table's lock at its version, about 110 µs of Python against about 15 µs
for SQLite to run it, and as much for the INSERT of the move, a tenth of what a
move costs the server.  Here each statement's text is made once per model, from
the model's documented metadata (its table, its fields' columns), and each value
goes through its field's ``pre_save`` and ``get_db_prep_save`` as the ORM sends it.
No signal is sent: nothing listens to these rows.  SQLite and PostgreSQL both quote
names with double quotes and return the new key with ``RETURNING``.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Field, Model

from accounts.models import User
from games.models import Table


def lock_at(table_id: int, version: int, *, step: int) -> bool:
    """Take the table's row lock if it is at ``version``, moving it ``step`` versions
    on in the same statement; False when the row is at another version."""
    with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
        cursor.execute(_LOCK_AT, [version + step, table_id, version])
        return bool(cursor.rowcount == 1)


_LOCK_AT = f'UPDATE "{Table._meta.db_table}" SET "version" = %s WHERE "id" = %s AND "version" = %s'


def version_of(table_id: int) -> int | None:
    """The table's version now (None: no such table): what tells whether the state
    this process holds is still the latest, before reading a whole row."""
    with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
        cursor.execute(_VERSION_OF, [table_id])
        found = cursor.fetchone()
    return None if found is None else int(found[0])


_VERSION_OF = f'SELECT "version" FROM "{Table._meta.db_table}" WHERE "id" = %s'


def insert(row: Model) -> None:
    """Store a new ``row`` as ``row.save()`` would (defaults, ``auto_now_add``) and set
    its primary key: for a model with an automatic ``id`` and no signal receivers."""
    model, db = type(row), connections[DEFAULT_DB_ALIAS]
    fields, sql = _insert(model)
    params = [field.get_db_prep_save(field.pre_save(row, True), db) for field in fields]
    with db.cursor() as cursor:
        cursor.execute(sql, params)
        row.pk = cursor.fetchone()[0]
    row._state.adding, row._state.db = False, db.alias


@functools.cache
def _insert(model: type[Model]) -> tuple[tuple[Field[Any, Any], ...], str]:
    """The fields an INSERT of ``model`` writes (every column but ``id``), and its text."""
    fields = tuple(
        field
        for field in model._meta.get_fields()
        if isinstance(field, Field) and field.concrete and field.column != "id"
    )
    columns = ", ".join(f'"{field.column}"' for field in fields)
    values = ", ".join(["%s"] * len(fields))
    return fields, (
        f'INSERT INTO "{model._meta.db_table}" ({columns}) VALUES ({values}) RETURNING "id"'
    )


def update(row: Model, fields: Iterable[str]) -> None:
    """Save ``fields`` of a stored ``row`` as ``row.save(update_fields=fields)`` would
    (``auto_now`` included): for a model with an automatic ``id`` and no signal receivers.
    No field: no statement, as Django's own."""
    names = tuple(fields)
    if not names:
        return
    db = connections[DEFAULT_DB_ALIAS]
    columns, sql = _update(type(row), names)
    params = [field.get_db_prep_save(field.pre_save(row, False), db) for field in columns]
    with db.cursor() as cursor:
        cursor.execute(sql, [*params, row.pk])


@functools.cache
def _update(model: type[Model], names: tuple[str, ...]) -> tuple[tuple[Field[Any, Any], ...], str]:
    """The fields an UPDATE of ``names`` of one ``model`` row writes, and its text."""
    fields = tuple(model._meta.get_field(name) for name in names)
    assigned = ", ".join(f'"{field.column}" = %s' for field in fields)  # type: ignore[union-attr]
    return fields, f'UPDATE "{model._meta.db_table}" SET {assigned} WHERE "id" = %s'  # type: ignore[return-value]


def plays_forced_moves(user_id: int) -> bool:
    """Whether the player has their only possible moves played for them, as saved now."""
    with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
        cursor.execute(_PLAYS_FORCED, [user_id])
        found = cursor.fetchone()
    return found is not None and bool(found[0])


_PLAYS_FORCED = (
    f'SELECT "{User._meta.get_field("plays_forced_moves").column}" '
    f'FROM "{User._meta.db_table}" WHERE "id" = %s'
)
