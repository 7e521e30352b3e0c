"""Delete guests who never sat at a table and have not been seen for a while."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.utils import timezone

from accounts.models import User


class Command(BaseCommand):
    help = "Delete guest users with no seat and no visit in the last --days days (default 30)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--days", type=int, default=30)

    def handle(self, *args: Any, **options: Any) -> None:
        cutoff = timezone.now() - timedelta(days=options["days"])
        stale = User.objects.filter(
            is_guest=True, seats__isnull=True, hosted_tables__isnull=True, last_login__lt=cutoff
        )
        count, _ = stale.delete()
        self.stdout.write(f"deleted {count} stale guests")
