"""What one seat may know (docs/rules.md §5): the only thing bots and clients get."""

from __future__ import annotations

from dataclasses import dataclass

from .moves import Ends, Event, Move
from .rules import Rules
from .scoring import RoundResult
from .tiles import Placed, Tile


@dataclass(frozen=True, slots=True)
class PlayerView:
    """A seat's knowledge of a hand in progress.

    Its own tiles, the line, every seat's tile count, the boneyard's size and
    the public log.  Other hands appear in ``revealed`` only once the hand is
    over.  ``seat`` is None for a spectator, who holds no tiles.

    ``match_scores``: each side's match points before this hand (as
    :attr:`Match.scores <games.engine.match.Match.scores>` counts them), or None
    when the hand is seen outside its match (a set-up position, the coach).
    """

    rules: Rules
    seat: int | None
    hand: tuple[Tile, ...]
    line: tuple[Placed, ...]
    ends: Ends | None
    hand_counts: tuple[int, ...]
    boneyard_count: int
    turn: int
    dealer: int
    log: tuple[Event, ...]
    legal_moves: tuple[Move, ...]
    result: RoundResult | None
    revealed: tuple[tuple[Tile, ...], ...] | None
    match_scores: tuple[int, ...] | None = None

    @property
    def over(self) -> bool:
        """The hand has ended."""
        return self.result is not None

    @property
    def my_turn(self) -> bool:
        """It is this seat's turn to move."""
        return bool(self.legal_moves)
