"""Jobs the deadline worker runs on its own from time to time (``games.worker.every``)."""

from __future__ import annotations

from datetime import datetime, timedelta

from accounts.services import guests_prune
from games.worker import every


@every("guests_prune", timedelta(hours=1))
def prune_unused_guests(now: datetime) -> None:
    """Guests who never sat anywhere and have not come back are deleted."""
    guests_prune(now=now)
