"""What other apps may hear from games, inside the transaction that caused it."""

from __future__ import annotations

from django.dispatch import Signal

#: A match has just ended; its ``SeatResult`` rows exist.  Sent with ``table``,
#: inside the ending transaction, so a receiver that pays from the results pays
#: in that same transaction (or not at all).
match_finished = Signal()
