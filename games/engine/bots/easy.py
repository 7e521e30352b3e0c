"""Level ``easy``: any legal move, at random."""

from __future__ import annotations

from ..moves import Move
from ..view import PlayerView
from .base import Bot, require_turn


class EasyBot(Bot):
    """Picks uniformly among the legal moves, preferring nothing."""

    level = "easy"

    def choose(self, view: PlayerView) -> Move:
        """A uniformly random legal move."""
        require_turn(view)
        return self._rng.choice(view.legal_moves)
