"""Delete guests who never kept a seat or a table and have not been seen for a while."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.utils import timezone

from accounts.constants import GUEST_IDLE
from accounts.services import guests_prune


class Command(BaseCommand):
    help = (
        "Delete guest users with no seat, no hosted table and no visit in the last "
        f"--days days (default {GUEST_IDLE.days})."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--days", type=int, default=GUEST_IDLE.days)

    def handle(self, *args: Any, **options: Any) -> None:
        count = guests_prune(now=timezone.now(), idle_for=timedelta(days=options["days"]))
        self.stdout.write(f"deleted {count} stale guests")
