"""What every computer player is: something that picks a move from a seat's view."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import ClassVar

from ..moves import Move, Play
from ..tiles import HIGH, LOW
from ..view import PlayerView


class Bot(ABC):
    """A computer player.  It is given nothing but the :class:`PlayerView` of its seat.

    One bot object may play a whole match (or many): it keeps no state about
    the hand between calls except its random generator.
    """

    #: The level name :func:`~games.engine.bots.make_bot` knows this bot by.
    level: ClassVar[str]

    def __init__(self, *, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    @abstractmethod
    def choose(self, view: PlayerView) -> Move:
        """One of ``view.legal_moves`` (which must not be empty)."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} level={self.level}>"


class WeighingBot(Bot):
    """A bot that weighs its plays.  A move with nothing to weigh — a draw or a
    pass, or a single distinct play — is made at once, without thinking."""

    def choose(self, view: PlayerView) -> Move:
        require_turn(view)
        plays = plays_of(view)
        if not plays:
            return view.legal_moves[0]
        if len(plays) == 1:
            return plays[0]
        return self.pick(view, plays)

    @abstractmethod
    def pick(self, view: PlayerView, plays: list[Play]) -> Play:
        """The best of two or more distinct plays."""


def plays_of(view: PlayerView) -> list[Play]:
    """The legal plays of ``view``, one per distinct outcome.

    Laying a tile on either end gives the same position when both ends show
    the same number (or it is the opening); the left-hand play is kept.
    """
    plays: list[Play] = []
    ends = view.ends
    for move in view.legal_moves:
        if type(move) is not Play:
            continue
        if move.end == "right" and ends is not None and ends[0] == ends[1]:
            continue
        plays.append(move)
    return plays


def require_turn(view: PlayerView) -> None:
    """Refuse a view in which this seat has nothing to choose."""
    if not view.legal_moves:
        raise ValueError("a bot is asked to move only when its seat is to play")


def ends_after(view: PlayerView, play: Play) -> tuple[int, int]:
    """The open numbers once ``play`` is laid."""
    i = play.tile.index
    a, b = HIGH[i], LOW[i]
    if view.ends is None:
        return a, b
    left, right = view.ends
    if play.end == "left":
        return (b if a == left else a), right
    return left, (b if a == right else a)
