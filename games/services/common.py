"""What every table service shares: the lock order, and refusing a stale command (the
table's lock and the announcement of a change are ``games.store``'s).

**The lock order**, everywhere (services, the deadline worker, matchmaking,
the ledger): a player's own row (``accounts.services.lock_player``: their queue
joins and stake sits), then a matchmaking pool's or a stake setting's row, then
the table, its seats, invitations, tickets, the league's week row, then wallets
and other ledger accounts (in primary-key order), then players' rows (XP), then
their ratings (``ratings.Rating``, in user-id order).  A
service that needs a row of a later kind locks the earlier kinds first, even
when it only found the table through that row (``invitation_decline`` reads
the invitation's table id without a lock, locks the table, then the
invitation).  Two transactions taking the same rows in the same order never
deadlock on PostgreSQL.  A deadline row is locked after its subject
(``deadlines.services.still_due``), and nothing slow — a bot thinking — runs
while any of these locks is held.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.errors import GameError
from games.models import Table


def check_version(table: Table, version: int) -> None:
    """Refuse a command decided on another version of the table: stale, or sent twice."""
    if version != table.version:
        raise GameError(_("The table has changed: here is the latest."), stale=True)
