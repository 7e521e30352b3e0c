"""The one door between a table's writers and the states this process keeps
(``games.states``, lila's "game proxy" idea).

A writer locks the table at the version its command was decided on and gets a
``Writing``: the locked row, and the state this process holds at that version
when it holds one.  It plays on the private copies the ``Writing`` hands out
(seats, match, current hand), stores its rows, and commits through the
``Writing``: the table is saved at its next version and, after the commit, the
state the writer built from the one it started from and what it stored is
remembered (no read back) and the viewers are told.  What is not plainly one
step on — the match's end, a rematch, a player leaving — is read once instead.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from games import states
from games.engine import Match
from games.live import announce
from games.models import Hand, Seat, Table
from games.records import load_match
from games.states import TableState

#: A deadline a writer set: (kind, due).
Due = tuple[str, datetime]


def locked_table(table_id: int) -> Table:
    """The table, row-locked until the transaction ends (one writer per table)."""
    return Table.objects.select_for_update().get(pk=table_id)


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
        if held is not None and Table.objects.filter(pk=table_id, version=version).update(
            version=version + step
        ):
            return Writing(copy.copy(held.table), held, next_version_saved=changing)
    table = locked_table(table_id)
    return Writing(table, states.held(table_id, table.version))


@dataclass
class Writing:
    """A table locked by its writer; ``before``: this process's state at the locked
    version, if it holds it (then seats, match and hand cost no query)."""

    table: Table
    before: TableState | None
    next_version_saved: bool = False  # by the lock (``changing``)

    def seats(self) -> list[Seat]:
        """The seats, in order, as private copies to change and save."""
        if self.before is None:
            return list(self.table.seats.order_by("number"))
        return [copy.copy(seat) for seat in self.before.seats]

    def match(self) -> Match:
        """The match at the locked version, to play on: the shared hands, the current
        one a private copy.  Not held: read (and kept) once, under the lock."""
        if self.before is None:
            state = states.table_state(self.table.pk, at_least=self.table.version)
            if state.version == self.table.version:
                self.before = state
        if self.before is None or not self.before.rounds:
            return load_match(self.table)
        *done, current = self.before.rounds
        return Match(self.table.rules, rounds=[*done, current.copy()])

    def current_hand(self, match: Match) -> Hand:
        """``match``'s hand being played, as a private copy to change and save."""
        number = len(match.rounds) - 1
        before = self.before
        if before is not None and before.hands and before.hands[-1].number == number:
            return copy.copy(before.hands[-1])
        return self.table.hands.get(number=number)

    def deadlines(self) -> dict[str, datetime] | None:
        """The table's deadlines at the locked version, when held (None: unknown)."""
        return self.before.deadlines if self.before is not None else None

    def next_version(self, *, fields: Iterable[str] | None = None) -> None:
        """Save the table at its next version.  ``fields``: the only others of its row
        that changed (none for a move inside a match); None saves them all."""
        saved, self.next_version_saved = self.next_version_saved, False
        bump_version(self.table, fields=fields, version_saved=saved)

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
        announce_change(table, after)

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
        announce_change(table, after)

    def seats_changed(self, seats: list[Seat]) -> None:
        """Only seats changed (a player ready for the next hand, back from away)."""
        before, table = self.before, self.table
        after = None
        if before is not None and _continues(before, table, seats):
            after = dataclasses.replace(before, table=table, seats=_with_users(seats, before))
        announce_change(table, after)


def table_changed(table: Table) -> None:
    """Save the table at its next version; viewers hear of it after the commit (the
    new state is read once then)."""
    bump_version(table)
    announce_change(table)


def bump_version(
    table: Table, *, fields: Iterable[str] | None = None, version_saved: bool = False
) -> None:
    """Save the table at its next version (every change to a table does, in its transaction).
    ``version_saved``: the lock saved it already; only ``fields`` are (none: no statement)."""
    table.version += 1
    if fields is not None:
        fields = list(fields) if version_saved else ["version", *fields]
    table.save(update_fields=fields)  # Django skips the save of an empty list


def announce_change(table: Table, state: TableState | None = None) -> None:
    """Viewers hear of the table's new version after the commit.  ``state``: the new
    state as the writer built it, remembered then instead of read back."""
    announce.table_changed(table_id=table.pk, version=table.version, state=state)


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
        if seat.user_id is not None and not Seat.user.is_cached(seat):
            seat.user = earlier.user  # the same player: no query for their name
    return tuple(seats)


def _deadlines(
    before: TableState, replaced: tuple[str, ...], deadline: Due | None
) -> dict[str, datetime]:
    deadlines = {kind: due for kind, due in before.deadlines.items() if kind not in replaced}
    if deadline is not None:
        deadlines[deadline[0]] = deadline[1]
    return deadlines
