"""``manage.py audit_ledger``: check the coin ledger; exit status 2 on any problem."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from economy.audit import audit_ledger


class Command(BaseCommand):
    help = "Check that the coin ledger balances; prints problems, then a one-line summary."

    def handle(self, *args: Any, **options: Any) -> None:
        report = audit_ledger()
        for problem in report.problems:
            self.stderr.write(problem)
        self.stdout.write(report.summary())  # the last line, whatever happened
        if not report.ok:
            raise SystemExit(2)
