"""What a finished or cancelled table paid each player, as the paying apps recorded it.

Games knows nothing of coins, XP or the league: the apps that pay at a match's end
(``games.signals.match_finished``) or refund a cancelled table register here a
function (``@reports``) that reads their own records of one table.  A table's
state reads them once, when the table is over (``games.states``), never during
play; each viewer's view then keeps only that viewer's own lines
(``games.selectors.view_of``): nobody sees another player's earnings.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import NamedTuple

from games.models import Table


class Payout(NamedTuple):
    """One thing a table paid one player."""

    kind: str  # "pot" (won), "refund" (a stake back), "coins", "xp", "league" (points)
    amount: int  # what was paid: coins, XP or league points, as recorded
    booster: int = 0  # of which a booster's or the VIP pass's share (coins, XP)
    halved: bool = False  # league points counted half: the room had simulated players


#: What a reporter returns: (user id, payout) for each thing the table paid.
Report = Callable[[Table], Iterable[tuple[int, Payout]]]
_reporters: list[Report] = []

#: The statuses of a table that is over, whose payouts are read.
OVER = (Table.Status.FINISHED, Table.Status.CANCELLED)


def reports(reporter: Report) -> Report:
    """Register a function that reads what ``table`` paid (its own app's records)."""
    if reporter not in _reporters:
        _reporters.append(reporter)
    return reporter


def payouts_of(table: Table) -> dict[int, tuple[Payout, ...]]:
    """Every player's payouts at ``table``, by user id, in the reporters' order
    (empty while the table is not over)."""
    if table.status not in OVER:
        return {}
    found: dict[int, list[Payout]] = {}
    for reporter in _reporters:
        for user_id, payout in reporter(table):
            found.setdefault(user_id, []).append(payout)
    return {user_id: tuple(payouts) for user_id, payouts in found.items()}
