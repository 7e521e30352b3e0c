"""The deadline row (its table is still named ``games_deadline``: it began in ``games``)."""

from __future__ import annotations

from django.db import models
from django.db.models import Q


class Deadline(models.Model):
    """Something that must happen at a time: a row, so a restart loses nothing.

    The worker (``deadlines.worker``) claims due rows and applies each exactly once
    under its subject's lock: a table's row for table kinds, otherwise the subject
    named by ``key`` (a matchmaking pool, a league week…).  ``kind`` is one an app
    registered (``deadlines.services.kind``).  One whose handler keeps failing is
    retried later and later, then parked (``deadlines.services.apply``).
    """

    kind = models.CharField(max_length=16)
    table = models.ForeignKey(
        "games.Table", on_delete=models.CASCADE, null=True, blank=True, related_name="deadlines"
    )
    key = models.CharField(max_length=64, blank=True)
    due_at = models.DateTimeField()
    version = models.PositiveIntegerField(null=True, blank=True)  # the table's, when scheduled
    claimed_until = models.DateTimeField(null=True, blank=True)  # a worker's lease
    attempts = models.PositiveSmallIntegerField(default=0)  # failures in a row
    # Set when it failed too often: no worker claims it until it is set again.
    parked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "games_deadline"
        constraints = [
            models.UniqueConstraint(
                fields=["kind", "table"],
                condition=Q(table__isnull=False),
                name="games_deadline_once_per_table",
            ),
            models.UniqueConstraint(
                fields=["kind", "key"], condition=~Q(key=""), name="games_deadline_once_per_key"
            ),
            models.CheckConstraint(
                condition=Q(table__isnull=False) | ~Q(key=""), name="games_deadline_has_subject"
            ),
        ]
        indexes = [models.Index(fields=["due_at"], name="games_deadl_due_at_8ae763_idx")]

    def __str__(self) -> str:
        return f"{self.kind} {self.table_id or self.key} at {self.due_at:%H:%M:%S}"


class WorkerBeat(models.Model):
    """When a deadline worker last made a pass: one row, written by whichever worker
    passes (every few seconds at most), read by the readiness probe (``/readyz``)."""

    name = models.CharField(max_length=32, unique=True)
    beat_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.name} at {self.beat_at:%H:%M:%S}"
