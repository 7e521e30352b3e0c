"""What every table service does: lock the table, and announce a change.

**The lock order**, everywhere (services, the deadline worker, matchmaking,
the ledger): a player's own row (``accounts.services.lock_player``: their queue
joins and stake sits), then a matchmaking pool's or a stake setting's row, then
the table, its seats, invitations, tickets, the league's week row, then wallets
and other ledger accounts (in primary-key order), then players' rows (XP).  A
service that needs a row of a later kind locks the earlier kinds first, even
when it only found the table through that row (``invitation_decline`` reads
the invitation's table id without a lock, locks the table, then the
invitation).  Two transactions taking the same rows in the same order never
deadlock on PostgreSQL.  A deadline row is locked after its subject
(``games.deadlines.still_due``), and nothing slow — a bot thinking — runs
while any of these locks is held.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable

from django.utils.translation import gettext as _

from games import live, states
from games.errors import GameError
from games.models import Table
from overrides import statements


def locked_table(table_id: int) -> Table:
    """The table, row-locked until the transaction ends (one writer per table)."""
    return Table.objects.select_for_update().get(pk=table_id)


def locked_table_at(table_id: int, version: int) -> Table:
    """``locked_table`` for a command decided on ``version``, without reading the row
    when this process holds the table at that version (its viewers read it): an UPDATE
    that matches the row only at that version, changing nothing, takes the row's lock
    and checks the version in one statement, and the held table is used (a private
    copy: it equals the row, since every change to a table moves its version).  Else
    (not held, or the table moved on) the row is read under the lock, for
    ``check_version`` to refuse a stale command as before.  The caller saves only the
    fields it changed (``bump_version``'s ``fields``), never the whole copy."""
    held = states.held(table_id, version)
    # the code too: a test's rolled-back table may leave its id to another
    if held is not None and statements.update(
        Table, {"pk": table_id, "version": version, "code": held.table.code}, version=version
    ):
        return copy.copy(held.table)
    return locked_table(table_id)


def check_version(table: Table, version: int) -> None:
    """Refuse a command decided on another version of the table: stale, or sent twice."""
    if version != table.version:
        raise GameError(_("The table has changed: here is the latest."), stale=True)


def table_changed(table: Table) -> None:
    """Save the table at its next version; viewers hear of it after the commit."""
    bump_version(table)
    announce_change(table)


def bump_version(table: Table, *, fields: Iterable[str] | None = None) -> None:
    """Save the table at its next version (every change to a table does, in its transaction).
    ``fields``: the only others of the table's row that changed (none for a move inside
    a match); None saves them all."""
    table.version += 1
    if fields is None:
        table.save()
    else:  # the hot path (a move, a player ready): no compiling of the statement
        statements.update(
            Table, {"pk": table.pk}, **{f: getattr(table, f) for f in ("version", *fields)}
        )


def announce_change(table: Table, state: states.TableState | None = None) -> None:
    """Viewers hear of the table's new version after the commit.  ``state``: the new
    state as the writer built it, remembered then instead of read back."""
    live.table_changed(table_id=table.pk, version=table.version, state=state)
