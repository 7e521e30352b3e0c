"""Jobs the deadline worker runs on its own from time to time (``deadlines.worker.every``)."""

from __future__ import annotations

from datetime import datetime, timedelta

from accounts.services import guests_prune
from deadlines.worker import every
from games.services.play import abandoned_computer_tables_close


@every("guests_prune", timedelta(hours=1))
def prune_unused_guests(now: datetime) -> None:
    """Guests who never sat anywhere and have not come back are deleted."""
    guests_prune(now=now)


@every("abandoned_tables_close", timedelta(minutes=10))
def close_abandoned_tables(now: datetime) -> None:
    """Games against the computer left half-way drop out of "my games"."""
    abandoned_computer_tables_close(now=now)
