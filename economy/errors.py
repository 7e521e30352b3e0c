"""Errors of the coin economy."""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.view.errors import GameError


class InsufficientCoins(GameError):
    """A wallet is short: nothing was moved.  The message is in the player's language."""

    def __init__(self, *, needed: int, balance: int) -> None:
        super().__init__(
            _("You don't have enough coins: this needs %(needed)s, you have %(balance)s.")
            % {"needed": needed, "balance": balance}
        )
        self.needed = needed
        self.balance = balance


class TransferConflict(ValueError):
    """An idempotency key was used again for a different movement of coins."""
