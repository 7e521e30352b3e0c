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
3. **Fail.** A handler that raises has its transaction rolled back; the row is
   tried again later and later (:func:`retry_delay`), and after ``PARK_AFTER``
   failures in a row it is parked: logged at ERROR, claimed by no worker until
   :func:`set_deadline` sets it again (the subject moved on) or an operator
   retries it from the admin (:func:`unpark`).  A kind's ``on_parked`` hook may
   tell the people waiting on it.

Handlers do nothing slow under a lock: a bot decides before the lock is taken.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.functional import Promise

from deadlines import rows
from deadlines.models import Deadline
from monitoring import context, metrics

log = logging.getLogger(__name__)

#: How long a claim keeps other workers off a row.
LEASE = timedelta(seconds=30)
#: A failed row is tried again this much later, twice as long after each further
#: failure in a row (30 s, 1, 2, 4, 8, 16 min), never more than ``RETRY_MAX``…
RETRY_FIRST = timedelta(seconds=30)
RETRY_MAX = timedelta(minutes=30)
#: …and parked at its 8th failure in a row, about an hour after the first.
PARK_AFTER = 8

Handler = Callable[[Deadline, datetime], bool]
ParkedHook = Callable[[Deadline], None]
_labels: dict[str, str | Promise] = {}
_handlers: dict[str, Handler] = {}
_parked_hooks: dict[str, ParkedHook] = {}


def kind(name: str, label: str | Promise) -> str:
    """Register a kind of deadline an app owns, with what an operator reads for it;
    returns ``name`` (the app keeps it as its constant)."""
    if _labels.get(name, label) != label:
        raise ValueError(f"deadline kind {name!r} is registered twice")
    _labels[name] = label
    return name


def label_of(name: str) -> str:
    return str(_labels.get(name, name))


def handles(*kinds: str) -> Callable[[Handler], Handler]:
    """Register the function that applies deadlines of these kinds.

    It gets the claimed row (a snapshot) and the time, and returns whether it
    did something; it must lock the subject, then call :func:`still_due`."""

    def register(handler: Handler) -> Handler:
        for kind in kinds:
            _handlers[kind] = handler
        return handler

    return register


def on_parked(*kinds: str) -> Callable[[ParkedHook], ParkedHook]:
    """Register what to do once a deadline of these kinds is parked (say, tell the
    people waiting for it); it gets the claimed row once the parking is saved."""

    def register(hook: ParkedHook) -> ParkedHook:
        for kind in kinds:
            _parked_hooks[kind] = hook
        return hook

    return register


def set_deadline(
    kind: str,
    due_at: datetime,
    *,
    table: Any = None,
    key: str = "",
    version: int | None = None,
) -> None:
    """Create or move the one deadline of ``kind`` for this subject (call under its lock).

    It starts afresh: no failures counted, not parked.  ``table``: a ``games.Table``."""
    if kind not in _labels:
        raise ValueError(
            f"unknown deadline kind {kind!r}: register it with deadlines.services.kind"
        )
    if table is not None:  # a table's: every move may set one, so in plain SQL
        if not rows.reset_for_table(kind, table.pk, due_at, version):
            rows.insert_for_table(kind, table.pk, due_at, version)
        return
    subject: dict[str, Any] = {"key": key}
    fields = {
        "due_at": due_at,
        "version": version,
        "claimed_until": None,
        "attempts": 0,
        "parked_at": None,
    }
    # Under the subject's lock nobody else adds its row: an update, else an insert
    # (two statements; update_or_create's savepoint and select made four).
    if Deadline.objects.filter(kind=kind, **subject).update(**fields):
        return
    Deadline.objects.create(kind=kind, **subject, **fields)


def put_off_due(kind: str, until: datetime, *, now: datetime) -> int:
    """Move every row of ``kind`` due before ``until`` that nobody holds to ``until``, in
    one statement: for a kind whose handler rests a while (the coach), so that its
    rows are not claimed one by one only to be put off.  Returns how many moved."""
    return (
        Deadline.objects.filter(kind=kind, due_at__lt=until, parked_at__isnull=True)
        .filter(Q(claimed_until__isnull=True) | Q(claimed_until__lt=now))
        .update(due_at=until)
    )


