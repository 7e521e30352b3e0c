"""Hot statements without the ORM's SQL compiler: each built once per shape.

Django compiles a statement's SQL anew at every call.  For the one-row UPDATE that
saves a table's version, that is about 250 µs of Python, against about 10 µs for
SQLite to run it (bench/statements.py); a move writes three rows, so its command
spent most of its time there, and a page's few reads most of theirs.

``update`` and ``insert`` build the text of each shape once (per model, columns
and database vendor) from the model's metadata — its table, its columns, quoted by
the backend — and send each value through its field's ``get_db_prep_save``, as the
ORM does.  They send no signals: they are for rows nothing listens to (moves,
tables, seats).  ``Prepared`` keeps the SQL the ORM compiled for a read and runs
it again with new arguments.  Everywhere else, the ORM.

Written against Django 5.2.19: the compiler's ``as_sql``, ``select``,
``klass_info``, ``annotation_col_map``, ``get_converters`` and
``apply_converters``, and ``Model.from_db`` (tests/overrides/test_written_against.py
fails when they change).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field, Model, QuerySet
from django.db.models.sql import Query

M = TypeVar("M", bound=Model)


def update(model: type[Model], where: dict[str, Any], **values: Any) -> int:
    """``UPDATE`` the rows of ``model`` whose fields equal ``where`` (names, ``pk`` or
    attnames such as ``table_id``) to ``values`` (as their columns hold them: a foreign
    key's id, not its object); the number of rows matched."""
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
    vendor: str,  # the cache's key: each backend quotes its own way
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
    """The INSERT's text, and whether it returns the new primary key itself
    (``vendor``: the cache's key, each backend quoting its own way)."""
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


class _Argument(int):
    """Where a call's argument goes among a compiled read's parameters (its index)."""


#: A parameter that changed between the two builds, but not as a marker did.
_CHANGED_OTHERWISE = object()


@dataclass(frozen=True)
class _Compiled(Generic[M]):
    """A read compiled for one vendor: its SQL, where the arguments go among its
    parameters, the columns it selects, and which of them make the model's instance."""

    model: type[M]
    query: Query  # to make a compiler for a connection: the columns' converters
    sql: str
    slots: list[Any]
    columns: tuple[Any, ...]  # the select's expressions (their converters apply)
    positions: tuple[int, ...]  # the model's own columns among them, in its order
    names: list[str]  # their attribute names, for ``Model.from_db``
    annotations: tuple[tuple[str, int], ...]  # (name, position): set on each instance


class Prepared(Generic[M]):
    """A read whose SQL the ORM compiles once per database vendor.  ``build`` makes its
    QuerySet of ``M`` (no ``select_related``: the rows are the model's own) from ints
    and strings, which must reach the SQL as they are (an ``exact`` or ``in``, not a
    ``contains``).  The first call compiles the QuerySets built from two sets of
    markers, to tell the arguments' parameters from the query's constants; every call
    runs that SQL with its own arguments and makes the instances as the ORM does (the
    fields' converters applied, ``Model.from_db``), without its per-call set-up."""

    def __init__(self, build: Callable[..., QuerySet[M]]) -> None:
        self.build = build
        self.compiled: dict[tuple[str, tuple[type, ...]], _Compiled[M]] = {}

    def __call__(self, *args: int | str) -> list[M]:
        db = _database()
        kinds = tuple(type(arg) for arg in args)
        if any(kind not in (int, str) for kind in kinds):
            raise TypeError("a prepared read takes ints and strs only")
        read = self.compiled.get((db.vendor, kinds)) or self._compile(db, kinds)
        params = [args[slot] if type(slot) is _Argument else slot for slot in read.slots]
        with db.cursor() as cursor:
            cursor.execute(read.sql, params)
            rows: Iterable[Any] = cursor.fetchall()
        # As the ORM makes its instances: each column through its converters (the
        # compiler's own, for this connection), the model's own columns, in order, to
        # ``from_db``, then its annotations.
        compiler = read.query.get_compiler(connection=db)
        converters = compiler.get_converters(read.columns)
        if converters:
            rows = compiler.apply_converters(rows, converters)
        found = []
        for values in rows:
            instance = read.model.from_db(db.alias, read.names, [values[n] for n in read.positions])
            for name, n in read.annotations:
                setattr(instance, name, values[n])
            found.append(instance)
        return found

    def first(self, *args: int | str) -> M | None:
        """The first row the read finds, or None."""
        return next(iter(self(*args)), None)

    def _compile(self, db: BaseDatabaseWrapper, kinds: tuple[type, ...]) -> _Compiled[M]:
        # Built twice, from two sets of markers: a parameter that follows the markers
        # is that argument's, one that stays the same is the query's own constant.
        one, two = (
            [base + n if kind is int else f"{tag}{n}" for n, kind in enumerate(kinds)]
            for base, tag in ((1001, "a"), (2001, "b"))
        )
        queryset = self.build(*one)
        compiler = queryset.query.get_compiler(connection=db)
        sql, params = compiler.as_sql()
        again, other_params = self.build(*two).query.get_compiler(connection=db).as_sql()
        if again != sql or len(other_params) != len(params):
            raise TypeError("the arguments must not change the query's shape")
        markers = {(mark, two[n]): _Argument(n) for n, mark in enumerate(one)}
        slots = [
            param if param == other else markers.get((param, other), _CHANGED_OTHERWISE)
            for param, other in zip(params, other_params, strict=True)
        ]
        arguments = {slot for slot in slots if type(slot) is _Argument}
        if _CHANGED_OTHERWISE in slots or len(arguments) != len(kinds):
            raise TypeError("every argument must reach the SQL as it is (no lookup changes it)")
        columns = tuple(expression for expression, _sql, _alias in compiler.select)
        info = compiler.klass_info
        if info is None or info.get("related_klass_infos"):
            raise TypeError("a prepared read makes its model's own rows (no select_related)")
        positions = tuple(info["select_fields"])
        names = [columns[n].target.attname for n in positions]
        annotations = tuple(compiler.annotation_col_map.items())
        compiled = _Compiled(
            queryset.model, queryset.query, sql, slots, columns, positions, names, annotations
        )
        self.compiled[db.vendor, kinds] = compiled
        return compiled
