"""Ratings move in the transaction that ends an online match, and are read back for
its end screen (``games.hooks.seat_notes``)."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from games.hooks.seat_notes import notes
from games.models import Table
from games.signals import match_finished

from .selectors import table_notes
from .services import rate_table

notes(table_notes)  # the end screen's rating changes


@receiver(match_finished, sender=Table, dispatch_uid="ratings_rate_match")
def rate_the_match(sender: type[Table], table: Table, **kwargs: Any) -> None:
    rate_table(table_id=table.pk)
