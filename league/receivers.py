"""League points are written in the transaction that ends an online match, and read
back for its end screen (``games.hooks.payouts``)."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from games.hooks.payouts import reports
from games.models import Table
from games.signals import match_finished

from .selectors import table_points
from .services import match_entries

reports(table_points)  # the end screen's league points


@receiver(match_finished, sender=Table, dispatch_uid="league_match_entries")
def league_points(sender: type[Table], table: Table, **kwargs: Any) -> None:
    match_entries(table=table)
