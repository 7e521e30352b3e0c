"""What every table service does: lock the table, and announce a change.

**The lock order**, everywhere (services, the deadline worker, matchmaking,
the ledger): the table first, then its seats, then invitations, matchmaking
pools and their tickets, then the league's week row, then wallets and other
ledger accounts (in primary-key order).  A
service that needs a row of a later kind locks the earlier kinds first, even
when it only found the table through that row (``invitation_decline`` reads
the invitation's table id without a lock, locks the table, then the
invitation).  Two transactions taking the same rows in the same order never
deadlock on PostgreSQL.  A deadline row is locked after its subject
(``games.deadlines.still_due``), and nothing slow — a bot thinking — runs
while any of these locks is held.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from games import live, states
from games.errors import GameError
from games.models import Table


def locked_table(table_id: int) -> Table:
    """The table, row-locked until the transaction ends (one writer per table)."""
    return Table.objects.select_for_update().get(pk=table_id)


def check_version(table: Table, version: int) -> None:
    """Refuse a command decided on another version of the table: stale, or sent twice."""
    if version != table.version:
        raise GameError(_("The table has changed: here is the latest."), stale=True)


def table_changed(table: Table) -> None:
    """Save the table at its next version; viewers hear of it after the commit."""
    bump_version(table)
    announce_change(table)


def bump_version(table: Table, *, only_version: bool = False) -> None:
    """Save the table at its next version (every change to a table does, in its transaction).
    ``only_version``: nothing else of the table's row changed (a move inside a match)."""
    table.version += 1
    table.save(update_fields=["version"] if only_version else None)


def announce_change(table: Table, state: states.TableState | None = None) -> None:
    """Viewers hear of the table's new version after the commit.  ``state``: the new
    state as the writer built it, remembered then instead of read back."""
    live.table_changed(table_id=table.pk, version=table.version, state=state)
