"""The one door for every change of a table, between its writers and the states this
process keeps (``games.states``, lila's "game proxy" idea).

A writer opens ``changing(table, version)``: the table is locked at the version its
command was decided on (a command decided on another is refused), and the writer
gets a ``Writing``: the locked row, and the state this process holds at that
version when it holds one.  It plays on the private copies the ``Writing`` hands
out (seats, match, current hand) and stores its rows.  When it is done the table
is saved at its next version and, after the commit, its viewers are told — the
door does it, so a change cannot forget either; a writer that changed nothing
says so (``unchanged``).  A move, a deal or a change of seats tells the door what
it stored, and the state it built from the one it started from is remembered (no
read back); what is not plainly one step on — the match's end, a rematch, a
player leaving — is read once instead.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import TypeVar

from django.db import transaction
from django.db.models import Model
from django.utils.translation import gettext as _

from games import rows, states
from games.engine import Match
from games.live import announce
from games.models import Hand, Seat, Table
from games.records import load_match
from games.states import TableState
from games.view.errors import GameError

#: A deadline a writer set: (kind, due).
Due = tuple[str, datetime]

Row = TypeVar("Row", bound=Model)


def private_copy(row: Row) -> Row:
    """A copy of a held row to change and save, as ``copy.copy`` makes one (its fields,
    its documented ``_state``, the related rows it caches, each copied once) without the
    pickling protocol's detour through ``__reduce_ex__``: a quarter of a move's Python
    steps went to copying the table, its seats and its hand that way."""
    new = object.__new__(type(row))
    new.__dict__ = row.__dict__.copy()
    state = new._state = object.__new__(type(row._state))
    state.__dict__ = row._state.__dict__.copy()
    state.fields_cache = row._state.fields_cache.copy()
    return new


def locked_table(table_id: int) -> Table:
    """The table, row-locked until the transaction ends, to read it or to write rows of
    its own that no view shows (a seed for its next deal): a change goes through
    ``changing``."""
    return Table.objects.select_for_update().get(pk=table_id)


def check_version(table: Table, version: int) -> None:
    """Refuse a command decided on another version of the table: stale, or sent twice."""
    if version != table.version:
        raise GameError(_("The table has changed: here is the latest."), stale=True)


@contextmanager
def changing(
    table_id: int,
    version: int | None = None,
    *,
    move: bool = False,
    decided_at: int | None = None,
) -> Iterator[Writing]:
    """The one door for a change of a table: lock it for a command decided on ``version``
    (None: whatever it is now; another raises ``GameError``, stale), let the writer
    change it, then save it at its next version and tell its viewers after the commit.
    ``move``: the command records a move or raises (the lock saves the next version).
    ``decided_at``: the version a writer read the table at, which it checks itself (the
    worker's bot decides again when the table moved on).  Inside a transaction; an
    exception leaves everything to its rollback."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("a table changes inside a transaction")
    writing = lock(table_id, version if decided_at is None else decided_at, changing=move)
    if version is not None:
        check_version(writing.table, version)
    yield writing
    writing.finish()


def lock(table_id: int, version: int | None = None, *, changing: bool = False) -> Writing:
    """Lock the table for a command decided on ``version`` (None: whatever it is now).

    When this process holds the table at that version (its viewers read it), the row
    is not read: one UPDATE that matches it only at that version takes the row's lock
    and checks the version in one statement, and the held table is used (a private
    copy: it equals the row, since every change to a table moves its version).  Else
    the row is read under the lock, and ``check_version`` refuses a stale command as
    before.  ``changing``: the command moves the table to its next version whenever
    it does not raise (a move), so that UPDATE saves the next version already: one
    statement less per move."""
    if version is not None:
        held = states.held(table_id, version)
        step = 1 if changing else 0
        if held is not None and rows.lock_at(table_id, version, step=step):
            return Writing(private_copy(held.table), held, next_version_saved=changing)
    table = locked_table(table_id)
    return Writing(table, states.held(table_id, table.version))


@dataclass
class Writing:
    """A table locked by its writer; ``before``: this process's state at the locked
    version, if it holds it (then seats, match and hand cost no query)."""

    table: Table
    before: TableState | None
    next_version_saved: bool = False  # by the lock (``changing``)
    bumped: bool = False  # saved at its next version
    told: bool = False  # its viewers will hear of it
    unchanged_: bool = False  # the writer changed nothing

    def seats(self) -> list[Seat]:
        """The seats, in order, as private copies to change and save."""
        if self.before is None:
            return list(self.table.seats.order_by("number"))
        return [private_copy(seat) for seat in self.before.seats]

    def match(self) -> Match:
        """The match at the locked version, to play on: the shared hands, the current
        one a private copy.  Not held: read (and kept) once, under the lock."""
        if self.before is None:
            state = states.table_state(self.table.pk, at_least=self.table.version)
            if state.version == self.table.version:
                self.before = state
        match = self.before.match_to_play() if self.before is not None else None
        return match if match is not None else load_match(self.table)

    def current_hand(self, match: Match) -> Hand:
        """``match``'s hand being played, as a private copy to change and save."""
        number = len(match.rounds) - 1
        before = self.before
        if before is not None and before.hands and before.hands[-1].number == number:
            return private_copy(before.hands[-1])
        return self.table.hands.get(number=number)

    def deadlines(self) -> dict[str, datetime] | None:
        """The table's deadlines at the locked version, when held (None: unknown)."""
        return self.before.deadlines if self.before is not None else None

    def next_version(self, *, fields: Iterable[str] | None = None) -> None:
        """Save the table at its next version, once (a writer that schedules what comes
        next at that version saves it first).  ``fields``: the only others of its row
        that changed (none for a move inside a match); None saves them all."""
        self.unchanged_ = False  # it changed after all
        if self.bumped:
            if fields is None or fields:
                self.table.save(update_fields=fields)
            return
        saved, self.next_version_saved = self.next_version_saved, False
        bump_version(self.table, fields=fields, version_saved=saved)
        self.bumped = True

    def unchanged(self) -> None:
        """Nothing changed (a second click, a seat already taken): unless the writer
        changes the table after all, it keeps its version and nobody is told."""
        if self.bumped or self.next_version_saved:
            raise RuntimeError("the table was saved at its next version already")
        self.unchanged_ = True

    def close(self, status: str, now: datetime) -> None:
        """The table is over (``status``: cancelled, abandoned …): nothing more is due."""
        self.table.status = status
        self.table.finished_at = now
        self.table.deadlines.all().delete()

    def finish(self) -> None:
        """The writer is done: the table at its next version, its viewers told."""
        if self.unchanged_:
            return
        if not self.bumped:
            self.next_version()
        if not self.told:
            self.told = True
            _announce(self.table)

    # After the write: tell the viewers, with the state built here when it is one step on.

    def moved(
        self,
        *,
        seats: list[Seat],
        hand: Hand,
        match: Match,
        actor: str,
        replaced: tuple[str, ...],
        deadline: Due | None,
    ) -> None:
        """One more move in the current hand was stored (``replaced``: the deadline
        kinds deleted, ``deadline``: the one set)."""
        before, table = self.before, self.table
        after = None
        if (
            before is not None
            and _continues(before, table, seats)
            and len(before.rounds) == len(match.rounds) == len(before.hands)
            and before.hands[-1].pk == hand.pk
        ):
            after = TableState(
                table=table,
                seats=_with_users(seats, before),
                hands=(*before.hands[:-1], hand),
                rounds=tuple(match.rounds),
                actors=(*before.actors, actor),
                invitations=(),
                deadlines=_deadlines(before, replaced, deadline),
            )
        self.told = True
        _announce(table, after)

    def dealt(
        self,
        *,
        seats: list[Seat],
        hand: Hand,
        match: Match,
        replaced: tuple[str, ...],
        deadline: Due | None,
    ) -> None:
        """The next hand was dealt and stored: ``hand`` is ``match``'s last round."""
        before, table = self.before, self.table
        after = None
        if (
            before is not None
            and _continues(before, table, seats)
            and len(match.rounds) == len(before.rounds) + 1
            and hand.number == len(before.hands)
        ):
            after = TableState(
                table=table,
                seats=_with_users(seats, before),
                hands=(*before.hands, hand),
                rounds=tuple(match.rounds),
                actors=(),
                invitations=(),
                deadlines=_deadlines(before, replaced, deadline),
            )
        self.told = True
        _announce(table, after)

    def seats_changed(self, seats: list[Seat]) -> None:
        """Only seats changed (a player ready for the next hand, back from away)."""
        before, table = self.before, self.table
        after = None
        if before is not None and _continues(before, table, seats):
            after = dataclasses.replace(before, table=table, seats=_with_users(seats, before))
        self.told = True
        _announce(table, after)


def bump_version(
    table: Table, *, fields: Iterable[str] | None = None, version_saved: bool = False
) -> None:
    """Save the table at its next version (every change to a table does, in its transaction).
    ``version_saved``: the lock saved it already; only ``fields`` are (none: no statement)."""
    table.version += 1
    if fields is None:
        table.save()
    else:
        rows.update(table, fields if version_saved else ("version", *fields))


def _announce(table: Table, state: TableState | None = None) -> None:
    """Viewers hear of the table's new version after the commit.  ``state``: the new
    state as the writer built it, remembered then instead of read back."""
    announce.new_version(table_id=table.pk, version=table.version, state=state)


def _continues(before: TableState, table: Table, seats: list[Seat]) -> bool:
    """Whether ``table`` is ``before``'s next version, still playing, same players."""
    return (
        before.version == table.version - 1
        and table.status == Table.Status.PLAYING
        and table.rematch_id is None
        and [s.pk for s in before.seats] == [s.pk for s in seats]
        and all(s.user_id == b.user_id for s, b in zip(seats, before.seats, strict=True))
    )


def _with_users(seats: list[Seat], before: TableState) -> tuple[Seat, ...]:
    for seat, earlier in zip(seats, before.seats, strict=True):
        if seat.user_id is not None and seat.user_id == earlier.user_id:
            seat.user = earlier.user  # the same player, read with the state: no query
    return tuple(seats)


def _deadlines(
    before: TableState, replaced: tuple[str, ...], deadline: Due | None
) -> dict[str, datetime]:
    deadlines = {kind: due for kind, due in before.deadlines.items() if kind not in replaced}
    if deadline is not None:
        deadlines[deadline[0]] = deadline[1]
    return deadlines
