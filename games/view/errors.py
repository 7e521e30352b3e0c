"""Errors a player can read: every refused command says why and changes nothing."""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.engine import IllegalMoveError


class GameError(Exception):
    """A refused command; ``message`` is already in the player's language."""

    def __init__(self, message: str, *, stale: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.stale = stale


def illegal_move_message(error: IllegalMoveError) -> str:
    """The engine's reason, in the player's language."""
    messages = {
        "over": _("This hand is over."),
        "not_in_hand": _("You don't hold that tile."),
        "opening": _("The hand must open with the tile shown."),
        "no_match": _("That tile does not match that end of the line."),
        "not_open": _("The opening tile comes first."),
        "must_play": _("You have a tile that fits: play it."),
        "nothing_to_draw": _("There is nothing to draw: pass."),
        "must_draw": _("Draw from the boneyard until a tile fits."),
    }
    return messages.get(error.code, _("That move is not allowed."))
