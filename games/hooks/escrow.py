"""Where a stake table's stakes are held: the one door from the tables to the coins.

Games knows nothing of coins: the app that keeps them (``economy``) registers here,
when it starts (``EconomyConfig.ready``), the escrow a stake table's lifecycle
(``games.services.stakes``) pays through.  The lifecycle decides who sits, leaves
and when a table is cancelled; the escrow moves the coins, in the caller's
transaction, after the lifecycle has locked the table.  Paying the pot when a
match ends is the escrow app's own business (``games.signals.match_finished``).

With no escrow registered a stake table refuses to seat anybody (``NoEscrow``): it
never seats a player for free.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from games.models import Table
from games.view.errors import GameError

if TYPE_CHECKING:
    from accounts.models import User


class Escrow(Protocol):
    """What the lifecycle asks of the coins.  Each call may raise ``GameError`` (with a
    message for the player: a short wallet, a guest) and then changes nothing."""

    def stakes(self) -> Sequence[int]:
        """The stakes a table may have, smallest first."""
        ...

    def may_stake(self, user: User) -> None:
        """Raise ``GameError`` saying why ``user`` cannot put coins at stake (a guest)."""
        ...

    def in_play(self, user: User) -> int | None:
        """The table where ``user``'s stake is in play (not yet refunded or paid out), if any."""
        ...

    def stake(self, *, table: Table, seat: int, user: User, amount: int) -> None:
        """Move ``amount`` from ``user``'s coins into the table's pot for ``seat``
        (sitting again where one already sits pays nothing more).  Raises
        ``StakedElsewhere`` when ``user``'s stake is in play at another table: a
        player stakes at one table at a time, and the escrow's own database
        constraint says so even when two sits race."""
        ...

    def refund(self, *, table: Table, seat: int) -> None:
        """Give the seat's stake back, if it holds one."""
        ...

    def refund_all(self, *, table: Table) -> None:
        """Give back every stake still in the table's pot."""
        ...


class StakedElsewhere(GameError):
    """The player's stake is in play at another table (``table_id``)."""

    def __init__(self, table_id: int) -> None:
        super().__init__("stake in play at another table")
        self.table_id = table_id


class NoEscrow(RuntimeError):
    """A stake table was asked to move coins and no app registered an escrow."""


_registered: Escrow | None = None


def register(escrow: Escrow) -> Escrow:
    """Make ``escrow`` the one the stake tables pay through (the last registered wins)."""
    global _registered
    _registered = escrow
    return escrow


def escrow() -> Escrow:
    """The registered escrow; ``NoEscrow`` when there is none (seating a player at a
    stake table without taking the stake would be giving the pot away)."""
    if _registered is None:
        raise NoEscrow("stake tables need an escrow: register one with games.hooks.escrow.register")
    return _registered
