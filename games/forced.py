"""A player's forced move: their only legal move (the only tile that fits, a draw, a
pass, the hand's forced opening), played for them after a short pause shown on their
screen, unless they turned it off.  One decision for the site's worker
(``games.services.play``) and the offline game (``games.offline``): Django-free."""

from __future__ import annotations

from games.constants import FORCED_PAUSE_SECONDS, HAND_START_GRACE
from games.engine import Move, Round


def only_move(round_: Round) -> Move | None:
    """The move the seat to act must make, having no other; None when it has a choice,
    or the hand is over."""
    legal = round_.legal_moves()
    return legal[0] if len(legal) == 1 else None


def forced_delay(since_deal: float) -> float:
    """Seconds from now until a forced move is played for its player, the hand having
    been dealt ``since_deal`` seconds ago: the pause, and never within the hand's first
    seconds (the player's screen may not show the hand yet)."""
    return max(FORCED_PAUSE_SECONDS, HAND_START_GRACE - since_deal)