def still_due(claimed: Deadline) -> Deadline | None:
    """The claimed row, its row locked, if it is still the same deadline (call under the
    subject's lock); None when it was applied, deleted or moved since."""
    return claimed if rows.lock_if_unchanged(claimed.pk, claimed.kind, claimed.due_at) else None


def claim_due(*, now: datetime, limit: int = 50) -> list[Deadline]:
    """Lease up to ``limit`` due rows nobody else holds, oldest first (never a parked one)."""
    if not rows.any_due(now):  # most ticks: one plain statement, no ORM query compiled
        return []
    with transaction.atomic():
        claimed = list(
            Deadline.objects.select_for_update(skip_locked=True)
            .filter(due_at__lte=now, parked_at__isnull=True)
            .filter(Q(claimed_until__isnull=True) | Q(claimed_until__lt=now))
            .order_by("due_at")[:limit]
        )
        if claimed:
            Deadline.objects.filter(pk__in=[d.pk for d in claimed]).update(
                claimed_until=now + LEASE
            )
    return claimed


def apply(deadline: Deadline, *, now: datetime) -> bool:
    """Run one claimed row's handler; a failure is logged and retried later, or parked."""
    handler = _handlers.get(deadline.kind)
    counters = metrics.deadline_counters(deadline.kind)
    counters.lateness.observe(max((now - deadline.due_at).total_seconds(), 0))
    with context.about(f"deadline:{deadline.pk}"):  # its log lines say which
        try:
            if handler is None:
                raise LookupError(f"no handler for deadlines of kind {deadline.kind!r}")
            done = handler(deadline, now)
        except Exception:  # one broken subject must not stop the others
            _failed(deadline, now=now)
            counters.failed.inc()
            return False
    (counters.done if done else counters.nothing).inc()
    return done


def retry_delay(attempts: int) -> timedelta:
    """How long after its ``attempts``-th failure in a row a deadline is tried again."""
    doublings = min(max(attempts - 1, 0), 16)  # 30 s << 16 is past any cap already
    return min(RETRY_FIRST * (1 << doublings), RETRY_MAX)


def _failed(deadline: Deadline, *, now: datetime) -> None:
    """Count the failure (call while handling it): retry the row later, or park it."""
    attempts = deadline.attempts + 1
    subject = f"table {deadline.table_id}" if deadline.table_id else f"key {deadline.key!r}"
    what = f"deadline {deadline.pk} ({deadline.kind}, {subject})"
    # Only the row as it was claimed: if its subject set it again meanwhile, that stands.
    row = Deadline.objects.filter(
        pk=deadline.pk, due_at=deadline.due_at, attempts=deadline.attempts
    )
    if attempts >= PARK_AFTER:
        if row.update(attempts=attempts, parked_at=now, claimed_until=None):
            log.error("%s failed %s times in a row: parked", what, attempts, exc_info=True)
            _tell_parked(deadline)
            return
    else:
        delay = retry_delay(attempts)
        if row.update(attempts=attempts, due_at=now + delay, claimed_until=None):
            log.warning(
                "%s failed (%s in a row); retrying in %ss",
                what,
                attempts,
                int(delay.total_seconds()),
                exc_info=True,
            )
            return
    log.warning("%s failed; it has been set again since", what, exc_info=True)


def _tell_parked(deadline: Deadline) -> None:
    hook = _parked_hooks.get(deadline.kind)
    if hook is None:
        return
    try:
        hook(deadline)
    except Exception:  # telling is a courtesy: the row is parked anyway
        log.exception("deadline %s: its parked hook failed", deadline.pk)


def unpark(pks: Iterable[int]) -> int:
    """Give these parked rows another try at the worker's next pass (an operator's
    action); returns how many there were."""
    return Deadline.objects.filter(pk__in=list(pks), parked_at__isnull=False).update(
        parked_at=None, attempts=0, claimed_until=None
    )


def run_due(*, now: datetime | None = None, limit: int = 50) -> int:
    """Claim what is due and apply it; returns how many deadlines did something."""
    now = now or timezone.now()
    return sum(apply(d, now=now) for d in claim_due(now=now, limit=limit))
