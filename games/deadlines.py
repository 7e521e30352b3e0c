"""Deadlines are rows; a worker claims the due ones and applies each exactly once.

How exactly once holds with several workers (``manage.py run_worker``, or the
one inside each daphne process):

1. **Claim.** A worker takes a lease on a batch of due rows: it selects them
   ``FOR UPDATE SKIP LOCKED`` (PostgreSQL; SQLite has one writer at a time
   anyway) and sets ``claimed_until``, so other workers pass them by until the
   lease ends — a worker that dies only delays its rows by the lease.
2. **Apply.** Each kind's handler locks the deadline's subject first (the
   table's row, in the global lock order), then re-reads the deadline row and
   applies it only if it is still there and unchanged (``due_at``), deleting
   or replacing it in the same transaction.  Two workers holding the same row
   after a lease ran out serialise on the subject's lock; the second finds the
   row gone and does nothing.

Handlers do nothing slow under a lock: a bot decides before the lock is taken.
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games.models import Deadline, Table

log = logging.getLogger(__name__)

#: How long a claim keeps other workers off a row.
LEASE = timedelta(seconds=30)
#: When a handler fails, the row is tried again this much later.
RETRY_AFTER = timedelta(seconds=30)

Handler = Callable[[Deadline, datetime], bool]
_handlers: dict[str, Handler] = {}


def handles(*kinds: str) -> Callable[[Handler], Handler]:
    """Register the function that applies deadlines of these kinds.

    It gets the claimed row (a snapshot) and the time, and returns whether it
    did something; it must lock the subject, then call :func:`still_due`."""

    def register(handler: Handler) -> Handler:
        for kind in kinds:
            _handlers[kind] = handler
        return handler

    return register


def set_deadline(
    kind: str,
    due_at: datetime,
    *,
    table: Table | None = None,
    key: str = "",
    version: int | None = None,
) -> None:
    """Create or move the one deadline of ``kind`` for this subject (call under its lock)."""
    subject: dict[str, Any] = {"table": table} if table is not None else {"key": key}
    fields = {"due_at": due_at, "version": version, "claimed_until": None, "attempts": 0}
    # Under the subject's lock nobody else adds its row: an update, else an insert
    # (two statements; update_or_create's savepoint and select made four).
    if Deadline.objects.filter(kind=kind, **subject).update(**fields):
        return
    Deadline.objects.create(kind=kind, **subject, **fields)


def still_due(claimed: Deadline) -> Deadline | None:
    """The claimed row, locked, if it is still the same deadline (call under the subject's lock)."""
    return (
        Deadline.objects.select_for_update()
        .filter(pk=claimed.pk, kind=claimed.kind, due_at=claimed.due_at)
        .first()
    )


def worker_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def claim_due(*, now: datetime, limit: int = 50) -> list[Deadline]:
    """Lease up to ``limit`` due rows nobody else holds, oldest first."""
    with transaction.atomic():
        rows = list(
            Deadline.objects.select_for_update(skip_locked=True)
            .filter(due_at__lte=now)
            .filter(Q(claimed_until__isnull=True) | Q(claimed_until__lt=now))
            .order_by("due_at")[:limit]
        )
        if rows:
            Deadline.objects.filter(pk__in=[d.pk for d in rows]).update(claimed_until=now + LEASE)
    return rows


def apply(deadline: Deadline, *, now: datetime) -> bool:
    """Run one claimed row's handler; a failure is logged and retried later."""
    handler = _handlers.get(deadline.kind)
    if handler is None:
        log.error("deadline %s: no handler for kind %r", deadline.pk, deadline.kind)
        return False
    try:
        return handler(deadline, now)
    except Exception:  # one broken subject must not stop the others
        log.exception(
            "deadline %s (%s, table %s, key %r) failed; retrying in %ss",
            deadline.pk,
            deadline.kind,
            deadline.table_id,
            deadline.key,
            RETRY_AFTER.seconds,
        )
        Deadline.objects.filter(pk=deadline.pk, due_at=deadline.due_at).update(
            due_at=now + RETRY_AFTER, claimed_until=None
        )
        return False


def run_due(*, now: datetime | None = None, limit: int = 50) -> int:
    """Claim what is due and apply it; returns how many deadlines did something."""
    now = now or timezone.now()
    return sum(apply(d, now=now) for d in claim_due(now=now, limit=limit))
