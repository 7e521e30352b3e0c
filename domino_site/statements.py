"""A move's writes without the ORM's SQL compiler: statements built once per shape.

Django compiles a statement's SQL anew at every call.  For the one-row UPDATE that
saves a table's version, that is about 250 µs of Python, against about 10 µs for
SQLite to run it (bench/statements.py); a move writes three rows, so its command
spent most of its time there.  ``update`` and ``insert`` build the text of each
shape once (per model, columns and database vendor) from the model's metadata —
its table, its columns, quoted by the backend — and send each value through its
field's ``get_db_prep_save``, as the ORM does.  They send no signals: they are for
rows nothing listens to (moves, tables, seats).  Everywhere else, the ORM.
"""

from __future__ import annotations

import functools
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field, Model


def update(model: type[Model], where: dict[str, Any], **values: Any) -> int:
    """``UPDATE`` the rows of ``model`` whose fields equal ``where`` (names, ``pk`` or
    attnames such as ``table_id``) to ``values``; the number of rows matched."""
    fields, db = _fields(model), _database()
    if any(value is None for value in where.values()):
        raise ValueError("a column equal to NULL matches no row: say IS NULL with the ORM")
    sql = _update_text(model, tuple(values), tuple(where), db.vendor)
    params = [fields[name].get_db_prep_save(value, db) for name, value in values.items()]
    params += [fields[name].get_db_prep_value(value, db) for name, value in where.items()]
    with db.cursor() as cursor:
        cursor.execute(sql, params)
        return int(cursor.rowcount)


def insert(obj: Model) -> None:
    """``INSERT`` ``obj`` as ``obj.save()`` would a new row (defaults, ``auto_now_add``),
    and set its primary key."""
    model, db = type(obj), _database()
    columns = _insert_fields(model)
    sql, returning = _insert_text(model, db.vendor)
    params = [f.get_db_prep_save(f.pre_save(obj, True), db) for f in columns]
    with db.cursor() as cursor:
        cursor.execute(sql, params)
        pk = model._meta.pk
        assert pk is not None
        if returning:
            obj.pk = cursor.fetchone()[0]
        else:
            obj.pk = db.ops.last_insert_id(cursor, model._meta.db_table, _column(pk))
    obj._state.adding, obj._state.db = False, db.alias


def _database() -> BaseDatabaseWrapper:
    """This thread's connection, looked up once (each attribute of Django's
    ``connection`` proxy looks it up again)."""
    return connections[DEFAULT_DB_ALIAS]


@functools.cache
def _fields(model: type[Model]) -> dict[str, Field[Any, Any]]:
    """The model's concrete fields by name, by attname (``table_id``) and ``pk``."""
    fields: dict[str, Field[Any, Any]] = {}
    for field in model._meta.concrete_fields:
        fields[field.name] = fields[field.attname] = field
    assert model._meta.pk is not None
    fields["pk"] = model._meta.pk
    return fields


def _column(field: Field[Any, Any]) -> str:
    assert field.column is not None  # a concrete field's
    return field.column


@functools.cache
def _update_text(
    model: type[Model],
    set_names: tuple[str, ...],
    where_names: tuple[str, ...],
    vendor: str,
) -> str:
    quote, fields = _database().ops.quote_name, _fields(model)
    assignments = ", ".join(f"{quote(_column(fields[name]))} = %s" for name in set_names)
    conditions = " AND ".join(f"{quote(_column(fields[name]))} = %s" for name in where_names)
    return f"UPDATE {quote(model._meta.db_table)} SET {assignments} WHERE {conditions}"


@functools.cache
def _insert_fields(model: type[Model]) -> tuple[Field[Any, Any], ...]:
    """The columns an INSERT writes: every concrete one but an automatic primary key."""
    pk = model._meta.pk
    return tuple(f for f in model._meta.concrete_fields if not (f is pk and f.db_returning))


@functools.cache
def _insert_text(model: type[Model], vendor: str) -> tuple[str, bool]:
    """The INSERT's text, and whether it returns the new primary key itself."""
    db = _database()
    quote, fields, pk = db.ops.quote_name, _insert_fields(model), model._meta.pk
    assert pk is not None
    columns = ", ".join(quote(_column(f)) for f in fields)
    placeholders = ", ".join(["%s"] * len(fields))
    sql = f"INSERT INTO {quote(model._meta.db_table)} ({columns}) VALUES ({placeholders})"
    returning = db.features.can_return_columns_from_insert
    if returning:
        sql += f" RETURNING {quote(_column(pk))}"
    return sql, returning
