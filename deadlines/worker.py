"""The deadline worker's loop: claim what is due, apply it, wait a tick.

It runs as ``manage.py run_worker`` (one or more processes, for the scale-out
set-up on PostgreSQL + Redis) and, for the embedded default, inside each daphne
process (``deadlines.clock``) so that ``make run`` stays one command.  On SQLite run
one worker at a time: the database has a single writer anyway.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from datetime import datetime, timedelta

from django.db import close_old_connections, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from deadlines.models import Deadline, WorkerBeat
from deadlines.services import handles, kind, run_due, set_deadline, still_due

log = logging.getLogger(__name__)

#: How often a worker writes its heartbeat (``WorkerBeat``), at most.
BEAT_EVERY = timedelta(seconds=5)
_beaten_at: datetime | None = None  # this process's last heartbeat
HOUSEKEEPING = kind("housekeeping", _("housekeeping"))

#: Jobs that come back by themselves: key -> (every, what to run with ``now``).
PERIODIC: dict[str, tuple[timedelta, Callable[[datetime], object]]] = {}


def every(key: str, interval: timedelta) -> Callable[[Callable[[datetime], object]], object]:
    """Register a housekeeping job the worker runs every ``interval``."""

    def register(job: Callable[[datetime], object]) -> Callable[[datetime], object]:
        PERIODIC[key] = (interval, job)
        return job

    return register


def ensure_periodic(now: datetime) -> None:
    """Give every housekeeping job a deadline row if it has none (a first start)."""
    for key in PERIODIC:
        Deadline.objects.get_or_create(kind=HOUSEKEEPING, key=key, defaults={"due_at": now})


@handles(HOUSEKEEPING)
def run_housekeeping(claimed: Deadline, now: datetime) -> bool:
    interval, job = PERIODIC.get(claimed.key, (None, None))
    with transaction.atomic():
        deadline = still_due(claimed)  # the row is the subject: locking it is enough
        if deadline is None:
            return False
        if job is None or interval is None:
            deadline.delete()  # a job that no longer exists
            return False
        job(now)
        set_deadline(HOUSEKEEPING, now + interval, key=claimed.key)
    return True


def beat(now: datetime) -> None:
    """Say this worker is alive (``/readyz`` reads it), every ``BEAT_EVERY`` at most."""
    global _beaten_at
    if _beaten_at is not None and timedelta(0) <= now - _beaten_at < BEAT_EVERY:
        return
    if not WorkerBeat.objects.filter(name="worker").update(beat_at=now):
        WorkerBeat.objects.get_or_create(name="worker", defaults={"beat_at": now})
    _beaten_at = now


def step(now: datetime | None = None) -> int:
    """One pass, with the connection hygiene a long-lived thread needs."""
    close_old_connections()
    try:
        now = now or timezone.now()
        beat(now)
        return run_due(now=now)
    finally:
        close_old_connections()


def run_forever(*, tick: float, stop: threading.Event | None = None) -> None:
    """Until ``stop`` is set: apply what is due, then wait a tick (no wait while busy)."""
    stop = stop or threading.Event()
    close_old_connections()
    ensure_periodic(timezone.now())
    while not stop.is_set():
        try:
            done = step()
        except Exception:
            log.exception("worker pass failed")
            done = 0
        if not done:
            stop.wait(tick)
        else:
            time.sleep(0)
